// com.microsoft (onnxruntime contrib) elementwise and matmul-like ops:
// BiasGelu, FastGelu, Gelu, QuickGelu, BiasAdd, RotaryEmbedding (shape
// passthrough), BiasSplitGelu (last dim = bias dim / 2), FusedMatMul (transA,
// transB, transBatchA, transBatchB), TransposeMatMul, GemmFastGelu,
// MatMulNBits ([..., N] from the N attribute, dtype of A), MatMulInteger16
// (INT32), NhwcConv (NHWC spatial dims as Conv), GroupNorm / SkipGroupNorm
// (passthrough; groups and activation required), SparseToDenseMatMul.
//
// Checked against onnxruntime's contrib schemas and their inference
// functions: contrib_defs.cc (Gelu, BiasGelu, QuickGelu, FusedMatMul /
// TransposeMatMul via FusedMatMulShapeInference, MatMulInteger16, MatMulNBits
// via MatmulWithQuantWeightShapeInference), diffusion_defs.cc (GroupNorm,
// SkipGroupNorm, BiasSplitGelu, BiasAdd), bert_defs.cc (GemmFastGelu,
// FastGelu, RotaryEmbedding) and docs/ContribOperators.md (input counts,
// required attributes).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/matmul_shape.hpp"
#include "symshape/ops/common/window.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

// FastGelu, Gelu, QuickGelu (one required input) and BiasGelu (two): output 0
// has the shape and type of input 0.
inline void infer_ms_passthrough1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n);
}
inline FlopCount count_fast_gelu(const Node& n, const CountContext&) {
  return counted(per_element(n.output(0), n.input(1) ? 2 : 1));
}
SYMSHAPE_RULES(infer_ms_passthrough1, com_microsoft("FastGelu", 1).cost(count_fast_gelu),
               com_microsoft("Gelu", 1).cost(count_fast_gelu), com_microsoft("QuickGelu", 1).cost(count_fast_gelu));
inline void infer_ms_passthrough2(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_passthrough2, com_microsoft("BiasGelu", 1).cost(count_two_per_element));
// RotaryEmbedding: input, position_ids, cos_cache, sin_cache.
inline void infer_ms_rotary_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 4)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_rotary_embedding, com_microsoft("RotaryEmbedding", 1).cost(count_rotary));
// BiasAdd: X [N, HW, C], bias [C], skip [N, HW, C] -> X's shape.
inline void infer_ms_bias_add(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_bias_add, com_microsoft("BiasAdd", 1).cost(count_two_per_element));
namespace ms_misc_detail {
// GroupNorm / SkipGroupNorm attributes: groups and activation are required
// (no default in diffusion_defs.cc); channels_last (default 1) picks C, which
// must be a multiple of groups when known.
inline bool group_norm_attrs(Context& ctx, const Node& n) {
  auto groups = required_int(ctx, n, "groups");
  if (!groups || !required_int(ctx, n, "activation")) return false;
  if (*groups < 1) {
    ctx.record_error(n, {"groups must be positive, got ", *groups});
    return false;
  }
  const Shape* x = shape_of(n.input(0));
  if (x && x->size() >= 2) {
    const SymbolicDim& c = ctx.attr_int(n, "channels_last", 1) != 0 ? (*x)[x->size() - 1] : (*x)[1];
    if (c.is_int() && c.value() % *groups != 0) {
      ctx.record_error(n, {"channels ", c, " are not a multiple of groups ", *groups});
      return false;
    }
  }
  return true;
}
}  // namespace ms_misc_detail

// GroupNorm: X, gamma, beta -> Y with X's type (propagateShapeAndTypeFromFirstInput).
inline void infer_ms_group_norm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3) || !ms_misc_detail::group_norm_attrs(ctx, n)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_group_norm, com_microsoft("GroupNorm", 1).cost(count_instance_norm));
// SkipGroupNorm: X, gamma, beta, skip, [bias] -> Y and optional S, both X's type.
inline void infer_ms_skip_group_norm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 5) || !ms_misc_detail::group_norm_attrs(ctx, n)) return;
  propagate_type(ctx, n, 0, 0);
  propagate_type(ctx, n, 1, 0);
}
SYMSHAPE_RULES(infer_ms_skip_group_norm, com_microsoft("SkipGroupNorm", 1));

// BiasSplitGelu: X [N, S, D], bias [D] -> [N, S, D/2]. onnxruntime takes
// D from the bias (diffusion_defs.cc); X's last dim stands in when the bias
// shape is unknown.
inline void infer_ms_bias_split_gelu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* bias = shape_of(n.input(1));
  const DataType dt = dtype_of(n.input(0));
  if (x && x->rank() != 3) return ctx.record_error(n, {"BiasSplitGelu input must be 3-D, got ", *x});
  if (bias && bias->rank() != 1) return ctx.record_error(n, {"BiasSplitGelu bias must be 1-D, got ", *bias});
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  SymbolicDim c = (*x)[2];
  if (bias) {
    const SymbolicDim& d = (*bias)[0];
    if (d.is_int() && c.is_int() && d.value() != c.value())
      return ctx.record_error(n, {"bias dim ", d, " does not match input's last dim ", c});
    if (d.is_int() || !c.is_known()) c = d;
  }
  if (c.is_int() && c.value() % 2 != 0) return ctx.record_error(n, {"last dim ", c, " is odd"});
  ctx.set_shape_and_dtype(n.output(0), Shape({(*x)[0], (*x)[1], c.is_known() ? c / SymbolicDim(2) : SymbolicDim()}),
                          dt);
}
SYMSHAPE_RULES(infer_ms_bias_split_gelu, com_microsoft("BiasSplitGelu", 1));

// FusedMatMul: alpha * op(A) @ op(B) with transA/transB/transBatchA/transBatchB.
inline void infer_ms_fused_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  fused_matmul_shape(ctx, n);
}
inline FlopCount count_fused_matmul(const Node& n, const CountContext&) {
  if (n.attr_int("transBatchA", 0) || n.attr_int("transBatchB", 0))
    return not_counted("not counted: FusedMatMul with transBatchA/transBatchB");
  return count_matmul_k(n, 0, n.attr_int("transA", 0) != 0 ? AOrder::Transposed : AOrder::AsIs);
}
SYMSHAPE_RULES(infer_ms_fused_matmul, com_microsoft("FusedMatMul", 1).cost(count_fused_matmul),
               com_microsoft("TransposeMatMul", 1));

// GemmFastGelu: X [M, K], W [K, N], optional bias [N] -> [M, N] (matmul semantics).
inline void infer_ms_gemm_fast_gelu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  infer_matmul_like(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_gemm_fast_gelu, com_microsoft("GemmFastGelu", 1));

// MatMulInteger16: A, B (int16/uint16) -> INT32.
inline void infer_ms_matmul_integer16(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  infer_matmul_like(ctx, n, 0, 1, DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_matmul_integer16, com_microsoft("MatMulInteger16", 1).cost(count_matmul));

// MatMulNBits: A [..., K], B (packed), scales, [zero_points], [g_idx], [bias];
// attributes K, N and block_size required (block_size a power of 2, >= 16)
// -> [..., N] of A's dtype (MatmulWithQuantWeightShapeInference with transB).
inline void infer_ms_matmul_nbits(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 6)) return;
  const auto k = required_positive_int(ctx, n, "K");
  if (!k) return;
  const auto nn = required_positive_int(ctx, n, "N");
  if (!nn || !required_block_size(ctx, n)) return;
  const auto y = matmul_with_weight(ctx, n, shape_of(n.input(0)), SymbolicDim(*k), SymbolicDim(*nn));
  if (!y) return;
  ctx.set_shape_and_dtype(n.output(0), *y, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_matmul_nbits, com_microsoft("MatMulNBits", 1).cost(count_matmul_k_attr));

// NhwcConv: X [N, H.., C], W [M, C/group, k...], [B] -> [N, out..., M].
inline void infer_ms_nhwc_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  nhwc_conv(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_nhwc_conv, com_microsoft("NhwcConv", 1).cost(count_conv));

// SparseToDenseMatMul: A (sparse, 2-D) and B (dense, 2-D) with transA /
// transB -> [M, N] of B's type.
inline void infer_ms_sparse_to_dense_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, a, 2, 2, "A") || !require_rank(ctx, n, b, 2, 2, "B")) return;
  const bool ta = ctx.attr_int(n, "transA", 0) != 0, tb = ctx.attr_int(n, "transB", 0) != 0;
  const SymbolicDim m = dim_at(a, ta ? 1 : 0), ka = dim_at(a, ta ? 0 : 1);
  const SymbolicDim kb = dim_at(b, tb ? 1 : 0), cols = dim_at(b, tb ? 0 : 1);
  if (a && b && !check_inner_dims(ctx, n, ka, kb, *a, *b)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({m, cols}), dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_ms_sparse_to_dense_matmul, com_microsoft("SparseToDenseMatMul", 1));

inline constexpr auto kMicrosoftMiscRules =
    family_rules<infer_ms_passthrough1_rules, infer_ms_passthrough2_rules, infer_ms_rotary_embedding_rules,
                 infer_ms_bias_add_rules, infer_ms_group_norm_rules, infer_ms_skip_group_norm_rules,
                 infer_ms_bias_split_gelu_rules, infer_ms_fused_matmul_rules, infer_ms_gemm_fast_gelu_rules,
                 infer_ms_matmul_integer16_rules, infer_ms_matmul_nbits_rules, infer_ms_nhwc_conv_rules,
                 infer_ms_sparse_to_dense_matmul_rules>("symshape/ops/microsoft/misc.hpp");

}  // namespace symshape::ops
