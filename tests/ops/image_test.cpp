// CenterCropPad, GridSample (16, 20, 22), AffineGrid and ImageDecoder; shapes
// from the specification's examples.
#include "op_test_util.hpp"

TEST(CenterCropPad, CropAndPadAllAxes) {
  EXPECT_EQ(Op("CenterCropPad").infer({ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7, 3}))}),
            (Types{ts(FLOAT, {10, 7, 3})}));
  EXPECT_EQ(Op("CenterCropPad").infer({ts(FLOAT, {20, 8, 3}), constant(Tensor::vector({10, 10, 3}))}),
            (Types{ts(FLOAT, {10, 10, 3})}));
}
TEST(CenterCropPad, Axes) {
  EXPECT_EQ(Op("CenterCropPad")
                .infer({ts(FLOAT, {20, 8, 3}), constant(Tensor::vector({10, 9}))},
                       {attr("axes", std::vector<int64_t>{0, 1})}),
            (Types{ts(FLOAT, {10, 9, 3})}));
  EXPECT_EQ(Op("CenterCropPad")
                .infer({ts(FLOAT, {3, 20, 8}), constant(Tensor::vector({10, 9}))},
                       {attr("axes", std::vector<int64_t>{-2, -1})}),
            (Types{ts(FLOAT, {3, 10, 9})}));
}
TEST(CenterCropPad, SymbolicAndUnknownTargets) {
  EXPECT_EQ(Op("CenterCropPad")
                .infer({ts(FLOAT, {"N", "H", "W"}), sym_value(ts(INT64, {2}), {"h", 224})},
                       {attr("axes", std::vector<int64_t>{1, 2})}),
            (Types{ts(FLOAT, {"N", "h", 224})}));
  EXPECT_EQ(Op("CenterCropPad")
                .infer({ts(FLOAT, {"N", "H", "W"}), ts(INT64, {2})}, {attr("axes", std::vector<int64_t>{1, 2})}),
            (Types{ts(FLOAT, {"N", "_d0", "_d1"})}));
}
TEST(CenterCropPad, CountMismatchIsError) {
  EXPECT_ERROR(Op("CenterCropPad").run({ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7}))}).report,
               "shape has 2 values for 3 axes of input [20,10,3]");
}
TEST(CenterCropPad, DuplicateAxesIsError) {
  EXPECT_ERROR(
      Op("CenterCropPad")
          .run({ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7}))}, {attr("axes", std::vector<int64_t>{1, -2})})
          .report,
      "axes contains 1 twice");
}

TEST(GridSample, FourDAtOpset16) {
  EXPECT_EQ(Op("GridSample").opset(16).infer({ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}),
            (Types{ts(FLOAT, {1, 1, 6, 6})}));
  EXPECT_EQ(Op("GridSample")
                .opset(16)
                .infer({ts(FLOAT, {"N", "C", "H", "W"}), ts(FLOAT, {"N", "h", "w", 2})}, {attr("mode", "bicubic")}),
            (Types{ts(FLOAT, {"N", "C", "h", "w"})}));
}
TEST(GridSample, VolumetricAtOpset20And22) {
  EXPECT_EQ(Op("GridSample")
                .opset(20)
                .infer({ts(FLOAT, {1, 1, 3, 2, 2}), ts(FLOAT, {1, 2, 4, 2, 3})}, {attr("mode", "linear")}),
            (Types{ts(FLOAT, {1, 1, 2, 4, 2})}));
  EXPECT_EQ(Op("GridSample")
                .opset(22)
                .infer({ts(FLOAT16, {"N", 8, "D", "H", "W"}), ts(FLOAT16, {"N", 5, 6, 7, 3})}, {attr("mode", "cubic")}),
            (Types{ts(FLOAT16, {"N", 8, 5, 6, 7})}));
}
TEST(GridSample, ModeNamesPerVersion) {
  EXPECT_ERROR(Op("GridSample")
                   .opset(16)
                   .run({ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}, {attr("mode", "linear")})
                   .report,
               "unsupported mode 'linear'");
  EXPECT_ERROR(Op("GridSample")
                   .opset(20)
                   .run({ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}, {attr("mode", "bilinear")})
                   .report,
               "unsupported mode 'bilinear'");
}
TEST(GridSample, FiveDAtOpset16IsError) {
  EXPECT_ERROR(Op("GridSample").opset(16).run({ts(FLOAT, {1, 1, 3, 2, 2}), ts(FLOAT, {1, 2, 4, 2, 3})}).report,
               "X must be 4-D, got shape [1,1,3,2,2]");
}
TEST(GridSample, GridLastDimMustBeSpatialRank) {
  EXPECT_ERROR(Op("GridSample").opset(20).run({ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 3})}).report,
               "the last grid dim must be 2, got 3");
}

TEST(AffineGrid, TwoD) {
  EXPECT_EQ(Op("AffineGrid").opset(20).infer({ts(FLOAT, {2, 2, 3}), constant(Tensor::vector({2, 3, 5, 6}))}),
            (Types{ts(FLOAT, {2, 5, 6, 2})}));
}
TEST(AffineGrid, ThreeD) {
  EXPECT_EQ(Op("AffineGrid")
                .opset(20)
                .infer({ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({2, 3, 4, 5, 6}))}, {attr("align_corners", 1)}),
            (Types{ts(FLOAT, {2, 4, 5, 6, 3})}));
}
TEST(AffineGrid, SymbolicAndUnknownSize) {
  EXPECT_EQ(Op("AffineGrid").opset(20).infer({ts(FLOAT, {"N", 2, 3}), sym_value(ts(INT64, {4}), {"N", 3, "H", "W"})}),
            (Types{ts(FLOAT, {"N", "H", "W", 2})}));
  EXPECT_EQ(Op("AffineGrid").opset(20).infer({ts(FLOAT, {"N", 2, 3}), ts(INT64, {4})}),
            (Types{ts(FLOAT, {"N", "_d0", "_d1", 2})}));
}
TEST(AffineGrid, ThetaMismatchIsError) {
  EXPECT_ERROR(Op("AffineGrid").opset(20).run({ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({2, 3, 5, 6}))}).report,
               "theta [2,3,4] does not match a 2-D size");
}

TEST(ImageDecoder, ChannelsFromPixelFormat) {
  EXPECT_EQ(Op("ImageDecoder").opset(20).infer({ts(UINT8, {"bytes"})}), (Types{ts(UINT8, {"_d0", "_d1", 3})}));
  EXPECT_EQ(Op("ImageDecoder").opset(20).infer({ts(UINT8, {1000})}, {attr("pixel_format", "Grayscale")}),
            (Types{ts(UINT8, {"_d0", "_d1", 1})}));
  EXPECT_EQ(Op("ImageDecoder").opset(20).infer({ts(UINT8, {1000})}, {attr("pixel_format", "BGR")}),
            (Types{ts(UINT8, {"_d0", "_d1", 3})}));
}
TEST(ImageDecoder, BadFormatIsError) {
  EXPECT_ERROR(Op("ImageDecoder").opset(20).run({ts(UINT8, {10})}, {attr("pixel_format", "RGBA")}).report,
               "pixel_format must be RGB, BGR or Grayscale");
}
