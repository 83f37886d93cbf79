// Shape-manipulation ops: Shape, Size, Flatten, Squeeze, Unsqueeze, Transpose.
// Shape and Size produce symbolic values (the dims themselves), so that
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape carries exact symbolic
// targets; Squeeze and Unsqueeze keep the element values they move.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::ops {

// ---- Shape ----

enum class ShapeRange { Whole, StartEndAttrs };  // StartEndAttrs: Shape 15's start and end
inline void shape_impl(Context& ctx, Node& n, ShapeRange has_range) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape{SymbolicDim()}, DataType::INT64);
    return;
  }
  const int64_t r = s->rank();
  int64_t start = 0, end = r;
  if (has_range == ShapeRange::StartEndAttrs) {
    start = clamp_index(ctx.attr_int(n, "start", 0), r);
    end = clamp_index(ctx.attr_int(n, "end", r), r);
  }
  Dims values;
  if (end > start) values.reserve(static_cast<std::size_t>(end - start));
  for (int64_t i = start; i < end; ++i) values.push_back((*s)[static_cast<std::size_t>(i)]);
  ctx.set_shape_and_dtype(n.output(0), Shape{SymbolicDim(static_cast<int64_t>(values.size()))}, DataType::INT64);
  ctx.set_symbolic_value(n.output(0), std::move(values));
}
inline void infer_shape_v1(Context& ctx, Node& n) { shape_impl(ctx, n, ShapeRange::Whole); }
SYMSHAPE_RULES(infer_shape_v1, ai_onnx("Shape", 1, 13).cost(count_none));
inline void infer_shape_v15(Context& ctx, Node& n) { shape_impl(ctx, n, ShapeRange::StartEndAttrs); }
SYMSHAPE_RULES(infer_shape_v15, ai_onnx("Shape", 15, 19, 21, 23, 24, 25).cost(count_none));

// ---- Size ----

inline void infer_size(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), DataType::INT64);
  if (const Shape* s = shape_of(n.input(0))) {
    SymbolicDim p = product(s->dims());
    ctx.set_symbolic_value(n.output(0), {p});
  }
}
SYMSHAPE_RULES(infer_size, ai_onnx("Size", 1, 13, 19, 21, 23, 24, 25).cost(count_none));

// ---- Flatten ----

inline void infer_flatten(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, Shape::of_rank(2));
    return;
  }
  const int64_t r = s->rank();
  int64_t axis = ctx.attr_int(n, "axis", 1);
  if (axis < -r || axis > r) return ctx.record_error(n, {"axis ", axis, " is out of range [", -r, ", ", r, "]"});
  if (axis < 0) axis += r;
  const auto a = static_cast<std::size_t>(axis);
  set_like_input(ctx, n, 0, Shape{product(s->dims(), 0, a), product(s->dims(), a)});
  copy_value(ctx, n);
}
SYMSHAPE_RULES(infer_flatten, ai_onnx("Flatten", 1, 9, 11, 13, 21, 23, 24, 25).cost(count_none));

// ---- Squeeze ----

namespace shape_ops_detail {

// Squeeze without axes: dims equal to 1 go; symbolic dims are kept (assumed
// not 1, as the ONNX reference does).
inline Shape squeeze_ones(const Shape& s) {
  Dims out;
  for (const auto& d : s.dims())
    if (!d.is_int(1)) out.push_back(d);
  return Shape(std::move(out));
}

// Squeeze of `length` axes whose values are unknown (length nullopt: not even
// how many): only dims that may be 1 can go, so the dims that every choice of
// `length` of them leaves in place are known ([1,3,4,5] -> [3,4,5]).
inline Shape squeeze_unknown_axes(const Shape& s, std::optional<int64_t> length) {
  const int64_t r = s.rank();
  if (!length || *length > r) return Shape();
  std::vector<bool> may_be_one(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) may_be_one[i] = !(s[i].is_int() && !s[i].is_int(1));
  auto common = common_over_choices(may_be_one, static_cast<std::size_t>(*length), [&](const std::vector<bool>& c) {
    Dims out;
    for (std::size_t i = 0; i < c.size(); ++i)
      if (!c[i]) out.push_back(s[i]);
    return out;
  });
  return Shape(common ? std::move(*common) : Dims(static_cast<std::size_t>(r - *length)));
}

// Squeeze of known axes; nullopt after the error when one of them is not 1.
inline std::optional<Shape> squeeze_axes(Context& ctx, const Node& n, const Shape& s, std::vector<int64_t> axes) {
  auto norm = unique_axes(ctx, n, std::move(axes), s.rank());
  if (!norm) return std::nullopt;
  std::vector<bool> drop(s.size(), false);
  for (int64_t a : *norm) {
    const SymbolicDim& d = s[static_cast<std::size_t>(a)];
    if (d.is_int() && d.value() != 1) {
      ctx.record_error(n, {"cannot squeeze axis ", a, " of size ", d, " in ", s});
      return std::nullopt;
    }
    drop[static_cast<std::size_t>(a)] = true;
  }
  Dims out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!drop[i]) out.push_back(s[i]);
  return Shape(std::move(out));
}

}  // namespace shape_ops_detail

// Squeeze keeps the element values (the order does not change).
inline void squeeze_impl(Context& ctx, Node& n, const IntsArg& axes) {
  const Shape* s = shape_of(n.input(0));
  Shape out;
  if (!s) {
    out = Shape();
  } else if (!axes.given || (axes.values && axes.values->empty())) {
    out = shape_ops_detail::squeeze_ones(*s);
  } else if (!axes.values) {
    out = shape_ops_detail::squeeze_unknown_axes(*s, axes.length);
  } else {
    auto squeezed = shape_ops_detail::squeeze_axes(ctx, n, *s, *axes.values);
    if (!squeezed) return;
    out = std::move(*squeezed);
  }
  set_like_input(ctx, n, 0, std::move(out));
  copy_value(ctx, n);
}
inline void infer_squeeze_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  squeeze_impl(ctx, n, ints_arg(ctx, n, IntsFrom::Attribute, "axes", 1));
}
SYMSHAPE_RULES(infer_squeeze_v1, ai_onnx("Squeeze", 1, 11).cost(count_none));
inline void infer_squeeze_v13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  squeeze_impl(ctx, n, ints_arg(ctx, n, IntsFrom::Input, "axes", 1));
}
SYMSHAPE_RULES(infer_squeeze_v13, ai_onnx("Squeeze", 13, 21, 23, 24, 25).cost(count_none));

// ---- Unsqueeze ----

namespace shape_ops_detail {

// The dims of `s` with a 1 inserted at each position where `one` is true.
inline Dims with_ones(const Shape& s, const std::vector<bool>& one) {
  Dims out;
  out.reserve(one.size());
  std::size_t next = 0;
  for (bool b : one) out.push_back(b ? SymbolicDim(1) : s[next++]);
  return out;
}

// Unsqueeze of `length` axes whose values are unknown (length nullopt: not
// even how many): the dims that every placement of the new 1s gives are known.
// An axes input declared longer than kMaxRankFromLength gives an unknown rank:
// one of 2^30 elements made the rule allocate 8 GB (found by fuzz_engine).
inline Shape unsqueeze_unknown_axes(const Shape& s, std::optional<int64_t> length) {
  int64_t out_rank = 0;
  if (!length || *length < 0 || !checked::add(s.rank(), *length, out_rank) || out_rank > kMaxRankFromLength)
    return Shape();
  const auto size = static_cast<std::size_t>(out_rank);
  auto common = common_over_choices(std::vector<bool>(size, true), static_cast<std::size_t>(*length),
                                    [&](const std::vector<bool>& c) { return with_ones(s, c); });
  return Shape(common ? std::move(*common) : Dims(size));
}

}  // namespace shape_ops_detail

// Unsqueeze keeps the element values (the order does not change).
inline void unsqueeze_impl(Context& ctx, Node& n, const IntsArg& axes) {
  if (!axes.given) return ctx.usage_error(n, "missing required axes");
  const Shape* s = shape_of(n.input(0));
  Shape out;
  if (s && !axes.values) {
    out = shape_ops_detail::unsqueeze_unknown_axes(*s, axes.length);
  } else if (s) {
    const int64_t out_rank = s->rank() + static_cast<int64_t>(axes.values->size());
    auto norm = unique_axes(ctx, n, *axes.values, out_rank);
    if (!norm) return;
    std::vector<bool> inserted(static_cast<std::size_t>(out_rank), false);
    for (int64_t a : *norm) inserted[static_cast<std::size_t>(a)] = true;
    out = shape_ops_detail::with_ones(*s, inserted);
  }
  set_like_input(ctx, n, 0, std::move(out));
  copy_value(ctx, n);
}

inline void infer_unsqueeze_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  unsqueeze_impl(ctx, n, ints_arg(ctx, n, IntsFrom::Attribute, "axes", 1));
}
SYMSHAPE_RULES(infer_unsqueeze_v1, ai_onnx("Unsqueeze", 1, 11).cost(count_none));
inline void infer_unsqueeze_v13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  unsqueeze_impl(ctx, n, ints_arg(ctx, n, IntsFrom::Input, "axes", 1));
}
SYMSHAPE_RULES(infer_unsqueeze_v13, ai_onnx("Unsqueeze", 13, 21, 23, 24, 25).cost(count_none));

// ---- Transpose ----

// Values of a transposed value: output element at multi-index j is the
// input's at i with i[perm[k]] = j[k].
inline void transpose_values(Context& ctx, Node& n, const std::vector<int64_t>& perm) {
  auto v = ctx.symbolic_value(n.input(0));
  if (!v) return;
  auto dims = value_dims(n.input(0), v->size());
  if (!dims) return;
  std::vector<int64_t> out_dims;
  for (int64_t a : perm) out_dims.push_back((*dims)[static_cast<std::size_t>(a)]);
  const auto strides = row_major_strides(*dims);
  Dims values;
  for (std::size_t f = 0; f < v->size(); ++f) {
    const auto j = unflatten(f, out_dims);
    std::size_t flat = 0;
    for (std::size_t k = 0; k < perm.size(); ++k) flat += static_cast<std::size_t>(j[k]) * strides[perm[k]];
    values.push_back((*v)[flat]);
  }
  ctx.set_symbolic_value(n.output(0), std::move(values));
}

inline void infer_transpose(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  auto perm = ctx.attr_ints(n, "perm");
  const Attribute* given = n.attr("perm");
  if (!perm && given && given->kind != Attribute::Kind::Undefined) return;  // not INTS: usage error (engine)
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, perm ? Shape::of_rank(perm->size()) : Shape());
    return;
  }
  const int64_t r = s->rank();
  std::vector<int64_t> p;
  if (perm) {
    p = *perm;
  } else {
    p.reserve(static_cast<std::size_t>(r));
    for (int64_t i = r - 1; i >= 0; --i) p.push_back(i);
  }
  if (static_cast<int64_t>(p.size()) != r)
    return ctx.record_error(n, {"perm has ", p.size(), " entries for input of rank ", r});
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  Dims out;
  out.reserve(p.size());
  for (int64_t a : p) {
    if (a < 0 || a >= r || seen[static_cast<std::size_t>(a)])
      return ctx.record_error(n, {"perm is not a permutation of 0..", r - 1});
    seen[static_cast<std::size_t>(a)] = true;
    out.push_back((*s)[static_cast<std::size_t>(a)]);
  }
  set_like_input(ctx, n, 0, Shape(std::move(out)));
  transpose_values(ctx, n, p);
}
SYMSHAPE_RULES(infer_transpose, ai_onnx("Transpose", 1, 13, 21, 23, 24, 25).cost(count_none));

inline constexpr auto kShapeOpsRules =
    family_rules<infer_shape_v1_rules, infer_shape_v15_rules, infer_size_rules, infer_flatten_rules,
                 infer_squeeze_v1_rules, infer_squeeze_v13_rules, infer_unsqueeze_v1_rules, infer_unsqueeze_v13_rules,
                 infer_transpose_rules>("symshape/ops/shape_ops.hpp");

}  // namespace symshape::ops
