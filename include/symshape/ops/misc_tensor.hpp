// Other tensor ops: Where (3-way broadcast, values propagate), NonZero,
// OneHot, TopK, Trilu, CumSum, DepthToSpace, SpaceToDepth, ReverseSequence,
// Compress and Unique.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// ---- Where ----

namespace misc_tensor_detail {

// Values of a Where of any rank (numpy broadcasting): picked elementwise;
// where the condition is not known the element is unknown, unless both
// choices are the same.
inline void where_values(Context& ctx, Node& n) {
  auto c = ctx.symbolic_value(n.input(0));
  auto x = ctx.symbolic_value(n.input(1));
  auto y = ctx.symbolic_value(n.input(2));
  if (!c || !x || !y) return;
  auto idx = broadcast_indices({n.input(0), n.input(1), n.input(2)}, {c->size(), x->size(), y->size()});
  if (!idx) return;
  Dims out;
  for (const auto& k : *idx) {
    const SymbolicDim& cond = (*c)[k[0]];
    const SymbolicDim& a = (*x)[k[1]];
    const SymbolicDim& b = (*y)[k[2]];
    if (cond.is_int())
      out.push_back(cond.value() != 0 ? a : b);
    else
      out.push_back(a.is_known() && a == b ? a : SymbolicDim());
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

}  // namespace misc_tensor_detail

inline void infer_where(Context& ctx, Node& n) {
  const auto [condition, x, y] = ctx.inputs(n, "condition", "X", "Y");
  if (!condition) return;
  Shape shape;
  if (shape_of(condition) && shape_of(x) && shape_of(y)) {
    auto b = broadcast_shapes(ctx, n, *shape_of(condition), *shape_of(x));
    if (!b) return;
    b = broadcast_shapes(ctx, n, *b, *shape_of(y));
    if (!b) return;
    shape = *b;
  }
  ctx.set_shape_and_dtype(n.output(0), shape, dtype_of(x));
  misc_tensor_detail::where_values(ctx, n);
}
SYMSHAPE_RULES(infer_where, ai_onnx("Where", 9, 16).cost(count_elementwise));

// ---- NonZero ----

inline void infer_non_zero(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), Shape{s ? SymbolicDim(s->rank()) : SymbolicDim(), SymbolicDim()},
                          DataType::INT64);
}
SYMSHAPE_RULES(infer_non_zero, ai_onnx("NonZero", 9, 13).cost(count_none));

// ---- OneHot ----

inline void infer_one_hot(Context& ctx, Node& n) {
  const auto [indices, depth_input, values] = ctx.inputs(n, "indices", "depth", "values");
  if (!indices) return;
  const Shape* idx = shape_of(indices);
  const Shape* ds = shape_of(depth_input);
  const Shape* vs = shape_of(values);
  if (ds && !is_scalar_like(*ds))
    return ctx.record_error(n, {"depth must be a scalar or a 1-element tensor, got ", *ds});
  if (vs && !(vs->rank() == 1 && !(vs->dims()[0].is_int() && !vs->dims()[0].is_int(2))))
    return ctx.record_error(n, {"values must be a 2-element 1-D tensor, got ", *vs});
  const DataType dtype = dtype_of(values);
  if (!idx) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), idx->rank() + 1);
  if (!axis) return;
  SymbolicDim depth;
  if (auto d = ctx.symbolic_value(depth_input); d && d->size() == 1) {
    depth = (*d)[0];
  } else if (depth_input->initializer && depth_input->initializer->float_data.size() == 1) {
    const double f = depth_input->initializer->float_data[0];
    if (f >= 0 && f < 9.0e18) depth = static_cast<int64_t>(f);
  }
  if (depth.is_int() && depth.value() < 0) return ctx.record_error(n, "depth must not be negative");
  std::vector<SymbolicDim> out = idx->dims();
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*axis), depth);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_one_hot, ai_onnx("OneHot", 9, 11).cost(count_none));

// ---- TopK ----

inline void topk_impl(Context& ctx, Node& n, SymbolicDim k) {
  const Shape* s = shape_of(n.input(0));
  const DataType dtype = dtype_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    ctx.set_shape_and_dtype(n.output(1), Shape(), DataType::INT64);
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), s->rank());
  if (!axis) return;
  const SymbolicDim& d = (*s)[static_cast<std::size_t>(*axis)];
  if (k.is_int() && (k.value() < 0 || (d.is_int() && k.value() > d.value())))
    return ctx.record_error(n, {"k = ", k, " is out of range for axis dim ", d});
  Shape out = *s;
  // A k known only at run time: one fresh dim, as values and indices have the same length.
  out[static_cast<std::size_t>(*axis)] = k.is_unknown() ? ctx.new_symbolic_dim() : k;
  ctx.set_shape_and_dtype(n.output(0), out, dtype);
  ctx.set_shape_and_dtype(n.output(1), out, DataType::INT64);
}
inline void infer_topk_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* k = require_attr(ctx, n, "k", Attribute::Kind::Int);
  if (!k) return;
  topk_impl(ctx, n, k->i);
}
SYMSHAPE_RULES(infer_topk_v1, ai_onnx("TopK", 1));
inline void infer_topk_v10(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* ks = shape_of(n.input(1));
  if (ks && (ks->rank() > 1 || (ks->rank() == 1 && ks->dims()[0].is_int() && !ks->dims()[0].is_int(1))))
    return ctx.record_error(n, {"K must be a 1-element 1-D tensor, got ", *ks});
  auto k = ctx.symbolic_value(n.input(1));
  topk_impl(ctx, n, k && k->size() == 1 ? (*k)[0] : SymbolicDim());
}
SYMSHAPE_RULES(infer_topk_v10, ai_onnx("TopK", 10, 11, 24));

// ---- Passthrough ops with checks: Trilu, CumSum, ReverseSequence ----

inline void infer_trilu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2, got ", *s});
  propagate_type(ctx, n, 0, 0);
}
SYMSHAPE_RULES(infer_trilu, ai_onnx("Trilu", 14).cost(count_none));

inline void infer_cumsum(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* s = shape_of(n.input(0));
  if (auto axis = ctx.int_values(n.input(1)); s && axis && axis->size() == 1)
    if (!normalize_axis(ctx, n, (*axis)[0], s->rank())) return;
  propagate_type(ctx, n, 0, 0);
}
SYMSHAPE_RULES(infer_cumsum, ai_onnx("CumSum", 11, 14).cost(count_per_input), ai_onnx("CumProd", 26));

inline void infer_reverse_sequence(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2, got ", *s});
  const int64_t batch_axis = ctx.attr_int(n, "batch_axis", 1), time_axis = ctx.attr_int(n, "time_axis", 0);
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) || batch_axis == time_axis)
    return ctx.record_error(n, "batch_axis and time_axis must be 0 and 1 in some order");
  propagate_type(ctx, n, 0, 0);
}
SYMSHAPE_RULES(infer_reverse_sequence, ai_onnx("ReverseSequence", 10).cost(count_none));

// ---- DepthToSpace / SpaceToDepth ----

enum class BlockMove { DepthToSpace, SpaceToDepth };
inline void space_depth_impl(Context& ctx, Node& n, BlockMove move) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* bs = require_attr(ctx, n, "blocksize", Attribute::Kind::Int);
  if (!bs) return;
  const int64_t b = bs->i;
  if (b <= 0 || b > 0x7fffffff) return ctx.record_error(n, "blocksize must be positive");
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, Shape::of_rank(4));
    return;
  }
  if (s->rank() != 4) return ctx.record_error(n, {"input must be 4-D, got ", *s});
  const SymbolicDim bb(b), b2(b * b);
  const Shape& x = *s;
  Shape out;
  if (move == BlockMove::DepthToSpace) {
    if (x[1].is_int() && x[1].value() % (b * b) != 0)
      return ctx.record_error(n, {"channels ", x[1], " are not divisible by blocksize^2 = ", b2});
    out = Shape{x[0], x[1] / b2, x[2] * bb, x[3] * bb};
  } else {
    for (std::size_t i = 2; i < 4; ++i)
      if (x[i].is_int() && x[i].value() % b != 0)
        return ctx.record_error(n, {"dim ", x[i], " is not divisible by blocksize ", bb});
    out = Shape{x[0], x[1] * b2, x[2] / bb, x[3] / bb};
  }
  set_like_input(ctx, n, 0, out);
}
inline void infer_depth_to_space(Context& ctx, Node& n) { space_depth_impl(ctx, n, BlockMove::DepthToSpace); }
SYMSHAPE_RULES(infer_depth_to_space, ai_onnx("DepthToSpace", 1, 11, 13).cost(count_none));
inline void infer_space_to_depth(Context& ctx, Node& n) { space_depth_impl(ctx, n, BlockMove::SpaceToDepth); }
SYMSHAPE_RULES(infer_space_to_depth, ai_onnx("SpaceToDepth", 1, 13).cost(count_none));

// ---- Compress ----

inline void infer_compress(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* s = shape_of(n.input(0));
  const Shape* cs = shape_of(n.input(1));
  if (cs && cs->rank() != 1) return ctx.record_error(n, {"condition must be 1-D, got ", *cs});
  // The number of selected slices, when the condition is known.
  SymbolicDim count;
  if (auto c = ctx.int_values(n.input(1))) {
    int64_t k = 0;
    for (int64_t v : *c) k += v != 0;
    count = k;
  }
  const Attribute* axis = n.attr("axis");
  if (!axis) {
    set_like_input(ctx, n, 0, Shape{count});
    return;
  }
  if (!s) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  auto a = normalize_axis(ctx, n, axis->i, s->rank());
  if (!a) return;
  Shape out = *s;
  out[static_cast<std::size_t>(*a)] = count;
  set_like_input(ctx, n, 0, out);
}
SYMSHAPE_RULES(infer_compress, ai_onnx("Compress", 9, 11).cost(count_none));

// ---- Unique ----

// Outputs: Y, indices, inverse_indices, counts. The number of unique
// elements is one fresh dim shared by Y (along axis), indices and counts.
inline void infer_unique(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  const Attribute* axis = n.attr("axis");
  const SymbolicDim u = ctx.new_symbolic_dim();
  Shape y;
  SymbolicDim inverse_len;
  if (!axis) {
    y = Shape{u};
    if (s) inverse_len = product(s->dims());
  } else if (s) {
    auto a = normalize_axis(ctx, n, axis->i, s->rank());
    if (!a) return;
    y = *s;
    y[static_cast<std::size_t>(*a)] = u;
    inverse_len = (*s)[static_cast<std::size_t>(*a)];
  }
  set_like_input(ctx, n, 0, y);
  ctx.set_shape_and_dtype(n.output(1), Shape{u}, DataType::INT64);
  ctx.set_shape_and_dtype(n.output(2), Shape{inverse_len}, DataType::INT64);
  ctx.set_shape_and_dtype(n.output(3), Shape{u}, DataType::INT64);
}
SYMSHAPE_RULES(infer_unique, ai_onnx("Unique", 11));

inline constexpr auto kMiscTensorRules =
    family_rules<infer_where_rules, infer_non_zero_rules, infer_one_hot_rules, infer_topk_v1_rules,
                 infer_topk_v10_rules, infer_trilu_rules, infer_cumsum_rules, infer_reverse_sequence_rules,
                 infer_depth_to_space_rules, infer_space_to_depth_rules, infer_compress_rules, infer_unique_rules>(
        "symshape/ops/misc_tensor.hpp");

}  // namespace symshape::ops
