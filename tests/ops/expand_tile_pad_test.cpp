#include "op_test_util.hpp"
#include "symshape/ops/common/tensor_values.hpp"

// ---- Expand ----
TEST(Expand, ConstantTarget) {
  EXPECT_EQ(Op("Expand").opset(13).infer({ts(FLOAT, {3, 1}), vec({2, 1, 6})}), (Types{ts(FLOAT, {2, 3, 6})}));
}
TEST(Expand, SymbolicTarget) {
  EXPECT_EQ(Op("Expand").opset(8).infer({ts(FLOAT, {1, 1, "T"}), sym_value(ts(INT64, {3}), {"B", 12, "T"})}),
            (Types{ts(FLOAT, {"B", 12, "T"})}));
}
TEST(Expand, TargetOneKeepsInputDim) {
  EXPECT_EQ(Op("Expand").opset(13).infer({ts(FLOAT, {"B", 4}), vec({1, 1})}), (Types{ts(FLOAT, {"B", 4})}));
}
TEST(Expand, UnknownTargetValuesKnownLength) {
  EXPECT_EQ(Op("Expand").opset(13).infer({ts(FLOAT, {5}), ts(INT64, {2})}), (Types{ts(FLOAT, {"_d0", 5})}));
}
// Found by tests/fuzz/fuzz_engine: a shape input declared with 2^63-1 elements
// (values unknown) made the rule allocate that many dims (std::length_error).
TEST(Expand, ShapeInputTooLongGivesUnknownRank) {
  using symshape::ops::kMaxRankFromLength;
  for (const int64_t length : {INT64_MAX, int64_t{-1}, kMaxRankFromLength + 1})
    EXPECT_EQ(Op("Expand").opset(13).infer({ts(FLOAT, {5}), ts(INT64, {length})}), (Types{ts(FLOAT)})) << length;
  const Types at_limit = Op("Expand").opset(13).infer({ts(FLOAT, {5}), ts(INT64, {kMaxRankFromLength})});
  ASSERT_EQ(at_limit.size(), 1u);
  EXPECT_EQ(at_limit[0].shape().rank(), kMaxRankFromLength);
}
TEST(Expand, Errors) {
  EXPECT_ERROR(Op("Expand").opset(13).run({ts(FLOAT, {3}), vec({4})}).report, "cannot broadcast [3] with [4]");
  EXPECT_ERROR(Op("Expand").opset(13).run({ts(FLOAT, {3})}).report, "missing required input 1");
}

// ---- Tile ----
TEST(Tile, Repeats) {
  EXPECT_EQ(Op("Tile").opset(13).infer({ts(FLOAT, {"B", 3}), vec({2, 4})}), (Types{ts(FLOAT, {"2*B", 12})}));
}
TEST(Tile, SymbolicRepeats) {
  EXPECT_EQ(Op("Tile").opset(6).infer({ts(FLOAT, {1, 3}), sym_value(ts(INT64, {2}), {"B", 1})}),
            (Types{ts(FLOAT, {"B", 3})}));
}
TEST(Tile, Opset1TilesAndAxis) {
  EXPECT_EQ(Op("Tile").opset(1).infer({ts(FLOAT, {2, 3}), constant(Tensor::scalar(3)), constant(Tensor::scalar(1))}),
            (Types{ts(FLOAT, {2, 9})}));
}
TEST(Tile, UnknownRepeats) {
  EXPECT_EQ(Op("Tile").opset(13).infer({ts(FLOAT, {2, 3}), ts(INT64, {2})}), (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Tile, WrongLengthIsError) {
  EXPECT_ERROR(Op("Tile").opset(13).run({ts(FLOAT, {2, 3}), vec({2})}).report, "repeats has 1 entries for input [2,3]");
}

// ---- Pad ----
TEST(Pad, AttributeAtOpset2) {
  EXPECT_EQ(Op("Pad").opset(2).infer({ts(FLOAT, {"N", 3, 4})}, {attr("pads", std::vector<int64_t>{0, 1, 2, 0, 1, 2})}),
            (Types{ts(FLOAT, {"N", 5, 8})}));
}
TEST(Pad, PaddingsAtOpset1) {
  EXPECT_EQ(Op("Pad").opset(1).infer({ts(FLOAT, {3})}, {attr("paddings", std::vector<int64_t>{1, 1})}),
            (Types{ts(FLOAT, {5})}));
}
TEST(Pad, InputAtOpset11WithSymbolicDims) {
  EXPECT_EQ(Op("Pad").opset(11).infer({ts(FLOAT, {"H", "W"}), vec({1, 0, 1, -1})}), (Types{ts(FLOAT, {"H+2", "W-1"})}));
}
TEST(Pad, SymbolicPads) {
  EXPECT_EQ(Op("Pad").opset(13).infer({ts(FLOAT, {"B", 4}), sym_value(ts(INT64, {4}), {0, 0, 0, "P"})}),
            (Types{ts(FLOAT, {"B", "P+4"})}));
}
TEST(Pad, AxesAtOpset18) {
  EXPECT_EQ(Op("Pad").infer({ts(FLOAT, {"N", 3, 4}), vec({1, 2}), omitted(), vec({-1})}),
            (Types{ts(FLOAT, {"N", 3, 7})}));
  EXPECT_EQ(Op("Pad").opset(23).infer({ts(FLOAT, {"N", 3, 4}), vec({1, 2}), omitted(), vec({1})}),
            (Types{ts(FLOAT, {"N", 6, 4})}));
}
TEST(Pad, UnknownPads) {
  EXPECT_EQ(Op("Pad").opset(13).infer({ts(FLOAT, {2, 3}), ts(INT64, {4})}), (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Pad, Errors) {
  EXPECT_ERROR(Op("Pad").opset(13).run({ts(FLOAT, {2, 3}), vec({1, 1})}).report,
               "pads has 2 entries; expected 4 for 2 axes");
  EXPECT_ERROR(Op("Pad").opset(13).run({ts(FLOAT, {2}), vec({-2, -1})}).report, "pads make dim 0 of [2] negative");
  EXPECT_ERROR(Op("Pad").opset(2).run({ts(FLOAT, {2})}).report, "missing required attribute 'pads' (Pad-2)");
  EXPECT_ERROR(Op("Pad").opset(13).run({ts(FLOAT, {2})}).report, "missing required input 1");
}
