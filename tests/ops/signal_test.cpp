// DFT 17 (axis attribute) and 20 (axis input), STFT, windows, MelWeightMatrix.
#include "op_test_util.hpp"

TEST(DFT, Opset17DefaultAxisIsOne) {
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {1, 10, 10, 1})}), (Types{ts(FLOAT, {1, 10, 10, 2})}));
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {1, 10, 10, 1})}, {attr("onesided", 1)}),
            (Types{ts(FLOAT, {1, 6, 10, 2})}));
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {1, 10, 10, 2})}, {attr("axis", 2), attr("inverse", 1)}),
            (Types{ts(FLOAT, {1, 10, 10, 2})}));
}
TEST(DFT, Opset17DftLength) {
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {"B", "N", 1}), constant(Tensor::scalar(16))}),
            (Types{ts(FLOAT, {"B", 16, 2})}));
  EXPECT_EQ(
      Op("DFT").opset(17).infer({ts(FLOAT, {"B", "N", 1}), sym_value(ts(INT64, {}), {"L"})}, {attr("onesided", 1)}),
      (Types{ts(FLOAT, {"B", "L//2+1", 2})}));
}
TEST(DFT, Opset20AxisInput) {
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {"B", "N", 1})}, {attr("onesided", 1)}),
            (Types{ts(FLOAT, {"B", "N//2+1", 2})}));
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {1, 10, 10, 1}), omitted(), constant(Tensor::scalar(1))},
                                      {attr("onesided", 1)}),
            (Types{ts(FLOAT, {1, 6, 10, 2})}));
  EXPECT_EQ(
      Op("DFT").opset(20).infer({ts(FLOAT, {10, 10, 2}), constant(Tensor::scalar(4)), constant(Tensor::scalar(0))}),
      (Types{ts(FLOAT, {4, 10, 2})}));
}
TEST(DFT, Opset20UnknownAxisValue) {
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {8, 10, 1}), omitted(), ts(INT64, {})}),
            (Types{ts(FLOAT, {8, 10, 2})}));
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {8, 10, 1}), omitted(), ts(INT64, {})}, {attr("onesided", 1)}),
            (Types{ts(FLOAT, {"_d0", "_d1", 2})}));
}
TEST(DFT, AxisOnComplexDimIsError) {
  EXPECT_ERROR(Op("DFT").opset(17).run({ts(FLOAT, {1, 10, 1})}, {attr("axis", 2)}).report, "axis 2 is out of range");
  EXPECT_ERROR(Op("DFT").opset(20).run({ts(FLOAT, {1, 10, 1}), omitted(), constant(Tensor::scalar(-1))}).report,
               "axis -1 is out of range");
}
TEST(DFT, BadLastDimIsError) {
  EXPECT_ERROR(Op("DFT").opset(20).run({ts(FLOAT, {1, 10, 3})}).report,
               "the last input dim must be 1 (real) or 2 (complex)");
}
TEST(DFT, OnesidedComplexIsError) {
  EXPECT_ERROR(Op("DFT").opset(20).run({ts(FLOAT, {1, 10, 2})}, {attr("onesided", 1)}).report,
               "onesided output is not possible for a complex input");
}
// Inverse real FFT (inverse=1, onesided=1): the ONNX spec text rules out a onesided transform of a complex
// input, but onnxruntime runs it (core/providers/cpu/signal/dft.cc with the newer ONNX DFT inference): the
// signal axis becomes dft_length, else 2*(n-1), and the last dim 1. Followed with a warning.
TEST(DFT, InverseOnesidedFollowsOnnxruntimeWithWarning) {
  const auto r17 = Op("DFT").opset(17).run({ts(FLOAT, {2, 5, 2})}, {attr("inverse", 1), attr("onesided", 1)});
  EXPECT_EQ(r17.outputs, (Types{ts(FLOAT, {2, 8, 1})}));
  EXPECT_WARNING(r17.report, "outside the ONNX DFT spec; following onnxruntime");
  EXPECT_EQ(r17.report.count(Severity::Error), 0u);
  const auto sym = Op("DFT").opset(20).run({ts(FLOAT, {"B", "M", 2})}, {attr("inverse", 1), attr("onesided", 1)});
  EXPECT_EQ(sym.outputs, (Types{ts(FLOAT, {"B", "2*M-2", 1})}));
  EXPECT_WARNING(sym.report, "inverse real FFT");
  // dft_length sets the signal length, odd ones included (onnxruntime: [2, 4, 2] with dft_length 7 -> [2, 7, 1]).
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {2, 4, 2}), constant(Tensor::scalar(7)), constant(Tensor::scalar(1))},
                                      {attr("inverse", 1), attr("onesided", 1)}),
            (Types{ts(FLOAT, {2, 7, 1})}));
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {2, 6, 3, 2})}, {attr("inverse", 1), attr("onesided", 1)}),
            (Types{ts(FLOAT, {2, 10, 3, 1})}));
  // An unknown axis: every signal dim may change; the output is real.
  EXPECT_EQ(Op("DFT").opset(20).infer({ts(FLOAT, {4, 5, 2}), omitted(), ts(INT64, {})},
                                      {attr("inverse", 1), attr("onesided", 1)}),
            (Types{ts(FLOAT, {"_d0", "_d1", 1})}));
}
TEST(DFT, InverseOnesidedRealInputIsError) {
  // onnxruntime refuses it too: "inverse one-sided DFT requires complex input (last dimension must be 2)".
  EXPECT_ERROR(Op("DFT").opset(20).run({ts(FLOAT, {2, 8, 1})}, {attr("inverse", 1), attr("onesided", 1)}).report,
               "needs a complex input (last dim 2)");
}
TEST(DFT, InverseOnesidedSingleBinNeedsLength) {
  // 2*(1-1) = 0 samples: onnxruntime does not finish such a run; refused.
  const auto r = Op("DFT").opset(17).run({ts(FLOAT, {2, 1, 2})}, {attr("inverse", 1), attr("onesided", 1)});
  EXPECT_ERROR(r.report, "of 1 bin(s) needs dft_length");
  EXPECT_EQ(Op("DFT").opset(17).infer({ts(FLOAT, {2, 1, 2}), constant(Tensor::scalar(4))},
                                      {attr("inverse", 1), attr("onesided", 1)}),
            (Types{ts(FLOAT, {2, 4, 1})}));
}

TEST(STFT, FramesAndBins) {
  EXPECT_EQ(Op("STFT").opset(17).infer(
                {ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), omitted(), constant(Tensor::scalar(16))}),
            (Types{ts(FLOAT, {1, 15, 9, 2})}));
  EXPECT_EQ(Op("STFT").opset(17).infer({ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), ts(FLOAT, {16})},
                                       {attr("onesided", 0)}),
            (Types{ts(FLOAT, {1, 15, 16, 2})}));
}
TEST(STFT, SymbolicSignalLength) {
  EXPECT_EQ(Op("STFT").opset(17).infer({ts(FLOAT, {"B", "L", 1}), constant(Tensor::scalar(160)), ts(FLOAT, {400})}),
            (Types{ts(FLOAT, {"B", "(L-400)//160+1", 201, 2})}));
}
TEST(STFT, WindowFrameLengthMismatchIsError) {
  EXPECT_ERROR(
      Op("STFT")
          .opset(17)
          .run({ts(FLOAT, {1, 128, 1}), constant(Tensor::scalar(8)), ts(FLOAT, {10}), constant(Tensor::scalar(16))})
          .report,
      "window length 10 differs from frame_length 16");
}

TEST(Windows, SizeFromValue) {
  EXPECT_EQ(Op("HannWindow").opset(17).infer({constant(Tensor::scalar(10))}), (Types{ts(FLOAT, {10})}));
  EXPECT_EQ(
      Op("HammingWindow")
          .opset(17)
          .infer({sym_value(ts(INT64, {}), {"n"})}, {attr("output_datatype", static_cast<int64_t>(DataType::DOUBLE))}),
      (Types{ts(DOUBLE, {"n"})}));
  EXPECT_EQ(Op("BlackmanWindow").opset(17).infer({ts(INT32, {})}, {attr("periodic", 0)}), (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Windows, BadDatatypeIsError) {
  EXPECT_ERROR(Op("HannWindow").opset(17).run({constant(Tensor::scalar(10))}, {attr("output_datatype", 99)}).report,
               "invalid output_datatype 99");
}

TEST(MelWeightMatrix, Shape) {
  EXPECT_EQ(Op("MelWeightMatrix")
                .opset(17)
                .infer({constant(Tensor::scalar(8)), constant(Tensor::scalar(16)), constant(Tensor::scalar(8192)),
                        ts(FLOAT, {}), ts(FLOAT, {})}),
            (Types{ts(FLOAT, {9, 8})}));
}
TEST(MelWeightMatrix, MissingInputIsUsageError) {
  EXPECT_ERROR(Op("MelWeightMatrix").opset(17).run({constant(Tensor::scalar(8)), constant(Tensor::scalar(16))}).report,
               "missing required input 2");
}
