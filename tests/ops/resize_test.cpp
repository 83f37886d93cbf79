#include "op_test_util.hpp"

namespace {
In scales(std::vector<double> v) {
  const auto n = static_cast<int64_t>(v.size());
  return constant(Tensor::floats(std::move(v), {n}));
}
In empty_floats() { return constant(Tensor::floats({}, {0})); }
}  // namespace

// ---- Resize ----
TEST(Resize, Opset10IntegerScalesOnSymbols) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 2, 2})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
}
TEST(Resize, FloatScalesOnIntegerDims) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {1, 3, 10, 7}), scales({1, 1, 1.5, 0.5})}),
            (Types{ts(FLOAT, {1, 3, 15, 3})}));
}
TEST(Resize, DownscaleByPowerOfTwoOnSymbol) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 0.5, 0.25})}),
            (Types{ts(FLOAT, {"N", 3, "H//2", "W//4"})}));
}
// floor(H * p / 2^k) is exact: 1.5 gives (3*H)//2, written H+H//2.
TEST(Resize, DyadicScaleOnSymbolIsExact) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {"N", 3, "H", 8}), scales({1, 1, 1.5, 1.5})}),
            (Types{ts(FLOAT, {"N", 3, "H+H//2", 12})}));
}
// 1.3 is no p / 2^k with k <= 10 (its float is 1.2999999523...): no guess.
TEST(Resize, NonDyadicScaleOnSymbolIsUnknown) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {"N", 3, "H", 8}), scales({1, 1, 1.3, 1.3})}),
            (Types{ts(FLOAT, {"N", 3, "_d0", 10})}));
}
TEST(Resize, Opset11ScalesWithRoi) {
  EXPECT_EQ(Op("Resize").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), empty_floats(), scales({1, 1, 2, 3})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "3*W"})}));
}
TEST(Resize, Opset11SizesConstant) {
  EXPECT_EQ(Op("Resize").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), empty_floats(), empty_floats(),
                                          constant(Tensor::vector({1, 3, 224, 224}))}),
            (Types{ts(FLOAT, {1, 3, 224, 224})}));
}
TEST(Resize, Opset13SymbolicSizes) {
  EXPECT_EQ(Op("Resize").opset(13).infer({ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(),
                                          sym_value(ts(INT64, {4}), {"N", 3, "2*H", "W+1"})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "W+1"})}));
}
TEST(Resize, UnknownSizesValuesKeepRank) {
  EXPECT_EQ(Op("Resize").opset(13).infer({ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(), ts(INT64, {4})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2", "_d3"})}));
}
TEST(Resize, SizesGiveShapeOfUnknownRankInput) {
  EXPECT_EQ(Op("Resize").opset(13).infer({ts(FLOAT), omitted(), omitted(), sym_value(ts(INT64, {3}), {"N", 4, "S"})}),
            (Types{ts(FLOAT, {"N", 4, "S"})}));
}
TEST(Resize, Opset18Axes) {
  EXPECT_EQ(Op("Resize").infer({ts(FLOAT, {"N", 3, "H", "W"}), omitted(), scales({2, 2})},
                               {attr("axes", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
  EXPECT_EQ(Op("Resize").opset(19).infer(
                {ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(), sym_value(ts(INT64, {2}), {"S", 64})},
                {attr("axes", std::vector<int64_t>{-2, -1})}),
            (Types{ts(FLOAT, {"N", 3, "S", 64})}));
}
TEST(Resize, Opset18KeepAspectRatio) {
  EXPECT_EQ(
      Op("Resize").infer({ts(FLOAT, {1, 3, 100, 200}), omitted(), omitted(), constant(Tensor::vector({50, 50}))},
                         {attr("axes", std::vector<int64_t>{2, 3}), attr("keep_aspect_ratio_policy", "not_larger")}),
      (Types{ts(FLOAT, {1, 3, 25, 50})}));
  EXPECT_EQ(
      Op("Resize").infer({ts(FLOAT, {1, 3, 100, 200}), omitted(), omitted(), constant(Tensor::vector({50, 50}))},
                         {attr("axes", std::vector<int64_t>{2, 3}), attr("keep_aspect_ratio_policy", "not_smaller")}),
      (Types{ts(FLOAT, {1, 3, 50, 100})}));
}
TEST(Resize, WrongScaleCountIsError) {
  EXPECT_ERROR(Op("Resize").opset(10).run({ts(FLOAT, {1, 3, 4, 4}), scales({2, 2})}).report,
               "scales has 2 values, expected 4");
}
TEST(Resize, BothOrNeitherScalesAndSizesIsUsageError) {
  EXPECT_ERROR(Op("Resize").opset(13).run({ts(FLOAT, {1, 3, 4, 4})}).report, "one of scales and sizes must be given");
  EXPECT_ERROR(
      Op("Resize")
          .opset(13)
          .run({ts(FLOAT, {1, 3, 4, 4}), omitted(), scales({1, 1, 2, 2}), constant(Tensor::vector({1, 3, 8, 8}))})
          .report,
      "only one of scales and sizes may be given");
}
TEST(Resize, NonPositiveScaleIsError) {
  EXPECT_ERROR(Op("Resize").opset(10).run({ts(FLOAT, {1, 3, 4, 4}), scales({1, 1, 0, 2})}).report,
               "scales must be positive, got 0.000000");
}
TEST(Resize, UnknownScalesValues) {
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT, {"N", 3}), ts(FLOAT, {2})}), (Types{ts(FLOAT, {"_d0", "_d1"})}));
  EXPECT_EQ(Op("Resize").opset(10).infer({ts(FLOAT), scales({1, 2})}), (Types{ts(FLOAT)}));
}

// ---- Upsample ----
TEST(Upsample, Opset7Attribute) {
  EXPECT_EQ(Op("Upsample").opset(7).infer({ts(FLOAT, {"N", 3, "H", 5})}, {attr_floats("scales", {1, 1, 2, 1.5})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", 7})}));
  EXPECT_ERROR(Op("Upsample").opset(7).run({ts(FLOAT, {1, 3, 4, 4})}).report, "missing required attribute 'scales'");
}
TEST(Upsample, Opset9Input) {
  EXPECT_EQ(Op("Upsample").opset(9).infer({ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 2, 2})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
}

TEST(Upsample, Opset1HeightAndWidthScales) {
  EXPECT_EQ(Op("Upsample")
                .opset(1)
                .infer({ts(FLOAT, {"N", 3, "H", 5})}, {attr("height_scale", 2.0), attr("width_scale", 1.5)}),
            (Types{ts(FLOAT, {"N", 3, SymbolicDim("H") * 2, 7})}));
  EXPECT_ERROR(
      Op("Upsample").opset(1).run({ts(FLOAT, {3, 5})}, {attr("height_scale", 2.0), attr("width_scale", 2.0)}).report,
      "input must be 4-D [N, C, H, W]");
}
