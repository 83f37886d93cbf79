// Reductions (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare) with
// axes as an attribute (before 13 for ReduceSum, before 18 for the others)
// or as an optional input with noop_with_empty_axes; ArgMax/ArgMin (INT64).
// ReduceSum/ReduceProd/ReduceMax/ReduceMin of a 1-D propagated value give
// the sum/product/max/min as the output's value (ReduceProd(Shape(x)) ->
// [B*T*768]).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace reduce_detail {

// Partial data propagation of ReduceSum/Prod/Max/Min over the axes marked
// in `reduced` of a value of any rank (row-major; keepdims does not change
// the order of the elements).
inline void propagate_reduce_value(Context& ctx, Node& n, const std::vector<bool>& reduced) {
  const std::string& op = n.op_type;
  if (op != "ReduceSum" && op != "ReduceProd" && op != "ReduceMax" && op != "ReduceMin") return;
  auto v = ctx.symbolic_value(n.input(0));
  if (!v || v->empty() || !is_integer_type(dtype_of(n.input(0)))) return;
  auto dims = value_dims(n.input(0), v->size());
  if (!dims && reduced.size() == 1) dims = std::vector<int64_t>{static_cast<int64_t>(v->size())};  // shape unknown
  if (!dims || dims->size() != reduced.size()) return;
  std::vector<std::optional<SymbolicDim>> acc;
  for (std::size_t f = 0; f < v->size(); ++f) {
    const auto idx = unflatten(f, *dims);
    std::size_t out = 0;  // flat index over the kept axes
    for (std::size_t i = 0; i < idx.size(); ++i)
      if (!reduced[i]) out = out * static_cast<std::size_t>((*dims)[i]) + static_cast<std::size_t>(idx[i]);
    if (out >= acc.size()) acc.resize(out + 1);
    const SymbolicDim& x = (*v)[f];
    if (!acc[out])
      acc[out] = x;
    else if (op == "ReduceSum")
      acc[out] = *acc[out] + x;
    else if (op == "ReduceProd")
      acc[out] = *acc[out] * x;
    else
      acc[out] = op == "ReduceMax" ? proven_max(*acc[out], x) : proven_min(*acc[out], x);
  }
  Dims values;
  for (const auto& a : acc) values.push_back(a ? *a : SymbolicDim());
  ctx.set_symbolic_value(n.output(0), std::move(values));
}

// The output when the axes input's values are unknown. Each dim is kept or
// becomes 1 (keepdims), or is dropped; with k (distinct) axes, the dims on
// which every choice of k axes agrees are known: [3,2,2] without keepdims and
// one axis gives [?,2].
inline void reduce_unknown_axes(Context& ctx, Node& n, const Shape& in, bool keepdims, bool noop) {
  const DataType dtype = dtype_of(n.input(0));
  const int64_t rank = in.rank();
  const Shape* axes_shape = shape_of(n.input(1));
  const bool k_known = axes_shape && axes_shape->rank() == 1 && (*axes_shape)[0].is_int();
  if (k_known && (*axes_shape)[0].value() > 0 && (*axes_shape)[0].value() <= rank) {
    const auto k = static_cast<std::size_t>((*axes_shape)[0].value());
    // The output when exactly the axes marked in `reduced` are reduced.
    auto output_for = [&](const std::vector<bool>& reduced) { return reduced_dims(in, reduced, keepdims); };
    auto common = common_over_choices(std::vector<bool>(static_cast<std::size_t>(rank), true), k, output_for);
    if (common) {
      ctx.set_shape_and_dtype(n.output(0), Shape(std::move(*common)), dtype);
      return;
    }
  }
  if (keepdims) {
    std::vector<SymbolicDim> out(static_cast<std::size_t>(rank));
    for (std::size_t i = 0; i < out.size(); ++i)
      if (in[i].is_int(1)) out[i] = 1;
    ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
    return;
  }
  if (k_known) {
    const int64_t k = (*axes_shape)[0].value();
    if (k > rank) return ctx.record_error(n, {"more axes (", k, ") than the input rank ", rank});
    if (k > 0 || !noop) {
      ctx.set_shape_and_dtype(n.output(0), Shape::of_rank(static_cast<std::size_t>(k == 0 ? 0 : rank - k)), dtype);
      return;
    }
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
}

// The output for known axes (empty = all, or none with `noop`).
inline void reduce_known_axes(Context& ctx, Node& n, const Shape& in, const std::vector<int64_t>& axes, bool keepdims,
                              bool noop) {
  if (axes.empty() && noop) {
    propagate_type(ctx, n);
    if (auto v = ctx.symbolic_value(n.input(0))) ctx.set_symbolic_value(n.output(0), *v);
    return;
  }
  const int64_t rank = in.rank();
  std::vector<bool> reduced(static_cast<std::size_t>(rank), axes.empty());
  for (int64_t a : axes) {
    auto x = normalize_axis(ctx, n, a, rank);
    if (!x) return;
    if (reduced[static_cast<std::size_t>(*x)]) return ctx.record_error(n, {"axis ", a, " is repeated in axes"});
    reduced[static_cast<std::size_t>(*x)] = true;
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(reduced_dims(in, reduced, keepdims)), dtype_of(n.input(0)));
  propagate_reduce_value(ctx, n, reduced);
}

// `axes`: the reduced axes when known (empty = all, or none with `noop`);
// `axes_unknown`: an axes input whose values are not known.
enum class AxesValues { Known, Unknown };
enum class EmptyAxes { ReduceAll, Noop };
inline void reduce_common(Context& ctx, Node& n, const std::vector<int64_t>& axes, AxesValues axes_unknown,
                          EmptyAxes empty_axes) {
  const bool noop = empty_axes == EmptyAxes::Noop;
  const bool keepdims = ctx.attr_int(n, "keepdims", 1) != 0;
  const Shape* in = shape_of(n.input(0));
  Shape from_value;
  if (!in) {
    // A propagated value is 1-D: its length is the shape.
    auto v = ctx.symbolic_value(n.input(0));
    if (!v) {
      ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
      return;
    }
    from_value = Shape({SymbolicDim(static_cast<int64_t>(v->size()))});
    in = &from_value;
  }
  if (axes_unknown == AxesValues::Unknown) return reduce_unknown_axes(ctx, n, *in, keepdims, noop);
  reduce_known_axes(ctx, n, *in, axes, keepdims, noop);
}

}  // namespace reduce_detail

// Axes from the `axes` attribute (default: all).
inline void infer_reduce_axes_attr(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  std::vector<int64_t> axes;
  if (const Attribute* a = n.attr("axes")) {
    if (a->kind != Attribute::Kind::Ints) return ctx.usage_error(n, "attribute 'axes' must be a list of integers");
    axes.assign(a->ints.begin(), a->ints.end());
  }
  reduce_detail::reduce_common(ctx, n, axes, reduce_detail::AxesValues::Known, reduce_detail::EmptyAxes::ReduceAll);
}
SYMSHAPE_RULES(infer_reduce_axes_attr, ai_onnx("ReduceSum", 1, 11).cost(count_per_input),
               ai_onnx("ReduceMean", 1, 11, 13).cost(count_per_input),
               ai_onnx("ReduceMax", 1, 11, 12, 13).cost(count_per_input),
               ai_onnx("ReduceMin", 1, 11, 12, 13).cost(count_per_input),
               ai_onnx("ReduceProd", 1, 11, 13).cost(count_per_input),
               ai_onnx("ReduceL1", 1, 11, 13).cost(count_reduce_two),
               ai_onnx("ReduceL2", 1, 11, 13).cost(count_reduce_two),
               ai_onnx("ReduceLogSum", 1, 11, 13).cost(count_per_input),
               ai_onnx("ReduceLogSumExp", 1, 11, 13).cost(count_reduce_two),
               ai_onnx("ReduceSumSquare", 1, 11, 13).cost(count_reduce_two));

// Axes from the optional second input; noop_with_empty_axes.
inline void infer_reduce_axes_input(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 2)) return;
  if (n.attr("axes")) return ctx.usage_error(n, "'axes' is an input since this opset, not an attribute");
  const bool noop = ctx.attr_int(n, "noop_with_empty_axes", 0) != 0;
  std::vector<int64_t> axes;
  bool unknown = false;
  if (n.input(1)) {
    const Shape* s = shape_of(n.input(1));
    if (s && s->rank() != 1) return ctx.record_error(n, {"axes must be 1-D, got shape ", *s});
    if (auto v = input_ints(ctx, n, 1))
      axes = *v;
    else if (s && (*s)[0].is_int(0))
      axes.clear();
    else
      unknown = true;
  }
  reduce_detail::reduce_common(ctx, n, axes,
                               unknown ? reduce_detail::AxesValues::Unknown : reduce_detail::AxesValues::Known,
                               noop ? reduce_detail::EmptyAxes::Noop : reduce_detail::EmptyAxes::ReduceAll);
}
SYMSHAPE_RULES(infer_reduce_axes_input, ai_onnx("ReduceSum", 13).cost(count_per_input),
               ai_onnx("ReduceMean", 18).cost(count_per_input), ai_onnx("ReduceMax", 18, 20).cost(count_per_input),
               ai_onnx("ReduceMin", 18, 20).cost(count_per_input), ai_onnx("ReduceProd", 18).cost(count_per_input),
               ai_onnx("ReduceL1", 18).cost(count_reduce_two), ai_onnx("ReduceL2", 18).cost(count_reduce_two),
               ai_onnx("ReduceLogSum", 18).cost(count_per_input), ai_onnx("ReduceLogSumExp", 18).cost(count_reduce_two),
               ai_onnx("ReduceSumSquare", 18).cost(count_reduce_two));

// ArgMax/ArgMin: one axis (default 0), keepdims (default 1), INT64 indices.
inline void infer_arg_reduce(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* in = shape_of(n.input(0));
  if (!in) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::INT64);
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), in->rank());
  if (!axis) return;
  const bool keepdims = ctx.attr_int(n, "keepdims", 1) != 0;
  std::vector<SymbolicDim> out;
  for (std::size_t i = 0; i < in->size(); ++i) {
    if (static_cast<int64_t>(i) != *axis)
      out.push_back((*in)[i]);
    else if (keepdims)
      out.push_back(1);
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), DataType::INT64);
}
SYMSHAPE_RULES(infer_arg_reduce, ai_onnx("ArgMax", 1, 11, 12, 13).cost(count_per_input),
               ai_onnx("ArgMin", 1, 11, 12, 13).cost(count_per_input));

inline constexpr auto kReduceRules =
    family_rules<infer_reduce_axes_attr_rules, infer_reduce_axes_input_rules, infer_arg_reduce_rules>(
        "symshape/ops/reduce.hpp");

}  // namespace symshape::ops
