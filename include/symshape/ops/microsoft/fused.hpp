// com.microsoft (onnxruntime contrib) fused forms of ai.onnx operators:
// FusedConv / NhwcFusedConv (Conv with an activation and an added Z),
// ConvTransposeWithDynamicPads (pads as an input), FusedGemm,
// FusedMatMulActivation, MaxpoolWithMask, NhwcMaxPool, the dropout fusions
// (BiasDropout, BitmaskDropout, BitmaskBiasDropout), BiasSoftmax, GatedAdd,
// GatedRMSNorm and ComplexMul / ComplexMulConj.
//
// Inputs, outputs and attributes: onnxruntime docs/ContribOperators.md; shapes
// from the contrib schemas (core/graph/contrib_ops/contrib_defs.cc,
// nhwc_schema_defs.cc), which reuse the ONNX Conv / Gemm / pooling inference.
#pragma once

#include <cstdint>
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

// FusedConv: X, W, [B], [Z] -> Conv's output (Z is added to it).
inline void infer_ms_fused_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  conv_common(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_fused_conv, com_microsoft("FusedConv", 1).cost(count_conv));

// NhwcFusedConv: X [N, D..., C], W [M, C/group, k...], [B], [Z] -> [N, out..., M].
inline void infer_ms_nhwc_fused_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  nhwc_conv(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_nhwc_fused_conv, com_microsoft("NhwcFusedConv", 1));

// ConvTransposeWithDynamicPads: X, W, [Pads [2*k] int64], [B]: ConvTranspose
// with the pads read from the Pads input (spatial dims unknown when its
// values are not known).
inline void infer_ms_conv_transpose_dynamic_pads(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  const bool pads_input = n.input(2) != nullptr;
  std::optional<std::vector<SymbolicDim>> pads;
  if (pads_input) pads = ctx.symbolic_value(n.input(2));
  const Shape* x = shape_of(n.input(0));
  if (pads && x && pads->size() != 2 * (x->size() - 2))
    return ctx.record_error(n,
                            {"Pads has ", pads->size(), " values; expected ", 2 * (x->size() - 2), " for input ", *x});
  conv_transpose(ctx, n, pads_input ? ExtraPads::FromInput : ExtraPads::None, pads);
}
SYMSHAPE_RULES(infer_ms_conv_transpose_dynamic_pads, com_microsoft("ConvTransposeWithDynamicPads", 1));

// FusedGemm: Gemm followed by an activation.
inline void infer_ms_fused_gemm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  gemm_shape(ctx, n);
}
SYMSHAPE_RULES(infer_ms_fused_gemm, com_microsoft("FusedGemm", 1));

// FusedMatMulActivation: FusedMatMul with the required activation attribute.
inline void infer_ms_fused_matmul_activation(Context& ctx, Node& n) {
  if (!require_attr(ctx, n, "activation", Attribute::Kind::String)) return;
  if (!check_inputs(ctx, n, 2, 2)) return;
  fused_matmul_shape(ctx, n);
}
SYMSHAPE_RULES(infer_ms_fused_matmul_activation, com_microsoft("FusedMatMulActivation", 1));

// MaxpoolWithMask: X, M (int32 mask) -> Y as MaxPool's.
inline void infer_ms_maxpool_with_mask(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  pool_common(ctx, n, PoolOutputs::ValuesOnly, 2);
}
SYMSHAPE_RULES(infer_ms_maxpool_with_mask, com_microsoft("MaxpoolWithMask", 1));

// NhwcMaxPool: x [N, D..., C] (int8/uint8), kernel_shape required -> [N, out..., C].
inline void infer_ms_nhwc_max_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1) || !require_attr(ctx, n, "kernel_shape", Attribute::Kind::Ints)) return;
  const Shape* x = shape_of(n.input(0));
  const DataType dt = dtype_of(n.input(0));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  if (x->rank() < 3) return ctx.record_error(n, {"input must have rank >= 3 (N, spatial..., C), got ", *x});
  const auto spec = read_window_spec(ctx, n, nullptr, x->size() - 2);
  if (!spec) return;
  auto out = window_output(ctx, n, *x, *spec, (*x)[x->size() - 1], /*channels_last=*/true);
  if (!out) return;
  ctx.set_shape_and_dtype(n.output(0), std::move(*out), dt);
}
SYMSHAPE_RULES(infer_ms_nhwc_max_pool, com_microsoft("NhwcMaxPool", 1));

namespace ms_fused_detail {
// The bias of a dropout fusion: a vector of data's last dim, or data's shape.
inline bool check_dropout_bias(Context& ctx, const Node& n, const Shape* data, const Shape* bias) {
  if (!data || !bias || data->rank() < 1) return true;
  const SymbolicDim& last = (*data)[data->size() - 1];
  if (bias->rank() == 1) {
    if (!(*bias)[0].is_int() || !last.is_int() || (*bias)[0] == last) return true;
  } else if (bias->rank() == data->rank()) {
    return true;
  }
  ctx.record_error(n, {"bias ", *bias, " must be [", last, "] or data's shape ", *data});
  return false;
}
// Output 0 has data's type; the mask (output 1) is BOOL of data's shape, or,
// bit-packed, UINT32 [ceil(elements / 32)].
enum class MaskKind { Bool, Bitmask };
inline void dropout_outputs(Context& ctx, Node& n, MaskKind bitmask) {
  propagate_type(ctx, n);
  if (!n.output(1)) return;
  const Shape* data = shape_of(n.input(0));
  if (bitmask == MaskKind::Bool)
    return (void)ctx.set_shape_and_dtype(n.output(1), data ? *data : Shape(), DataType::BOOL);
  const SymbolicDim count = data ? product(data->dims()) : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(1), Shape({count.is_known() ? (count + 31) / SymbolicDim(32) : SymbolicDim()}),
                          DataType::UINT32);
}
}  // namespace ms_fused_detail

// BiasDropout / BitmaskBiasDropout: data, bias, [residual], [ratio], [training_mode].
inline void infer_ms_bias_dropout(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 5)) return;
  const Shape* data = shape_of(n.input(0));
  if (!ms_fused_detail::check_dropout_bias(ctx, n, data, shape_of(n.input(1)))) return;
  const Shape* residual = shape_of(n.input(2));
  if (data && residual && !broadcast_shapes(ctx, n, *data, *residual)) return;
  ms_fused_detail::dropout_outputs(
      ctx, n, n.op_type == "BitmaskBiasDropout" ? ms_fused_detail::MaskKind::Bitmask : ms_fused_detail::MaskKind::Bool);
}
SYMSHAPE_RULES(infer_ms_bias_dropout, com_microsoft("BiasDropout", 1), com_microsoft("BitmaskBiasDropout", 1));

// BitmaskDropout: data, [ratio], [training_mode] -> output, UINT32 bitmask.
inline void infer_ms_bitmask_dropout(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 3)) return;
  for (std::size_t i = 1; i < 3; ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && !(s->rank() == 0 || (s->rank() == 1 && (*s)[0].is_int(1))))
      return ctx.record_error(n, {(i == 1 ? "ratio" : "training_mode"), " must be a scalar, got shape ", *s});
  }
  ms_fused_detail::dropout_outputs(ctx, n, ms_fused_detail::MaskKind::Bitmask);
}
SYMSHAPE_RULES(infer_ms_bitmask_dropout, com_microsoft("BitmaskDropout", 1));

// BiasSoftmax: data, bias -> data's type; is_inner_broadcast is required and
// the bias (a mask) must not have a higher rank than the data.
inline void infer_ms_bias_softmax(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2) || !required_int(ctx, n, "is_inner_broadcast")) return;
  const Shape* data = shape_of(n.input(0));
  const Shape* bias = shape_of(n.input(1));
  if (data && bias && bias->rank() > data->rank())
    return ctx.record_error(n, {"bias ", *bias, " has a higher rank than data ", *data});
  if (data) {
    auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 1), data->rank());
    if (!axis) return;
  }
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_bias_softmax, com_microsoft("BiasSoftmax", 1));

// GatedAdd: X [..., C], Y (X's shape), gate [..., 1] -> X's type.
inline void infer_ms_gated_add(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* y = shape_of(n.input(1));
  const Shape* gate = shape_of(n.input(2));
  if (x && y && !broadcast_shapes(ctx, n, *x, *y)) return;
  if (gate && gate->rank() >= 1 && (*gate)[gate->size() - 1].is_int() && !(*gate)[gate->size() - 1].is_int(1))
    return ctx.record_error(n, {"gate must be [..., 1], got ", *gate});
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_gated_add, com_microsoft("GatedAdd", 1));

// GatedRMSNorm: X [..., H*C], scale [C], gate (X's shape) -> X's type.
inline void infer_ms_gated_rms_norm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* scale = shape_of(n.input(1));
  if (scale && scale->rank() != 1) return ctx.record_error(n, {"scale must be 1-D, got ", *scale});
  if (x && x->rank() >= 1 && scale) {
    const SymbolicDim& last = (*x)[x->size() - 1];
    const SymbolicDim& c = (*scale)[0];
    if (last.is_int() && c.is_int() && (c.value() < 1 || last.value() % c.value() != 0))
      return ctx.record_error(n, {"the last dim of X (", last, ") is not a multiple of scale's ", c});
  }
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_gated_rms_norm, com_microsoft("GatedRMSNorm", 1));

// ComplexMul / ComplexMulConj: A [..., 2], B [..., 2] broadcast -> A's type.
inline void infer_ms_complex_mul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  for (const Shape* s : {a, b}) {
    if (s && (s->rank() < 1 || ((*s)[s->size() - 1].is_int() && !(*s)[s->size() - 1].is_int(2))))
      return ctx.record_error(n, {"inputs must end in 2 (real and imaginary parts), got ", *s});
  }
  Shape out;
  if (a && b) {
    auto s = broadcast_shapes(ctx, n, *a, *b);
    if (!s) return;
    out = std::move(*s);
  }
  ctx.set_shape_and_dtype(n.output(0), out, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_complex_mul, com_microsoft("ComplexMul", 1), com_microsoft("ComplexMulConj", 1));

inline constexpr auto kMicrosoftFusedRules =
    family_rules<infer_ms_fused_conv_rules, infer_ms_nhwc_fused_conv_rules, infer_ms_conv_transpose_dynamic_pads_rules,
                 infer_ms_fused_gemm_rules, infer_ms_fused_matmul_activation_rules, infer_ms_maxpool_with_mask_rules,
                 infer_ms_nhwc_max_pool_rules, infer_ms_bias_dropout_rules, infer_ms_bitmask_dropout_rules,
                 infer_ms_bias_softmax_rules, infer_ms_gated_add_rules, infer_ms_gated_rms_norm_rules,
                 infer_ms_complex_mul_rules>("symshape/ops/microsoft/fused.hpp");

}  // namespace symshape::ops
