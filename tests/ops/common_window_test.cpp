// Unit tests of ops/common/window.hpp: auto_pad parsing, the WindowSpec that
// read_window_spec builds, and the spatial output sizes computed from it.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "symshape/ops/common/window.hpp"

namespace symshape::ops {
namespace {

using I64s = std::vector<int64_t>;

struct WindowTest : ::testing::Test {
  Context ctx{{{"", 22}}};
  Node n;

  void ints(const std::string& name, I64s v) { n.attributes.push_back(Attribute::make_ints(name, std::move(v))); }
  void str(const std::string& name, const std::string& v) { n.attributes.push_back(Attribute::make_string(name, v)); }
  std::string only_error() const {
    const Report& r = ctx.report();
    return r.diagnostics.size() == 1 ? r.diagnostics[0].message : "(" + std::to_string(r.diagnostics.size()) + ")";
  }
  // Output size of spatial dim 0 for input size `in`, through read_window_spec.
  std::string out0(const SymbolicDim& in) {
    const auto spec = read_window_spec(ctx, n, nullptr, n.attr("kernel_shape")->ints.size());
    return spec ? window_out(in, *spec, 0).to_string() : "error";
  }
};

TEST_F(WindowTest, AutoPadParsesTheFourValues) {
  EXPECT_EQ(parse_auto_pad(ctx, n), AutoPad::NotSet);  // missing
  for (auto [text, value] :
       {std::pair{"NOTSET", AutoPad::NotSet}, std::pair{"VALID", AutoPad::Valid},
        std::pair{"SAME_UPPER", AutoPad::SameUpper}, std::pair{"SAME_LOWER", AutoPad::SameLower}}) {
    n.attributes.clear();
    str("auto_pad", text);
    EXPECT_EQ(parse_auto_pad(ctx, n), value) << text;
  }
  EXPECT_TRUE(ctx.report().diagnostics.empty());
}

TEST_F(WindowTest, UnknownAutoPadIsOneError) {
  str("auto_pad", "SAME");
  EXPECT_EQ(parse_auto_pad(ctx, n), std::nullopt);
  EXPECT_EQ(ctx.report().errors(), 1u);
  EXPECT_EQ(only_error(), "unknown auto_pad 'SAME'");
}

TEST_F(WindowTest, UnknownAutoPadFailsTheSpec) {
  ints("kernel_shape", {3});
  str("auto_pad", "same_upper");
  EXPECT_EQ(out0("H"), "error");
  EXPECT_EQ(only_error(), "unknown auto_pad 'same_upper'");
}

TEST_F(WindowTest, SameUpperAndSameLowerAreCeilOfInOverStride) {
  ints("kernel_shape", {3});
  ints("strides", {2});
  str("auto_pad", "SAME_UPPER");
  const auto spec = read_window_spec(ctx, n, nullptr, 1);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->auto_pad, AutoPad::SameUpper);
  EXPECT_TRUE(spec->same_pads());
  EXPECT_EQ(window_out("H", *spec, 0).to_string(), "(H+1)//2");
  n.attributes.back().s = "SAME_LOWER";
  EXPECT_EQ(out0(10), "5");
  EXPECT_TRUE(ctx.report().diagnostics.empty());
}

TEST_F(WindowTest, ValidHasNoPads) {
  ints("kernel_shape", {3, 3});
  str("auto_pad", "VALID");
  const auto spec = read_window_spec(ctx, n, nullptr, 2);
  ASSERT_TRUE(spec);
  EXPECT_FALSE(spec->same_pads());
  EXPECT_EQ(spec->total_pads(1), SymbolicDim(0));
  EXPECT_EQ(window_out("H", *spec, 0).to_string(), "H-2");
  EXPECT_EQ(window_out(10, *spec, 1), SymbolicDim(8));
}

TEST_F(WindowTest, ExplicitPadsWinOverAutoPad) {
  ints("kernel_shape", {3, 3});
  ints("pads", {1, 2, 3, 4});
  ints("dilations", {2, 1});
  str("auto_pad", "SAME_UPPER");
  const auto spec = read_window_spec(ctx, n, nullptr, 2);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->auto_pad, AutoPad::NotSet);
  EXPECT_EQ(spec->pad_begin(0), SymbolicDim(1));
  EXPECT_EQ(spec->pad_end(0), SymbolicDim(3));
  EXPECT_EQ(spec->total_pads(1), SymbolicDim(6));
  EXPECT_EQ(spec->effective_kernel(0), SymbolicDim(5));
  EXPECT_EQ(spec->effective_kernel(1), SymbolicDim(3));
  EXPECT_EQ(window_out(10, *spec, 0), SymbolicDim(10));  // 10 + 4 - 5 + 1
}

TEST_F(WindowTest, KernelFromTheWeightWhenNoKernelShape) {
  const Shape w({16, 3, 5, "K"});
  const auto spec = read_window_spec(ctx, n, &w, 2);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->kernel, (std::vector<SymbolicDim>{5, "K"}));
  EXPECT_EQ(spec->effective_kernel(1).to_string(), "K");
}

TEST_F(WindowTest, CeilMode) {
  ints("kernel_shape", {3});
  ints("strides", {2});
  n.attributes.push_back(Attribute::make_int("ceil_mode", 1));
  EXPECT_EQ(out0(6), "3");  // floor mode: 2
  EXPECT_EQ(out0("H"), "H//2");
}

TEST_F(WindowTest, CeilModeDropsAWindowStartingInTheRightPadding) {
  // Windows would start at 0, 2, 4; 4 is in the right padding of a size-4 input.
  ints("kernel_shape", {1});
  ints("strides", {2});
  ints("pads", {0, 1});
  n.attributes.push_back(Attribute::make_int("ceil_mode", 1));
  EXPECT_EQ(out0(4), "2");
}

TEST_F(WindowTest, AttributeErrorsKeepTheirText) {
  ints("kernel_shape", {3, 3});
  ints("strides", {2});
  EXPECT_FALSE(read_window_spec(ctx, n, nullptr, 2));
  EXPECT_EQ(only_error(), "attribute 'strides' has 1 values, expected 2");

  ctx.report().diagnostics.clear();
  n.attributes.back() = Attribute::make_ints("dilations", {1, 0});
  EXPECT_FALSE(read_window_spec(ctx, n, nullptr, 2));
  EXPECT_EQ(only_error(), "strides and dilations must be positive");

  ctx.report().diagnostics.clear();
  n.attributes.back() = Attribute::make_int("pads", 1);
  EXPECT_FALSE(read_window_spec(ctx, n, nullptr, 2));
  EXPECT_EQ(only_error(), "attribute 'pads' must be a list of integers");

  ctx.report().diagnostics.clear();
  const Shape w({16, 3, 5, 5});
  n.attributes.pop_back();
  EXPECT_FALSE(read_window_spec(ctx, n, &w, 2));
  EXPECT_EQ(only_error(), "kernel_shape does not match the weight shape " + w.to_string());
}

TEST_F(WindowTest, SpatialIntsDefaultsAndValues) {
  ints("output_padding", {1, 0});
  EXPECT_EQ(spatial_ints<I64s>(ctx, n, "output_padding", 2, 0), Maybe<I64s>(I64s{1, 0}));
  const auto filled = spatial_ints<SmallVector<int64_t, 3>>(ctx, n, "strides", 3, 1);
  ASSERT_TRUE(filled);
  EXPECT_EQ(*filled, (SmallVector<int64_t, 3>{1, 1, 1}));
  EXPECT_TRUE(ctx.report().diagnostics.empty());
}

TEST_F(WindowTest, WindowOutputLayoutsAndError) {
  ints("kernel_shape", {3, 3});
  const auto spec = read_window_spec(ctx, n, nullptr, 2);
  ASSERT_TRUE(spec);
  const auto nchw = window_output(ctx, n, Shape({"N", 8, "H", 10}), *spec, 16);
  ASSERT_TRUE(nchw);
  EXPECT_EQ(nchw->to_string(), Shape({"N", 16, "H-2", 8}).to_string());
  const auto nhwc = window_output(ctx, n, Shape({"N", "H", 10, 8}), *spec, 16, /*channels_last=*/true);
  ASSERT_TRUE(nhwc);
  EXPECT_EQ(nhwc->to_string(), Shape({"N", "H-2", 8, 16}).to_string());
  EXPECT_FALSE(window_output(ctx, n, Shape({1, 8, 2, 10}), *spec, 16));
  EXPECT_EQ(only_error(), "spatial dim 0 of size 2 is smaller than the kernel (3, dilation 1, pads 0+0)");
}

TEST_F(WindowTest, ConvGroup) {
  const Shape x({1, 4, 8, 8}), w({16, 2, 3, 3}), w1({16, 2, 3});
  EXPECT_EQ(conv_group(ctx, n, &x, &w, 4), std::optional<int64_t>(1));
  n.attributes.push_back(Attribute::make_int("group", 2));
  EXPECT_EQ(conv_group(ctx, n, &x, &w, 4), std::optional<int64_t>(2));
  EXPECT_TRUE(ctx.report().diagnostics.empty());
  EXPECT_EQ(conv_group(ctx, n, &x, &w1, 4), std::nullopt);
  EXPECT_EQ(only_error(), "input " + x.to_string() + " and weight " + w1.to_string() + " have different ranks");
  ctx.report().diagnostics.clear();
  n.attributes.back().i = 0;
  EXPECT_EQ(conv_group(ctx, n, &x, &w, 4), std::nullopt);
  EXPECT_EQ(only_error(), "group must be positive");
}

}  // namespace
}  // namespace symshape::ops
