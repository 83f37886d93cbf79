// Slice: starts/ends/axes as attributes (opset 1) or inputs with steps (10+),
// constant or symbolic. Integer dims are computed exactly; symbolic dims give
// min/max expressions that stay sound for every value of the dim, e.g. a dim
// `n` sliced from 1 to the end has max(0, n-1) elements. Values of any rank
// sliced with integer bounds propagate.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace slice_detail {

// Ends at or beyond this magnitude mean "to the end" / "to the beginning",
// as exporters write INT_MAX / INT64_MAX (and INT_MIN / INT64_MIN).
inline constexpr int64_t kBoundlessIndex = std::numeric_limits<int32_t>::max();

// The start of a negative-step slice over a dim of integer size d > 0: made
// non-negative by adding d, then clamped into [0, d-1] (the ONNX spec; numpy
// would clamp a start below -d to -1 and select nothing).
inline int64_t negative_step_start(int64_t s, int64_t d) {
  if (s < 0) s = s < -d ? 0 : s + d;
  return s > d - 1 ? d - 1 : s;
}

// Number of elements of range(start, end, step) over a dim of integer size,
// with ONNX's clamping.
inline int64_t int_length(int64_t d, int64_t s, int64_t e, int64_t k) {
  if (k > 0) {
    s = clamp_index(s, d);
    e = clamp_index(e, d);
    if (e <= s) return 0;
    return (e - s - 1) / k + 1;
  }
  if (d == 0) return 0;
  s = negative_step_start(s, d);
  // The end is clamped into [-1, d-1].
  if (e < 0) e = e < -d ? -1 : e + d;
  if (e > d - 1) e = d - 1;
  if (s <= e) return 0;
  if (k == std::numeric_limits<int64_t>::min()) return 1;
  return (s - e - 1) / (-k) + 1;
}

enum class Sign { NonNegative, Negative, Unknown };
inline Sign sign_of(const SymbolicDim& v) {
  if (v.is_int()) return v.value() >= 0 ? Sign::NonNegative : Sign::Negative;
  if (v.is_known() && prove_ge(v.expr(), Expr(0))) return Sign::NonNegative;
  return Sign::Unknown;
}

// max(0, ceil(diff / m)) for a positive integer m; a step of kBoundlessIndex
// or more takes at most one element (diffs stay below it, as dims do).
inline SymbolicDim clamp_count(const SymbolicDim& diff, int64_t m) {
  if (diff.is_unknown()) return {};
  if (m >= kBoundlessIndex) return dim_min(SymbolicDim(1), dim_max(SymbolicDim(0), diff));
  const SymbolicDim q = m == 1 ? diff : SymbolicDim(ceil_to_int(diff.expr(), Expr(m)));
  return dim_max(SymbolicDim(0), q);
}

// Whether an integer bound is one of the "to the end" / "to the beginning"
// sentinels (INT_MAX, INT64_MIN, ...): beyond any dim, so no arithmetic with it.
enum class Sentinel { PastEnd, BeforeStart };
inline bool boundless(const SymbolicDim& v, Sentinel which) {
  return v.is_int() && (which == Sentinel::PastEnd ? v.value() >= kBoundlessIndex : v.value() <= -kBoundlessIndex);
}

// Number of elements along a dim `d` (any SymbolicDim) for start s, end e
// (SymbolicDims) and integer step k != 0, clamped as the spec says;
// unknown when it cannot be expressed.
inline SymbolicDim clamped_length(const SymbolicDim& d, const SymbolicDim& s, const SymbolicDim& e, int64_t k) {
  if (d.is_int() && s.is_int() && e.is_int()) return int_length(d.value(), s.value(), e.value(), k);
  if (d.is_unknown() || s.is_unknown() || e.is_unknown()) return {};
  const Sign ss = sign_of(s), se = sign_of(e);
  if (ss == Sign::Unknown || se == Sign::Unknown) return {};
  if (k > 0) {
    if (boundless(s, Sentinel::PastEnd) || boundless(e, Sentinel::BeforeStart))
      return 0;  // starts past the end, or ends before the start
    const SymbolicDim from = boundless(s, Sentinel::BeforeStart) ? SymbolicDim(0) : s;
    // e'' = d, min(e, d) or d + e (unclamped below: s'' >= 0 keeps the count at 0).
    SymbolicDim end;
    if (boundless(e, Sentinel::PastEnd))
      end = d;
    else if (se == Sign::NonNegative)
      end = dim_min(e, d);
    else
      end = d + e;
    if (sign_of(from) == Sign::NonNegative) return clamp_count(end - from, k);  // beyond d gives <= 0 anyway
    // s'' = max(d + s, 0): end - s'' = min(end - d - s, end)
    return clamp_count(dim_min(end - d - from, end), k);
  }
  if (k == std::numeric_limits<int64_t>::min()) return {};
  const int64_t m = -k;
  if (boundless(e, Sentinel::PastEnd)) return 0;  // ends at d-1: nothing after any start
  // Clamped into [0, d-1] (-1 when d is 0, so that nothing is selected).
  SymbolicDim start;
  if (boundless(s, Sentinel::PastEnd))
    start = d - 1;
  else if (boundless(s, Sentinel::BeforeStart))
    start = dim_min(SymbolicDim(0), d - 1);
  else if (ss == Sign::NonNegative)
    start = dim_min(s, d - 1);
  else
    start = dim_min(dim_max(d + s, SymbolicDim(0)), d - 1);
  if (boundless(e, Sentinel::BeforeStart)) return clamp_count(start + 1, m);
  if (se == Sign::NonNegative) return clamp_count(start - dim_min(e, d - 1), m);
  // e' = max(d + e, -1): start - e' = min(start - d - e, start + 1)
  return clamp_count(dim_min(start - d - e, start + 1), m);
}

// The same count in its shortest proven form: the clamps of a slice whose
// bounds are computed from its own dim often cancel (PyTorch's relative
// position shift slices max(0,2*seq-1) up to max(0,2*seq-1)//2+1, which is
// seq elements).
inline SymbolicDim length(const SymbolicDim& d, const SymbolicDim& s, const SymbolicDim& e, int64_t k) {
  return simplest_proven(clamped_length(d, s, e, k));
}

// Concrete indices selected by a slice of a list of `len` elements.
inline std::vector<std::size_t> int_indices(int64_t len, int64_t s, int64_t e, int64_t k) {
  std::vector<std::size_t> out;
  const int64_t count = int_length(len, s, e, k);
  if (count <= 0) return out;
  const int64_t start = k > 0 ? clamp_index(s, len) : negative_step_start(s, len);
  for (int64_t i = 0; i < count; ++i) out.push_back(static_cast<std::size_t>(start + i * k));
  return out;
}

// The output when starts, ends, axes or steps are not known: the sliced axes
// become unknown (every axis, without known axes), except that slicing never
// grows a dim, so an empty one stays empty.
inline void slice_unknown(Context& ctx, Node& n, const Shape& s, const IntsArg& axes) {
  Shape out = s;
  if (axes.values) {
    auto norm = unique_axes(ctx, n, *axes.values, s.rank());
    if (!norm) return;
    for (int64_t a : *norm) out[static_cast<std::size_t>(a)] = SymbolicDim();
  } else {
    // Without axes, starts of static length k slice the first k axes only.
    const auto k = axes.given ? std::nullopt : static_length(n.input(1));
    for (std::size_t i = 0; i < s.size(); ++i)
      if (!k || static_cast<int64_t>(i) < *k) out[i] = SymbolicDim();
  }
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i].is_int(0)) out[i] = 0;
  set_like_input(ctx, n, 0, out);
}

// Values of a value of any rank sliced with integer starts and ends along
// the (normalised) `axes`: the row-major product of each axis's indices.
inline void slice_values(Context& ctx, Node& n, const std::vector<SymbolicDim>& starts,
                         const std::vector<SymbolicDim>& ends, const std::vector<int64_t>& axes,
                         const std::vector<int64_t>& steps) {
  auto r = ctx.rational_value(n.input(0));  // whole numbers or fractions
  if (!r) return;
  const Dims* v = &r->num;
  auto dims = value_dims(n.input(0), v->size());
  if (!dims) return;
  std::vector<std::vector<std::size_t>> picked;
  for (int64_t d : *dims) {
    picked.emplace_back();
    for (int64_t i = 0; i < d; ++i) picked.back().push_back(static_cast<std::size_t>(i));
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!starts[i].is_int() || !ends[i].is_int()) return;
    const auto a = static_cast<std::size_t>(axes[i]);
    picked[a] = int_indices((*dims)[a], starts[i].value(), ends[i].value(), steps[i]);
  }
  const auto strides = row_major_strides(*dims);
  Dims values;
  std::vector<std::size_t> at(picked.size(), 0);  // odometer over the picked indices
  for (const auto& p : picked)
    if (p.empty()) return ctx.set_rational_value(n.output(0), {std::move(values), r->den});
  while (true) {
    std::size_t flat = 0;
    for (std::size_t k = 0; k < at.size(); ++k) flat += picked[k][at[k]] * strides[k];
    values.push_back((*v)[flat]);
    std::size_t k = at.size();
    while (k > 0 && ++at[k - 1] == picked[k - 1].size()) at[--k] = 0;
    if (k == 0) break;
  }
  ctx.set_rational_value(n.output(0), {std::move(values), r->den});
}

}  // namespace slice_detail

// starts/ends: values (possibly symbolic), or nullopt when unknown.
inline void slice_impl(Context& ctx, Node& n, const std::optional<std::vector<SymbolicDim>>& starts,
                       const std::optional<std::vector<SymbolicDim>>& ends, const IntsArg& axes, const IntsArg& steps) {
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  if (!starts || !ends || (axes.given && !axes.values) || (steps.given && !steps.values))
    return slice_detail::slice_unknown(ctx, n, *s, axes);
  const int64_t r = s->rank();
  const std::size_t count = starts->size();
  if (ends->size() != count)
    return ctx.record_error(n, {"starts and ends have different lengths (", count, " vs ", ends->size(), ")"});
  std::vector<int64_t> ax;
  if (axes.values) {
    ax = *axes.values;
  } else {
    for (std::size_t i = 0; i < count; ++i) ax.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> st = steps.values ? *steps.values : std::vector<int64_t>(count, 1);
  if (ax.size() != count || st.size() != count)
    return ctx.record_error(n, "starts, ends, axes and steps must have the same length");
  auto norm = unique_axes(ctx, n, ax, r);
  if (!norm) return;
  Shape out = *s;
  for (std::size_t i = 0; i < count; ++i) {
    if (st[i] == 0) return ctx.record_error(n, "slice step must not be 0");
    const auto a = static_cast<std::size_t>((*norm)[i]);
    out[a] = slice_detail::length((*s)[a], (*starts)[i], (*ends)[i], st[i]);
  }
  set_like_input(ctx, n, 0, out);
  slice_detail::slice_values(ctx, n, *starts, *ends, *norm, st);
}

inline void infer_slice_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  auto starts = ctx.attr_ints(n, "starts");
  auto ends = ctx.attr_ints(n, "ends");
  if (!starts || !ends) return ctx.usage_error(n, "missing required attribute 'starts' or 'ends'");
  IntsArg steps;
  slice_impl(ctx, n, std::vector<SymbolicDim>(starts->begin(), starts->end()),
             std::vector<SymbolicDim>(ends->begin(), ends->end()), ints_arg(ctx, n, IntsFrom::Attribute, "axes", 0),
             steps);
}
SYMSHAPE_RULES(infer_slice_v1, ai_onnx("Slice", 1).cost(count_none));

inline void infer_slice_v10(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  slice_impl(ctx, n, ctx.symbolic_value(n.input(1)), ctx.symbolic_value(n.input(2)),
             ints_arg(ctx, n, IntsFrom::Input, "axes", 3), ints_arg(ctx, n, IntsFrom::Input, "steps", 4));
}
SYMSHAPE_RULES(infer_slice_v10, ai_onnx("Slice", 10, 11, 13).cost(count_none));

inline constexpr auto kSliceRules = family_rules<infer_slice_v1_rules, infer_slice_v10_rules>("symshape/ops/slice.hpp");

}  // namespace symshape::ops
