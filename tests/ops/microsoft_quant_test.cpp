#include "op_test_util.hpp"

TEST(MicrosoftQuant, QuantizeDequantize) {
  EXPECT_EQ(Op(kMs, "QuantizeLinear").infer({ts(FLOAT, {"N", 8}), ts(FLOAT, {}), ts(INT8, {})}),
            (Types{ts(INT8, {"N", 8})}));
  EXPECT_EQ(Op(kMs, "QuantizeLinear").infer({ts(FLOAT, {"N", 8}), ts(FLOAT, {})}), (Types{ts(UINT8, {"N", 8})}));
  EXPECT_EQ(Op(kMs, "DequantizeLinear").infer({ts(INT8, {"N", 8}), ts(FLOAT16, {}), ts(INT8, {})}),
            (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_ERROR(Op(kMs, "QuantizeLinear").run({ts(FLOAT, {"N", 8})}).report, "missing required input 1");
}
TEST(MicrosoftQuant, MatMulVariants) {
  EXPECT_EQ(Op(kMs, "DynamicQuantizeMatMul").infer({ts(FLOAT, {"B", "S", 768}), ts(INT8, {768, 3072}), ts(FLOAT, {})}),
            (Types{ts(FLOAT, {"B", "S", 3072})}));
  EXPECT_EQ(Op(kMs, "MatMulIntegerToFloat")
                .infer({ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 64}), ts(FLOAT16, {}), ts(FLOAT16, {64})}),
            (Types{ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_EQ(Op(kMs, "QOrderedMatMul")
                .infer({ts(INT8, {"B", "M", 32}), ts(FLOAT, {}), ts(INT8, {32, 16}), ts(FLOAT, {}), ts(FLOAT, {})}),
            (Types{ts(INT8, {"B", "M", 16})}));
  EXPECT_ERROR(Op(kMs, "MatMulIntegerToFloat").run({ts(UINT8, {"B", 768}), ts(INT8, {768, 64}), ts(FLOAT, {})}).report,
               "missing required input 3");
}
TEST(MicrosoftQuant, QGemmAndGemmFloat8) {
  EXPECT_EQ(Op(kMs, "QGemm")
                .infer({ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {32, 64}), ts(FLOAT, {}),
                        ts(INT8, {}), omitted(), ts(FLOAT, {}), ts(INT8, {})},
                       {attr("transB", 1)}),
            (Types{ts(INT8, {"M", 32})}));
  EXPECT_EQ(
      Op(kMs, "QGemm")
          .infer({ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {64, 32}), ts(FLOAT, {}), ts(INT8, {})}),
      (Types{ts(FLOAT, {"M", 32})}));
  EXPECT_EQ(
      Op(kMs, "GemmFloat8")
          .infer({ts(DataType::FLOAT8E4M3FN, {"M", 64}), ts(DataType::FLOAT8E4M3FN, {64, 16})}, {attr("dtype", 10)}),
      (Types{ts(FLOAT16, {"M", 16})}));
  EXPECT_ERROR(Op(kMs, "QGemm").run({ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {})}).report,
               "missing required input 3");
}
TEST(MicrosoftQuant, GatherBlockQuantized) {
  EXPECT_EQ(Op(kMs, "GatherBlockQuantized")
                .infer({ts(UINT8, {32000, 2048}), ts(INT64, {"B", "S"}), ts(FLOAT16, {32000, 128})},
                       {attr("block_size", 32)}),
            (Types{ts(FLOAT16, {"B", "S", 4096})}));
  EXPECT_ERROR(Op(kMs, "GatherBlockQuantized").run({ts(UINT8, {32000, 2048}), ts(INT64, {"B", "S"})}).report,
               "missing required input 2");
}
TEST(MicrosoftQuant, QLinearElementwise) {
  EXPECT_EQ(Op(kMs, "QLinearAdd")
                .infer({ts(UINT8, {"N", 3, 4}), ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {4}), ts(FLOAT, {}),
                        ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 3, 4})}));
  EXPECT_EQ(
      Op(kMs, "QLinearSigmoid").infer({ts(INT8, {"N", 8}), ts(FLOAT, {}), ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})}),
      (Types{ts(INT8, {"N", 8})}));
  EXPECT_EQ(Op(kMs, "QLinearWhere")
                .infer({ts(BOOL, {"N", 1}), ts(INT8, {1, 4}), ts(FLOAT, {}), ts(INT8, {}), ts(INT8, {4}), ts(FLOAT, {}),
                        ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})}),
            (Types{ts(INT8, {"N", 4})}));
  EXPECT_ERROR(Op(kMs, "QLinearMul").run({ts(UINT8, {3}), ts(FLOAT, {}), ts(UINT8, {})}).report,
               "missing required input 3");
  EXPECT_ERROR(Op(kMs, "QLinearSoftmax").run({ts(UINT8, {3}), ts(FLOAT, {})}).report, "missing required input 3");
}
TEST(MicrosoftQuant, QLinearConcat) {
  EXPECT_EQ(Op(kMs, "QLinearConcat")
                .infer({ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {"N", "a"}), ts(FLOAT, {}), ts(UINT8, {}),
                        ts(UINT8, {"N", "b"}), ts(FLOAT, {}), ts(UINT8, {})},
                       {attr("axis", 1)}),
            (Types{ts(UINT8, {"N", "a+b"})}));
  EXPECT_ERROR(Op(kMs, "QLinearConcat")
                   .run({ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {"N", "a"}), ts(FLOAT, {}), ts(UINT8, {})})
                   .report,
               "missing required attribute 'axis'");
}
TEST(MicrosoftQuant, QLinearPoolsAndConv) {
  EXPECT_EQ(Op(kMs, "QLinearAveragePool")
                .infer({ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                       {attr("kernel_shape", std::vector<int64_t>{2, 2}), attr("strides", std::vector<int64_t>{2, 2})}),
            (Types{ts(UINT8, {"N", 8, "H//2", "W//2"})}));
  EXPECT_EQ(Op(kMs, "QLinearAveragePool")
                .infer({ts(UINT8, {"N", "H", "W", 8}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                       {attr("kernel_shape", std::vector<int64_t>{2, 2}), attr("strides", std::vector<int64_t>{2, 2}),
                        attr("channels_last", 1)}),
            (Types{ts(UINT8, {"N", "H//2", "W//2", 8})}));
  EXPECT_EQ(Op(kMs, "QLinearGlobalAveragePool")
                .infer({ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 8, 1, 1})}));
  EXPECT_EQ(Op(kMs, "QLinearConv")
                .infer({ts(UINT8, {"N", "H", "W", 4}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 4, 3, 3}),
                        ts(FLOAT, {16}), ts(INT8, {16}), ts(FLOAT, {}), ts(INT8, {})},
                       {attr("channels_last", 1), attr("pads", std::vector<int64_t>{1, 1, 1, 1})}),
            (Types{ts(INT8, {"N", "H", "W", 16})}));
  EXPECT_EQ(Op(kMs, "QLinearConv")
                .infer({ts(UINT8, {"N", 4, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 4, 3, 3}),
                        ts(FLOAT, {16}), ts(INT8, {16}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 16, "H-2", "W-2"})}));
  EXPECT_ERROR(Op(kMs, "QLinearAveragePool")
                   .run({ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {})})
                   .report,
               "missing required attribute 'kernel_shape'");
}
TEST(MicrosoftQuant, QLinearReduceMean) {
  EXPECT_EQ(Op(kMs, "QLinearReduceMean")
                .infer({ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                       {attr("axes", std::vector<int64_t>{-1}), attr("keepdims", 1)}),
            (Types{ts(UINT8, {"B", "S", 1})}));
  EXPECT_ERROR(
      Op(kMs, "QLinearReduceMean")
          .run({ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {})}, {attr("keepdims", 1)})
          .report,
      "missing required attribute 'axes'");
}
TEST(MicrosoftQuant, QAttentionAndQEmbed) {
  EXPECT_EQ(Op(kMs, "QAttention")
                .outputs(2)
                .infer({ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {}),
                        ts(FLOAT, {}), omitted(), omitted(), omitted(), ts(FLOAT, {2, "B", 12, "P", 64})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {2, "B", 12, "P+S", 64})}));
  EXPECT_ERROR(
      Op(kMs, "QAttention").run({ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 2304})}, {attr("num_heads", 12)}).report,
      "missing required input 2");
}
TEST(MicrosoftQuant, QOrderedAndMoE) {
  EXPECT_EQ(Op(kMs, "QOrderedGelu").infer({ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT, {})}),
            (Types{ts(INT8, {"B", "S", 64})}));
  EXPECT_EQ(Op(kMs, "QOrderedLayerNormalization")
                .infer({ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT16, {64}), ts(FLOAT16, {64}), ts(FLOAT, {})}),
            (Types{ts(INT8, {"B", "S", 64})}));
  EXPECT_EQ(Op(kMs, "MoE")
                .infer({ts(FLOAT16, {"T", 4096}), ts(FLOAT16, {"T", 8}), ts(FLOAT16, {8, 14336, 4096}), omitted(),
                        ts(FLOAT16, {8, 4096, 14336})}),
            (Types{ts(FLOAT16, {"T", 4096})}));
  EXPECT_ERROR(Op(kMs, "QOrderedGelu").run({ts(INT8, {"B", "S", 64})}).report, "missing required input 1");
  EXPECT_ERROR(Op(kMs, "QMoE").run({ts(FLOAT16, {"T", 4096})}).report, "missing required input 1");
}

namespace {
// QEmbedLayerNormalization inputs with every required one present; hidden 768.
std::vector<In> qembed_inputs() {
  return {ts(INT32, {"B", "S"}),
          omitted(),
          ts(UINT8, {30522, 768}),
          ts(UINT8, {512, 768}),
          omitted(),
          ts(UINT8, {768}),
          ts(UINT8, {768}),
          omitted(),
          ts(FLOAT, {}),
          ts(FLOAT, {}),
          omitted(),
          ts(FLOAT, {}),
          ts(FLOAT, {}),
          ts(UINT8, {}),
          ts(UINT8, {}),
          omitted(),
          ts(UINT8, {}),
          ts(UINT8, {})};
}
}  // namespace

// quantization_defs.cc QGemm: output is y_zero_point's type only when input 8 is present, FLOAT otherwise.
TEST(MicrosoftQuant, QGemmYScaleWithoutZeroPointIsFloat) {
  EXPECT_EQ(Op(kMs, "QGemm")
                .infer({ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {64, 32}), ts(FLOAT, {}),
                        ts(INT8, {}), omitted(), ts(FLOAT, {})}),
            (Types{ts(FLOAT, {"M", 32})}));
}
// gather_block_quantized.cc (CPU kernel): components = 8 / bits, so bits=8 UINT8 data keeps its last dim;
// block_size defaults to 128, so scales has 2048 / 128 = 16 blocks.
TEST(MicrosoftQuant, GatherBlockQuantizedBits8KeepsLastDim) {
  EXPECT_EQ(Op(kMs, "GatherBlockQuantized")
                .infer({ts(UINT8, {"V", 2048}), ts(INT64, {"B", "S"}), ts(FLOAT, {"V", 16})}, {attr("bits", 8)}),
            (Types{ts(FLOAT, {"B", "S", 2048})}));
}
// gather_block_quantized.cc: bits=2 packs four values per byte, last dim x4.
TEST(MicrosoftQuant, GatherBlockQuantizedBits2QuadruplesLastDim) {
  EXPECT_EQ(Op(kMs, "GatherBlockQuantized")
                .infer({ts(UINT8, {"V", 512}), ts(INT64, {"B", "S"}), ts(FLOAT16, {"V", 64})},
                       {attr("bits", 2), attr("block_size", 32)}),
            (Types{ts(FLOAT16, {"B", "S", 2048})}));
}
// gather_block_quantized.cc: INT4 data is not packed in the shape (components stay 1); gather_axis 1, quantize_axis 0.
TEST(MicrosoftQuant, GatherBlockQuantizedInt4OtherAxes) {
  EXPECT_EQ(Op(kMs, "GatherBlockQuantized")
                .infer({ts(DataType::INT4, {64, 10}), ts(INT64, {3}), ts(FLOAT, {4, 10})},
                       {attr("gather_axis", 1), attr("quantize_axis", 0), attr("block_size", 16)}),
            (Types{ts(FLOAT, {64, 3})}));
}
// gather_block_quantized.cc: "For uint8_t data, gather_axis must be 0."
TEST(MicrosoftQuant, GatherBlockQuantizedUint8NeedsGatherAxis0) {
  EXPECT_ERROR(Op(kMs, "GatherBlockQuantized")
                   .run({ts(UINT8, {64, 16}), ts(INT64, {3}), ts(FLOAT, {64, 1})},
                        {attr("gather_axis", 1), attr("block_size", 32)})
                   .report,
               "UINT8 data needs gather_axis 0 and quantize_axis the last axis");
}
// gather_block_quantized.cc: scales on quantize_axis must be ceil(dim * components / block_size) (2048 * 2 / 32 = 128).
TEST(MicrosoftQuant, GatherBlockQuantizedScalesMismatch) {
  EXPECT_ERROR(Op(kMs, "GatherBlockQuantized")
                   .run({ts(UINT8, {"V", 2048}), ts(INT64, {"B"}), ts(FLOAT, {"V", 64})}, {attr("block_size", 32)})
                   .report,
               "scales [V,64] do not match data [V,2048]");
}
// gather_block_quantized.cc: UINT8 data only supports bits 2, 4 or 8.
TEST(MicrosoftQuant, GatherBlockQuantizedBadBits) {
  EXPECT_ERROR(Op(kMs, "GatherBlockQuantized")
                   .run({ts(UINT8, {"V", 2048}), ts(INT64, {"B"}), ts(FLOAT, {"V", 16})}, {attr("bits", 3)})
                   .report,
               "bits must be 2, 4 or 8 for UINT8 data, got 3");
}
// gather_block_quantized.cc: block_size must be a power of 2 and not less than 16.
TEST(MicrosoftQuant, GatherBlockQuantizedBadBlockSize) {
  EXPECT_ERROR(Op(kMs, "GatherBlockQuantized")
                   .run({ts(UINT8, {"V", 2048}), ts(INT64, {"B"}), ts(FLOAT, {"V", 16})}, {attr("block_size", 8)})
                   .report,
               "block_size must be a power of 2 and at least 16");
}
// quantization_defs.cc QLinearMathDocGenerator: A_zero_point and B_zero_point are optional.
TEST(MicrosoftQuant, QLinearAddWithoutZeroPoints) {
  EXPECT_EQ(Op(kMs, "QLinearAdd")
                .infer({ts(INT8, {"N", 4}), ts(FLOAT, {}), omitted(), ts(INT8, {4}), ts(FLOAT, {}), omitted(),
                        ts(FLOAT, {})}),
            (Types{ts(INT8, {"N", 4})}));
}
// quantization_defs.cc QLinearSoftmax: y_zero_point (input 4) has no Optional flag.
TEST(MicrosoftQuant, QLinearSoftmaxRequiresYZeroPoint) {
  EXPECT_ERROR(Op(kMs, "QLinearSoftmax")
                   .run({ts(UINT8, {"N", 10}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {})}, {attr("opset", 13)})
                   .report,
               "missing required input 4");
}
// quantization_defs.cc QLinearSoftmax: `opset` has no default (required).
TEST(MicrosoftQuant, QLinearSoftmaxRequiresOpset) {
  EXPECT_ERROR(Op(kMs, "QLinearSoftmax")
                   .run({ts(UINT8, {"N", 10}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})})
                   .report,
               "missing required attribute 'opset'");
}
// quantization_defs.cc QLinearSoftmax: "'axis' must be in [-r , r-1]".
TEST(MicrosoftQuant, QLinearSoftmaxAxisOutOfRange) {
  EXPECT_ERROR(Op(kMs, "QLinearSoftmax")
                   .run({ts(UINT8, {"N", 10}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                        {attr("opset", 13), attr("axis", 2)})
                   .report,
               "axis 2 is out of range");
}
// quantization_defs.cc QLinearSoftmax: propagateShapeFromInputToOutput; x_zero_point optional.
TEST(MicrosoftQuant, QLinearSoftmaxPassThrough) {
  EXPECT_EQ(
      Op(kMs, "QLinearSoftmax")
          .infer({ts(UINT8, {"N", 10}), ts(FLOAT, {}), omitted(), ts(FLOAT, {}), ts(UINT8, {})}, {attr("opset", 13)}),
      (Types{ts(UINT8, {"N", 10})}));
}
// nhwc_schema_defs.cc QLinearGlobalAveragePool: a rank-2 input is copied (no spatial dims to set to 1).
TEST(MicrosoftQuant, QLinearGlobalAveragePoolRank2) {
  EXPECT_EQ(Op(kMs, "QLinearGlobalAveragePool")
                .infer({ts(UINT8, {"N", 8}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 8})}));
}
// quantization_defs.cc QLinearReduceMean: data_zero_point and reduced_zero_point are optional.
TEST(MicrosoftQuant, QLinearReduceMeanWithoutZeroPoints) {
  EXPECT_EQ(Op(kMs, "QLinearReduceMean")
                .infer({ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), omitted(), ts(FLOAT, {})},
                       {attr("axes", std::vector<int64_t>{1}), attr("keepdims", 0)}),
            (Types{ts(UINT8, {"B", 768})}));
}
// quantization_defs.cc QLinearReduceMean: empty axes reduce every dimension.
TEST(MicrosoftQuant, QLinearReduceMeanEmptyAxesReducesAll) {
  EXPECT_EQ(Op(kMs, "QLinearReduceMean")
                .infer({ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                       {attr("axes", std::vector<int64_t>{}), attr("keepdims", 1)}),
            (Types{ts(UINT8, {1, 1, 1})}));
}
// quantization_defs.cc QLinearReduceMean: `keepdims` has no default (required).
TEST(MicrosoftQuant, QLinearReduceMeanRequiresKeepdims) {
  EXPECT_ERROR(Op(kMs, "QLinearReduceMean")
                   .run({ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                        {attr("axes", std::vector<int64_t>{-1})})
                   .report,
               "missing required attribute 'keepdims'");
}
// shape_inference_functions.cc AttentionTypeAndShapeInference: hidden = bias.dim(0) / 3, type of the bias.
TEST(MicrosoftQuant, QAttentionHiddenFromBias) {
  EXPECT_EQ(Op(kMs, "QAttention")
                .infer({ts(UINT8, {"B", "S", 768}), ts(INT8, {768, "W"}), ts(FLOAT16, {2304}), ts(FLOAT16, {}),
                        ts(FLOAT16, {})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"B", "S", 768})}));
}
// shape_inference_functions.cc AttentionTypeAndShapeInference: "Invalid bias shape" unless 1-D.
TEST(MicrosoftQuant, QAttentionBiasMustBe1D) {
  EXPECT_ERROR(
      Op(kMs, "QAttention")
          .run({ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 2304}), ts(FLOAT, {1, 2304}), ts(FLOAT, {}), ts(FLOAT, {})},
               {attr("num_heads", 12)})
          .report,
      "bias has unexpected rank: [1,2304]");
}
// EmbedLayerNormalizationShapeInference: [B, S, hidden] and [B]; type variable T allows only float.
TEST(MicrosoftQuant, QEmbedLayerNormalizationOutputs) {
  EXPECT_EQ(Op(kMs, "QEmbedLayerNormalization").outputs(2).infer(qembed_inputs()),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(INT32, {"B"})}));
}
// quantization_defs.cc QEmbedLayerNormalization: position_embedding_quant (input 3) is required.
TEST(MicrosoftQuant, QEmbedLayerNormalizationRequiresPositionEmbedding) {
  auto in = qembed_inputs();
  in[3] = omitted();
  EXPECT_ERROR(Op(kMs, "QEmbedLayerNormalization").outputs(2).run(in).report, "missing required input 3");
}
// EmbedLayerNormalizationShapeInference: gamma must have word_embedding's hidden size.
TEST(MicrosoftQuant, QEmbedLayerNormalizationGammaMismatch) {
  auto in = qembed_inputs();
  in[5] = ts(UINT8, {512});
  EXPECT_ERROR(Op(kMs, "QEmbedLayerNormalization").outputs(2).run(in).report,
               "gamma hidden size 512 differs from word_embedding's 768");
}
namespace {
std::vector<In> qordered_attention_inputs(Type q_weight) {
  std::vector<In> in{ts(INT8, {"B", "S", 768}),
                     ts(FLOAT, {}),
                     ts(FLOAT, {}),
                     ts(FLOAT, {}),
                     ts(FLOAT, {}),
                     q_weight,
                     q_weight,
                     q_weight};
  for (int i = 0; i < 3; ++i) in.push_back(ts(FLOAT, {}));
  for (int i = 0; i < 3; ++i) in.push_back(ts(FLOAT, {512}));
  in.push_back(omitted());
  in.push_back(omitted());
  in.push_back(ts(FLOAT, {}));
  return in;
}
}  // namespace
// quantization_defs.cc QOrderedAttention: propagateShapeAndTypeFromFirstInput; inputs 14 and 15 optional.
TEST(MicrosoftQuant, QOrderedAttentionKeepsInputShape) {
  EXPECT_EQ(Op(kMs, "QOrderedAttention").infer(qordered_attention_inputs(ts(INT8, {768, 512})), {attr("num_heads", 8)}),
            (Types{ts(INT8, {"B", "S", 768})}));
}
// quantization_defs.cc QOrderedAttention: scale_values_gemm (input 16) is required.
TEST(MicrosoftQuant, QOrderedAttentionRequiresScaleValuesGemm) {
  auto in = qordered_attention_inputs(ts(INT8, {768, 768}));
  in.pop_back();
  EXPECT_ERROR(Op(kMs, "QOrderedAttention").run(in, {attr("num_heads", 8)}).report, "missing required input 16");
}
// quantization_defs.cc QOrderedLayerNormalization: scale_Y (input 4) is required, B (input 3) optional.
TEST(MicrosoftQuant, QOrderedLayerNormalizationRequiresScaleY) {
  EXPECT_ERROR(
      Op(kMs, "QOrderedLayerNormalization").run({ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT16, {64})}).report,
      "missing required input 4");
}
TEST(MicrosoftQuant, QOrderedLayerNormalizationWithoutBias) {
  EXPECT_EQ(Op(kMs, "QOrderedLayerNormalization")
                .infer({ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT16, {64}), omitted(), ts(FLOAT, {})}),
            (Types{ts(INT8, {"B", "S", 64})}));
}
// quantization_defs.cc QOrderedLongformerAttention: all 14 inputs are required.
TEST(MicrosoftQuant, QOrderedLongformerAttentionNeeds14Inputs) {
  std::vector<In> in{ts(INT8, {"B", "S", 768})};
  for (int i = 1; i < 7; ++i) in.push_back(ts(FLOAT, {}));
  EXPECT_ERROR(Op(kMs, "QOrderedLongformerAttention").run(in, {attr("num_heads", 12), attr("window", 64)}).report,
               "missing required input 7");
}
// contrib_defs.cc MoE: fc2_experts_weights (input 4) is required.
TEST(MicrosoftQuant, MoERequiresFc2Weights) {
  EXPECT_ERROR(Op(kMs, "MoE")
                   .run({ts(FLOAT16, {"T", 4096}), ts(FLOAT16, {"T", 8}), ts(FLOAT16, {8, 14336, 4096}),
                         ts(FLOAT16, {8, 14336})})
                   .report,
               "missing required input 4");
}
// ContribOperators.md QMoE (inputs 6 - 21): fc1_scales and fc2_scales are optional; output has input's shape.
TEST(MicrosoftQuant, QMoEWithoutScales) {
  EXPECT_EQ(Op(kMs, "QMoE")
                .infer({ts(FLOAT16, {"T", 4096}), ts(FLOAT16, {"T", 8}), ts(UINT8, {8, 14336, 2048}), omitted(),
                        omitted(), ts(UINT8, {8, 4096, 7168})}),
            (Types{ts(FLOAT16, {"T", 4096})}));
}

// quantization_defs.cc MulInteger: C (int32) = (A - A_zp) * (B - B_zp), Numpy broadcasting of A (input 0) and B (input
// 2).
TEST(MicrosoftQuant, MulIntegerBroadcastsToInt32) {
  EXPECT_EQ(Op(kMs, "MulInteger").infer({ts(UINT8, {"N", 1, 4}), omitted(), ts(UINT8, {3, 1})}),
            (Types{ts(INT32, {"N", 3, 4})}));
  EXPECT_EQ(Op(kMs, "MulInteger").infer({ts(INT8, {"N", 4}), ts(INT8, {}), ts(INT8, {4}), ts(INT8, {})}),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_ERROR(Op(kMs, "MulInteger").run({ts(INT8, {2, 3}), omitted(), ts(INT8, {4})}).report,
               "cannot broadcast [2,3] with [4]");
  EXPECT_ERROR(Op(kMs, "MulInteger").run({ts(INT8, {2, 3}), ts(INT8, {})}).report, "missing required input 2");
}
// ContribOperators.md ReduceSumInteger: axes and keepdims required; T2 is uint32 for uint8 data, int32 for int8.
TEST(MicrosoftQuant, ReduceSumInteger) {
  EXPECT_EQ(Op(kMs, "ReduceSumInteger").infer({ts(INT8, {"N", 3, 4})}, {attr("axes", I64s{-2}), attr("keepdims", 0)}),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_EQ(Op(kMs, "ReduceSumInteger").infer({ts(UINT8, {"N", 3, 4})}, {attr("axes", I64s{}), attr("keepdims", 1)}),
            (Types{ts(DataType::UINT32, {1, 1, 1})}));
  EXPECT_ERROR(Op(kMs, "ReduceSumInteger").run({ts(INT8, {"N", 3})}, {attr("axes", I64s{1})}).report,
               "missing required attribute 'keepdims'");
  EXPECT_ERROR(
      Op(kMs, "ReduceSumInteger").run({ts(INT8, {"N", 3})}, {attr("axes", I64s{2}), attr("keepdims", 1)}).report,
      "out of range for rank 2");
}
// quantization_defs.cc QuantizeWithOrder: INT8 of the input's shape; DequantizeWithOrder: the `to` type.
TEST(MicrosoftQuant, QuantizeDequantizeWithOrder) {
  const std::vector<Attribute> orders = {attr("order_input", 1), attr("order_output", 2)};
  EXPECT_EQ(Op(kMs, "QuantizeWithOrder").infer({ts(FLOAT16, {"B", "S", 64}), ts(FLOAT, {})}, orders),
            (Types{ts(INT8, {"B", "S", 64})}));
  std::vector<Attribute> to_half = orders;
  to_half.push_back(attr("to", 10));
  EXPECT_EQ(Op(kMs, "DequantizeWithOrder").infer({ts(INT8, {"B", "S", 64}), ts(FLOAT, {})}, to_half),
            (Types{ts(FLOAT16, {"B", "S", 64})}));
  std::vector<Attribute> to_double = orders;
  to_double.push_back(attr("to", 11));
  EXPECT_ERROR(Op(kMs, "DequantizeWithOrder").run({ts(INT8, {"B", 64}), ts(FLOAT, {})}, to_double).report,
               "to must be FLOAT (1) or FLOAT16 (10), got 11");
  EXPECT_ERROR(Op(kMs, "DequantizeWithOrder").run({ts(INT8, {"B", 64}), ts(FLOAT, {})}, orders).report,
               "missing required attribute 'to'");
  EXPECT_ERROR(Op(kMs, "QuantizeWithOrder").run({ts(FLOAT, {"B", 64}), ts(FLOAT, {})}, {attr("order_input", 1)}).report,
               "missing required attribute 'order_output'");
}
// ContribOperators.md QuantizeBFP: y is 1-D BFP data, shape and strides one int64 per axis of x.
TEST(MicrosoftQuant, QuantizeBFP) {
  const RunResult r = Op(kMs, "QuantizeBFP").outputs(3).run({ts(FLOAT, {"N", 64})}, {attr("bfp_type", 1)});
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  ASSERT_EQ(r.outputs.size(), 3u);
  EXPECT_EQ(r.outputs[0].elem_type(), UINT8);
  EXPECT_EQ(r.outputs[0].shape().rank(), 1);
  EXPECT_EQ(r.outputs[1], ts(INT64, {2}));
  EXPECT_EQ(r.outputs[2], ts(INT64, {2}));
  EXPECT_EQ(r.values[1], (V{"N", 64}));
  EXPECT_ERROR(Op(kMs, "QuantizeBFP").run({ts(FLOAT, {"N", 64})}, {attr("bfp_type", 1), attr("block_dim", 2)}).report,
               "block_dim 2 is out of range for rank 2");
  EXPECT_ERROR(Op(kMs, "QuantizeBFP").run({ts(FLOAT, {"N", 64})}).report, "missing required attribute 'bfp_type'");
}
// ContribOperators.md DequantizeBFP: y has the dims held by `shape`, of the `dtype` attribute (float by default).
TEST(MicrosoftQuant, DequantizeBFP) {
  EXPECT_EQ(Op(kMs, "DequantizeBFP").infer({ts(UINT8, {"L"}), vec({4, 64}), vec({64, 1})}, {attr("bfp_type", 1)}),
            (Types{ts(FLOAT, {4, 64})}));
  EXPECT_EQ(Op(kMs, "DequantizeBFP")
                .infer({ts(UINT8, {"L"}), sym_value(ts(INT64, {2}), {"N", 64}), ts(INT64, {2})},
                       {attr("bfp_type", 1), attr("dtype", 16)}),
            (Types{ts(DataType::BFLOAT16, {"N", 64})}));
  const Types unknown =
      Op(kMs, "DequantizeBFP").infer({ts(UINT8, {"L"}), ts(INT64, {3}), ts(INT64, {3})}, {attr("bfp_type", 1)});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].shape().rank(), 3);
  EXPECT_ERROR(
      Op(kMs, "DequantizeBFP").run({ts(UINT8, {"L"}), ts(INT64, {3}), ts(INT64, {2})}, {attr("bfp_type", 1)}).report,
      "shape and strides must have the same length, got 3 and 2");
  EXPECT_ERROR(Op(kMs, "DequantizeBFP")
                   .run({ts(UINT8, {"L"}), vec({4, 64}), vec({64, 1})}, {attr("bfp_type", 1), attr("dtype", 6)})
                   .report,
               "dtype must be FLOAT, FLOAT16 or BFLOAT16, got 6");
  EXPECT_ERROR(
      Op(kMs, "DequantizeBFP").run({ts(UINT8, {"L"}), vec({4, -1}), vec({64, 1})}, {attr("bfp_type", 1)}).report,
      "shape has a negative dim");
}
namespace {
// DynamicQuantizeLSTM's 12 inputs: X, W, R, 5 optional ones omitted, W/R scales and zero points.
std::vector<In> dq_lstm_inputs(Type x, Type w, Type r, SymbolicDim dirs) {
  std::vector<In> in = {std::move(x), std::move(w), std::move(r)};
  for (int i = 0; i < 5; ++i) in.push_back(omitted());
  for (DataType t : {FLOAT, INT8, FLOAT, INT8}) in.push_back(ts(t, {dirs}));
  return in;
}
}  // namespace
// quantization_defs.cc DynamicQuantizeLSTM (RNNShapeInference): W is [dirs, input, 4*hidden], R [dirs, hidden,
// 4*hidden].
TEST(MicrosoftQuant, DynamicQuantizeLSTM) {
  EXPECT_EQ(Op(kMs, "DynamicQuantizeLSTM")
                .outputs(3)
                .infer(dq_lstm_inputs(ts(FLOAT, {"S", "B", 16}), ts(INT8, {1, 16, 32}), ts(INT8, {1, 8, 32}), 1)),
            (Types{ts(FLOAT, {"S", 1, "B", 8}), ts(FLOAT, {1, "B", 8}), ts(FLOAT, {1, "B", 8})}));
  EXPECT_EQ(Op(kMs, "DynamicQuantizeLSTM")
                .outputs(2)
                .infer(dq_lstm_inputs(ts(FLOAT, {"S", "B", 16}), ts(UINT8, {2, 16, 24}), ts(UINT8, {2, "H", 24}), 2),
                       {attr("direction", "bidirectional"), attr("hidden_size", 6)}),
            (Types{ts(FLOAT, {"S", 2, "B", 6}), ts(FLOAT, {2, "B", 6})}));
  EXPECT_ERROR(Op(kMs, "DynamicQuantizeLSTM")
                   .run(dq_lstm_inputs(ts(FLOAT, {"S", "B", 16}), ts(INT8, {1, 16, 32}), ts(INT8, {1, 8, 24}), 1))
                   .report,
               "W [1,16,32] and R [1,8,24] must be [num_directions, input_size, 4*hidden_size]");
  EXPECT_ERROR(Op(kMs, "DynamicQuantizeLSTM")
                   .run(dq_lstm_inputs(ts(FLOAT, {"S", "B", 12}), ts(INT8, {1, 16, 32}), ts(INT8, {1, 8, 32}), 1))
                   .report,
               "and X [S,B,12]");
  EXPECT_ERROR(Op(kMs, "DynamicQuantizeLSTM")
                   .run(dq_lstm_inputs(ts(FLOAT, {"S", "B", 16}), ts(INT8, {1, 16, 32}), ts(INT8, {1, 8, 32}), 1),
                        {attr("direction", "sideways")})
                   .report,
               "unknown direction 'sideways'");
  std::vector<In> no_scales = dq_lstm_inputs(ts(FLOAT, {"S", "B", 16}), ts(INT8, {1, 16, 32}), ts(INT8, {1, 8, 32}), 1);
  no_scales.erase(no_scales.begin() + 8, no_scales.end());
  EXPECT_ERROR(Op(kMs, "DynamicQuantizeLSTM").run(no_scales).report, "missing required input 8");
}
