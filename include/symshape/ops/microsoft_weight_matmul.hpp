// com.microsoft (onnxruntime contrib) matrix products with packed or
// block-quantized weights that the quantization family (microsoft_quant.hpp)
// does not hold: MatMulBlockQuantizedFp4Weight, MatMulBlockQuantizedFp8Weight,
// the fused MatMulNBitsMlp / MatMulNBitsQkv, and SparseToDenseMatMul.
//
// Inputs, outputs, attributes and shapes: onnxruntime docs/ContribOperators.md
// (A [..., K] gives [..., N] of A's type; SparseToDenseMatMul: 2-D A and B
// with transA / transB, of B's type).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/matmul_shape.hpp"
#include "symshape/ops/common/microsoft.hpp"

namespace symshape::ops {

namespace ms_weight_matmul_detail {

// Output `o` of A (input 0) [..., K] projected to `n` columns: [..., n].
// A's last dim must equal `k` when both are integers; false after an error.
inline bool project(Context& ctx, Node& n, std::size_t o, const SymbolicDim& k, const SymbolicDim& cols) {
  const Shape* a = shape_of(n.input(0));
  const DataType dt = dtype_of(n.input(0));
  if (!a) {
    ctx.set_shape_and_dtype(n.output(o), Shape(), dt);
    return true;
  }
  if (a->rank() < 1) {
    ctx.record_error(n, "A must have rank >= 1");
    return false;
  }
  const SymbolicDim& ak = (*a)[a->size() - 1];
  if (ak.is_int() && k.is_int() && ak != k) {
    ctx.record_error(n, "A's last dim " + ak.to_string() + " does not match K=" + k.to_string());
    return false;
  }
  std::vector<SymbolicDim> d = a->dims();
  d.back() = cols;
  ctx.set_shape_and_dtype(n.output(o), Shape(std::move(d)), dt);
  return true;
}

// The K and block_size attributes of the MatMulNBits fusions; false after an error.
inline bool nbits_attrs(Context& ctx, const Node& n) {
  const auto k = required_int(ctx, n, "K");
  const auto block = k ? required_int(ctx, n, "block_size") : std::nullopt;
  if (!block) return false;
  if (*k < 1 || !power_of_two_at_least_16(*block)) {
    ctx.record_error(n, "K must be positive and block_size a power of 2 and at least 16");
    return false;
  }
  return true;
}

}  // namespace ms_weight_matmul_detail

// MatMulBlockQuantizedFp4Weight: A [..., K], B [N, K/2] (packed NVFP4),
// weight_scale, weight_scale_2, [input_scale], [bias] -> [..., N].
inline void infer_ms_matmul_fp4_weight(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 6)) return;
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, b, 2, 2, "B")) return;
  const SymbolicDim k = b && (*b)[1].is_known() ? (*b)[1] * SymbolicDim(2) : SymbolicDim();
  ms_weight_matmul_detail::project(ctx, n, 0, k, dim_at(b, 0));
}
SYMSHAPE_RULES(infer_ms_matmul_fp4_weight, com_microsoft("MatMulBlockQuantizedFp4Weight", 1));

// MatMulBlockQuantizedFp8Weight: A [..., K], B [N, K] (float8e4m3fn),
// b_scale, [a_scale], [bias] -> [..., N].
inline void infer_ms_matmul_fp8_weight(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 5)) return;
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, b, 2, 2, "B")) return;
  ms_weight_matmul_detail::project(ctx, n, 0, dim_at(b, 1), dim_at(b, 0));
}
SYMSHAPE_RULES(infer_ms_matmul_fp8_weight, com_microsoft("MatMulBlockQuantizedFp8Weight", 1));

// MatMulNBitsMlp: A [..., K], [skip], [norm_scale], gate_B, gate_scales,
// [gate_bias], up_B, up_scales, [up_bias] (K, N, activation, block_size
// required) -> Y [..., N], input_skip_bias_sum (A's type and shape).
inline void infer_ms_matmul_nbits_mlp(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 3, 4, 6, 7}, 9) || !ms_weight_matmul_detail::nbits_attrs(ctx, n)) return;
  const auto cols = required_int(ctx, n, "N");
  if (!cols || !require_attr(ctx, n, "activation", Attribute::Kind::String)) return;
  if (*cols < 1) return ctx.record_error(n, "N must be positive");
  if (!ms_weight_matmul_detail::project(ctx, n, 0, SymbolicDim(n.attr_int("K", 0)), SymbolicDim(*cols))) return;
  if (n.output(1)) propagate_type(ctx, n, 1, 0);
}
SYMSHAPE_RULES(infer_ms_matmul_nbits_mlp, com_microsoft("MatMulNBitsMlp", 1));

// MatMulNBitsQkv: A [..., K], [skip], norm_scale, q_B, q_scales, [q_bias],
// k_B, k_scales, [k_bias], v_B, v_scales, [v_bias] (K, Nq, Nkv, block_size
// required) -> Q [..., Nq], K and V [..., Nkv], input_skip_bias_sum.
inline void infer_ms_matmul_nbits_qkv(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 2, 3, 4, 6, 7, 9, 10}, 12) || !ms_weight_matmul_detail::nbits_attrs(ctx, n)) return;
  const auto nq = required_int(ctx, n, "Nq");
  const auto nkv = nq ? required_int(ctx, n, "Nkv") : std::nullopt;
  if (!nkv) return;
  if (*nq < 1 || *nkv < 1) return ctx.record_error(n, "Nq and Nkv must be positive");
  const SymbolicDim k(n.attr_int("K", 0));
  for (std::size_t o = 0; o < 3; ++o)
    if (!ms_weight_matmul_detail::project(ctx, n, o, k, SymbolicDim(o == 0 ? *nq : *nkv))) return;
  if (n.output(3)) propagate_type(ctx, n, 3, 0);
}
SYMSHAPE_RULES(infer_ms_matmul_nbits_qkv, com_microsoft("MatMulNBitsQkv", 1));

// SparseToDenseMatMul: A (sparse, 2-D) and B (dense, 2-D) with transA /
// transB -> [M, N] of B's type.
inline void infer_ms_sparse_to_dense_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, a, 2, 2, "A") || !require_rank(ctx, n, b, 2, 2, "B")) return;
  const bool ta = n.attr_int("transA", 0) != 0, tb = n.attr_int("transB", 0) != 0;
  const SymbolicDim m = dim_at(a, ta ? 1 : 0), ka = dim_at(a, ta ? 0 : 1);
  const SymbolicDim kb = dim_at(b, tb ? 1 : 0), cols = dim_at(b, tb ? 0 : 1);
  if (a && b && !check_inner_dims(ctx, n, ka, kb, *a, *b)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({m, cols}), dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_ms_sparse_to_dense_matmul, com_microsoft("SparseToDenseMatMul", 1));

inline constexpr auto kMicrosoftWeightMatMulRules =
    family_rules<infer_ms_matmul_fp4_weight_rules, infer_ms_matmul_fp8_weight_rules, infer_ms_matmul_nbits_mlp_rules,
                 infer_ms_matmul_nbits_qkv_rules, infer_ms_sparse_to_dense_matmul_rules>(
        "symshape/ops/microsoft_weight_matmul.hpp");

}  // namespace symshape::ops
