// Object detection: NonMaxSuppression, MaxRoiPool and RoiAlign.
#include "op_test_util.hpp"

TEST(Detection, NonMaxSuppression) {
  EXPECT_EQ(Op("NonMaxSuppression").opset(10).infer({ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {"B", 80, "S"})}),
            (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_EQ(Op("NonMaxSuppression").opset(11).infer({ts(FLOAT), ts(FLOAT)}), (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_ERROR(Op("NonMaxSuppression").opset(11).run({ts(FLOAT, {"B", "S", 5}), ts(FLOAT, {"B", 1, "S"})}).report,
               "boxes must be [num_batches, spatial_dimension, 4]");
}

TEST(Detection, RoiPoolingShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      {"MaxRoiPool", "MaxRoiPool", {ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT, {"R", 5})},
       {attr("pooled_shape", I64s{7, 7})}, 1, {ts(FLOAT, {"R", 256, 7, 7})}},
      {"RoiAlign", "RoiAlign", {ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT, {"R", 4}), ts(INT64, {"R"})},
       {attr("output_height", 14), attr("output_width", 7)}, 16, {ts(FLOAT, {"R", 256, 14, 7})}},
      {"RoiAlignDefaultOutputSizeAtOpset10", "RoiAlign",
       {ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT), ts(INT64, {"R"})}, {}, 10, {ts(FLOAT, {"R", 256, 1, 1})}},
  };
  // clang-format on
  expect_shapes(cases);
}

TEST(Detection, RoiPoolingErrors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"MaxRoiPoolWithoutPooledShape", "MaxRoiPool", {ts(FLOAT, {1, 2, 3, 3}), ts(FLOAT, {4, 5})}, {}, 1,
       "missing required attribute 'pooled_shape'"},
      {"RoiAlignRoisOfWidth5", "RoiAlign", {ts(FLOAT, {1, 2, 3, 3}), ts(FLOAT, {4, 5}), ts(INT64, {4})}, {}, 16,
       "rois must have shape [num_rois, 4], got [4,5]"},
  };
  // clang-format on
  expect_errors(cases);
}
