#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
In scales(std::vector<double> v) {
  const auto n = static_cast<int64_t>(v.size());
  return constant(Tensor::floats(std::move(v), {n}));
}
In empty_floats() { return constant(Tensor::floats({}, {0})); }
}  // namespace

// ---- Resize ----
TEST(Resize, Opset10IntegerScalesOnSymbols) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 2, 2})}, {}, 10),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
}
TEST(Resize, FloatScalesOnIntegerDims) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {1, 3, 10, 7}), scales({1, 1, 1.5, 0.5})}, {}, 10),
            (Types{ts(FLOAT, {1, 3, 15, 3})}));
}
TEST(Resize, DownscaleByPowerOfTwoOnSymbol) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 0.5, 0.25})}, {}, 10),
            (Types{ts(FLOAT, {"N", 3, "H//2", "W//4"})}));
}
TEST(Resize, NonIntegerScaleOnSymbolIsUnknown) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3, "H", 8}), scales({1, 1, 1.5, 1.5})}, {}, 10),
            (Types{ts(FLOAT, {"N", 3, "_d0", 12})}));
}
TEST(Resize, Opset11ScalesWithRoi) {
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {"N", 3, "H", "W"}), empty_floats(), scales({1, 1, 2, 3})}, {}, 11),
            (Types{ts(FLOAT, {"N", 3, "2*H", "3*W"})}));
}
TEST(Resize, Opset11SizesConstant) {
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {"N", 3, "H", "W"}), empty_floats(), empty_floats(),
                                 constant(Tensor::vector({1, 3, 224, 224}))},
                                {}, 11),
            (Types{ts(FLOAT, {1, 3, 224, 224})}));
}
TEST(Resize, Opset13SymbolicSizes) {
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(),
                                 sym_value(ts(INT64, {4}), {"N", 3, "2*H", "W+1"})},
                                {}, 13),
            (Types{ts(FLOAT, {"N", 3, "2*H", "W+1"})}));
}
TEST(Resize, UnknownSizesValuesKeepRank) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(), ts(INT64, {4})}, {},
                                13),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2", "_d3"})}));
}
TEST(Resize, SizesGiveShapeOfUnknownRankInput) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT), omitted(), omitted(), sym_value(ts(INT64, {3}), {"N", 4, "S"})},
                                {}, 13),
            (Types{ts(FLOAT, {"N", 4, "S"})}));
}
TEST(Resize, Opset18Axes) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3, "H", "W"}), omitted(), scales({2, 2})},
                                {attr("axes", std::vector<int64_t>{2, 3})}, 18),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {"N", 3, "H", "W"}), omitted(), omitted(),
                                 sym_value(ts(INT64, {2}), {"S", 64})},
                                {attr("axes", std::vector<int64_t>{-2, -1})}, 19),
            (Types{ts(FLOAT, {"N", 3, "S", 64})}));
}
TEST(Resize, Opset18KeepAspectRatio) {
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {1, 3, 100, 200}), omitted(), omitted(), constant(Tensor::vector({50, 50}))},
                                {attr("axes", std::vector<int64_t>{2, 3}), attr("keep_aspect_ratio_policy", "not_larger")},
                                18),
            (Types{ts(FLOAT, {1, 3, 25, 50})}));
  EXPECT_EQ(run_shape_inference("", "Resize",
                                {ts(FLOAT, {1, 3, 100, 200}), omitted(), omitted(), constant(Tensor::vector({50, 50}))},
                                {attr("axes", std::vector<int64_t>{2, 3}),
                                 attr("keep_aspect_ratio_policy", "not_smaller")},
                                18),
            (Types{ts(FLOAT, {1, 3, 50, 100})}));
}
TEST(Resize, WrongScaleCountIsError) {
  EXPECT_EQ(run_node("", "Resize", {ts(FLOAT, {1, 3, 4, 4}), scales({2, 2})}, {}, 10).report.errors(), 1u);
}
TEST(Resize, BothOrNeitherScalesAndSizesIsUsageError) {
  EXPECT_EQ(run_node("", "Resize", {ts(FLOAT, {1, 3, 4, 4})}, {}, 13).report.errors(), 1u);
  EXPECT_EQ(run_node("", "Resize",
                     {ts(FLOAT, {1, 3, 4, 4}), omitted(), scales({1, 1, 2, 2}), constant(Tensor::vector({1, 3, 8, 8}))},
                     {}, 13)
                .report.errors(),
            1u);
}
TEST(Resize, NonPositiveScaleIsError) {
  EXPECT_EQ(run_node("", "Resize", {ts(FLOAT, {1, 3, 4, 4}), scales({1, 1, 0, 2})}, {}, 10).report.errors(), 1u);
}
TEST(Resize, UnknownScalesValues) {
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT, {"N", 3}), ts(FLOAT, {2})}, {}, 10),
            (Types{ts(FLOAT, {"_d0", "_d1"})}));
  EXPECT_EQ(run_shape_inference("", "Resize", {ts(FLOAT), scales({1, 2})}, {}, 10), (Types{ts(FLOAT)}));
}

// ---- Upsample ----
TEST(Upsample, Opset7Attribute) {
  EXPECT_EQ(run_shape_inference("", "Upsample", {ts(FLOAT, {"N", 3, "H", 5})},
                                {attr_floats("scales", {1, 1, 2, 1.5})}, 7),
            (Types{ts(FLOAT, {"N", 3, "2*H", 7})}));
  EXPECT_EQ(run_node("", "Upsample", {ts(FLOAT, {1, 3, 4, 4})}, {}, 7).report.errors(), 1u);
}
TEST(Upsample, Opset9Input) {
  EXPECT_EQ(run_shape_inference("", "Upsample", {ts(FLOAT, {"N", 3, "H", "W"}), scales({1, 1, 2, 2})}, {}, 9),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
}
