// Gather (output rank q + r - 1), GatherElements, GatherND (batch_dims from
// 12), and the Scatter family (the output is the data input), and
// TensorScatter (24, KV-cache update). Values of any rank propagate through
// Gather, GatherElements and the Scatters without reduction.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/gather_nd_shape.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

// ---- Gather ----

namespace gather_scatter_detail {

// The last step of Gather: values of a value of any rank indexed along
// `axis` by known indices of any rank (an error for an index out of range).
inline void gather_values(Context& ctx, Node& n, int64_t axis) {
  std::optional<Rationals> held;
  const Context::StoredRationals r = ctx.read_rationals(n.input(0), held);  // whole numbers or fractions
  if (!r.num) return;
  auto indices = ctx.int_values(n.input(1));
  if (!indices) return;
  const Dims* values = r.num;
  auto dims = value_dims(n.input(0), values->size());
  if (!dims || !value_dims(n.input(1), indices->size())) return;
  const auto a = static_cast<std::size_t>(axis);
  const int64_t len = (*dims)[a];
  std::size_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < dims->size(); ++i)
    if (i != a) (i < a ? outer : inner) *= static_cast<std::size_t>((*dims)[i]);
  if (outer * indices->size() * inner > Context::kMaxSymbolicValueSize) return;
  Dims out;
  out.reserve(outer * indices->size() * inner);
  for (std::size_t o = 0; o < outer; ++o)
    for (int64_t i : *indices) {
      if (i < -len || i >= len) return ctx.record_error(n, {"index ", i, " is out of range for a dim of size ", len});
      const auto at = static_cast<std::size_t>(i < 0 ? i + len : i);
      for (std::size_t k = 0; k < inner; ++k)
        out.push_back((*values)[(o * static_cast<std::size_t>(len) + at) * inner + k]);
    }
  ctx.set_rational_value(n.output(0), {std::move(out), r.den});
}

// The flat position in `data_dims` of multi-index `at` with its `axis`
// entry replaced by index `i` (negative from the end); nullopt when out of range.
inline Maybe<std::size_t> replaced_position(const std::vector<int64_t>& data_dims, std::vector<int64_t> at,
                                            std::size_t axis, int64_t i) {
  const int64_t len = data_dims[axis];
  if (i < -len || i >= len) return std::nullopt;
  at[axis] = i < 0 ? i + len : i;
  const auto strides = row_major_strides(data_dims);
  std::size_t flat = 0;
  for (std::size_t k = 0; k < at.size(); ++k) flat += static_cast<std::size_t>(at[k]) * strides[k];
  return flat;
}

// Values of GatherElements: out[j] = data[j with j[axis] = indices[j]].
inline void gather_elements_values(Context& ctx, Node& n, std::size_t axis) {
  auto r = ctx.rational_value(n.input(0));  // whole numbers or fractions
  auto indices = ctx.int_values(n.input(1));
  if (!r || !indices) return;
  const Dims* values = &r->num;
  auto dd = value_dims(n.input(0), values->size());
  auto id = value_dims(n.input(1), indices->size());
  if (!dd || !id || dd->size() != id->size()) return;
  Dims out;
  for (std::size_t f = 0; f < indices->size(); ++f) {
    const auto at = unflatten(f, *id);
    for (std::size_t k = 0; k < at.size(); ++k)
      if (k != axis && at[k] >= (*dd)[k]) return;  // indices larger than data off the axis: no value
    auto p = replaced_position(*dd, at, axis, (*indices)[f]);
    if (!p) return ctx.record_error(n, {"index ", (*indices)[f], " is out of range for a dim of size ", (*dd)[axis]});
    out.push_back((*values)[*p]);
  }
  ctx.set_rational_value(n.output(0), {std::move(out), r->den});
}

// Values of ScatterElements / Scatter (reduction none): data with
// data[j with j[axis] = indices[j]] = updates[j].
inline void scatter_elements_values(Context& ctx, Node& n, std::size_t axis) {
  auto values = ctx.symbolic_value(n.input(0));
  auto indices = ctx.int_values(n.input(1));
  auto updates = ctx.symbolic_value(n.input(2));
  if (!values || !indices || !updates || indices->size() != updates->size()) return;
  auto dd = value_dims(n.input(0), values->size());
  auto id = value_dims(n.input(1), indices->size());
  if (!dd || !id || dd->size() != id->size()) return;
  Dims out = *values;
  for (std::size_t f = 0; f < indices->size(); ++f) {
    const auto at = unflatten(f, *id);
    for (std::size_t k = 0; k < at.size(); ++k)
      if (k != axis && at[k] >= (*dd)[k]) return;
    auto p = replaced_position(*dd, at, axis, (*indices)[f]);
    if (!p) return ctx.record_error(n, {"index ", (*indices)[f], " is out of range for a dim of size ", (*dd)[axis]});
    out[*p] = (*updates)[f];
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

// Values of ScatterND (reduction none): each row of k indices replaces the
// block data[row] (the product of data's dims after k elements) by the
// matching block of updates.
inline void scatter_nd_values(Context& ctx, Node& n) {
  auto values = ctx.symbolic_value(n.input(0));
  auto indices = ctx.int_values(n.input(1));
  auto updates = ctx.symbolic_value(n.input(2));
  if (!values || !indices || !updates) return;
  auto dd = value_dims(n.input(0), values->size());
  auto id = value_dims(n.input(1), indices->size());
  if (!dd || !id || id->empty()) return;
  const auto k = static_cast<std::size_t>(id->back());
  if (k == 0 || k > dd->size()) return;
  const std::size_t rows = indices->size() / k;
  std::size_t block = 1;
  for (std::size_t i = k; i < dd->size(); ++i) block *= static_cast<std::size_t>((*dd)[i]);
  if (rows * block != updates->size()) return;
  const auto strides = row_major_strides(*dd);
  Dims out = *values;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t flat = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const int64_t len = (*dd)[i];
      int64_t x = (*indices)[r * k + i];
      if (x < -len || x >= len) return ctx.record_error(n, {"index ", x, " is out of range for a dim of size ", len});
      flat += static_cast<std::size_t>(x < 0 ? x + len : x) * strides[i];
    }
    for (std::size_t b = 0; b < block; ++b) out[flat + b] = (*updates)[r * block + b];
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

// The rows a Gather reads from its data along `axis` (of `rows`): indices
// that are expressions of the input dims (listed values, or the bounds of a
// Range) must be in [-rows, rows-1]. When the lower end provably holds (a
// negative index counts from the end), the upper one is a contract
// (`past+seq <= 64`) unless it always holds; otherwise there is none.
inline void gather_index_contracts(Context& ctx, Node& n, const SymbolicDim& rows, const Shape& indices_shape) {
  if (!rows.is_known()) return;
  auto not_below_minus_rows = [&rows](const SymbolicDim& i) {
    return i.is_known() && prove_ge((i + rows).expr(), Expr(0));
  };
  if (auto listed = ctx.symbolic_value(n.input(1))) {
    for (const SymbolicDim& i : *listed)
      if (i.is_symbolic() && not_below_minus_rows(i))
        ctx.record_index_bound(&n, i, rows, SymbolicDim(1), "Gather index");
    return;
  }
  const Context::ElementBounds* bounds = ctx.element_bounds(n.input(1));
  if (bounds && not_below_minus_rows(bounds->lo))
    ctx.record_index_bound(&n, bounds->hi, rows, product(indices_shape.dims()), "Gather indices");
}

}  // namespace gather_scatter_detail

inline void infer_gather(Context& ctx, Node& n) {
  const auto [data_input, indices] = ctx.inputs(n, "data", "indices");
  if (!data_input) return;
  const Shape* data = shape_of(data_input);
  const Shape* idx = shape_of(indices);
  if (data && data->rank() == 0) return ctx.record_error(n, "data must have rank >= 1");
  if (!data || !idx) {
    set_like_input(ctx, n, 0, Shape());
  } else {
    auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), data->rank());
    if (!axis) return;
    const auto a = static_cast<std::ptrdiff_t>(*axis);
    Dims out(data->dims().begin(), data->dims().begin() + a);
    out.insert(out.end(), idx->dims().begin(), idx->dims().end());
    out.insert(out.end(), data->dims().begin() + a + 1, data->dims().end());
    set_like_input(ctx, n, 0, Shape(std::move(out)));
    gather_scatter_detail::gather_values(ctx, n, *axis);
    gather_scatter_detail::gather_index_contracts(ctx, n, data->dims()[*axis], *idx);
  }
}
SYMSHAPE_RULES(infer_gather, ai_onnx("Gather", 1, 11, 13).cost(count_none));

// ---- GatherElements ----

inline void infer_gather_elements(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* data = shape_of(n.input(0));
  const Shape* idx = shape_of(n.input(1));
  if (data && idx && data->rank() != idx->rank())
    return ctx.record_error(n, {"indices ", *idx, " must have the rank of data ", *data});
  if (!data) return set_like_input(ctx, n, 0, idx ? *idx : Shape());
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), data->rank());
  if (!axis) return;
  set_like_input(ctx, n, 0, idx ? *idx : Shape());
  gather_scatter_detail::gather_elements_values(ctx, n, static_cast<std::size_t>(*axis));
}
SYMSHAPE_RULES(infer_gather_elements, ai_onnx("GatherElements", 11, 13).cost(count_none));

// ---- GatherND ----

inline void infer_gather_nd_v11(Context& ctx, Node& n) { gather_nd_shape(ctx, n, 0); }
SYMSHAPE_RULES(infer_gather_nd_v11, ai_onnx("GatherND", 11).cost(count_none));
inline void infer_gather_nd_v12(Context& ctx, Node& n) { gather_nd_shape(ctx, n, ctx.attr_int(n, "batch_dims", 0)); }
SYMSHAPE_RULES(infer_gather_nd_v12, ai_onnx("GatherND", 12, 13).cost(count_none));

// ---- Scatter, ScatterElements, ScatterND ----

inline void infer_scatter(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  const Shape* data = shape_of(n.input(0));
  const Shape* idx = shape_of(n.input(1));
  const Shape* upd = shape_of(n.input(2));
  if (n.op_type != "ScatterND") {
    if ((data && idx && data->rank() != idx->rank()) || (idx && upd && idx->rank() != upd->rank()))
      return ctx.record_error(n, "data, indices and updates must have the same rank");
    if (data && !normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), data->rank())) return;
  } else if (idx && idx->rank() < 1)
    return ctx.record_error(n, "indices must have rank >= 1");
  propagate_type(ctx, n, 0, 0);
  // Values with reduction "none" only (shape vectors edited in place).
  if (!data || ctx.attr_string(n, "reduction", "none") != "none") return;
  if (n.op_type == "ScatterND") return gather_scatter_detail::scatter_nd_values(ctx, n);
  const int64_t a = ctx.attr_int(n, "axis", 0);
  gather_scatter_detail::scatter_elements_values(ctx, n, static_cast<std::size_t>(a < 0 ? a + data->rank() : a));
}
// Scatter with a reduction adds into the data: one per update element.
inline FlopCount count_scatter(const Node& n, const CountContext&) {
  const std::string r = n.attr_string("reduction", "none");
  if (r == "none") return no_arithmetic();
  return counted(per_element(n.input(2), 1));
}
SYMSHAPE_RULES(infer_scatter, ai_onnx("Scatter", 9, 11).cost(count_none),
               ai_onnx("ScatterElements", 11, 13, 16, 18).cost(count_scatter),
               ai_onnx("ScatterND", 11, 13, 16, 18).cost(count_scatter));

// TensorScatter (24): present_cache has past_cache's type; update matches it
// except along `axis` (default -2); write_indices is [batch].
inline void infer_tensor_scatter(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const Shape* past = shape_of(n.input(0));
  const Shape* update = shape_of(n.input(1));
  const std::string mode = ctx.attr_string(n, "mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.record_error(n, {"mode must be 'linear' or 'circular', got '", mode, "'"});
  if (past) {
    auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", -2), past->rank());
    if (!axis) return;
    if (update) {
      if (update->rank() != past->rank())
        return ctx.record_error(n, {"update rank ", update->rank(), " differs from past_cache rank ", past->rank()});
      for (std::size_t i = 0; i < past->size(); ++i) {
        if (static_cast<int64_t>(i) == *axis) continue;
        if ((*past)[i].is_int() && (*update)[i].is_int() && (*past)[i] != (*update)[i])
          return ctx.record_error(n, {"update ", *update, " differs from past_cache ", *past, " at dim ", i});
      }
    }
  }
  if (const Shape* idx = shape_of(n.input(2)); idx && idx->rank() != 1)
    return ctx.record_error(n, {"write_indices must be 1-D [batch], got shape ", *idx});
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_tensor_scatter, ai_onnx("TensorScatter", 24));

inline constexpr auto kGatherScatterRules =
    family_rules<infer_gather_rules, infer_gather_elements_rules, infer_gather_nd_v11_rules, infer_gather_nd_v12_rules,
                 infer_scatter_rules, infer_tensor_scatter_rules>("symshape/ops/gather_scatter.hpp");

}  // namespace symshape::ops
