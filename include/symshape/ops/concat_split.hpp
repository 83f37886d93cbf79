// Concat (the axis dim is the sum, symbolic sums included; values of 1-D
// inputs are concatenated) and Split (sizes from the attribute < 13, the
// input >= 13, or an equal split; num_outputs >= 18 with a smaller last chunk).
#pragma once

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// ---- Concat ----

namespace concat_split_detail {

// The value of a Concat along axis `a` when every input's value is known:
// for each index before the axis, each input's block in turn (row-major).
// Fractions (float scales) are brought to their least common denominator.
// An input without a value but with a small static shape gives unknown
// elements, so that the known ones stay (torch's pads: zeros for batch and
// channels, computed amounts for the spatial axes).
inline void concat_values(Context& ctx, Node& n, std::size_t a) {
  // Each input's elements: read in place where propagated, else converted
  // into held[k] (an initializer's data, or unknown elements).
  struct Part {
    const Dims* num;
    int64_t den;
    std::size_t block;  // elements per outer index
  };
  std::vector<Part> parts;
  std::vector<std::optional<Rationals>> held(n.inputs.size());
  parts.reserve(n.inputs.size());
  int64_t den = 1;
  bool any_known = false;
  for (std::size_t k = 0; k < n.inputs.size(); ++k) {
    const Value* v = n.inputs[k];
    Context::StoredRationals r = ctx.read_rationals(v, held[k]);
    if (r.num) {
      any_known = true;
    } else if (auto unknown = unknown_elements(v)) {
      held[k] = Rationals{std::move(*unknown), 1};
      r = {&held[k]->num, 1};
    } else {
      return;
    }
    if (!checked::mul(den / std::gcd(den, r.den), r.den, den)) return;
    parts.push_back({r.num, r.den, 0});
  }
  if (!any_known) return;
  std::size_t outer = 1, total = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    auto dims = value_dims(n.inputs[k], parts[k].num->size());
    if (!dims || dims->size() <= a) return;
    std::size_t block = 1, before = 1;
    for (std::size_t i = 0; i < dims->size(); ++i) (i < a ? before : block) *= static_cast<std::size_t>((*dims)[i]);
    if (k > 0 && before != outer) return;
    outer = before;
    parts[k].block = block;
    total += parts[k].num->size();
  }
  Dims values;
  values.reserve(total);
  for (std::size_t o = 0; o < outer; ++o)
    for (const Part& part : parts) {
      const auto first = part.num->begin() + static_cast<std::ptrdiff_t>(o * part.block);
      const auto last = first + static_cast<std::ptrdiff_t>(part.block);
      if (part.den == den) {
        values.insert(values.end(), first, last);
      } else {
        const SymbolicDim scale(den / part.den);
        for (auto e = first; e != last; ++e) values.push_back(*e * scale);
      }
    }
  ctx.set_rational_value(n.output(0), {std::move(values), den});
}

inline void concat_impl(Context& ctx, Node& n, int64_t axis) {
  if (!check_inputs(ctx, n, n.inputs.empty() ? 1 : n.inputs.size())) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* first = nullptr;
  bool all_ranked = true;
  for (const Value* v : n.inputs) {
    const Shape* s = shape_of(v);
    if (!s)
      all_ranked = false;
    else if (!first)
      first = s;
  }
  if (!first) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  const int64_t r = first->rank();
  if (r == 0) return ctx.record_error(n, "cannot concatenate scalars");
  auto a = normalize_axis(ctx, n, axis, r);
  if (!a) return;
  Dims out(static_cast<std::size_t>(r));
  SymbolicDim sum = 0;
  bool started = false;
  for (const Value* v : n.inputs) {
    const Shape* s = shape_of(v);
    if (!s) continue;
    if (s->rank() != r) return ctx.record_error(n, {"all inputs must have the same rank: ", *first, " vs ", *s});
    for (std::size_t i = 0; i < s->size(); ++i) {
      const SymbolicDim& d = (*s)[i];
      if (static_cast<int64_t>(i) == *a) continue;
      if (!started || out[i].is_unknown()) {
        out[i] = d;
      } else if (out[i].is_int() && d.is_int() && out[i] != d) {
        return ctx.record_error(n, {"dim ", i, " differs between inputs: ", *first, " vs ", *s});
      } else if (out[i] != d) {  // (equal dims need no contract, nor its message built)
        ctx.record_contract(&n, Contract::Kind::Equal, out[i], d, "dim " + std::to_string(i) + " of the inputs");
        if (d.is_int() && !out[i].is_int()) out[i] = d;  // the inputs must agree: the integer is the more specific
      }
    }
    started = true;
    sum = sum + (*s)[static_cast<std::size_t>(*a)];
  }
  out[static_cast<std::size_t>(*a)] = all_ranked ? sum : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
  concat_values(ctx, n, static_cast<std::size_t>(*a));
}

}  // namespace concat_split_detail

inline void infer_concat_v1(Context& ctx, Node& n) {
  concat_split_detail::concat_impl(ctx, n, ctx.attr_int(n, "axis", 1));
}
SYMSHAPE_RULES(infer_concat_v1, ai_onnx("Concat", 1).cost(count_none));
inline void infer_concat_v4(Context& ctx, Node& n) {
  const Attribute* a = require_attr(ctx, n, "axis", Attribute::Kind::Int);
  if (!a) return;
  concat_split_detail::concat_impl(ctx, n, a->i);
}
SYMSHAPE_RULES(infer_concat_v4, ai_onnx("Concat", 4, 11, 13).cost(count_none));

// ---- Split ----

namespace concat_split_detail {

// Parts of the axis dim d from explicit split sizes: `sizes` holds their
// values, nullopt when they are given but unknown. nullopt after an error.
inline std::optional<Dims> given_parts(Context& ctx, const Node& n, const SymbolicDim& d, std::size_t k,
                                       const std::optional<std::vector<SymbolicDim>>& sizes) {
  Dims parts(k);
  if (!sizes) {
    // Unknown non-negative sizes that sum to the axis dim: all 0 when it is
    // 0, the whole dim for a single output.
    if (d.is_int(0) || k == 1)
      for (auto& p : parts) p = d;
    return parts;
  }
  if (sizes->size() != k) {
    ctx.record_error(n, {"split has ", sizes->size(), " entries for ", k, " outputs"});
    return std::nullopt;
  }
  SymbolicDim sum = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if ((*sizes)[i].is_int() && (*sizes)[i].value() < 0) {
      ctx.record_error(n, {"split has a negative size ", (*sizes)[i]});
      return std::nullopt;
    }
    parts[i] = (*sizes)[i];
    sum = sum + parts[i];
  }
  if (sum.is_int() && d.is_int() && sum.value() != d.value()) {
    ctx.record_error(n, {"split sizes sum to ", sum, " but the axis dim is ", d});
    return std::nullopt;
  }
  return parts;
}

// Parts of an equal split of the axis dim d into k outputs; with `uneven`
// (num_outputs, 18+) the last chunk may be smaller. nullopt after an error.
inline std::optional<Dims> equal_parts(Context& ctx, const Node& n, const SymbolicDim& d, std::size_t k, bool uneven) {
  Dims parts(k);
  const auto kk = static_cast<int64_t>(k);
  if (d.is_int()) {
    const int64_t dv = d.value();
    if (dv % kk == 0) {
      for (auto& p : parts) p = dv / kk;
    } else if (uneven) {
      const int64_t chunk = dv / kk + 1;
      for (auto& p : parts) p = chunk;
      int64_t last = dv - chunk * (kk - 1);
      parts.back() = last < 0 ? 0 : last;
    } else {
      ctx.record_error(n, {"dim ", d, " cannot be split evenly into ", k, " outputs"});
      return std::nullopt;
    }
  } else if (d.is_known()) {
    if (uneven) {
      const SymbolicDim chunk(ceil_to_int(d.expr(), Expr(kk)));
      for (auto& p : parts) p = chunk;
      parts.back() = dim_max(SymbolicDim(0), d - chunk * SymbolicDim(kk - 1));
    } else {
      for (auto& p : parts) p = d / SymbolicDim(kk);  // the spec requires an even split
    }
  }
  return parts;
}

// Values of a 1-D input split into integer parts.
inline void split_values(Context& ctx, Node& n, const Dims& parts) {
  auto r = ctx.rational_value(n.input(0));  // whole numbers or fractions
  if (!r) return;
  const Dims* v = &r->num;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].is_int()) return;
    const auto len = static_cast<std::size_t>(parts[i].value());
    if (begin + len > v->size()) return;
    ctx.set_rational_value(n.output(i), {Dims(v->begin() + static_cast<std::ptrdiff_t>(begin),
                                              v->begin() + static_cast<std::ptrdiff_t>(begin + len)),
                                         r->den});
    begin += len;
  }
}

// sizes: explicit split sizes (values, or given but unknown); num_outputs:
// the attribute of opset 18 (uneven split allowed, last chunk smaller).
enum class SplitSizes { NotGiven, Given };
inline void split_impl(Context& ctx, Node& n, const std::optional<std::vector<SymbolicDim>>& sizes,
                       SplitSizes given_sizes, std::optional<int64_t> num_outputs) {
  if (!check_inputs(ctx, n, 1)) return;
  const bool sizes_given = given_sizes == SplitSizes::Given;
  const std::size_t k = n.outputs.size();
  if (k == 0) return ctx.usage_error(n, "Split has no outputs");
  if (num_outputs && *num_outputs != static_cast<int64_t>(k))
    return ctx.record_error(n, {"num_outputs is ", *num_outputs, " but the node has ", k, " outputs"});
  if (sizes_given && num_outputs) return ctx.usage_error(n, "split and num_outputs must not both be given");
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    for (std::size_t i = 0; i < k; ++i) set_like_input(ctx, n, i, Shape());
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), s->rank());
  if (!axis) return;
  const auto ax = static_cast<std::size_t>(*axis);
  const SymbolicDim d = (*s)[ax];
  auto parts = sizes_given ? given_parts(ctx, n, d, k, sizes) : equal_parts(ctx, n, d, k, num_outputs.has_value());
  if (!parts) return;
  for (std::size_t i = 0; i < k; ++i) {
    Shape out = *s;
    out[ax] = (*parts)[i];
    set_like_input(ctx, n, i, std::move(out));
  }
  if (s->rank() == 1) split_values(ctx, n, *parts);
}

}  // namespace concat_split_detail

// Opset 1: split attribute, or an optional second input.
inline void infer_split_v1(Context& ctx, Node& n) {
  if (n.input(1)) {
    concat_split_detail::split_impl(ctx, n, ctx.symbolic_value(n.input(1)), concat_split_detail::SplitSizes::Given,
                                    std::nullopt);
    return;
  }
  std::optional<std::vector<SymbolicDim>> sizes;
  if (auto sp = ctx.attr_ints(n, "split")) sizes.emplace(sp->begin(), sp->end());
  concat_split_detail::split_impl(
      ctx, n, sizes, sizes ? concat_split_detail::SplitSizes::Given : concat_split_detail::SplitSizes::NotGiven,
      std::nullopt);
}
SYMSHAPE_RULES(infer_split_v1, ai_onnx("Split", 1).cost(count_none));
inline void infer_split_v2(Context& ctx, Node& n) {
  std::optional<std::vector<SymbolicDim>> sizes;
  if (auto sp = ctx.attr_ints(n, "split")) sizes.emplace(sp->begin(), sp->end());
  concat_split_detail::split_impl(
      ctx, n, sizes, sizes ? concat_split_detail::SplitSizes::Given : concat_split_detail::SplitSizes::NotGiven,
      std::nullopt);
}
SYMSHAPE_RULES(infer_split_v2, ai_onnx("Split", 2, 11).cost(count_none));
inline void infer_split_v13(Context& ctx, Node& n) {
  const bool given = n.input(1) != nullptr;
  concat_split_detail::split_impl(
      ctx, n, given ? ctx.symbolic_value(n.input(1)) : std::nullopt,
      given ? concat_split_detail::SplitSizes::Given : concat_split_detail::SplitSizes::NotGiven, std::nullopt);
}
SYMSHAPE_RULES(infer_split_v13, ai_onnx("Split", 13).cost(count_none));
inline void infer_split_v18(Context& ctx, Node& n) {
  const bool given = n.input(1) != nullptr;
  std::optional<int64_t> num;
  if (const Attribute* a = n.attr("num_outputs")) num = a->i;
  if (!given && !num) return ctx.usage_error(n, "either the split input or the num_outputs attribute is required");
  concat_split_detail::split_impl(
      ctx, n, given ? ctx.symbolic_value(n.input(1)) : std::nullopt,
      given ? concat_split_detail::SplitSizes::Given : concat_split_detail::SplitSizes::NotGiven, num);
}
SYMSHAPE_RULES(infer_split_v18, ai_onnx("Split", 18).cost(count_none));

inline constexpr auto kConcatSplitRules =
    family_rules<infer_concat_v1_rules, infer_concat_v4_rules, infer_split_v1_rules, infer_split_v2_rules,
                 infer_split_v13_rules, infer_split_v18_rules>("symshape/ops/concat_split.hpp");

}  // namespace symshape::ops
