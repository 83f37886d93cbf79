#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
const char* kMs = "com.microsoft";
}

TEST(MicrosoftQuant, QuantizeDequantize) {
  EXPECT_EQ(run_shape_inference(kMs, "QuantizeLinear", {ts(FLOAT, {"N", 8}), ts(FLOAT, {}), ts(INT8, {})}), (Types{ts(INT8, {"N", 8})}));
  EXPECT_EQ(run_shape_inference(kMs, "QuantizeLinear", {ts(FLOAT, {"N", 8}), ts(FLOAT, {})}), (Types{ts(UINT8, {"N", 8})}));
  EXPECT_EQ(run_shape_inference(kMs, "DequantizeLinear", {ts(INT8, {"N", 8}), ts(FLOAT16, {}), ts(INT8, {})}), (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_EQ(run_node(kMs, "QuantizeLinear", {ts(FLOAT, {"N", 8})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, MatMulVariants) {
  EXPECT_EQ(run_shape_inference(kMs, "DynamicQuantizeMatMul", {ts(FLOAT, {"B", "S", 768}), ts(INT8, {768, 3072}), ts(FLOAT, {})}), (Types{ts(FLOAT, {"B", "S", 3072})}));
  EXPECT_EQ(run_shape_inference(kMs, "MatMulIntegerToFloat", {ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 64}), ts(FLOAT16, {}), ts(FLOAT16, {64})}), (Types{ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "QOrderedMatMul", {ts(INT8, {"B", "M", 32}), ts(FLOAT, {}), ts(INT8, {32, 16}), ts(FLOAT, {}), ts(FLOAT, {})}), (Types{ts(INT8, {"B", "M", 16})}));
  EXPECT_EQ(run_node(kMs, "MatMulIntegerToFloat", {ts(UINT8, {"B", 768}), ts(INT8, {768, 64}), ts(FLOAT, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QGemmAndGemmFloat8) {
  EXPECT_EQ(run_shape_inference(kMs, "QGemm", {ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {32, 64}), ts(FLOAT, {}), ts(INT8, {}), omitted(), ts(FLOAT, {}), ts(INT8, {})},
                                {attr("transB", 1)}),
            (Types{ts(INT8, {"M", 32})}));
  EXPECT_EQ(run_shape_inference(kMs, "QGemm", {ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {64, 32}), ts(FLOAT, {}), ts(INT8, {})}), (Types{ts(FLOAT, {"M", 32})}));
  EXPECT_EQ(run_shape_inference(kMs, "GemmFloat8", {ts(DataType::FLOAT8E4M3FN, {"M", 64}), ts(DataType::FLOAT8E4M3FN, {64, 16})}, {attr("dtype", 10)}),
            (Types{ts(FLOAT16, {"M", 16})}));
  EXPECT_EQ(run_node(kMs, "QGemm", {ts(UINT8, {"M", 64}), ts(FLOAT, {}), ts(UINT8, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, GatherBlockQuantized) {
  EXPECT_EQ(run_shape_inference(kMs, "GatherBlockQuantized", {ts(UINT8, {32000, 2048}), ts(INT64, {"B", "S"}), ts(FLOAT16, {32000, 128})}, {attr("block_size", 32)}),
            (Types{ts(FLOAT16, {"B", "S", 4096})}));
  EXPECT_EQ(run_node(kMs, "GatherBlockQuantized", {ts(UINT8, {32000, 2048}), ts(INT64, {"B", "S"})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QLinearElementwise) {
  EXPECT_EQ(run_shape_inference(kMs, "QLinearAdd", {ts(UINT8, {"N", 3, 4}), ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {4}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 3, 4})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearSigmoid", {ts(INT8, {"N", 8}), ts(FLOAT, {}), ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})}), (Types{ts(INT8, {"N", 8})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearWhere", {ts(BOOL, {"N", 1}), ts(INT8, {1, 4}), ts(FLOAT, {}), ts(INT8, {}), ts(INT8, {4}), ts(FLOAT, {}), ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})}),
            (Types{ts(INT8, {"N", 4})}));
  EXPECT_EQ(run_node(kMs, "QLinearMul", {ts(UINT8, {3}), ts(FLOAT, {}), ts(UINT8, {})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "QLinearSoftmax", {ts(UINT8, {3}), ts(FLOAT, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QLinearConcat) {
  EXPECT_EQ(run_shape_inference(kMs, "QLinearConcat", {ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {"N", "a"}), ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {"N", "b"}), ts(FLOAT, {}), ts(UINT8, {})},
                                {attr("axis", 1)}),
            (Types{ts(UINT8, {"N", "a+b"})}));
  EXPECT_EQ(run_node(kMs, "QLinearConcat", {ts(FLOAT, {}), ts(UINT8, {}), ts(UINT8, {"N", "a"}), ts(FLOAT, {}), ts(UINT8, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QLinearPoolsAndConv) {
  EXPECT_EQ(run_shape_inference(kMs, "QLinearAveragePool", {ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                                {attr("kernel_shape", std::vector<int64_t>{2, 2}), attr("strides", std::vector<int64_t>{2, 2})}),
            (Types{ts(UINT8, {"N", 8, "H//2", "W//2"})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearAveragePool", {ts(UINT8, {"N", "H", "W", 8}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                                {attr("kernel_shape", std::vector<int64_t>{2, 2}), attr("strides", std::vector<int64_t>{2, 2}), attr("channels_last", 1)}),
            (Types{ts(UINT8, {"N", "H//2", "W//2", 8})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearGlobalAveragePool", {ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 8, 1, 1})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearConv", {ts(UINT8, {"N", "H", "W", 4}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 4, 3, 3}), ts(FLOAT, {16}), ts(INT8, {16}), ts(FLOAT, {}), ts(INT8, {})},
                                {attr("channels_last", 1), attr("pads", std::vector<int64_t>{1, 1, 1, 1})}),
            (Types{ts(INT8, {"N", "H", "W", 16})}));
  EXPECT_EQ(run_shape_inference(kMs, "QLinearConv", {ts(UINT8, {"N", 4, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 4, 3, 3}), ts(FLOAT, {16}), ts(INT8, {16}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {"N", 16, "H-2", "W-2"})}));
  EXPECT_EQ(run_node(kMs, "QLinearAveragePool", {ts(UINT8, {"N", 8, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QLinearReduceMean) {
  EXPECT_EQ(run_shape_inference(kMs, "QLinearReduceMean", {ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {}), ts(UINT8, {})},
                                {attr("axes", std::vector<int64_t>{-1}), attr("keepdims", 1)}),
            (Types{ts(UINT8, {"B", "S", 1})}));
  EXPECT_EQ(run_node(kMs, "QLinearReduceMean", {ts(UINT8, {"B", "S", 768}), ts(FLOAT, {}), ts(UINT8, {}), ts(FLOAT, {})}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QAttentionAndQEmbed) {
  EXPECT_EQ(run_shape_inference(kMs, "QAttention", {ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {}), ts(FLOAT, {}), omitted(), omitted(), omitted(),
                                                     ts(FLOAT, {2, "B", 12, "P", 64})},
                                {attr("num_heads", 12)}, 18, 2),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {2, "B", 12, "P+S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "QEmbedLayerNormalization", {ts(INT32, {"B", "S"}), omitted(), ts(UINT8, {30522, 768})}, {}, 18, 2),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(INT32, {"B"})}));
  EXPECT_EQ(run_node(kMs, "QAttention", {ts(UINT8, {"B", "S", 768}), ts(INT8, {768, 2304})}, {attr("num_heads", 12)}).report.errors(), 1u);
}
TEST(MicrosoftQuant, QOrderedAndMoE) {
  EXPECT_EQ(run_shape_inference(kMs, "QOrderedGelu", {ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT, {})}), (Types{ts(INT8, {"B", "S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "QOrderedLayerNormalization", {ts(INT8, {"B", "S", 64}), ts(FLOAT, {}), ts(FLOAT16, {64})}), (Types{ts(INT8, {"B", "S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "MoE", {ts(FLOAT16, {"T", 4096}), ts(FLOAT16, {"T", 8}), ts(FLOAT16, {8, 4096, 14336})}), (Types{ts(FLOAT16, {"T", 4096})}));
  EXPECT_EQ(run_node(kMs, "QOrderedGelu", {ts(INT8, {"B", "S", 64})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "QMoE", {ts(FLOAT16, {"T", 4096})}).report.errors(), 1u);
}
