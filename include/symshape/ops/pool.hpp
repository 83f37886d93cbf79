// Pooling: MaxPool (+ INT64 Indices), AveragePool, LpPool, the Global*Pool
// ops and MaxUnpool. Window output sizes: common/window.hpp.
#pragma once

#include <cstdint>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/ops/common/window.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::ops {

// One comparison or add per window element: numel(Y) x prod(kernel_shape);
// LpPool twice that (the power).
inline FlopCount count_pool(const Node& n, const CountContext&) {
  const auto kernel = n.attr_ints("kernel_shape");
  if (!kernel) return not_counted("not counted: no kernel_shape");
  int64_t window = n.op_type == "LpPool" ? 2 : 1;
  for (int64_t k : *kernel)
    if (!checked::mul(window, k, window)) return not_counted("not counted: kernel_shape overflows int64");
  return counted(per_element(n.output(0), window));
}

// MaxPool: Y and the optional INT64 Indices (8+); ceil_mode and dilations (10+).
inline void infer_max_pool(Context& ctx, Node& n) { pool_common(ctx, n, PoolOutputs::WithIndices); }
SYMSHAPE_RULES(infer_max_pool, ai_onnx("MaxPool", 1, 8, 10, 11, 12, 22).cost(count_pool));

// AveragePool (count_include_pad 7+, ceil_mode 10+, dilations 19+) and LpPool (ceil_mode, dilations 18+).
inline void infer_avg_pool(Context& ctx, Node& n) { pool_common(ctx, n, PoolOutputs::ValuesOnly); }
SYMSHAPE_RULES(infer_avg_pool, ai_onnx("AveragePool", 1, 7, 10, 11, 19, 22).cost(count_pool),
               ai_onnx("LpPool", 1, 2, 11, 18, 22).cost(count_pool));

// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: [N, C, 1, ...].
inline void infer_global_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  if (x->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2 (N, C, ...), got ", *x});
  std::vector<SymbolicDim> out{(*x)[0], (*x)[1]};
  out.resize(x->size(), SymbolicDim(1));
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_global_pool, ai_onnx("GlobalAveragePool", 1, 22).cost(count_per_input),
               ai_onnx("GlobalMaxPool", 1, 22).cost(count_per_input),
               ai_onnx("GlobalLpPool", 1, 2, 22).cost(count_reduce_two));

// MaxUnpool: the output_shape input when given, else (in-1)*s + k - pb - pe.
inline void infer_max_unpool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const Attribute* ks = require_attr(ctx, n, "kernel_shape");
  if (!ks) return;
  const DataType dtype = dtype_of(n.input(0));
  if (n.input(2)) {
    if (auto v = input_dims(ctx, n, 2)) {
      ctx.set_shape_and_dtype(n.output(0), Shape(*v), dtype);
      return;
    }
    const Shape* s = shape_of(n.input(2));
    if (s && s->rank() == 1 && (*s)[0].is_int()) {
      ctx.set_shape_and_dtype(n.output(0), unknown_dims_of_rank((*s)[0].value()), dtype);
    } else {
      ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    }
    return;
  }
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  if (x->rank() < 3) return ctx.record_error(n, {"input must have rank >= 3 (N, C, spatial...), got ", *x});
  const std::size_t k = x->size() - 2;
  // MaxUnpool's window is kernel_shape, strides and pads only (no dilations,
  // auto_pad or ceil_mode): not read_window_spec, which also checks them.
  const auto kernel = kernel_dims(ctx, n, nullptr, k);
  if (!kernel) return;
  const auto strides = spatial_ints<SmallVector<int64_t, 3>>(ctx, n, "strides", k, 1);
  if (!strides) return;
  const auto pads = spatial_ints<SmallVector<int64_t, 6>>(ctx, n, "pads", 2 * k, 0);
  if (!pads) return;
  std::vector<SymbolicDim> out;
  out.reserve(k + 2);
  out.push_back((*x)[0]);
  out.push_back((*x)[1]);
  for (std::size_t i = 0; i < k; ++i)
    out.push_back(((*x)[i + 2] - 1) * SymbolicDim((*strides)[i]) + (*kernel)[i] - SymbolicDim((*pads)[i]) -
                  SymbolicDim((*pads)[i + k]));
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_max_unpool, ai_onnx("MaxUnpool", 9, 11, 22).cost(count_none));

inline constexpr auto kPoolRules =
    family_rules<infer_max_pool_rules, infer_avg_pool_rules, infer_global_pool_rules, infer_max_unpool_rules>(
        "symshape/ops/pool.hpp");

}  // namespace symshape::ops
