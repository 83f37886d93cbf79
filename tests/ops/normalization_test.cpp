#include "op_test_util.hpp"

// ---- BatchNormalization ----
TEST(BatchNorm, InferenceOneOutput) {
  EXPECT_EQ(
      Op("BatchNormalization")
          .opset(15)
          .infer({ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64}), ts(FLOAT, {64}), ts(FLOAT, {64}), ts(FLOAT, {64})}),
      (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
}
TEST(BatchNorm, TrainingMode14ThreeOutputs) {
  EXPECT_EQ(Op("BatchNormalization")
                .opset(15)
                .outputs(3)
                .infer({ts(FLOAT16, {"N", "C", "L"}), ts(FLOAT16, {"C"}), ts(FLOAT16, {"C"}), ts(FLOAT, {"C"}),
                        ts(FLOAT, {"C"})},
                       {attr("training_mode", 1)}),
            (Types{ts(FLOAT16, {"N", "C", "L"}), ts(FLOAT, {"C"}), ts(FLOAT, {"C"})}));
}
TEST(BatchNorm, ChannelFromScaleWhenUnknown) {
  EXPECT_EQ(Op("BatchNormalization")
                .opset(14)
                .outputs(3)
                .infer({ts(FLOAT, {"N", "_c", 4}), ts(FLOAT, {16}), ts(FLOAT, {16}), ts(FLOAT, {16}), ts(FLOAT, {16})},
                       {attr("training_mode", 1)}),
            (Types{ts(FLOAT, {"N", "_c", 4}), ts(FLOAT, {"_c"}), ts(FLOAT, {"_c"})}));
}
TEST(BatchNorm, Legacy9FiveOutputs) {
  EXPECT_EQ(Op("BatchNormalization")
                .opset(9)
                .outputs(5)
                .infer({ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8})}),
            (Types{ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8})}));
}
TEST(BatchNorm, Legacy7NonSpatialStats) {
  EXPECT_EQ(
      Op("BatchNormalization")
          .opset(7)
          .outputs(2)
          .infer({ts(FLOAT, {"N", 8, 5}), ts(FLOAT, {8, 5}), ts(FLOAT, {8, 5}), ts(FLOAT, {8, 5}), ts(FLOAT, {8, 5})},
                 {attr("spatial", 0)}),
      (Types{ts(FLOAT, {"N", 8, 5}), ts(FLOAT, {8, 5})}));
}
TEST(BatchNorm, StatsOutputsWithoutTrainingIsError) {
  EXPECT_ERROR(Op("BatchNormalization")
                   .opset(15)
                   .outputs(3)
                   .run({ts(FLOAT, {1, 2}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})})
                   .report,
               "running_mean and running_var are outputs only with training_mode=1");
}
TEST(BatchNorm, ScaleMismatchIsError) {
  EXPECT_ERROR(Op("BatchNormalization")
                   .opset(15)
                   .run({ts(FLOAT, {1, 3, 4}), ts(FLOAT, {4}), ts(FLOAT, {3}), ts(FLOAT, {3}), ts(FLOAT, {3})})
                   .report,
               "scale must have shape [3], got [4]");
}
TEST(BatchNorm, MissingInputIsUsageError) {
  EXPECT_ERROR(Op("BatchNormalization").opset(15).run({ts(FLOAT, {1, 3, 4}), ts(FLOAT, {3})}).report,
               "missing required input 2");
}

// ---- LayerNormalization ----
TEST(LayerNorm, MeanAndInvStdDev) {
  EXPECT_EQ(Op("LayerNormalization")
                .opset(17)
                .outputs(3)
                .infer({ts(FLOAT16, {"B", "T", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}),
            (Types{ts(FLOAT16, {"B", "T", 768}), ts(FLOAT, {"B", "T", 1}), ts(FLOAT, {"B", "T", 1})}));
}
TEST(LayerNorm, AxisAndStashType) {
  EXPECT_EQ(Op("LayerNormalization")
                .opset(17)
                .outputs(2)
                .infer({ts(DOUBLE, {"B", "T", 4, 8}), ts(DOUBLE, {4, 8})}, {attr("axis", 2), attr("stash_type", 16)}),
            (Types{ts(DOUBLE, {"B", "T", 4, 8}), ts(DataType::BFLOAT16, {"B", "T", 1, 1})}));
}
TEST(LayerNorm, AxisOutOfRangeIsError) {
  EXPECT_ERROR(Op("LayerNormalization").opset(17).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("axis", 2)}).report,
               "axis 2 is out of range");
}
TEST(LayerNorm, UnknownRank) {
  EXPECT_EQ(Op("LayerNormalization").opset(17).outputs(2).infer({ts(FLOAT), ts(FLOAT, {3})}),
            (Types{ts(FLOAT), ts(FLOAT)}));
}

// ---- GroupNormalization ----
TEST(GroupNorm, Opset18ScaleIsPerGroup) {
  EXPECT_EQ(Op("GroupNormalization")
                .infer({ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {32}), ts(FLOAT, {32})}, {attr("num_groups", 32)}),
            (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
  EXPECT_ERROR(Op("GroupNormalization")
                   .run({ts(FLOAT, {1, 64, 4}), ts(FLOAT, {64}), ts(FLOAT, {64})}, {attr("num_groups", 32)})
                   .report,
               "scale must have shape [32], got [64]");
}
TEST(GroupNorm, Opset21ScaleIsPerChannel) {
  EXPECT_EQ(Op("GroupNormalization")
                .opset(21)
                .infer({ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64}), ts(FLOAT, {64})}, {attr("num_groups", 32)}),
            (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
  EXPECT_ERROR(Op("GroupNormalization")
                   .opset(21)
                   .run({ts(FLOAT, {1, 64, 4}), ts(FLOAT, {32}), ts(FLOAT, {32})}, {attr("num_groups", 32)})
                   .report,
               "scale must have shape [64], got [32]");
}
TEST(GroupNorm, IndivisibleChannelsAndMissingAttr) {
  EXPECT_ERROR(Op("GroupNormalization")
                   .run({ts(FLOAT, {1, 6, 4}), ts(FLOAT, {4}), ts(FLOAT, {4})}, {attr("num_groups", 4)})
                   .report,
               "channels 6 are not divisible by num_groups 4");
  EXPECT_ERROR(Op("GroupNormalization").run({ts(FLOAT, {1, 6, 4}), ts(FLOAT, {3}), ts(FLOAT, {3})}).report,
               "missing required attribute 'num_groups'");
}

// ---- InstanceNormalization ----
TEST(InstanceNorm, KeepsShape) {
  EXPECT_EQ(
      Op("InstanceNormalization").opset(6).infer({ts(FLOAT, {"N", "C", "H", "W"}), ts(FLOAT, {"C"}), ts(FLOAT, {"C"})}),
      (Types{ts(FLOAT, {"N", "C", "H", "W"})}));
  EXPECT_ERROR(Op("InstanceNormalization").opset(6).run({ts(FLOAT, {1, 3, 4}), ts(FLOAT, {2}), ts(FLOAT, {3})}).report,
               "scale must have shape [3], got [2]");
}

TEST(RMSNormalization, KeepsShapeWithScaleType) {
  EXPECT_EQ(Op("RMSNormalization").opset(23).infer({ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {4, 5})}, {attr("axis", 2)}),
            (Types{ts(FLOAT, {2, 3, 4, 5})}));
  EXPECT_EQ(Op("RMSNormalization").opset(23).infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT16, {768})}),
            (Types{ts(FLOAT16, {"B", "S", 768})}));
}
TEST(RMSNormalization, AxisOutOfRangeIsError) {
  EXPECT_ERROR(Op("RMSNormalization").opset(23).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("axis", 2)}).report,
               "axis 2 is out of range");
}
TEST(RMSNormalization, MissingScaleIsUsageError) {
  EXPECT_ERROR(Op("RMSNormalization").opset(23).run({ts(FLOAT, {2, 3})}).report, "missing required input 1");
}
