// Shape rules for the custom domain "com.example". Including this header
// registers them: the registrar is an inline variable, so the header can be
// included by any number of translation units and the rule is added once,
// before main() runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "symshape/symshape.hpp"

namespace example {

// com.example::Repeat(x; repeats, axis): x repeated `repeats` times along
// `axis`, so that dim becomes repeats * dim and the others stay.
inline void infer_repeat(symshape::Context& ctx, symshape::Node& n) {
  using namespace symshape;
  if (!check_inputs(ctx, n, 1, 1)) return;  // usage error: malformed node
  const Attribute* repeats = require_attr(ctx, n, "repeats");
  if (!repeats) return;
  if (repeats->i < 1) {
    ctx.record_error(n, "repeats must be >= 1, got " + std::to_string(repeats->i));
    return;
  }
  const Value* x = n.input(0);
  const Shape* s = shape_of(x);
  if (!s) {  // unknown rank: only the element type is known
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(x));
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), s->rank());
  if (!axis) return;  // semantic error already recorded
  std::vector<SymbolicDim> dims = s->dims();
  dims[static_cast<std::size_t>(*axis)] = dims[static_cast<std::size_t>(*axis)] * repeats->i;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(dims)), dtype_of(x));
}

// Adds this header's rules (version 1 of com.example::Repeat) to a user table.
// [add rules]
inline void add_rules(symshape::UserRules& rules) { rules.add("com.example", "Repeat", 1, &infer_repeat); }
// [add rules]

}  // namespace example
