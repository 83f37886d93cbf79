// DFT 17 (axis attribute) and 20 (axis input), STFT, windows, MelWeightMatrix.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(DFT, Opset17DefaultAxisIsOne) {
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {1, 10, 10, 1})}, {}, 17), (Types{ts(FLOAT, {1, 10, 10, 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {1, 10, 10, 1})}, {attr("onesided", 1)}, 17),
            (Types{ts(FLOAT, {1, 6, 10, 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {1, 10, 10, 2})}, {attr("axis", 2), attr("inverse", 1)}, 17),
            (Types{ts(FLOAT, {1, 10, 10, 2})}));
}
TEST(DFT, Opset17DftLength) {
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {"B", "N", 1}), constant(Tensor::scalar(16))}, {}, 17),
            (Types{ts(FLOAT, {"B", 16, 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {"B", "N", 1}), sym_value(ts(INT64, {}), {"L"})},
                                {attr("onesided", 1)}, 17),
            (Types{ts(FLOAT, {"B", "L//2+1", 2})}));
}
TEST(DFT, Opset20AxisInput) {
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {"B", "N", 1})}, {attr("onesided", 1)}, 20),
            (Types{ts(FLOAT, {"B", "N//2+1", 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {1, 10, 10, 1}), omitted(), constant(Tensor::scalar(1))},
                                {attr("onesided", 1)}, 20),
            (Types{ts(FLOAT, {1, 6, 10, 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {10, 10, 2}), constant(Tensor::scalar(4)), constant(Tensor::scalar(0))},
                                {}, 20),
            (Types{ts(FLOAT, {4, 10, 2})}));
}
TEST(DFT, Opset20UnknownAxisValue) {
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {8, 10, 1}), omitted(), ts(INT64, {})}, {}, 20),
            (Types{ts(FLOAT, {8, 10, 2})}));
  EXPECT_EQ(run_shape_inference("", "DFT", {ts(FLOAT, {8, 10, 1}), omitted(), ts(INT64, {})}, {attr("onesided", 1)}, 20),
            (Types{ts(FLOAT, {"_d0", "_d1", 2})}));
}
TEST(DFT, AxisOnComplexDimIsError) {
  EXPECT_EQ(run_node("", "DFT", {ts(FLOAT, {1, 10, 1})}, {attr("axis", 2)}, 17).report.errors(), 1u);
  EXPECT_EQ(run_node("", "DFT", {ts(FLOAT, {1, 10, 1}), omitted(), constant(Tensor::scalar(-1))}, {}, 20).report.errors(),
            1u);
}
TEST(DFT, BadLastDimIsError) {
  EXPECT_EQ(run_node("", "DFT", {ts(FLOAT, {1, 10, 3})}, {}, 20).report.errors(), 1u);
}
TEST(DFT, OnesidedComplexIsError) {
  EXPECT_EQ(run_node("", "DFT", {ts(FLOAT, {1, 10, 2})}, {attr("onesided", 1)}, 20).report.errors(), 1u);
}

TEST(STFT, FramesAndBins) {
  EXPECT_EQ(run_shape_inference("", "STFT",
                                {ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), omitted(), constant(Tensor::scalar(16))},
                                {}, 17),
            (Types{ts(FLOAT, {1, 15, 9, 2})}));
  EXPECT_EQ(run_shape_inference("", "STFT", {ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), ts(FLOAT, {16})},
                                {attr("onesided", 0)}, 17),
            (Types{ts(FLOAT, {1, 15, 16, 2})}));
}
TEST(STFT, SymbolicSignalLength) {
  EXPECT_EQ(run_shape_inference("", "STFT", {ts(FLOAT, {"B", "L", 1}), constant(Tensor::scalar(160)), ts(FLOAT, {400})},
                                {}, 17),
            (Types{ts(FLOAT, {"B", "(L-400)//160+1", 201, 2})}));
}
TEST(STFT, WindowFrameLengthMismatchIsError) {
  EXPECT_EQ(run_node("", "STFT",
                     {ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), ts(FLOAT, {10}), constant(Tensor::scalar(16))},
                     {}, 17)
                .report.errors(),
            1u);
}

TEST(Windows, SizeFromValue) {
  EXPECT_EQ(run_shape_inference("", "HannWindow", {constant(Tensor::scalar(10))}, {}, 17), (Types{ts(FLOAT, {10})}));
  EXPECT_EQ(run_shape_inference("", "HammingWindow", {sym_value(ts(INT64, {}), {"n"})},
                                {attr("output_datatype", static_cast<int64_t>(DataType::DOUBLE))}, 17),
            (Types{ts(DOUBLE, {"n"})}));
  EXPECT_EQ(run_shape_inference("", "BlackmanWindow", {ts(INT32, {})}, {attr("periodic", 0)}, 17),
            (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Windows, BadDatatypeIsError) {
  EXPECT_EQ(run_node("", "HannWindow", {constant(Tensor::scalar(10))}, {attr("output_datatype", 99)}, 17).report.errors(),
            1u);
}

TEST(MelWeightMatrix, Shape) {
  EXPECT_EQ(run_shape_inference("", "MelWeightMatrix",
                                {constant(Tensor::scalar(8)), constant(Tensor::scalar(16)), constant(Tensor::scalar(8192)),
                                 ts(FLOAT, {}), ts(FLOAT, {})},
                                {}, 17),
            (Types{ts(FLOAT, {9, 8})}));
}
TEST(MelWeightMatrix, MissingInputIsUsageError) {
  EXPECT_EQ(run_node("", "MelWeightMatrix", {constant(Tensor::scalar(8)), constant(Tensor::scalar(16))}, {}, 17)
                .report.errors(),
            1u);
}
