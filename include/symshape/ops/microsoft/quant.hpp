// com.microsoft (onnxruntime contrib) quantized ops: QuantizeLinear /
// DequantizeLinear (contrib), DynamicQuantizeMatMul, MatMulIntegerToFloat
// (scale's dtype), QGemm, GemmFloat8, GatherBlockQuantized, the QLinear*
// family, QAttention, QEmbedLayerNormalization, the QOrdered* ops (INT8),
// ReduceSumInteger, MulInteger, QuantizeWithOrder / DequantizeWithOrder,
// QuantizeBFP / DequantizeBFP, DynamicQuantizeLSTM and MoE / QMoE. The
// quantized-weight matmuls (MatMulBnb4, ...) are in microsoft_quant_matmul.hpp.
//
// Checked against onnxruntime's contrib schemas and inference functions:
// quantization_defs.cc, contrib_defs.cc (MoE, GemmFloat8), nhwc_schema_defs.cc
// (QLinearConv, QLinearAveragePool, QLinearGlobalAveragePool),
// shape_inference_functions.cc (AttentionTypeAndShapeInference,
// EmbedLayerNormalizationShapeInference), the CPU GatherBlockQuantized
// kernel (contrib_ops/cpu/quantization/gather_block_quantized.cc) and
// docs/ContribOperators.md. Output dtypes follow onnxruntime's graph
// resolution (Graph::InferAndVerifyTypeMatch): an output whose type variable
// is bound by an input takes that input's type, which wins over the
// inference function (so DequantizeLinear gives x_scale's dtype and
// QEmbedLayerNormalization FLOAT).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/matmul_shape.hpp"
#include "symshape/ops/common/rnn_shape.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/ops/common/window.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

namespace ms_quant_detail {
// The zero point's dtype, or `fallback` when it is absent.
inline DataType zp_type(const Node& n, std::size_t i, DataType fallback) {
  const DataType t = dtype_of(n.input(i));
  return n.input(i) && t != DataType::UNDEFINED ? t : fallback;
}
inline Shape shape_or_unknown(const Value* v) {
  const Shape* s = shape_of(v);
  return s ? *s : Shape();
}
// [M, N] of op(A) @ op(B) for 2-D A and B with transA/transB; nullopt after
// an error.
inline std::optional<Shape> gemm_2d(Context& ctx, const Node& n, std::size_t ia, std::size_t ib) {
  const Shape* a = shape_of(n.input(ia));
  const Shape* b = shape_of(n.input(ib));
  if (!require_rank(ctx, n, a, 2, 2, "A") || !require_rank(ctx, n, b, 2, 2, "B")) return std::nullopt;
  const bool ta = ctx.attr_int(n, "transA", 0) != 0, tb = ctx.attr_int(n, "transB", 0) != 0;
  const SymbolicDim m = dim_at(a, ta ? 1 : 0), ka = dim_at(a, ta ? 0 : 1);
  const SymbolicDim kb = dim_at(b, tb ? 1 : 0), nn = dim_at(b, tb ? 0 : 1);
  if (a && b && !check_inner_dims(ctx, n, ka, kb, *a, *b)) return std::nullopt;
  return Shape({m, nn});
}
}  // namespace ms_quant_detail

// QuantizeLinear (contrib): x, y_scale, [y_zero_point] -> x's shape, zero point's dtype (UINT8).
inline void infer_ms_quantize_linear(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  ctx.set_shape_and_dtype(n.output(0), ms_quant_detail::shape_or_unknown(n.input(0)),
                          ms_quant_detail::zp_type(n, 2, DataType::UINT8));
}
SYMSHAPE_RULES(infer_ms_quantize_linear, com_microsoft("QuantizeLinear", 1));
// DequantizeLinear (contrib): x, x_scale, [x_zero_point] -> x's shape, scale's dtype.
inline void infer_ms_dequantize_linear(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  ctx.set_shape_and_dtype(n.output(0), ms_quant_detail::shape_or_unknown(n.input(0)), dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_ms_dequantize_linear, com_microsoft("DequantizeLinear", 1));
// DynamicQuantizeMatMul: A (float), B, b_scale, [b_zero_point], [bias] -> A @ B, A's dtype.
inline void infer_ms_dynamic_quantize_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 5)) return;
  infer_matmul_like(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_dynamic_quantize_matmul, com_microsoft("DynamicQuantizeMatMul", 1).cost(count_matmul));
// MatMulIntegerToFloat: A, B, a_scale, b_scale, [a_zp], [b_zp], [bias] -> A @ B, a_scale's dtype.
inline void infer_ms_matmul_integer_to_float(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 7)) return;
  infer_matmul_like(ctx, n, 0, 1, dtype_of(n.input(2)));
}
SYMSHAPE_RULES(infer_ms_matmul_integer_to_float, com_microsoft("MatMulIntegerToFloat", 1).cost(count_matmul));
// QGemm: A, a_scale, a_zp, B, b_scale, b_zp, [C], [y_scale], [y_zp] -> [M, N];
// y_zp's dtype when y_zp is given, FLOAT otherwise (quantization_defs.cc:
// TY is bound by no input, the inference function looks at input 8 only).
inline void infer_ms_qgemm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 6, 9)) return;
  const auto s = ms_quant_detail::gemm_2d(ctx, n, 0, 3);
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, ms_quant_detail::zp_type(n, 8, DataType::FLOAT));
}
SYMSHAPE_RULES(infer_ms_qgemm, com_microsoft("QGemm", 1));
// GemmFloat8: A, B, [C], [scaleA], [scaleB], [scaleY] -> [M, N] of the `dtype` attribute.
inline void infer_ms_gemm_float8(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 6)) return;
  const auto s = ms_quant_detail::gemm_2d(ctx, n, 0, 1);
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, static_cast<DataType>(ctx.attr_int(n, "dtype", 1)));
}
SYMSHAPE_RULES(infer_ms_gemm_float8, com_microsoft("GemmFloat8", 1));

namespace ms_quant_detail {
inline bool is_fp_quantized(DataType t) {
  return t == DataType::FLOAT8E4M3FN || t == DataType::FLOAT8E4M3FNUZ || t == DataType::FLOAT8E5M2 ||
         t == DataType::FLOAT8E5M2FNUZ || t == DataType::FLOAT4E2M1;
}
// GatherBlockQuantized: values packed in one element of data, 8/bits for
// UINT8 (bits 2, 4 or 8) and 1 otherwise (INT4/UINT4 need bits 4); nullopt
// after an error.
inline std::optional<int64_t> packed_components(Context& ctx, const Node& n, DataType data_t) {
  const int64_t bits = ctx.attr_int(n, "bits", 4);
  if (data_t == DataType::UINT8) {
    if (bits != 2 && bits != 4 && bits != 8) {
      ctx.record_error(n, {"bits must be 2, 4 or 8 for UINT8 data, got ", bits});
      return std::nullopt;
    }
    return 8 / bits;
  }
  if ((data_t == DataType::INT4 || data_t == DataType::UINT4) && bits != 4) {
    ctx.record_error(n, {"bits must be 4 for INT4/UINT4 data, got ", bits});
    return std::nullopt;
  }
  return 1;
}
}  // namespace ms_quant_detail

// GatherBlockQuantized: data, indices, scales, [zero_points]; gather_axis (0),
// quantize_axis (1), block_size (128), bits (4) -> Gather of data along
// gather_axis with scales' dtype. UINT8 data packs 8/bits values per byte
// along the last axis, so the output's last dim is data's times 8/bits; UINT8
// also needs gather_axis 0 and quantize_axis last. scales has data's rank and
// ceil(unpacked dim / block_size) blocks on quantize_axis. (onnxruntime CPU
// kernel GatherBlockQuantized::PrepareForCompute and its constructor.)
inline void infer_ms_gather_block_quantized(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  const DataType data_t = dtype_of(n.input(0));
  const bool fp = ms_quant_detail::is_fp_quantized(data_t);
  const int64_t block = ctx.attr_int(n, "block_size", 128);
  if (!(power_of_two_at_least_16(block) || (block == 0 && (fp || data_t == DataType::UNDEFINED))))
    return ctx.record_error(n,
                            {"block_size must be a power of 2 and at least 16 (or 0 for FP8/FP4 data), got ", block});
  const auto components = ms_quant_detail::packed_components(ctx, n, data_t);
  if (!components) return;
  if (fp && n.input(3)) return ctx.record_error(n, "zero_points must not be given for FP8/FP4 data");
  const Shape* d = shape_of(n.input(0));
  const Shape* idx = shape_of(n.input(1));
  const Shape* sc = shape_of(n.input(2));
  const DataType dt = dtype_of(n.input(2));
  if (!d) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  const int64_t rank = d->rank();
  if (rank < 1) return ctx.record_error(n, "data must have rank >= 1");
  auto gaxis = normalize_axis(ctx, n, ctx.attr_int(n, "gather_axis", 0), rank, "gather_axis");
  if (!gaxis) return;
  auto qaxis = normalize_axis(ctx, n, ctx.attr_int(n, "quantize_axis", 1), rank, "quantize_axis");
  if (!qaxis) return;
  if (data_t == DataType::UINT8 && (*gaxis != 0 || *qaxis != rank - 1))
    return ctx.record_error(n, "UINT8 data needs gather_axis 0 and quantize_axis the last axis");
  if (sc) {
    if (sc->rank() != rank) return ctx.record_error(n, {"scales must have data's rank, got ", *sc});
    for (int64_t i = 0; i < rank; ++i) {
      const SymbolicDim& dd = (*d)[static_cast<std::size_t>(i)];
      const SymbolicDim& sd = (*sc)[static_cast<std::size_t>(i)];
      if (!dd.is_int() || !sd.is_int()) continue;
      int64_t want = dd.value();
      if (i == *qaxis) {
        const int64_t eff = block == 0 ? std::max<int64_t>(want, 1) : block;
        want = (want * *components + eff - 1) / eff;
      } else if (fp && sd.value() == 1) {
        continue;  // FP8/FP4 scales broadcast along other axes
      }
      if (sd.value() != want)
        return ctx.record_error(n, {"scales ", *sc, " do not match data ", *d, " (axis ", i, " needs ", want, ")"});
    }
  }
  if (!idx) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  std::vector<SymbolicDim> out(d->dims().begin(), d->dims().begin() + *gaxis);
  out.insert(out.end(), idx->dims().begin(), idx->dims().end());
  out.insert(out.end(), d->dims().begin() + *gaxis + 1, d->dims().end());
  if (*components > 1) out.back() = out.back() * SymbolicDim(*components);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dt);
}
SYMSHAPE_RULES(infer_ms_gather_block_quantized, com_microsoft("GatherBlockQuantized", 1));

// QLinearAdd / QLinearMul: A, A_scale, [A_zp], B, B_scale, [B_zp], C_scale, [C_zp] -> broadcast, A's dtype.
inline void infer_ms_qlinear_binary(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3, 4, 6}, 8)) return;
  auto s = broadcast_shapes(ctx, n, ms_quant_detail::shape_or_unknown(n.input(0)),
                            ms_quant_detail::shape_or_unknown(n.input(3)));
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_qlinear_binary, com_microsoft("QLinearAdd", 1), com_microsoft("QLinearMul", 1));
// QLinearSigmoid / QLinearLeakyRelu: X, X_scale, [X_zp], Y_scale, [Y_zp] -> X's type.
inline void infer_ms_qlinear_unary(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3}, 5)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_qlinear_unary, com_microsoft("QLinearSigmoid", 1), com_microsoft("QLinearLeakyRelu", 1));
// QLinearSoftmax: X, X_scale, [x_zp], y_scale, y_zp (required); opset
// (required), axis (default -1, must be in range) -> X's type.
inline void infer_ms_qlinear_softmax(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3, 4}, 5)) return;
  if (!required_int(ctx, n, "opset")) return;
  const Shape* x = shape_of(n.input(0));
  if (x && !normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), x->rank())) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_qlinear_softmax, com_microsoft("QLinearSoftmax", 1));
// QLinearWhere: condition, X, x_scale, x_zp, Y, y_scale, y_zp, z_scale, z_zp -> broadcast, X's dtype.
inline void infer_ms_qlinear_where(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 9, 9)) return;
  auto s = broadcast_shapes(ctx, n, ms_quant_detail::shape_or_unknown(n.input(0)),
                            ms_quant_detail::shape_or_unknown(n.input(1)));
  if (!s) return;
  s = broadcast_shapes(ctx, n, *s, ms_quant_detail::shape_or_unknown(n.input(4)));
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_ms_qlinear_where, com_microsoft("QLinearWhere", 1));
// QLinearConcat: Y_scale, Y_zp, then (tensor, scale, zp) triples; axis -> concat, Y_zp's dtype.
inline void infer_ms_qlinear_concat(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5)) return;
  if ((n.inputs.size() - 2) % 3 != 0)
    return ctx.record_error(n, "inputs after Y_scale, Y_zp must be (tensor, scale, zero point) triples");
  const Attribute* ax = require_attr(ctx, n, "axis", Attribute::Kind::Int);
  if (!ax) return;
  const DataType dt = dtype_of(n.input(1));
  std::vector<const Shape*> shapes;
  for (std::size_t i = 2; i < n.inputs.size(); i += 3) {
    const Shape* s = shape_of(n.input(i));
    if (!s) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
    shapes.push_back(s);
  }
  const int64_t rank = shapes[0]->rank();
  auto axis = normalize_axis(ctx, n, ax->i, rank);
  if (!axis) return;
  std::vector<SymbolicDim> out = shapes[0]->dims();
  for (std::size_t j = 1; j < shapes.size(); ++j) {
    if (shapes[j]->rank() != rank) return ctx.record_error(n, "QLinearConcat inputs have different ranks");
    out[*axis] = out[*axis] + (*shapes[j])[*axis];
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dt);
}
SYMSHAPE_RULES(infer_ms_qlinear_concat, com_microsoft("QLinearConcat", 1));
// QLinearAveragePool: X, x_scale, [x_zp], y_scale, [y_zp]; pooling attributes,
// channels_last -> pooled shape, X's dtype.
inline void infer_ms_qlinear_average_pool(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3}, 5)) return;
  const Attribute* ks = require_attr(ctx, n, "kernel_shape");
  if (!ks) return;
  const DataType dt = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  if (x->rank() < 3) return ctx.record_error(n, {"input must have rank >= 3, got ", *x});
  const bool cl = ctx.attr_int(n, "channels_last", 0) != 0;
  const auto spec = read_window_spec(ctx, n, nullptr, x->size() - 2);
  if (!spec) return;
  auto out = window_output(ctx, n, *x, *spec, cl ? x->dims().back() : (*x)[1], cl);
  if (!out) return;
  ctx.set_shape_and_dtype(n.output(0), std::move(*out), dt);
}
SYMSHAPE_RULES(infer_ms_qlinear_average_pool, com_microsoft("QLinearAveragePool", 1));
// QLinearGlobalAveragePool: X, x_scale, x_zp, y_scale, y_zp -> [N, C, 1...]
// (channels_last: [N, 1..., C]); a 2-D input keeps its shape, as in
// nhwc_schema_defs.cc.
inline void infer_ms_qlinear_global_average_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 5)) return;
  const DataType dt = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  if (x->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2, got ", *x});
  const bool cl = ctx.attr_int(n, "channels_last", 0) != 0;
  std::vector<SymbolicDim> out(x->size(), SymbolicDim(1));
  out[0] = (*x)[0];
  if (cl)
    out.back() = x->dims().back();
  else
    out[1] = (*x)[1];
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dt);
}
SYMSHAPE_RULES(infer_ms_qlinear_global_average_pool, com_microsoft("QLinearGlobalAveragePool", 1));
// QLinearConv (contrib): x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, [B];
// channels_last selects NHWC -> y_zp's dtype.
inline void infer_ms_qlinear_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 8, 9)) return;
  const DataType dt = dtype_of(n.input(7));
  if (ctx.attr_int(n, "channels_last", 0) != 0) return nhwc_conv(ctx, n, 0, 3, dt);
  conv_common(ctx, n, 0, 3, dt);
}
SYMSHAPE_RULES(infer_ms_qlinear_conv, com_microsoft("QLinearConv", 1));
namespace ms_quant_detail {
// A reduction whose axes and keepdims attributes are both required (no
// default in quantization_defs.cc); an empty axes list reduces every axis.
inline void reduce_required_axes(Context& ctx, Node& n, DataType dtype) {
  const Attribute* axes_attr = require_attr(ctx, n, "axes", Attribute::Kind::Ints);
  if (!axes_attr) return;
  const auto keepdims = required_int(ctx, n, "keepdims");
  if (!keepdims) return;
  const Shape* x = shape_of(n.input(0));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
  auto axes = normalize_axes(ctx, n, std::vector<int64_t>(axes_attr->ints.begin(), axes_attr->ints.end()), x->rank());
  if (!axes) return;
  std::vector<bool> reduced(x->size(), axes->empty());
  for (int64_t a : *axes) reduced[static_cast<std::size_t>(a)] = true;
  ctx.set_shape_and_dtype(n.output(0), Shape(reduced_dims(*x, reduced, *keepdims != 0)), dtype);
}
}  // namespace ms_quant_detail

// QLinearReduceMean: data, data_scale, [data_zp], reduced_scale, [reduced_zp]
// -> data's dtype.
inline void infer_ms_qlinear_reduce_mean(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3}, 5)) return;
  ms_quant_detail::reduce_required_axes(ctx, n, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_qlinear_reduce_mean, com_microsoft("QLinearReduceMean", 1));
// ReduceSumInteger: data (int8/uint8); axes and keepdims required -> INT32
// for int8 data, UINT32 for uint8 (the schema's T2 constraint).
inline void infer_ms_reduce_sum_integer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const DataType t = dtype_of(n.input(0));
  ms_quant_detail::reduce_required_axes(ctx, n,
                                        t == DataType::UINT8  ? DataType::UINT32
                                        : t == DataType::INT8 ? DataType::INT32
                                                              : DataType::UNDEFINED);
}
SYMSHAPE_RULES(infer_ms_reduce_sum_integer, com_microsoft("ReduceSumInteger", 1));
// MulInteger: A, [A_zero_point], B, [B_zero_point] -> broadcast of A and B, INT32.
inline void infer_ms_mul_integer(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 2}, 4)) return;
  auto s = broadcast_shapes(ctx, n, ms_quant_detail::shape_or_unknown(n.input(0)),
                            ms_quant_detail::shape_or_unknown(n.input(2)));
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_mul_integer, com_microsoft("MulInteger", 1));

// QAttention: input, weight, bias, input_scale, weight_scale, [mask_index],
// [input_zp], [weight_zp], [past] -> output [B, S, hidden] with hidden =
// bias dim / 3 (weight's dim 1 / 3 when the bias shape is unknown), bias's
// dtype; present [2, B, H, P+S, D] (AttentionTypeAndShapeInference, past 8).
inline void infer_ms_qattention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 9)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* bias = shape_of(n.input(2));
  const Shape* past = shape_of(n.input(8));
  if (!require_rank(ctx, n, x, 3, 3, "input") || !require_rank(ctx, n, w, 2, 2, "weight") ||
      !require_rank(ctx, n, bias, 1, 1, "bias") || !require_rank(ctx, n, past, 5, 5, "past"))
    return;
  const DataType dt = dtype_of(n.input(2));
  const SymbolicDim hidden = bias ? (*bias)[0] / SymbolicDim(3) : w ? (*w)[1] / SymbolicDim(3) : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), x ? Shape({(*x)[0], (*x)[1], hidden}) : Shape(), dt);
  if (n.output(1)) ctx.set_shape_and_dtype(n.output(1), attention_present(x, past, *heads, hidden), dt);
}
SYMSHAPE_RULES(infer_ms_qattention, com_microsoft("QAttention", 1));
// QEmbedLayerNormalization: input_ids [B, S], [segment_ids], word_embedding
// [V, H], position_embedding [P, H], [segment_embedding], gamma [H], beta [H],
// [mask], then scales and zero points (segment ones optional) ->
// layernorm_out [B, S, H] (FLOAT: its type variable allows only float),
// mask_index_out [B] (INT32). Shapes and checks from
// EmbedLayerNormalizationShapeInference.
inline void infer_ms_qembed_layer_norm(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 2, 3, 5, 6, 8, 9, 11, 12, 13, 14, 16, 17}, 18)) return;
  const Shape* ids = shape_of(n.input(0));
  const Shape* seg = shape_of(n.input(1));
  const Shape* we = shape_of(n.input(2));
  const Shape* pe = shape_of(n.input(3));
  const Shape* se = shape_of(n.input(4));
  const Shape* gamma = shape_of(n.input(5));
  const Shape* beta = shape_of(n.input(6));
  if (!require_rank(ctx, n, ids, 2, 2, "input_ids") || !require_rank(ctx, n, seg, 2, 2, "segment_ids") ||
      !require_rank(ctx, n, we, 2, 2, "word_embedding") || !require_rank(ctx, n, pe, 2, 2, "position_embedding") ||
      !require_rank(ctx, n, se, 2, 2, "segment_embedding") || !require_rank(ctx, n, gamma, 1, 1, "gamma") ||
      !require_rank(ctx, n, beta, 1, 1, "beta"))
    return;
  SymbolicDim hidden = dim_at(we, 1);
  const std::pair<const Shape*, const char*> others[] = {
      {pe, "position_embedding"}, {se, "segment_embedding"}, {gamma, "gamma"}, {beta, "beta"}};
  for (const auto& [s, what] : others) {
    if (!s) continue;
    const SymbolicDim& h = s->dims().back();
    if (!same_hidden(ctx, n, hidden, h, what)) return;
    if (!hidden.is_known()) hidden = h;
  }
  ctx.set_shape_and_dtype(n.output(0), ids ? Shape({(*ids)[0], (*ids)[1], hidden}) : Shape(), DataType::FLOAT);
  ctx.set_shape_and_dtype(n.output(1), ids ? Shape({(*ids)[0]}) : Shape(), DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_qembed_layer_norm, com_microsoft("QEmbedLayerNormalization", 1));

// QOrderedMatMul: A, scale_A, B, scale_B, scale_Y, [bias], [C], [scale_C] -> A @ B, INT8.
inline void infer_ms_qordered_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 8)) return;
  infer_matmul_like(ctx, n, 0, 2, DataType::INT8);
}
SYMSHAPE_RULES(infer_ms_qordered_matmul, com_microsoft("QOrderedMatMul", 1));
// The QOrdered ops below all use propagateShapeAndTypeFromFirstInput: the
// output has input 0's shape (INT8, the only type allowed).
// QOrderedLayerNormalization: X, scale_X, scale, [B], scale_Y.
// QOrderedGelu: X, scale_X, scale_Y.
// QOrderedLongformerAttention: 14 inputs, all required.
inline void infer_ms_qordered_like_input(Context& ctx, Node& n) {
  const bool ok = n.op_type == "QOrderedGelu"                 ? check_present(ctx, n, {0, 1, 2}, 3)
                  : n.op_type == "QOrderedLayerNormalization" ? check_present(ctx, n, {0, 1, 2, 4}, 5)
                                                              : check_inputs(ctx, n, 14, 14);
  if (!ok) return;
  ctx.set_shape_and_dtype(n.output(0), ms_quant_detail::shape_or_unknown(n.input(0)), DataType::INT8);
}
SYMSHAPE_RULES(infer_ms_qordered_like_input, com_microsoft("QOrderedLayerNormalization", 1),
               com_microsoft("QOrderedGelu", 1), com_microsoft("QOrderedLongformerAttention", 1));
// QOrderedAttention: input [B, S, in_hidden], scale_input, scale_Q/K/V_gemm,
// Q/K/V_weight, their scales, Q/K/V_bias, [scale_QKT_gemm],
// [scale_QKT_softmax], scale_values_gemm, [mask_index], [past],
// [relative_position_bias] -> output with input's shape, INT8.
inline void infer_ms_qordered_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16}, 20)) return;
  const Shape* x = shape_of(n.input(0));
  if (!require_rank(ctx, n, x, 3, 3, "input")) return;
  ctx.set_shape_and_dtype(n.output(0), ms_quant_detail::shape_or_unknown(n.input(0)), DataType::INT8);
}
SYMSHAPE_RULES(infer_ms_qordered_attention, com_microsoft("QOrderedAttention", 1));
// MoE: input [rows, hidden] or [B, S, hidden], router_probs, fc1_experts_weights,
// [fc1_experts_bias], fc2_experts_weights, [fc2_experts_bias], [fc3 weights],
// [fc3 bias] -> input's type.
inline void infer_ms_moe(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 4}, 8)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_moe, com_microsoft("MoE", 1));
// QMoE: input, router_probs, fc1_experts_weights, [fc1_scales], [fc1 bias],
// fc2_experts_weights, then optional scales, biases, zero points and FP4/FP8
// scales (6 to 21 inputs) -> input's type.
inline void infer_ms_qmoe(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 5}, 21)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_qmoe, com_microsoft("QMoE", 1));

// QuantizeWithOrder: input, scale_input; order_input and order_output
// required -> input's shape, INT8.
// DequantizeWithOrder: the same with `to` required (FLOAT or FLOAT16) -> input's
// shape of dtype `to`.
inline void infer_ms_with_order(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  if (!required_int(ctx, n, "order_input") || !required_int(ctx, n, "order_output")) return;
  DataType dt = DataType::INT8;
  if (n.op_type == "DequantizeWithOrder") {
    const auto to = required_int(ctx, n, "to");
    if (!to) return;
    if (*to != static_cast<int64_t>(DataType::FLOAT) && *to != static_cast<int64_t>(DataType::FLOAT16))
      return ctx.record_error(n, {"to must be FLOAT (1) or FLOAT16 (10), got ", *to});
    dt = static_cast<DataType>(*to);
  }
  ctx.set_shape_and_dtype(n.output(0), ms_quant_detail::shape_or_unknown(n.input(0)), dt);
}
SYMSHAPE_RULES(infer_ms_with_order, com_microsoft("QuantizeWithOrder", 1), com_microsoft("DequantizeWithOrder", 1));

// QuantizeBFP: x; bfp_type required, block_dim (default -1, the last axis) ->
// y (1-D BFP bytes of a length set by bfp_type, UINT8), shape and strides
// (INT64, one value per axis of x; shape's values are x's dims).
inline void infer_ms_quantize_bfp(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1) || !required_int(ctx, n, "bfp_type")) return;
  const Shape* x = shape_of(n.input(0));
  if (x && !normalize_axis(ctx, n, ctx.attr_int(n, "block_dim", -1), x->rank(), "block_dim")) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({ctx.new_symbolic_dim()}), DataType::UINT8);
  const SymbolicDim rank = x ? SymbolicDim(x->rank()) : ctx.new_symbolic_dim();
  for (std::size_t o = 1; o < 3; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), Shape({rank}), DataType::INT64);
  if (x && n.output(1)) ctx.set_symbolic_value(n.output(1), x->dims());
}
SYMSHAPE_RULES(infer_ms_quantize_bfp, com_microsoft("QuantizeBFP", 1));
// DequantizeBFP: x (1-D BFP bytes), shape, strides (1-D INT64, one value per
// axis); bfp_type required, block_dim (default -1), dtype (FLOAT, FLOAT16 or
// BFLOAT16; default FLOAT) -> a tensor of the dims held by `shape`.
inline void infer_ms_dequantize_bfp(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3) || !required_int(ctx, n, "bfp_type")) return;
  const int64_t code = ctx.attr_int(n, "dtype", static_cast<int64_t>(DataType::FLOAT));
  if (code != static_cast<int64_t>(DataType::FLOAT) && code != static_cast<int64_t>(DataType::FLOAT16) &&
      code != static_cast<int64_t>(DataType::BFLOAT16))
    return ctx.record_error(n, {"dtype must be FLOAT, FLOAT16 or BFLOAT16, got ", code});
  if (!require_rank(ctx, n, shape_of(n.input(0)), 1, 1, "x") ||
      !require_rank(ctx, n, shape_of(n.input(1)), 1, 1, "shape") ||
      !require_rank(ctx, n, shape_of(n.input(2)), 1, 1, "strides"))
    return;
  const auto len = static_length(n.input(1)), strides_len = static_length(n.input(2));
  if (len && strides_len && *len != *strides_len)
    return ctx.record_error(n, {"shape and strides must have the same length, got ", *len, " and ", *strides_len});
  auto dims = ctx.symbolic_value(n.input(1));
  if (dims && !check_no_negative_dim(ctx, n, *dims, "shape has a negative dim ")) return;
  Shape y = dims ? Shape(std::move(*dims)) : shape_of_length(n.input(1));
  if (y.has_rank() && !normalize_axis(ctx, n, ctx.attr_int(n, "block_dim", -1), y.rank(), "block_dim")) return;
  ctx.set_shape_and_dtype(n.output(0), std::move(y), static_cast<DataType>(code));
}
SYMSHAPE_RULES(infer_ms_dequantize_bfp, com_microsoft("DequantizeBFP", 1));

namespace ms_quant_detail {
// DynamicQuantizeLSTM's hidden size: the attribute, else R [dirs, hidden,
// 4*hidden] or W [dirs, input, 4*hidden] (unknown if none); checks W and R
// (dims that are integers) against it, the directions and X's input size.
inline std::optional<SymbolicDim> lstm_hidden(Context& ctx, const Node& n, const Shape* x, const Shape* w,
                                              const Shape* r, int64_t dirs) {
  SymbolicDim h = r ? (*r)[1] : w ? (*w)[2] / SymbolicDim(4) : SymbolicDim();
  if (const Attribute* a = n.attr("hidden_size")) {
    if (a->kind != Attribute::Kind::Int || a->i < 1) {
      ctx.record_error(n, "hidden_size must be a positive integer");
      return std::nullopt;
    }
    h = a->i;
  }
  const SymbolicDim gates = h * SymbolicDim(4);
  const auto differ = [](const SymbolicDim& a, const SymbolicDim& b) { return a.is_int() && b.is_int() && a != b; };
  bool bad = false;
  for (const Shape* s : {w, r}) bad = bad || (s && differ((*s)[0], SymbolicDim(dirs))) || (s && differ((*s)[2], gates));
  bad = bad || (r && differ((*r)[1], h)) || (w && x && differ((*w)[1], (*x)[2]));
  if (!bad) return h;
  ctx.record_error(n, {"W ", (w ? w->to_string() : "?"), " and R ", (r ? r->to_string() : "?"),
                       " must be [num_directions, input_size, 4*hidden_size] and [num_directions, hidden_size, "
                       "4*hidden_size] with num_directions ",
                       dirs, (x ? " and X " + x->to_string() : std::string())});
  return std::nullopt;
}
}  // namespace ms_quant_detail

// DynamicQuantizeLSTM: X [seq, batch, input], W [dirs, input, 4*hidden] and R
// [dirs, hidden, 4*hidden] (8-bit, transposed from LSTM's), [B],
// [sequence_lens], [initial_h], [initial_c], [P], W_scale, W_zero_point,
// R_scale, R_zero_point -> Y [seq, dirs, batch, hidden], Y_h and Y_c
// [dirs, batch, hidden], X's dtype (RNNShapeInference).
inline void infer_ms_dynamic_quantize_lstm(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 8, 9, 10, 11}, 12)) return;
  const std::string direction = ctx.attr_string(n, "direction", "forward");
  const auto dirs = num_directions(ctx, n, direction);
  if (!dirs) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* r = shape_of(n.input(2));
  if (!require_rank(ctx, n, x, 3, 3, "X") || !require_rank(ctx, n, w, 3, 3, "W") || !require_rank(ctx, n, r, 3, 3, "R"))
    return;
  auto hidden = ms_quant_detail::lstm_hidden(ctx, n, x, w, r, *dirs);
  if (!hidden) return;
  SymbolicDim seq = dim_at(x, 0), batch = dim_at(x, 1);
  // Unknown seq/batch/hidden are named once, so that Y, Y_h and Y_c share them.
  for (SymbolicDim* d : {&seq, &batch, &*hidden})
    if (d->is_unknown()) *d = ctx.new_symbolic_dim();
  const DataType dt = dtype_of(n.input(0));
  const SymbolicDim nd(*dirs);
  if (n.output(0)) ctx.set_shape_and_dtype(n.output(0), Shape({seq, nd, batch, *hidden}), dt);
  for (std::size_t o = 1; o < 3; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), Shape({nd, batch, *hidden}), dt);
}
SYMSHAPE_RULES(infer_ms_dynamic_quantize_lstm, com_microsoft("DynamicQuantizeLSTM", 1));

inline constexpr auto kMicrosoftQuantRules =
    family_rules<infer_ms_quantize_linear_rules, infer_ms_dequantize_linear_rules,
                 infer_ms_dynamic_quantize_matmul_rules, infer_ms_matmul_integer_to_float_rules, infer_ms_qgemm_rules,
                 infer_ms_gemm_float8_rules, infer_ms_gather_block_quantized_rules, infer_ms_qlinear_binary_rules,
                 infer_ms_qlinear_unary_rules, infer_ms_qlinear_softmax_rules, infer_ms_qlinear_where_rules,
                 infer_ms_qlinear_concat_rules, infer_ms_qlinear_average_pool_rules,
                 infer_ms_qlinear_global_average_pool_rules, infer_ms_qlinear_conv_rules,
                 infer_ms_qlinear_reduce_mean_rules, infer_ms_reduce_sum_integer_rules, infer_ms_mul_integer_rules,
                 infer_ms_qattention_rules, infer_ms_qembed_layer_norm_rules, infer_ms_qordered_matmul_rules,
                 infer_ms_qordered_like_input_rules, infer_ms_qordered_attention_rules, infer_ms_moe_rules,
                 infer_ms_qmoe_rules, infer_ms_with_order_rules, infer_ms_quantize_bfp_rules,
                 infer_ms_dequantize_bfp_rules, infer_ms_dynamic_quantize_lstm_rules>(
        "symshape/ops/microsoft/quant.hpp");

}  // namespace symshape::ops
