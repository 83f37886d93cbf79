// Range: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements, of
// the type of start. Symbolic start/limit work when delta is a known
// non-zero integer; float constants are computed exactly. Small integer
// ranges propagate their values.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace range_detail {

inline std::optional<double> float_scalar(const Value* v) {
  if (!v || !v->initializer || !v->initializer->has_data || v->initializer->float_data.size() != 1) return std::nullopt;
  return v->initializer->float_data[0];
}

}  // namespace range_detail

inline void infer_range(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  for (std::size_t i = 0; i < 3; ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && !(s->rank() == 0 || (s->rank() == 1 && s->dims()[0].is_int(1))))
      return ctx.record_error(n, "input " + std::to_string(i) + " must be a scalar, got " + s->to_string());
  }
  const DataType dtype = dtype_of(n.input(0));
  SymbolicDim len;
  auto start = ctx.symbolic_value(n.input(0));
  auto limit = ctx.symbolic_value(n.input(1));
  auto delta = ctx.symbolic_value(n.input(2));
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 && delta->size() == 1) {
    const SymbolicDim& s = (*start)[0];
    const SymbolicDim& l = (*limit)[0];
    const SymbolicDim& d = (*delta)[0];
    if (d.is_int(0)) return ctx.record_error(n, "delta must not be 0");
    if (d.is_int() && s.is_known() && l.is_known()) {
      const int64_t dv = d.value();
      if (dv > 0) {
        len = dim_max(SymbolicDim(ceil_to_int((l - s).expr(), Expr(dv))), SymbolicDim(0));
      } else if (dv != INT64_MIN) {
        len = dim_max(SymbolicDim(ceil_to_int((s - l).expr(), Expr(-dv))), SymbolicDim(0));
      }
    }
    ctx.set_shape_and_dtype(n.output(0), Shape{len}, dtype);
    if (len.is_int() && len.value() <= static_cast<int64_t>(Context::kMaxSymbolicValueSize) && d.is_int()) {
      std::vector<SymbolicDim> values;
      for (int64_t i = 0; i < len.value(); ++i) {
        int64_t offset = 0;
        if (!checked::mul(i, d.value(), offset)) return;
        values.push_back(s + SymbolicDim(offset));
      }
      ctx.set_symbolic_value(n.output(0), std::move(values));
    }
    return;
  }
  auto fs = range_detail::float_scalar(n.input(0));
  auto fl = range_detail::float_scalar(n.input(1));
  auto fd = range_detail::float_scalar(n.input(2));
  if (fs && fl && fd) {
    if (*fd == 0) return ctx.record_error(n, "delta must not be 0");
    const double count = std::ceil((*fl - *fs) / *fd);
    if (std::isfinite(count) && count < 9.0e18) len = static_cast<int64_t>(count > 0 ? count : 0);
  }
  ctx.set_shape_and_dtype(n.output(0), Shape{len}, dtype);
}
SYMSHAPE_RULES(infer_range, ai_onnx("Range", 11, 27));

inline constexpr auto kRangeRules = family_rules<infer_range_rules>("symshape/ops/range.hpp");

}  // namespace symshape::ops
