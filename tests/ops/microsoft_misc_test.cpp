#include "op_test_util.hpp"

TEST(MicrosoftMisc, GeluFamilyPassThrough) {
  EXPECT_EQ(Op(kMs, "BiasGelu").infer({ts(FLOAT, {"B", "S", 3072}), ts(FLOAT, {3072})}),
            (Types{ts(FLOAT, {"B", "S", 3072})}));
  EXPECT_EQ(Op(kMs, "FastGelu").infer({ts(FLOAT16, {"B", "S", 64})}), (Types{ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_EQ(Op(kMs, "Gelu").infer({ts(FLOAT, {"N", 8})}), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(Op(kMs, "QuickGelu").infer({ts(FLOAT)}), (Types{ts(FLOAT)}));
}
TEST(MicrosoftMisc, BiasGeluMissingBiasIsError) {
  EXPECT_ERROR(Op(kMs, "BiasGelu").run({ts(FLOAT, {2, 3})}).report, "missing required input 1");
}
TEST(MicrosoftMisc, BiasAddAndRotary) {
  EXPECT_EQ(
      Op(kMs, "BiasAdd").infer({ts(FLOAT16, {"N", "HW", 320}), ts(FLOAT16, {320}), ts(FLOAT16, {"N", "HW", 320})}),
      (Types{ts(FLOAT16, {"N", "HW", 320})}));
  EXPECT_EQ(
      Op(kMs, "RotaryEmbedding")
          .infer({ts(FLOAT, {"B", "S", 768}), ts(INT64, {"B", "S"}), ts(FLOAT, {2048, 32}), ts(FLOAT, {2048, 32})},
                 {attr("num_heads", 12)}),
      (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "RotaryEmbedding").run({ts(FLOAT, {"B", "S", 768}), ts(INT64, {"B", "S"})}).report,
               "missing required input 2");
}
TEST(MicrosoftMisc, GroupNormNhwc) {
  EXPECT_EQ(Op(kMs, "GroupNorm")
                .infer({ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})},
                       {attr("groups", 32), attr("activation", 1)}),
            (Types{ts(FLOAT16, {"N", "H", "W", 320})}));
  EXPECT_EQ(Op(kMs, "SkipGroupNorm")
                .outputs(2)
                .infer({ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320}),
                        ts(FLOAT16, {"N", "H", "W", 320})},
                       {attr("groups", 32), attr("activation", 0)}),
            (Types{ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT16, {"N", "H", "W", 320})}));
}
// diffusion_defs.cc: GroupNorm / SkipGroupNorm declare `groups` and `activation` without a default (required).
TEST(MicrosoftMisc, GroupNormRequiresActivation) {
  EXPECT_ERROR(Op(kMs, "GroupNorm")
                   .run({ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})}, {attr("groups", 32)})
                   .report,
               "missing required attribute 'activation'");
}
TEST(MicrosoftMisc, SkipGroupNormRequiresGroups) {
  EXPECT_ERROR(Op(kMs, "SkipGroupNorm")
                   .run({ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320}),
                         ts(FLOAT16, {"N", "H", "W", 320})},
                        {attr("activation", 0)})
                   .report,
               "missing required attribute 'groups'");
}
// ContribOperators.md GroupNorm: "num_channels must be divisible by num_groups"; channels_last defaults to 1.
TEST(MicrosoftMisc, GroupNormChannelsNotMultipleOfGroups) {
  EXPECT_ERROR(Op(kMs, "GroupNorm")
                   .run({ts(FLOAT16, {"N", "H", "W", 320}), ts(FLOAT, {320}), ts(FLOAT, {320})},
                        {attr("groups", 30), attr("activation", 0)})
                   .report,
               "channels 320 are not a multiple of groups 30");
}
TEST(MicrosoftMisc, GroupNormChannelsFirstUsesDim1) {
  EXPECT_EQ(Op(kMs, "GroupNorm")
                .infer({ts(FLOAT, {"N", 64, "H", 30}), ts(FLOAT, {64}), ts(FLOAT, {64})},
                       {attr("groups", 32), attr("activation", 0), attr("channels_last", 0)}),
            (Types{ts(FLOAT, {"N", 64, "H", 30})}));
}
TEST(MicrosoftMisc, BiasSplitGeluHalvesLastDim) {
  EXPECT_EQ(Op(kMs, "BiasSplitGelu").infer({ts(FLOAT16, {"N", "HW", 2560}), ts(FLOAT16, {2560})}),
            (Types{ts(FLOAT16, {"N", "HW", 1280})}));
  EXPECT_EQ(Op(kMs, "BiasSplitGelu").infer({ts(FLOAT16, {"N", "HW", "C"}), ts(FLOAT16, {"C"})}),
            (Types{ts(FLOAT16, {"N", "HW", "C//2"})}));
  EXPECT_ERROR(Op(kMs, "BiasSplitGelu").run({ts(FLOAT16, {"N", "HW", 5}), ts(FLOAT16, {5})}).report,
               "last dim 5 is odd");
}
// diffusion_defs.cc BiasSplitGelu: the output's last dim is bias.dim(0) / 2.
TEST(MicrosoftMisc, BiasSplitGeluTakesHiddenFromBias) {
  EXPECT_EQ(Op(kMs, "BiasSplitGelu").infer({ts(FLOAT16, {"N", "HW", "D"}), ts(FLOAT16, {2560})}),
            (Types{ts(FLOAT16, {"N", "HW", 1280})}));
}
// diffusion_defs.cc BiasSplitGelu: "bias shall be 1 dimension".
TEST(MicrosoftMisc, BiasSplitGeluBiasMustBe1D) {
  EXPECT_ERROR(Op(kMs, "BiasSplitGelu").run({ts(FLOAT16, {"N", "HW", 2560}), ts(FLOAT16, {1, 2560})}).report,
               "BiasSplitGelu bias must be 1-D, got [1,2560]");
}
// ContribOperators.md BiasSplitGelu: bias is (D), "the same hidden dimension as input tensor".
TEST(MicrosoftMisc, BiasSplitGeluBiasMismatch) {
  EXPECT_ERROR(Op(kMs, "BiasSplitGelu").run({ts(FLOAT16, {"N", "HW", 1280}), ts(FLOAT16, {2560})}).report,
               "bias dim 2560 does not match input's last dim 1280");
}
TEST(MicrosoftMisc, FusedMatMulTransposes) {
  EXPECT_EQ(Op(kMs, "FusedMatMul").infer({ts(FLOAT, {"B", "M", "K"}), ts(FLOAT, {"K", "N"})}),
            (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(Op(kMs, "FusedMatMul")
                .infer({ts(FLOAT, {"B", "K", "M"}), ts(FLOAT, {"N", "K"})}, {attr("transA", 1), attr("transB", 1)}),
            (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(
      Op(kMs, "FusedMatMul").infer({ts(FLOAT, {"M", "B", "K"}), ts(FLOAT, {"B", "K", "N"})}, {attr("transBatchA", 1)}),
      (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_EQ(Op(kMs, "TransposeMatMul").infer({ts(FLOAT, {4, 3}), ts(FLOAT, {4, 5})}, {attr("transA", 1)}),
            (Types{ts(FLOAT, {3, 5})}));
  EXPECT_ERROR(Op(kMs, "FusedMatMul").run({ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}).report,
               "incompatible inner dimensions");
  EXPECT_ERROR(Op(kMs, "FusedMatMul").run({ts(FLOAT, {2, 3})}).report, "missing required input 1");
}
TEST(MicrosoftMisc, GemmFastGeluAndMatMulInteger16) {
  EXPECT_EQ(Op(kMs, "GemmFastGelu").infer({ts(FLOAT, {"M", 768}), ts(FLOAT, {768, 3072}), ts(FLOAT, {3072})}),
            (Types{ts(FLOAT, {"M", 3072})}));
  EXPECT_EQ(Op(kMs, "MatMulInteger16").infer({ts(DataType::INT16, {"M", 8}), ts(DataType::INT16, {8, 4})}),
            (Types{ts(INT32, {"M", 4})}));
}
TEST(MicrosoftMisc, MatMulNBitsUsesNAttribute) {
  EXPECT_EQ(Op(kMs, "MatMulNBits")
                .infer({ts(FLOAT16, {"B", "S", 4096}), ts(UINT8, {11008, 128, 16}), ts(FLOAT16, {11008 * 128})},
                       {attr("K", 4096), attr("N", 11008), attr("bits", 4), attr("block_size", 32)}),
            (Types{ts(FLOAT16, {"B", "S", 11008})}));
  EXPECT_ERROR(Op(kMs, "MatMulNBits")
                   .run({ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})}, {attr("K", 4096)})
                   .report,
               "missing required attribute 'N'");
  EXPECT_ERROR(Op(kMs, "MatMulNBits")
                   .run({ts(FLOAT16, {"B", 100}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})},
                        {attr("K", 4096), attr("N", 8), attr("block_size", 32)})
                   .report,
               "A's last dim 100 does not match K=4096");
}
// ContribOperators.md MatMulNBits: block_size is required.
TEST(MicrosoftMisc, MatMulNBitsRequiresBlockSize) {
  EXPECT_ERROR(Op(kMs, "MatMulNBits")
                   .run({ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})},
                        {attr("K", 4096), attr("N", 8)})
                   .report,
               "missing required attribute 'block_size'");
}
// ContribOperators.md MatMulNBits: block_size "Must be a power of two and >= 16".
TEST(MicrosoftMisc, MatMulNBitsBlockSizePowerOfTwo) {
  EXPECT_ERROR(Op(kMs, "MatMulNBits")
                   .run({ts(FLOAT16, {"B", 4096}), ts(UINT8, {8, 128, 16}), ts(FLOAT16, {1024})},
                        {attr("K", 4096), attr("N", 8), attr("block_size", 24)})
                   .report,
               "block_size must be a power of 2 and at least 16");
}
// contrib_defs.cc MatmulWithQuantWeightShapeInference: A's leading dims are kept, last becomes N.
TEST(MicrosoftMisc, MatMulNBits2D) {
  EXPECT_EQ(Op(kMs, "MatMulNBits")
                .infer({ts(FLOAT, {"M", 64}), ts(UINT8, {8, 2, 16}), ts(FLOAT, {16})},
                       {attr("K", 64), attr("N", 8), attr("block_size", 32)}),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(MicrosoftMisc, NhwcConvSpatialExpressions) {
  EXPECT_EQ(Op(kMs, "NhwcConv")
                .infer({ts(FLOAT16, {"N", "H", "W", 64}), ts(FLOAT16, {128, 64, 3, 3})},
                       {attr("strides", std::vector<int64_t>{2, 2}), attr("pads", std::vector<int64_t>{1, 1, 1, 1})}),
            (Types{ts(FLOAT16, {"N", "(H+1)//2", "(W+1)//2", 128})}));
  EXPECT_EQ(Op(kMs, "NhwcConv").infer({ts(FLOAT16, {1, 8, 8, 4}), ts(FLOAT16, {16, 4, 3, 3})}),
            (Types{ts(FLOAT16, {1, 6, 6, 16})}));
  EXPECT_ERROR(Op(kMs, "NhwcConv").run({ts(FLOAT16, {1, 8, 8, 4})}).report, "missing required input 1");
}
TEST(MicrosoftMisc, SparseToDenseMatMul) {
  EXPECT_EQ(Op(kMs, "SparseToDenseMatMul").infer({Type::sparse_tensor(FLOAT, Shape({"M", "K"})), ts(FLOAT, {"K", 8})}),
            (Types{ts(FLOAT, {"M", 8})}));
  EXPECT_EQ(Op(kMs, "SparseToDenseMatMul")
                .infer({Type::sparse_tensor(INT64, Shape({"K", "M"})), ts(INT64, {8, "K"})},
                       {attr("transA", 1), attr("transB", 1)}),
            (Types{ts(INT64, {"M", 8})}));
  EXPECT_ERROR(
      Op(kMs, "SparseToDenseMatMul").run({Type::sparse_tensor(FLOAT, Shape({4, 3})), ts(FLOAT, {5, 8})}).report,
      "incompatible inner dimensions");
}
