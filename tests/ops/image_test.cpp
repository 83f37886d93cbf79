// CenterCropPad, GridSample (16, 20, 22), AffineGrid and ImageDecoder; shapes
// from the specification's examples.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(CenterCropPad, CropAndPadAllAxes) {
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7, 3}))}),
            (Types{ts(FLOAT, {10, 7, 3})}));
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {20, 8, 3}), constant(Tensor::vector({10, 10, 3}))}),
            (Types{ts(FLOAT, {10, 10, 3})}));
}
TEST(CenterCropPad, Axes) {
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {20, 8, 3}), constant(Tensor::vector({10, 9}))},
                                {attr("axes", std::vector<int64_t>{0, 1})}),
            (Types{ts(FLOAT, {10, 9, 3})}));
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {3, 20, 8}), constant(Tensor::vector({10, 9}))},
                                {attr("axes", std::vector<int64_t>{-2, -1})}),
            (Types{ts(FLOAT, {3, 10, 9})}));
}
TEST(CenterCropPad, SymbolicAndUnknownTargets) {
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {"N", "H", "W"}), sym_value(ts(INT64, {2}), {"h", 224})},
                                {attr("axes", std::vector<int64_t>{1, 2})}),
            (Types{ts(FLOAT, {"N", "h", 224})}));
  EXPECT_EQ(run_shape_inference("", "CenterCropPad", {ts(FLOAT, {"N", "H", "W"}), ts(INT64, {2})},
                                {attr("axes", std::vector<int64_t>{1, 2})}),
            (Types{ts(FLOAT, {"N", "_d0", "_d1"})}));
}
TEST(CenterCropPad, CountMismatchIsError) {
  EXPECT_EQ(run_node("", "CenterCropPad", {ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7}))}).report.errors(),
            1u);
}
TEST(CenterCropPad, DuplicateAxesIsError) {
  EXPECT_EQ(run_node("", "CenterCropPad", {ts(FLOAT, {20, 10, 3}), constant(Tensor::vector({10, 7}))},
                     {attr("axes", std::vector<int64_t>{1, -2})})
                .report.errors(),
            1u);
}

TEST(GridSample, FourDAtOpset16) {
  EXPECT_EQ(run_shape_inference("", "GridSample", {ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}, {}, 16),
            (Types{ts(FLOAT, {1, 1, 6, 6})}));
  EXPECT_EQ(run_shape_inference("", "GridSample", {ts(FLOAT, {"N", "C", "H", "W"}), ts(FLOAT, {"N", "h", "w", 2})},
                                {attr("mode", "bicubic")}, 16),
            (Types{ts(FLOAT, {"N", "C", "h", "w"})}));
}
TEST(GridSample, VolumetricAtOpset20And22) {
  EXPECT_EQ(run_shape_inference("", "GridSample", {ts(FLOAT, {1, 1, 3, 2, 2}), ts(FLOAT, {1, 2, 4, 2, 3})},
                                {attr("mode", "linear")}, 20),
            (Types{ts(FLOAT, {1, 1, 2, 4, 2})}));
  EXPECT_EQ(run_shape_inference("", "GridSample", {ts(FLOAT16, {"N", 8, "D", "H", "W"}), ts(FLOAT16, {"N", 5, 6, 7, 3})},
                                {attr("mode", "cubic")}, 22),
            (Types{ts(FLOAT16, {"N", 8, 5, 6, 7})}));
}
TEST(GridSample, ModeNamesPerVersion) {
  EXPECT_EQ(run_node("", "GridSample", {ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}, {attr("mode", "linear")}, 16)
                .report.errors(),
            1u);
  EXPECT_EQ(run_node("", "GridSample", {ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 2})}, {attr("mode", "bilinear")}, 20)
                .report.errors(),
            1u);
}
TEST(GridSample, FiveDAtOpset16IsError) {
  EXPECT_EQ(run_node("", "GridSample", {ts(FLOAT, {1, 1, 3, 2, 2}), ts(FLOAT, {1, 2, 4, 2, 3})}, {}, 16).report.errors(),
            1u);
}
TEST(GridSample, GridLastDimMustBeSpatialRank) {
  EXPECT_EQ(run_node("", "GridSample", {ts(FLOAT, {1, 1, 4, 4}), ts(FLOAT, {1, 6, 6, 3})}, {}, 20).report.errors(), 1u);
}

TEST(AffineGrid, TwoD) {
  EXPECT_EQ(run_shape_inference("", "AffineGrid", {ts(FLOAT, {2, 2, 3}), constant(Tensor::vector({2, 3, 5, 6}))}, {}, 20),
            (Types{ts(FLOAT, {2, 5, 6, 2})}));
}
TEST(AffineGrid, ThreeD) {
  EXPECT_EQ(run_shape_inference("", "AffineGrid", {ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({2, 3, 4, 5, 6}))},
                                {attr("align_corners", 1)}, 20),
            (Types{ts(FLOAT, {2, 4, 5, 6, 3})}));
}
TEST(AffineGrid, SymbolicAndUnknownSize) {
  EXPECT_EQ(run_shape_inference("", "AffineGrid", {ts(FLOAT, {"N", 2, 3}), sym_value(ts(INT64, {4}), {"N", 3, "H", "W"})},
                                {}, 20),
            (Types{ts(FLOAT, {"N", "H", "W", 2})}));
  EXPECT_EQ(run_shape_inference("", "AffineGrid", {ts(FLOAT, {"N", 2, 3}), ts(INT64, {4})}, {}, 20),
            (Types{ts(FLOAT, {"N", "_d0", "_d1", 2})}));
}
TEST(AffineGrid, ThetaMismatchIsError) {
  EXPECT_EQ(run_node("", "AffineGrid", {ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({2, 3, 5, 6}))}, {}, 20)
                .report.errors(),
            1u);
}

TEST(ImageDecoder, ChannelsFromPixelFormat) {
  EXPECT_EQ(run_shape_inference("", "ImageDecoder", {ts(UINT8, {"bytes"})}, {}, 20),
            (Types{ts(UINT8, {"_d0", "_d1", 3})}));
  EXPECT_EQ(run_shape_inference("", "ImageDecoder", {ts(UINT8, {1000})}, {attr("pixel_format", "Grayscale")}, 20),
            (Types{ts(UINT8, {"_d0", "_d1", 1})}));
  EXPECT_EQ(run_shape_inference("", "ImageDecoder", {ts(UINT8, {1000})}, {attr("pixel_format", "BGR")}, 20),
            (Types{ts(UINT8, {"_d0", "_d1", 3})}));
}
TEST(ImageDecoder, BadFormatIsError) {
  EXPECT_EQ(run_node("", "ImageDecoder", {ts(UINT8, {10})}, {attr("pixel_format", "RGBA")}, 20).report.errors(), 1u);
}
