// Shape-manipulation ops: Shape, Size, Flatten, Squeeze, Unsqueeze, Transpose.
// Shape and Size produce symbolic values (the dims themselves), so that
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape carries exact symbolic
// targets; Squeeze and Unsqueeze keep the element values they move.
// Also holds the helpers shared by the tensor op families (tensor_detail).
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

namespace symshape::ops {

namespace tensor_detail {

using Dims = std::vector<SymbolicDim>;

// Number of elements of a scalar or 1-D input whose length is a known
// integer (e.g. axes whose values are unknown), else nullopt.
inline std::optional<int64_t> static_length(const Value* v) {
  const Shape* s = shape_of(v);
  if (!s) return std::nullopt;
  if (s->rank() == 0) return 1;
  if (s->rank() == 1 && (*s)[0].is_int()) return (*s)[0].value();
  return std::nullopt;
}

// Normalised axes, with a semantic error on out-of-range or repeated axes.
inline std::optional<std::vector<int64_t>> unique_axes(Context& ctx, const Node& n, std::vector<int64_t> axes,
                                                       int64_t rank) {
  auto a = normalize_axes(ctx, n, std::move(axes), rank);
  if (!a) return std::nullopt;
  std::vector<int64_t> sorted = *a;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    ctx.record_error(n, "axes contain a repeated axis");
    return std::nullopt;
  }
  return a;
}

// A list of integers: from an attribute (when `from_input` is false) or from
// the known value of input `index`. `given` tells whether the attribute or the
// input is present at all; `values` is empty when present but not known.
struct IntsArg {
  bool given = false;
  std::optional<std::vector<int64_t>> values;
  std::optional<int64_t> length;  // known length even when the values are not
};

inline IntsArg ints_arg(const Context& ctx, const Node& n, bool from_input, const char* attr_name,
                        std::size_t index) {
  IntsArg r;
  if (!from_input) {
    if (const Attribute* a = n.attr(attr_name)) {
      r.given = true;
      if (a->kind == Attribute::Kind::Ints) r.values = std::vector<int64_t>(a->ints.begin(), a->ints.end());
      else if (a->kind == Attribute::Kind::Int) r.values = std::vector<int64_t>{a->i};
    }
  } else if (const Value* v = n.input(index)) {
    r.given = true;
    r.values = ctx.int_values(v);
    r.length = static_length(v);
  }
  if (r.values) r.length = static_cast<int64_t>(r.values->size());
  return r;
}

// Index into [0, len] with Python's negative-index convention, clamped.
inline int64_t clamp_index(int64_t v, int64_t len) {
  if (v < 0) v = v < -len ? 0 : v + len;
  return v > len ? len : v;
}

// Output type with the dtype of input `in`.
inline void set_like_input(Context& ctx, Node& n, std::size_t out, Shape shape, std::size_t in = 0) {
  ctx.set_shape_and_dtype(n.output(out), std::move(shape), dtype_of(n.input(in)));
}

// Copies the symbolic value of input `in` to output `out` (element order
// unchanged: Squeeze, Unsqueeze, Reshape, Identity, Flatten).
inline void copy_value(Context& ctx, Node& n, std::size_t out = 0, std::size_t in = 0) {
  if (auto v = ctx.symbolic_value(n.input(in))) ctx.set_symbolic_value(n.output(out), std::move(*v));
}

// Integral floats are tracked as values too (they feed Range and OneHot's
// depth in the expanded window functions, say): a float tensor's symbolic
// value holds its elements when every one is an integer that the element
// type represents exactly. Arithmetic rules propagate integer types only.
inline bool is_float_type(DataType t) {
  return t == DataType::FLOAT || t == DataType::DOUBLE || t == DataType::FLOAT16 || t == DataType::BFLOAT16;
}
// The largest magnitude below which every integer is exact in `t`.
inline int64_t exact_integer_limit(DataType t) {
  switch (t) {
    case DataType::DOUBLE:
      return int64_t{1} << 53;
    case DataType::FLOAT:
      return int64_t{1} << 24;
    case DataType::FLOAT16:
      return int64_t{1} << 11;
    case DataType::BFLOAT16:
      return int64_t{1} << 8;
    default:
      return 0;
  }
}
// Float data as integer values, when every element is an integer exact in `t`.
inline std::optional<Dims> integral_float_values(const std::vector<double>& data, DataType t) {
  const auto limit = static_cast<double>(exact_integer_limit(t));
  if (data.size() > Context::kMaxSymbolicValueSize) return std::nullopt;
  Dims out;
  for (double x : data) {
    if (!(x == std::floor(x)) || !(std::fabs(x) <= limit)) return std::nullopt;
    out.push_back(static_cast<int64_t>(x));
  }
  return out;
}

// Axes whose values are unknown but whose number k is: for every choice of k
// distinct positions among `allowed` (at most 4096 choices), `make(chosen)`
// gives the resulting dims; the result keeps each dim on which every choice
// agrees and leaves the others unknown. nullopt when no choice is possible or
// there are too many.
template <class Make>
std::optional<Dims> common_over_choices(const std::vector<bool>& allowed, std::size_t k, Make make) {
  const std::size_t n = allowed.size();
  if (k > n || n > 24) return std::nullopt;
  std::optional<Dims> common;
  std::size_t count = 0;
  std::vector<bool> chosen(n, false);
  bool too_many = false;
  // Depth-first over the positions, deciding chosen or not.
  auto visit = [&](auto&& self, std::size_t at, std::size_t left) -> void {
    if (too_many) return;
    if (left == 0) {
      if (++count > 4096) {
        too_many = true;
        return;
      }
      Dims d = make(chosen);
      if (!common) {
        common = std::move(d);
      } else if (common->size() != d.size()) {
        too_many = true;  // not expected: every choice gives the same rank
      } else {
        for (std::size_t i = 0; i < d.size(); ++i)
          if (!((*common)[i] == d[i])) (*common)[i] = SymbolicDim();
      }
      return;
    }
    if (n - at < left) return;
    if (allowed[at]) {
      chosen[at] = true;
      self(self, at + 1, left - 1);
      chosen[at] = false;
    }
    self(self, at + 1, left);
  };
  visit(visit, 0, k);
  if (too_many) return std::nullopt;
  return common;
}

}  // namespace tensor_detail

// ---- Shape ----

inline void shape_impl(Context& ctx, Node& n, bool has_range) {
  using namespace tensor_detail;
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape{SymbolicDim()}, DataType::INT64);
    return;
  }
  const int64_t r = s->rank();
  int64_t start = 0, end = r;
  if (has_range) {
    start = clamp_index(n.attr_int("start", 0), r);
    end = clamp_index(n.attr_int("end", r), r);
  }
  Dims values;
  for (int64_t i = start; i < end; ++i) values.push_back((*s)[static_cast<std::size_t>(i)]);
  ctx.set_shape_and_dtype(n.output(0), Shape{SymbolicDim(static_cast<int64_t>(values.size()))}, DataType::INT64);
  ctx.set_symbolic_value(n.output(0), std::move(values));
}
inline void infer_shape_v1(Context& ctx, Node& n) { shape_impl(ctx, n, false); }
SYMSHAPE_RULES(infer_shape_v1, ai_onnx("Shape", 1, 13));
inline void infer_shape_v15(Context& ctx, Node& n) { shape_impl(ctx, n, true); }
SYMSHAPE_RULES(infer_shape_v15, ai_onnx("Shape", 15, 19, 21, 23, 24, 25));

// ---- Size ----

inline void infer_size(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), DataType::INT64);
  if (const Shape* s = shape_of(n.input(0))) {
    SymbolicDim p = product(s->dims());
    ctx.set_symbolic_value(n.output(0), {p});
  }
}
SYMSHAPE_RULES(infer_size, ai_onnx("Size", 1, 13, 19, 21, 23, 24, 25));

// ---- Flatten ----

inline void infer_flatten(Context& ctx, Node& n) {
  using namespace tensor_detail;
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, Shape::of_rank(2));
    return;
  }
  const int64_t r = s->rank();
  int64_t axis = n.attr_int("axis", 1);
  if (axis < -r || axis > r)
    return ctx.record_error(n, "axis " + std::to_string(axis) + " is out of range [" + std::to_string(-r) + ", " +
           std::to_string(r) + "]");
  if (axis < 0) axis += r;
  const auto a = static_cast<std::size_t>(axis);
  set_like_input(ctx, n, 0, Shape{product(s->dims(), 0, a), product(s->dims(), a)});
  copy_value(ctx, n);
}
SYMSHAPE_RULES(infer_flatten, ai_onnx("Flatten", 1, 9, 11, 13, 21, 23, 24, 25));

// ---- Squeeze ----

inline void squeeze_impl(Context& ctx, Node& n, const tensor_detail::IntsArg& axes) {
  using namespace tensor_detail;
  const Shape* s = shape_of(n.input(0));
  const bool all_ones = !axes.given || (axes.values && axes.values->empty());
  if (!s) {
    set_like_input(ctx, n, 0, Shape());
    copy_value(ctx, n);
    return;
  }
  const int64_t r = s->rank();
  if (all_ones) {
    // Without axes, dims equal to 1 go; symbolic dims are kept (assumed not 1,
    // as the ONNX reference does).
    Dims out;
    for (const auto& d : s->dims())
      if (!d.is_int(1)) out.push_back(d);
    set_like_input(ctx, n, 0, Shape(std::move(out)));
    copy_value(ctx, n);
    return;
  }
  if (!axes.values) {
    // Only dims that may be 1 can go: the dims that every choice of
    // `length` of them leaves in place are known ([1,3,4,5] -> [3,4,5]).
    std::optional<Dims> common;
    if (axes.length && *axes.length <= r) {
      std::vector<bool> may_be_one(s->size());
      for (std::size_t i = 0; i < s->size(); ++i) may_be_one[i] = !((*s)[i].is_int() && !(*s)[i].is_int(1));
      common = common_over_choices(may_be_one, static_cast<std::size_t>(*axes.length), [&](const std::vector<bool>& c) {
        Dims out;
        for (std::size_t i = 0; i < c.size(); ++i)
          if (!c[i]) out.push_back((*s)[i]);
        return out;
      });
      if (!common) common = Dims(static_cast<std::size_t>(r - *axes.length));
    }
    set_like_input(ctx, n, 0, common ? Shape(std::move(*common)) : Shape());
    copy_value(ctx, n);
    return;
  }
  auto norm = unique_axes(ctx, n, *axes.values, r);
  if (!norm) return;
  std::vector<bool> drop(static_cast<std::size_t>(r), false);
  for (int64_t a : *norm) {
    const SymbolicDim& d = (*s)[static_cast<std::size_t>(a)];
    if (d.is_int() && d.value() != 1)
      return ctx.record_error(n, "cannot squeeze axis " + std::to_string(a) + " of size " + d.to_string() + " in " +
             s->to_string());
    drop[static_cast<std::size_t>(a)] = true;
  }
  Dims out;
  for (std::size_t i = 0; i < s->size(); ++i)
    if (!drop[i]) out.push_back((*s)[i]);
  set_like_input(ctx, n, 0, Shape(std::move(out)));
  copy_value(ctx, n);
}
inline void infer_squeeze_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  squeeze_impl(ctx, n, tensor_detail::ints_arg(ctx, n, false, "axes", 1));
}
SYMSHAPE_RULES(infer_squeeze_v1, ai_onnx("Squeeze", 1, 11));
inline void infer_squeeze_v13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  squeeze_impl(ctx, n, tensor_detail::ints_arg(ctx, n, true, "axes", 1));
}
SYMSHAPE_RULES(infer_squeeze_v13, ai_onnx("Squeeze", 13, 21, 23, 24, 25));

// ---- Unsqueeze ----

inline void unsqueeze_impl(Context& ctx, Node& n, const tensor_detail::IntsArg& axes) {
  using namespace tensor_detail;
  if (!axes.given) return ctx.usage_error(n, "missing required axes");
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, Shape());
    copy_value(ctx, n);
    return;
  }
  const int64_t r = s->rank();
  if (!axes.values) {
    // Dims that every placement of the new 1s gives are known.
    std::optional<Dims> common;
    if (axes.length) {
      const auto out_rank = static_cast<std::size_t>(r + *axes.length);
      common = common_over_choices(std::vector<bool>(out_rank, true), static_cast<std::size_t>(*axes.length),
                                   [&](const std::vector<bool>& c) {
                                     Dims out;
                                     std::size_t next = 0;
                                     for (bool one : c) out.push_back(one ? SymbolicDim(1) : (*s)[next++]);
                                     return out;
                                   });
      if (!common) common = Dims(out_rank);
    }
    set_like_input(ctx, n, 0, common ? Shape(std::move(*common)) : Shape());
    copy_value(ctx, n);
    return;
  }
  const int64_t out_rank = r + static_cast<int64_t>(axes.values->size());
  auto norm = unique_axes(ctx, n, *axes.values, out_rank);
  if (!norm) return;
  std::vector<bool> inserted(static_cast<std::size_t>(out_rank), false);
  for (int64_t a : *norm) inserted[static_cast<std::size_t>(a)] = true;
  Dims out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < inserted.size(); ++i) out.push_back(inserted[i] ? SymbolicDim(1) : (*s)[next++]);
  set_like_input(ctx, n, 0, Shape(std::move(out)));
  copy_value(ctx, n);
}
inline void infer_unsqueeze_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  unsqueeze_impl(ctx, n, tensor_detail::ints_arg(ctx, n, false, "axes", 1));
}
SYMSHAPE_RULES(infer_unsqueeze_v1, ai_onnx("Unsqueeze", 1, 11));
inline void infer_unsqueeze_v13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  unsqueeze_impl(ctx, n, tensor_detail::ints_arg(ctx, n, true, "axes", 1));
}
SYMSHAPE_RULES(infer_unsqueeze_v13, ai_onnx("Unsqueeze", 13, 21, 23, 24, 25));

// ---- Transpose ----

inline void infer_transpose(Context& ctx, Node& n) {
  using namespace tensor_detail;
  if (!check_inputs(ctx, n, 1)) return;
  auto perm = n.attr_ints("perm");
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
    for (int64_t i = r - 1; i >= 0; --i) p.push_back(i);
  }
  if (static_cast<int64_t>(p.size()) != r)
    return ctx.record_error(n, "perm has " + std::to_string(p.size()) + " entries for input of rank " +
                            std::to_string(r));
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  Dims out;
  for (int64_t a : p) {
    if (a < 0 || a >= r || seen[static_cast<std::size_t>(a)])
      return ctx.record_error(n, "perm is not a permutation of 0.." + std::to_string(r - 1));
    seen[static_cast<std::size_t>(a)] = true;
    out.push_back((*s)[static_cast<std::size_t>(a)]);
  }
  set_like_input(ctx, n, 0, Shape(std::move(out)));
}
SYMSHAPE_RULES(infer_transpose, ai_onnx("Transpose", 1, 13, 21, 23, 24, 25));

inline constexpr auto kShapeOpsRules = family_rules<
    infer_shape_v1_rules, infer_shape_v15_rules, infer_size_rules, infer_flatten_rules, infer_squeeze_v1_rules,
    infer_squeeze_v13_rules, infer_unsqueeze_v1_rules, infer_unsqueeze_v13_rules, infer_transpose_rules>("symshape/ops/shape_ops.hpp");

}  // namespace symshape::ops
