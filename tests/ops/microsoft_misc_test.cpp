#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
const char* kMs = "com.microsoft";
}

TEST(MicrosoftMisc, GeluFamilyPassThrough) {
  EXPECT_EQ(run_shape_inference(kMs, "BiasGelu", {ts(FLOAT, {"B", "S", 3072}), ts(FLOAT, {3072})}), (Types{ts(FLOAT, {"B", "S", 3072})}));
  EXPECT_EQ(run_shape_inference(kMs, "FastGelu", {ts(FLOAT16, {"B", "S", 64})}), (Types{ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "Gelu", {ts(FLOAT, {"N", 8})}), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(run_shape_inference(kMs, "QuickGelu", {ts(FLOAT)}), (Types{ts(FLOAT)}));
}
TEST(MicrosoftMisc, BiasGeluMissingBiasIsError) {
  EXPECT_EQ(run_node(kMs, "BiasGelu", {ts(FLOAT, {2, 3})}).report.errors(), 1u);
}
TEST(MicrosoftMisc, BiasAddAndRotary) {
  EXPECT_EQ(run_shape_inference(kMs, "BiasAdd", {ts(FLOAT16, {"N", "HW", 320}), ts(FLOAT16, {320}), ts(FLOAT16, {"N", "HW", 320})}),
            (Types{ts(FLOAT16, {"N", "HW", 320})}));
  EXPECT_EQ(run_shape_inference(kMs, "RotaryEmbedding", {ts(FLOAT, {"B", "S", 768}), ts(INT64, {"B", "S"}), ts(FLOAT, {2048, 32}), ts(FLOAT, {2048, 32})}, {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "RotaryEmbedding", {ts(FLOAT, {"B", "S", 768}), ts(INT64, {"B", "S"})}).report.errors(), 1u);
}
TEST(MicrosoftMisc, GroupNormNhwc) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupNorm", {ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})},
                                {attr("groups", 32), attr("activation", 1)}),
            (Types{ts(FLOAT16, {"N", "H", "W", 320})}));
  EXPECT_EQ(run_shape_inference(kMs, "SkipGroupNorm", {ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320}), ts(FLOAT16, {"N", "H", "W", 320})},
                                {attr("groups", 32), attr("activation", 0)}, 18, 2),
            (Types{ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT16, {"N", "H", "W", 320})}));
}
// diffusion_defs.cc: GroupNorm / SkipGroupNorm declare `groups` and `activation` without a default (required).
TEST(MicrosoftMisc, GroupNormRequiresActivation) {
  EXPECT_EQ(run_node(kMs, "GroupNorm", {ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})}, {attr("groups", 32)}).report.errors(), 1u);
}
TEST(MicrosoftMisc, SkipGroupNormRequiresGroups) {
  EXPECT_EQ(run_node(kMs, "SkipGroupNorm", {ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320}), ts(FLOAT16, {"N", "H", "W", 320})},
                     {attr("activation", 0)}).report.errors(),
            1u);
}
// ContribOperators.md GroupNorm: "num_channels must be divisible by num_groups"; channels_last defaults to 1.
TEST(MicrosoftMisc, GroupNormChannelsNotMultipleOfGroups) {
  EXPECT_EQ(run_node(kMs, "GroupNorm", {ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})},
                     {attr("groups", 30), attr("activation", 0)}).report.errors(),
            1u);
}
TEST(MicrosoftMisc, GroupNormChannelsFirstUsesDim1) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupNorm", {ts(FLOAT, {"N", 64, "H", 30}), ts(FLOAT, {64}), ts(FLOAT, {64})},
                                {attr("groups", 32), attr("activation", 0), attr("channels_last", 0)}),
            (Types{ts(FLOAT, {"N", 64, "H", 30})}));
}
TEST(MicrosoftMisc, BiasSplitGeluHalvesLastDim) {
  EXPECT_EQ(run_shape_inference(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", 2560}), ts(FLOAT16, {2560})}), (Types{ts(FLOAT16, {"N", "HW", 1280})}));
  EXPECT_EQ(run_shape_inference(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", "C"}), ts(FLOAT16, {"C"})}), (Types{ts(FLOAT16, {"N", "HW", "C//2"})}));
  EXPECT_EQ(run_node(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", 5}), ts(FLOAT16, {5})}).report.errors(), 1u);
}
// diffusion_defs.cc BiasSplitGelu: the output's last dim is bias.dim(0) / 2.
TEST(MicrosoftMisc, BiasSplitGeluTakesHiddenFromBias) {
  EXPECT_EQ(run_shape_inference(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", "D"}), ts(FLOAT16, {2560})}), (Types{ts(FLOAT16, {"N", "HW", 1280})}));
}
// diffusion_defs.cc BiasSplitGelu: "bias shall be 1 dimension".
TEST(MicrosoftMisc, BiasSplitGeluBiasMustBe1D) {
  EXPECT_EQ(run_node(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", 2560}), ts(FLOAT16, {1, 2560})}).report.errors(), 1u);
}
// ContribOperators.md BiasSplitGelu: bias is (D), "the same hidden dimension as input tensor".
TEST(MicrosoftMisc, BiasSplitGeluBiasMismatch) {
  EXPECT_EQ(run_node(kMs, "BiasSplitGelu", {ts(FLOAT16, {"N", "HW", 1280}), ts(FLOAT16, {2560})}).report.errors(), 1u);
}
TEST(MicrosoftMisc, FusedMatMulTransposes) {
  EXPECT_EQ(run_shape_inference(kMs, "FusedMatMul", {ts(FLOAT, {"B", "M", "K"}), ts(FLOAT, {"K", "N"})}), (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(run_shape_inference(kMs, "FusedMatMul", {ts(FLOAT, {"B", "K", "M"}), ts(FLOAT, {"N", "K"})}, {attr("transA", 1), attr("transB", 1)}),
            (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(run_shape_inference(kMs, "FusedMatMul", {ts(FLOAT, {"M", "B", "K"}), ts(FLOAT, {"B", "K", "N"})}, {attr("transBatchA", 1)}),
            (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(run_shape_inference(kMs, "TransposeMatMul", {ts(FLOAT, {4, 3}), ts(FLOAT, {4, 5})}, {attr("transA", 1)}), (Types{ts(FLOAT, {3, 5})}));
  EXPECT_EQ(run_node(kMs, "FusedMatMul", {ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "FusedMatMul", {ts(FLOAT, {2, 3})}).report.errors(), 1u);
}
TEST(MicrosoftMisc, GemmFastGeluAndMatMulInteger16) {
  EXPECT_EQ(run_shape_inference(kMs, "GemmFastGelu", {ts(FLOAT, {"M", 768}), ts(FLOAT, {768, 3072}), ts(FLOAT, {3072})}), (Types{ts(FLOAT, {"M", 3072})}));
  EXPECT_EQ(run_shape_inference(kMs, "MatMulInteger16", {ts(DataType::INT16, {"M", 8}), ts(DataType::INT16, {8, 4})}), (Types{ts(INT32, {"M", 4})}));
}
TEST(MicrosoftMisc, MatMulNBitsUsesNAttribute) {
  EXPECT_EQ(run_shape_inference(kMs, "MatMulNBits", {ts(FLOAT16, {"B", "S", 4096}), ts(UINT8, {11008, 128, 16}), ts(FLOAT16, {11008 * 128})},
                                {attr("K", 4096), attr("N", 11008), attr("bits", 4), attr("block_size", 32)}),
            (Types{ts(FLOAT16, {"B", "S", 11008})}));
  EXPECT_EQ(run_node(kMs, "MatMulNBits", {ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})}, {attr("K", 4096)}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "MatMulNBits", {ts(FLOAT16, {"B", 100}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})},
                     {attr("K", 4096), attr("N", 8), attr("block_size", 32)}).report.errors(),
            1u);
}
// ContribOperators.md MatMulNBits: block_size is required.
TEST(MicrosoftMisc, MatMulNBitsRequiresBlockSize) {
  EXPECT_EQ(run_node(kMs, "MatMulNBits", {ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})}, {attr("K", 4096), attr("N", 8)}).report.errors(), 1u);
}
// ContribOperators.md MatMulNBits: block_size "Must be a power of two and >= 16".
TEST(MicrosoftMisc, MatMulNBitsBlockSizePowerOfTwo) {
  EXPECT_EQ(run_node(kMs, "MatMulNBits", {ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})},
                     {attr("K", 4096), attr("N", 8), attr("block_size", 24)}).report.errors(),
            1u);
}
// contrib_defs.cc MatmulWithQuantWeightShapeInference: A's leading dims are kept, last becomes N.
TEST(MicrosoftMisc, MatMulNBits2D) {
  EXPECT_EQ(run_shape_inference(kMs, "MatMulNBits", {ts(FLOAT, {"M", 64}), ts(UINT8, {8, 2, 16}), ts(FLOAT, {16})},
                                {attr("K", 64), attr("N", 8), attr("block_size", 32)}),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(MicrosoftMisc, NhwcConvSpatialExpressions) {
  EXPECT_EQ(run_shape_inference(kMs, "NhwcConv", {ts(FLOAT16, {"N", "H", "W", 64}), ts(FLOAT16, {128, 64, 3, 3})},
                                {attr("strides", std::vector<int64_t>{2, 2}), attr("pads", std::vector<int64_t>{1, 1, 1, 1})}),
            (Types{ts(FLOAT16, {"N", "(H+1)//2", "(W+1)//2", 128})}));
  EXPECT_EQ(run_shape_inference(kMs, "NhwcConv", {ts(FLOAT16, {1, 8, 8, 4}), ts(FLOAT16, {16, 4, 3, 3})}), (Types{ts(FLOAT16, {1, 6, 6, 16})}));
  EXPECT_EQ(run_node(kMs, "NhwcConv", {ts(FLOAT16, {1, 8, 8, 4})}).report.errors(), 1u);
}
