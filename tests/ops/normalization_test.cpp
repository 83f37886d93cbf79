#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

// ---- BatchNormalization ----
TEST(BatchNorm, InferenceOneOutput) {
  EXPECT_EQ(run_shape_inference("", "BatchNormalization",
                                {ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64}), ts(FLOAT, {64}), ts(FLOAT, {64}),
                                 ts(FLOAT, {64})},
                                {}, 15),
            (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
}
TEST(BatchNorm, TrainingMode14ThreeOutputs) {
  EXPECT_EQ(run_shape_inference("", "BatchNormalization",
                                {ts(FLOAT16, {"N", "C", "L"}), ts(FLOAT16, {"C"}), ts(FLOAT16, {"C"}), ts(FLOAT, {"C"}),
                                 ts(FLOAT, {"C"})},
                                {attr("training_mode", 1)}, 15, 3),
            (Types{ts(FLOAT16, {"N", "C", "L"}), ts(FLOAT, {"C"}), ts(FLOAT, {"C"})}));
}
TEST(BatchNorm, ChannelFromScaleWhenUnknown) {
  EXPECT_EQ(run_shape_inference("", "BatchNormalization",
                                {ts(FLOAT, {"N", "_c", 4}), ts(FLOAT, {16}), ts(FLOAT, {16}), ts(FLOAT, {16}),
                                 ts(FLOAT, {16})},
                                {attr("training_mode", 1)}, 14, 3),
            (Types{ts(FLOAT, {"N", "_c", 4}), ts(FLOAT, {"_c"}), ts(FLOAT, {"_c"})}));
}
TEST(BatchNorm, Legacy9FiveOutputs) {
  EXPECT_EQ(run_shape_inference("", "BatchNormalization",
                                {ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8}),
                                 ts(FLOAT, {8})},
                                {}, 9, 5),
            (Types{ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8}), ts(FLOAT, {8})}));
}
TEST(BatchNorm, Legacy7NonSpatialStats) {
  EXPECT_EQ(run_shape_inference("", "BatchNormalization",
                                {ts(FLOAT, {"N", 8, 5}), ts(FLOAT, {8, 5}), ts(FLOAT, {8, 5}), ts(FLOAT, {8, 5}),
                                 ts(FLOAT, {8, 5})},
                                {attr("spatial", 0)}, 7, 2),
            (Types{ts(FLOAT, {"N", 8, 5}), ts(FLOAT, {8, 5})}));
}
TEST(BatchNorm, StatsOutputsWithoutTrainingIsError) {
  EXPECT_EQ(run_node("", "BatchNormalization",
                     {ts(FLOAT, {1, 2}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})}, {}, 15, 3)
                .report.errors(),
            1u);
}
TEST(BatchNorm, ScaleMismatchIsError) {
  EXPECT_EQ(run_node("", "BatchNormalization",
                     {ts(FLOAT, {1, 3, 4}), ts(FLOAT, {4}), ts(FLOAT, {3}), ts(FLOAT, {3}), ts(FLOAT, {3})}, {}, 15)
                .report.errors(),
            1u);
}
TEST(BatchNorm, MissingInputIsUsageError) {
  EXPECT_EQ(run_node("", "BatchNormalization", {ts(FLOAT, {1, 3, 4}), ts(FLOAT, {3})}, {}, 15).report.errors(), 1u);
}

// ---- LayerNormalization ----
TEST(LayerNorm, MeanAndInvStdDev) {
  EXPECT_EQ(run_shape_inference("", "LayerNormalization",
                                {ts(FLOAT16, {"B", "T", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}, {}, 17, 3),
            (Types{ts(FLOAT16, {"B", "T", 768}), ts(FLOAT, {"B", "T", 1}), ts(FLOAT, {"B", "T", 1})}));
}
TEST(LayerNorm, AxisAndStashType) {
  EXPECT_EQ(run_shape_inference("", "LayerNormalization", {ts(DOUBLE, {"B", "T", 4, 8}), ts(DOUBLE, {4, 8})},
                                {attr("axis", 2), attr("stash_type", 16)}, 17, 2),
            (Types{ts(DOUBLE, {"B", "T", 4, 8}), ts(DataType::BFLOAT16, {"B", "T", 1, 1})}));
}
TEST(LayerNorm, AxisOutOfRangeIsError) {
  EXPECT_EQ(run_node("", "LayerNormalization", {ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("axis", 2)}, 17).report.errors(),
            1u);
}
TEST(LayerNorm, UnknownRank) {
  EXPECT_EQ(run_shape_inference("", "LayerNormalization", {ts(FLOAT), ts(FLOAT, {3})}, {}, 17, 2),
            (Types{ts(FLOAT), ts(FLOAT)}));
}

// ---- GroupNormalization ----
TEST(GroupNorm, Opset18ScaleIsPerGroup) {
  EXPECT_EQ(run_shape_inference("", "GroupNormalization",
                                {ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {32}), ts(FLOAT, {32})},
                                {attr("num_groups", 32)}, 18),
            (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
  EXPECT_EQ(run_node("", "GroupNormalization", {ts(FLOAT, {1, 64, 4}), ts(FLOAT, {64}), ts(FLOAT, {64})},
                     {attr("num_groups", 32)}, 18)
                .report.errors(),
            1u);
}
TEST(GroupNorm, Opset21ScaleIsPerChannel) {
  EXPECT_EQ(run_shape_inference("", "GroupNormalization",
                                {ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64}), ts(FLOAT, {64})},
                                {attr("num_groups", 32)}, 21),
            (Types{ts(FLOAT, {"N", 64, "H", "W"})}));
  EXPECT_EQ(run_node("", "GroupNormalization", {ts(FLOAT, {1, 64, 4}), ts(FLOAT, {32}), ts(FLOAT, {32})},
                     {attr("num_groups", 32)}, 21)
                .report.errors(),
            1u);
}
TEST(GroupNorm, IndivisibleChannelsAndMissingAttr) {
  EXPECT_EQ(run_node("", "GroupNormalization", {ts(FLOAT, {1, 6, 4}), ts(FLOAT, {4}), ts(FLOAT, {4})},
                     {attr("num_groups", 4)}, 18)
                .report.errors(),
            1u);
  EXPECT_EQ(run_node("", "GroupNormalization", {ts(FLOAT, {1, 6, 4}), ts(FLOAT, {3}), ts(FLOAT, {3})}, {}, 18)
                .report.errors(),
            1u);
}

// ---- InstanceNormalization ----
TEST(InstanceNorm, KeepsShape) {
  EXPECT_EQ(run_shape_inference("", "InstanceNormalization", {ts(FLOAT, {"N", "C", "H", "W"}), ts(FLOAT, {"C"}),
                                                               ts(FLOAT, {"C"})},
                                {}, 6),
            (Types{ts(FLOAT, {"N", "C", "H", "W"})}));
  EXPECT_EQ(run_node("", "InstanceNormalization", {ts(FLOAT, {1, 3, 4}), ts(FLOAT, {2}), ts(FLOAT, {3})}, {}, 6)
                .report.errors(),
            1u);
}
