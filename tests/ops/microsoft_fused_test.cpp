#include "op_test_util.hpp"

constexpr DataType UINT32 = DataType::UINT32;
constexpr DataType BFLOAT16 = DataType::BFLOAT16;

// ContribOperators.md FusedConv: "the same as Conv besides it includes an attribute activation" (+ Z).
TEST(MicrosoftFused, FusedConvIsConv) {
  EXPECT_EQ(Op(kMs, "FusedConv")
                .infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3}), ts(FLOAT, {16}),
                        ts(FLOAT, {"N", 16, "H-2", "W-2"})},
                       {attr("activation", "Relu")}),
            (Types{ts(FLOAT, {"N", 16, "H-2", "W-2"})}));
  EXPECT_EQ(
      Op(kMs, "FusedConv")
          .infer({ts(FLOAT, {1, 4, 9, 9}), ts(FLOAT, {8, 2, 3, 3})}, {attr("group", 2), attr("strides", I64s{2, 2})}),
      (Types{ts(FLOAT, {1, 8, 4, 4})}));
  EXPECT_ERROR(Op(kMs, "FusedConv").run({ts(FLOAT, {1, 4, 9, 9}), ts(FLOAT, {8, 3, 3, 3})}).report,
               "input channels 4 do not match weight");
}
TEST(MicrosoftFused, NhwcFusedConvChannelsLast) {
  EXPECT_EQ(Op(kMs, "NhwcFusedConv")
                .infer({ts(FLOAT16, {"N", "H", "W", 8}), ts(FLOAT16, {16, 8, 3, 3}), ts(FLOAT16, {16})},
                       {attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(FLOAT16, {"N", "H", "W", 16})}));
  EXPECT_ERROR(Op(kMs, "NhwcFusedConv").run({ts(FLOAT16, {"N", 8}), ts(FLOAT16, {16, 8, 3, 3})}).report,
               "input must have rank >= 3");
}
TEST(MicrosoftFused, ConvTransposeWithDynamicPads) {
  // out = s*(in-1) + k - pb - pe: 2*(5-1) + 3 - 1 - 1 = 9.
  EXPECT_EQ(Op(kMs, "ConvTransposeWithDynamicPads")
                .infer({ts(FLOAT, {"N", 4, 5, 5}), ts(FLOAT, {4, 2, 3, 3}), vec({1, 1, 1, 1})},
                       {attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 2, 9, 9})}));
  EXPECT_EQ(Op(kMs, "ConvTransposeWithDynamicPads")
                .infer({ts(FLOAT, {"N", 4, "H", 5}), ts(FLOAT, {4, 2, 3, 3})}, {attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 2, "2*H+1", 11})}));
  // Pads whose values are not known: the spatial dims are unknown.
  EXPECT_EQ(Op(kMs, "ConvTransposeWithDynamicPads")
                .infer({ts(FLOAT, {"N", 4, 5, 5}), ts(FLOAT, {4, 2, 3, 3}), ts(INT64, {4})}),
            (Types{ts(FLOAT, {"N", 2, "_d0", "_d1"})}));
  EXPECT_ERROR(Op(kMs, "ConvTransposeWithDynamicPads")
                   .run({ts(FLOAT, {"N", 4, 5, 5}), ts(FLOAT, {4, 2, 3, 3}), vec({1, 1})})
                   .report,
               "Pads has 2 values; expected 4");
}
TEST(MicrosoftFused, FusedGemmAndFusedMatMulActivation) {
  EXPECT_EQ(Op(kMs, "FusedGemm")
                .infer({ts(FLOAT, {"M", "K"}), ts(FLOAT, {"N", "K"}), ts(FLOAT, {"N"})},
                       {attr("transB", 1), attr("activation", "LeakyRelu")}),
            (Types{ts(FLOAT, {"M", "N"})}));
  EXPECT_ERROR(Op(kMs, "FusedGemm").run({ts(FLOAT, {4, 3}), ts(FLOAT, {5, 6})}).report,
               "incompatible inner dimensions");
  EXPECT_EQ(Op(kMs, "FusedMatMulActivation")
                .infer({ts(FLOAT, {"B", "M", "K"}), ts(FLOAT, {"B", "N", "K"})},
                       {attr("transB", 1), attr("activation", "Relu")}),
            (Types{ts(FLOAT, {"B", "M", "N"})}));
  EXPECT_ERROR(Op(kMs, "FusedMatMulActivation").run({ts(FLOAT, {2, 3}), ts(FLOAT, {3, 4})}).report,
               "missing required attribute 'activation'");
}
TEST(MicrosoftFused, MaxpoolWithMaskAndNhwcMaxPool) {
  EXPECT_EQ(Op(kMs, "MaxpoolWithMask")
                .infer({ts(FLOAT, {"N", 3, 8, 8}), ts(INT32, {"N", 3, 8, 8})},
                       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 3, 4, 4})}));
  EXPECT_ERROR(Op(kMs, "MaxpoolWithMask").run({ts(FLOAT, {"N", 3, 8, 8})}, {attr("kernel_shape", I64s{2, 2})}).report,
               "missing required input 1");
  EXPECT_EQ(Op(kMs, "NhwcMaxPool")
                .infer({ts(UINT8, {"N", 7, 7, 16})},
                       {attr("kernel_shape", I64s{3, 3}), attr("ceil_mode", 1), attr("strides", I64s{2, 2})}),
            (Types{ts(UINT8, {"N", 3, 3, 16})}));
  EXPECT_EQ(Op(kMs, "NhwcMaxPool").infer({ts(INT8, {"N", "H", "W", 16})}, {attr("kernel_shape", I64s{2, 2})}),
            (Types{ts(INT8, {"N", "H-1", "W-1", 16})}));
  EXPECT_ERROR(Op(kMs, "NhwcMaxPool").run({ts(UINT8, {"N", 7, 7, 16})}).report,
               "missing required attribute 'kernel_shape'");
}
TEST(MicrosoftFused, DropoutFusions) {
  EXPECT_EQ(Op(kMs, "BiasDropout")
                .outputs(2)
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768}), ts(FLOAT, {"B", "S", 768})}),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(BOOL, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "BiasDropout").run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {512})}).report,
               "bias [512] must be [768]");
  // The bitmask holds one bit per element: ceil(2*3*40 / 32) = 8 uint32 words.
  EXPECT_EQ(Op(kMs, "BitmaskBiasDropout").outputs(2).infer({ts(FLOAT, {2, 3, 40}), ts(FLOAT, {40})}),
            (Types{ts(FLOAT, {2, 3, 40}), ts(UINT32, {8})}));
  EXPECT_EQ(Op(kMs, "BitmaskDropout").outputs(2).infer({ts(FLOAT16, {"N", 64})}),
            (Types{ts(FLOAT16, {"N", 64}), ts(UINT32, {"(64*N+31)//32"})}));
  EXPECT_ERROR(Op(kMs, "BitmaskDropout").outputs(2).run({ts(FLOAT, {4}), ts(FLOAT, {2})}).report,
               "ratio must be a scalar");
}
TEST(MicrosoftFused, BiasSoftmax) {
  EXPECT_EQ(Op(kMs, "BiasSoftmax")
                .infer({ts(FLOAT, {"B", 12, "S", "S"}), ts(FLOAT, {"B", 1, 1, "S"})},
                       {attr("axis", 3), attr("is_inner_broadcast", 0)}),
            (Types{ts(FLOAT, {"B", 12, "S", "S"})}));
  EXPECT_ERROR(Op(kMs, "BiasSoftmax").run({ts(FLOAT, {2, 3}), ts(FLOAT, {2, 3})}).report,
               "missing required attribute 'is_inner_broadcast'");
  EXPECT_ERROR(Op(kMs, "BiasSoftmax")
                   .run({ts(FLOAT, {2, 3}), ts(FLOAT, {2, 3})}, {attr("is_inner_broadcast", 1), attr("axis", 2)})
                   .report,
               "axis 2 is out of range for rank 2");
}
TEST(MicrosoftFused, GatedAddAndGatedRmsNorm) {
  EXPECT_EQ(Op(kMs, "GatedAdd").infer({ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 1})}),
            (Types{ts(FLOAT, {"B", "T", 64})}));
  EXPECT_ERROR(Op(kMs, "GatedAdd").run({ts(FLOAT, {2, 64}), ts(FLOAT, {2, 64}), ts(FLOAT, {2, 64})}).report,
               "gate must be [..., 1]");
  EXPECT_EQ(
      Op(kMs, "GatedRMSNorm").infer({ts(BFLOAT16, {"B", "T", 256}), ts(BFLOAT16, {64}), ts(BFLOAT16, {"B", "T", 256})}),
      (Types{ts(BFLOAT16, {"B", "T", 256})}));
  EXPECT_ERROR(Op(kMs, "GatedRMSNorm").run({ts(FLOAT, {"B", 100}), ts(FLOAT, {64}), ts(FLOAT, {"B", 100})}).report,
               "not a multiple of scale's 64");
}
TEST(MicrosoftFused, ComplexMulBroadcasts) {
  EXPECT_EQ(Op(kMs, "ComplexMul").infer({ts(FLOAT, {"B", 1, "N", 2}), ts(FLOAT, {4, "N", 2})}),
            (Types{ts(FLOAT, {"B", 4, "N", 2})}));
  EXPECT_EQ(Op(kMs, "ComplexMulConj").infer({ts(FLOAT16, {8, 2}), ts(FLOAT16, {8, 2})}), (Types{ts(FLOAT16, {8, 2})}));
  EXPECT_ERROR(Op(kMs, "ComplexMul").run({ts(FLOAT, {8, 3}), ts(FLOAT, {8, 2})}).report, "inputs must end in 2");
}
