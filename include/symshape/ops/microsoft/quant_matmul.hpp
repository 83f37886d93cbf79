// com.microsoft (onnxruntime contrib) matmuls whose right-hand side is a
// quantized weight: MatMulBnb4, MatMulFpQ4, MatMulNBitsMlp, MatMulNBitsQkv,
// MatMulBlockQuantizedFp4Weight and MatMulBlockQuantizedFp8Weight
// (MatMulNBits is in microsoft_misc.hpp, DynamicQuantizeMatMul, QGemm and
// the other 8-bit ones in microsoft_quant.hpp).
//
// Checked against onnxruntime's docs/ContribOperators.md and contrib_defs.cc:
// A [..., K] gives [..., N] of A's dtype, with K and N from attributes
// (MatmulWithQuantWeightShapeInference), from the B_shape input (MatMulFpQ4)
// or from B's shape (the FP4/FP8 block-quantized weights).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/matmul_shape.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/ops/microsoft/common.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::ops {

namespace ms_qmatmul_detail {
// ceil(a / b) for positive b, or nullopt when a is negative.
inline std::optional<int64_t> ceil_div(int64_t a, int64_t b) {
  if (a < 0) return std::nullopt;
  return a / b + (a % b != 0 ? 1 : 0);
}
// A 1-D input of `want` elements, checked when its shape and `want` are known
// (want is nullopt after an int64 overflow); false after the error.
inline bool check_length(Context& ctx, const Node& n, std::size_t i, std::optional<int64_t> want, const char* what) {
  const Shape* s = shape_of(n.input(i));
  if (!require_rank(ctx, n, s, 1, 1, what)) return false;
  if (!s || !want || !(*s)[0].is_int() || (*s)[0].value() == *want) return true;
  ctx.record_error(n, {what, " must have ", *want, " elements, got ", *s});
  return false;
}
// A per-block scale of shape [N, ceil(K / block)] (dims checked when
// integers); false after the error.
inline bool check_block_scales(Context& ctx, const Node& n, std::size_t i, const SymbolicDim& cols,
                               const SymbolicDim& k, int64_t block, const char* what) {
  const Shape* s = shape_of(n.input(i));
  if (!require_rank(ctx, n, s, 2, 2, what)) return false;
  if (!s) return true;
  const bool rows_ok = !cols.is_int() || !(*s)[0].is_int() || (*s)[0] == cols;
  const auto blocks = k.is_int() ? ceil_div(k.value(), block) : std::nullopt;
  const bool blocks_ok = !blocks || !(*s)[1].is_int() || (*s)[1].value() == *blocks;
  if (rows_ok && blocks_ok) return true;
  ctx.record_error(n, {what, " ", *s, " must be [N, ceil(K / block_size)] = [", cols, ", ",
                       (blocks ? std::to_string(*blocks) : "?"), "]"});
  return false;
}
// The positive attribute block_size with its default; nullopt after the error.
inline std::optional<int64_t> positive_block_size(Context& ctx, const Node& n, int64_t fallback) {
  const int64_t block = ctx.attr_int(n, "block_size", fallback);
  if (block >= 1) return block;
  ctx.record_error(n, {"block_size must be positive, got ", block});
  return std::nullopt;
}
}  // namespace ms_qmatmul_detail

// MatMulBnb4: A, B [(N*K+1)/2] (uint8, two 4-bit values a byte), absmax
// [ceil(N*K / block_size)]; K, N, block_size, quant_type (0 FP4, 1 NF4)
// required; transB (default 1) -> A [..., K] @ B^T [K, N] = [..., N], or with
// transB 0, A [..., N] @ B [N, K] = [..., K]; A's dtype.
inline void infer_ms_matmul_bnb4(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const auto k = required_positive_int(ctx, n, "K");
  if (!k) return;
  const auto nn = required_positive_int(ctx, n, "N");
  if (!nn) return;
  const auto block = required_block_size(ctx, n);
  if (!block) return;
  const auto quant_type = required_int(ctx, n, "quant_type");
  if (!quant_type) return;
  if (*quant_type != 0 && *quant_type != 1)
    return ctx.record_error(n, {"quant_type must be 0 (FP4) or 1 (NF4), got ", *quant_type});
  int64_t count = 0;
  const bool fits = checked::mul(*k, *nn, count);
  if (!ms_qmatmul_detail::check_length(ctx, n, 1, fits ? std::optional<int64_t>(count / 2 + count % 2) : std::nullopt,
                                       "B") ||
      !ms_qmatmul_detail::check_length(ctx, n, 2, fits ? ms_qmatmul_detail::ceil_div(count, *block) : std::nullopt,
                                       "absmax"))
    return;
  const bool trans_b = ctx.attr_int(n, "transB", 1) != 0;
  const auto y = matmul_with_weight(ctx, n, shape_of(n.input(0)), SymbolicDim(trans_b ? *k : *nn),
                                    SymbolicDim(trans_b ? *nn : *k), trans_b ? "K" : "N");
  if (!y) return;
  ctx.set_shape_and_dtype(n.output(0), *y, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_matmul_bnb4, com_microsoft("MatMulBnb4", 1).cost(count_matmul_k_attr));

// MatMulFpQ4: A, B (packed int4 blob), B_shape (int64 [K, N]) -> A @ [K, N]
// (numpy.matmul), A's dtype. With B_shape's values unknown, the last dim is.
inline void infer_ms_matmul_fpq4(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* a = shape_of(n.input(0));
  const DataType dt = dtype_of(n.input(0));
  const auto len = static_length(n.input(2));
  if (len && *len != 2) return ctx.record_error(n, {"B_shape must hold 2 values [K, N], got ", *len});
  const auto b = input_ints(ctx, n, 2);
  if (b && b->size() != 2) return ctx.record_error(n, {"B_shape must hold 2 values [K, N], got ", b->size()});
  if (b && ((*b)[0] < 1 || (*b)[1] < 1))
    return ctx.record_error(n, {"B_shape must be positive, got [", (*b)[0], ", ", (*b)[1], "]"});
  if (!b) {
    const auto y = matmul_with_weight(ctx, n, a, SymbolicDim(), ctx.new_symbolic_dim());
    if (y) ctx.set_shape_and_dtype(n.output(0), *y, dt);
    return;
  }
  const auto y = matmul_shape(ctx, n, a ? *a : Shape(), Shape({(*b)[0], (*b)[1]}));
  if (!y) return;
  ctx.set_shape_and_dtype(n.output(0), *y, dt);
}
SYMSHAPE_RULES(infer_ms_matmul_fpq4, com_microsoft("MatMulFpQ4", 1));

// MatMulNBitsMlp: A, [skip], [norm_scale [K]], gate_B, gate_scales,
// [gate_bias], up_B, up_scales, [up_bias]; K, N, block_size and activation
// required -> Y [..., N] and input_skip_bias_sum (A's shape), A's dtype.
inline void infer_ms_matmul_nbits_mlp(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 3, 4, 6, 7}, 9)) return;
  const auto k = required_positive_int(ctx, n, "K");
  if (!k) return;
  const auto nn = required_positive_int(ctx, n, "N");
  if (!nn || !required_block_size(ctx, n) || !require_attr(ctx, n, "activation", Attribute::Kind::String)) return;
  if (n.input(2) && !ms_qmatmul_detail::check_length(ctx, n, 2, *k, "norm_scale")) return;
  const Shape* a = shape_of(n.input(0));
  const auto y = matmul_with_weight(ctx, n, a, SymbolicDim(*k), SymbolicDim(*nn));
  if (!y) return;
  ctx.set_shape_and_dtype(n.output(0), *y, dtype_of(n.input(0)));
  if (n.output(1)) propagate_type(ctx, n, 1, 0);
}
SYMSHAPE_RULES(infer_ms_matmul_nbits_mlp, com_microsoft("MatMulNBitsMlp", 1));

// MatMulNBitsQkv: A, [skip], norm_scale [K], then (B, scales, [bias]) for Q,
// K and V; K, Nq, Nkv, block_size required -> Q [..., Nq], K and V
// [..., Nkv], input_skip_bias_sum (A's shape), A's dtype.
inline void infer_ms_matmul_nbits_qkv(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 2, 3, 4, 6, 7, 9, 10}, 12)) return;
  const auto k = required_positive_int(ctx, n, "K");
  if (!k) return;
  const auto nq = required_positive_int(ctx, n, "Nq");
  if (!nq) return;
  const auto nkv = required_positive_int(ctx, n, "Nkv");
  if (!nkv || !required_block_size(ctx, n)) return;
  if (!ms_qmatmul_detail::check_length(ctx, n, 2, *k, "norm_scale")) return;
  const Shape* a = shape_of(n.input(0));
  const DataType dt = dtype_of(n.input(0));
  const auto q = matmul_with_weight(ctx, n, a, SymbolicDim(*k), SymbolicDim(*nq));
  if (!q) return;
  const auto kv = matmul_with_weight(ctx, n, a, SymbolicDim(*k), SymbolicDim(*nkv));
  ctx.set_shape_and_dtype(n.output(0), *q, dt);
  for (std::size_t o = 1; o < 3; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), *kv, dt);
  if (n.output(3)) propagate_type(ctx, n, 3, 0);
}
SYMSHAPE_RULES(infer_ms_matmul_nbits_qkv, com_microsoft("MatMulNBitsQkv", 1));

// MatMulBlockQuantizedFp4Weight: A [..., K], B [N, K/2] (packed E2M1),
// weight_scale [N, ceil(K / block_size)], weight_scale_2, [input_scale],
// [bias]; block_size (default 16) -> [..., N], A's dtype.
// MatMulBlockQuantizedFp8Weight: A [..., K], B [N, K] (E4M3), b_scale
// [N, ceil(K / block_size)], [a_scale], [bias]; block_size (default 128).
inline void infer_ms_matmul_block_quantized_weight(Context& ctx, Node& n) {
  const bool fp4 = n.op_type == "MatMulBlockQuantizedFp4Weight";
  if (!(fp4 ? check_present(ctx, n, {0, 1, 2, 3}, 6) : check_present(ctx, n, {0, 1, 2}, 5))) return;
  const auto block = ms_qmatmul_detail::positive_block_size(ctx, n, fp4 ? 16 : 128);
  if (!block) return;
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, b, 2, 2, "B")) return;
  const SymbolicDim cols = dim_at(b, 0);
  const SymbolicDim k = fp4 ? dim_at(b, 1) * SymbolicDim(2) : dim_at(b, 1);
  if (!ms_qmatmul_detail::check_block_scales(ctx, n, 2, cols, k, *block, fp4 ? "weight_scale" : "b_scale")) return;
  const auto y = matmul_with_weight(ctx, n, shape_of(n.input(0)), k, cols);
  if (!y) return;
  ctx.set_shape_and_dtype(n.output(0), *y, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_matmul_block_quantized_weight, com_microsoft("MatMulBlockQuantizedFp4Weight", 1),
               com_microsoft("MatMulBlockQuantizedFp8Weight", 1));

inline constexpr auto kMicrosoftQuantMatMulRules =
    family_rules<infer_ms_matmul_bnb4_rules, infer_ms_matmul_fpq4_rules, infer_ms_matmul_nbits_mlp_rules,
                 infer_ms_matmul_nbits_qkv_rules, infer_ms_matmul_block_quantized_weight_rules>(
        "symshape/ops/microsoft/quant_matmul.hpp");

}  // namespace symshape::ops
