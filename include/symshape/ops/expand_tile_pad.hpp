// Expand (broadcast to a constant or symbolic target), Tile (dims times
// repeats) and Pad (dims plus begin and end pads; pads as attribute < 11,
// input >= 11, optional axes input >= 18).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/pad_shape.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// ---- Expand ----

namespace expand_tile_pad_detail {

// The integer dims of `s`, or nullopt.
inline std::optional<std::vector<int64_t>> int_dims(const Shape& s) {
  std::vector<int64_t> out;
  for (const auto& d : s.dims()) {
    if (!d.is_int()) return std::nullopt;
    out.push_back(d.value());
  }
  return out;
}

// Values of an Expand to the integer shape `out` (numpy broadcasting).
inline void expand_values(Context& ctx, Node& n, const Shape& out) {
  auto r = ctx.rational_value(n.input(0));  // whole numbers or fractions
  auto od = int_dims(out);
  if (!r || !od) return;
  const Dims* v = &r->num;
  auto in = value_dims(n.input(0), v->size());
  if (!in) return;
  auto idx = broadcast_indices({*in, *od});
  if (!idx) return;
  Dims values;
  for (const auto& k : *idx) values.push_back((*v)[k[0]]);
  ctx.set_rational_value(n.output(0), {std::move(values), r->den});
}

// Values of a Tile to the integer shape `out`: element j is the input's at
// j modulo each input dim.
inline void tile_values(Context& ctx, Node& n, const Shape& out) {
  auto r = ctx.rational_value(n.input(0));  // whole numbers or fractions
  auto od = int_dims(out);
  if (!r || !od) return;
  const Dims* v = &r->num;
  auto in = value_dims(n.input(0), v->size());
  if (!in || in->size() != od->size()) return;
  int64_t count = 1;
  for (int64_t d : *od)
    if (d < 0 || !checked::mul(count, d, count)) return;
  if (count > static_cast<int64_t>(Context::kMaxSymbolicValueSize)) return;
  const auto total = static_cast<std::size_t>(count);
  const auto strides = row_major_strides(*in);
  Dims values;
  for (std::size_t f = 0; f < total; ++f) {
    const auto j = unflatten(f, *od);
    std::size_t flat = 0;
    for (std::size_t k = 0; k < j.size(); ++k) flat += static_cast<std::size_t>(j[k] % (*in)[k]) * strides[k];
    values.push_back((*v)[flat]);
  }
  ctx.set_rational_value(n.output(0), {std::move(values), r->den});
}

}  // namespace expand_tile_pad_detail

inline void infer_expand(Context& ctx, Node& n) {
  const auto [input, shape] = ctx.inputs(n, "input", "shape");
  if (!input) return;
  const Shape* ss = shape_of(shape);
  if (ss && ss->rank() != 1) return ctx.record_error(n, {"shape input must be 1-D, got ", *ss});
  const Shape* in = shape_of(input);
  auto target = ctx.symbolic_value(shape);
  if (target && !check_no_negative_dim(ctx, n, *target, "target shape has a negative dim ")) return;
  Shape tt = target ? Shape(std::move(*target)) : shape_of_length(shape);
  if (!in || !tt.has_rank()) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  // Unknown target dims: a 1 in the input takes the target's; another input
  // dim stays (the target dim must be 1 or equal).
  for (std::size_t i = 0; i < tt.size(); ++i) {
    if (!tt[i].is_unknown()) continue;
    const std::size_t rank = std::max(tt.size(), in->size());
    const std::size_t pos = i + rank - tt.size();
    if (pos + in->size() >= rank) {
      const SymbolicDim& x = (*in)[pos + in->size() - rank];
      if (x.is_known() && !x.is_int(1)) tt[i] = x;
    }
  }
  auto b = broadcast_shapes(ctx, n, *in, tt);
  if (!b) return;
  set_like_input(ctx, n, 0, *b);
  expand_tile_pad_detail::expand_values(ctx, n, *b);
  // The same elements, repeated: too many to list, they keep their bounds.
  if (!n.output(0)->symbolic_value && is_integer_type(dtype_of(input)))
    if (auto bounds = value_bounds(ctx, input)) ctx.set_element_bounds(n.output(0), bounds->lo, bounds->hi);
}
SYMSHAPE_RULES(infer_expand, ai_onnx("Expand", 8, 13).cost(count_none));

// ---- Tile ----

// Opset 1: inputs (input, tiles, axis), both scalars.
inline void infer_tile_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  const Shape* in = shape_of(n.input(0));
  if (!in) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  Shape out = *in;
  auto tiles = ctx.symbolic_value(n.input(1));
  auto axis = ctx.int_values(n.input(2));
  if (!axis || axis->size() != 1) {
    set_like_input(ctx, n, 0, Shape::of_rank(in->size()));
    return;
  }
  auto a = normalize_axis(ctx, n, (*axis)[0], in->rank());
  if (!a) return;
  out[static_cast<std::size_t>(*a)] =
      tiles && tiles->size() == 1 ? out[static_cast<std::size_t>(*a)] * (*tiles)[0] : SymbolicDim();
  set_like_input(ctx, n, 0, out);
}
SYMSHAPE_RULES(infer_tile_v1, ai_onnx("Tile", 1).cost(count_none));

inline void infer_tile_v6(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* in = shape_of(n.input(0));
  const Shape* rs = shape_of(n.input(1));
  if (rs && rs->rank() != 1) return ctx.record_error(n, {"repeats must be 1-D, got ", *rs});
  if (!in) {
    set_like_input(ctx, n, 0, shape_of_length(n.input(1)));
    return;
  }
  auto repeats = ctx.symbolic_value(n.input(1));
  if (!repeats) {
    set_like_input(ctx, n, 0, Shape::of_rank(in->size()));
    return;
  }
  if (repeats->size() != in->size())
    return ctx.record_error(n, {"repeats has ", repeats->size(), " entries for input ", *in});
  Dims out;
  for (std::size_t i = 0; i < in->size(); ++i) {
    if ((*repeats)[i].is_int() && (*repeats)[i].value() < 0)
      return ctx.record_error(n, {"repeats has a negative entry ", (*repeats)[i]});
    out.push_back((*in)[i] * (*repeats)[i]);
  }
  set_like_input(ctx, n, 0, Shape(out));
  expand_tile_pad_detail::tile_values(ctx, n, Shape(std::move(out)));
}
SYMSHAPE_RULES(infer_tile_v6, ai_onnx("Tile", 6, 13).cost(count_none));

// ---- Pad ----

namespace expand_tile_pad_detail {

// Pad 1 and 2: the pads in the attribute `name` (required).
inline void pad_with_attribute(Context& ctx, Node& n, const char* name) {
  if (!check_inputs(ctx, n, 1)) return;
  auto p = ctx.attr_ints(n, name);
  if (!p) return ctx.usage_error(n, "missing required pads");
  pad_shape(ctx, n, Dims(p->begin(), p->end()), {});
}

}  // namespace expand_tile_pad_detail

inline void infer_pad_v1(Context& ctx, Node& n) { expand_tile_pad_detail::pad_with_attribute(ctx, n, "paddings"); }
SYMSHAPE_RULES(infer_pad_v1, ai_onnx("Pad", 1).cost(count_none));
inline void infer_pad_v2(Context& ctx, Node& n) { expand_tile_pad_detail::pad_with_attribute(ctx, n, "pads"); }
SYMSHAPE_RULES(infer_pad_v2, ai_onnx("Pad", 2).cost(count_none));
// Pad 11+: pads (and, from 18, axes) as inputs.
inline void infer_pad_v11(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  pad_shape(ctx, n, ctx.symbolic_value(n.input(1)), {});
}
SYMSHAPE_RULES(infer_pad_v11, ai_onnx("Pad", 11, 13).cost(count_none));
inline void infer_pad_v18(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  pad_shape(ctx, n, ctx.symbolic_value(n.input(1)), ints_arg(ctx, n, IntsFrom::Input, "axes", 3));
}
SYMSHAPE_RULES(infer_pad_v18, ai_onnx("Pad", 18, 19, 21, 23, 24, 25).cost(count_none));

inline constexpr auto kExpandTilePadRules =
    family_rules<infer_expand_rules, infer_tile_v1_rules, infer_tile_v6_rules, infer_pad_v1_rules, infer_pad_v2_rules,
                 infer_pad_v11_rules, infer_pad_v18_rules>("symshape/ops/expand_tile_pad.hpp");

}  // namespace symshape::ops
