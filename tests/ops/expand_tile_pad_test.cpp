#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
std::size_t errors(const RunResult& r) { return r.report.errors(); }
In vec(std::vector<int64_t> v) { return constant(Tensor::vector(std::move(v))); }
}  // namespace

// ---- Expand ----
TEST(Expand, ConstantTarget) {
  EXPECT_EQ(run_shape_inference("", "Expand", {ts(FLOAT, {3, 1}), vec({2, 1, 6})}, {}, 13), (Types{ts(FLOAT, {2, 3, 6})}));
}
TEST(Expand, SymbolicTarget) {
  EXPECT_EQ(run_shape_inference("", "Expand", {ts(FLOAT, {1, 1, "T"}), sym_value(ts(INT64, {3}), {"B", 12, "T"})}, {}, 8),
            (Types{ts(FLOAT, {"B", 12, "T"})}));
}
TEST(Expand, TargetOneKeepsInputDim) {
  EXPECT_EQ(run_shape_inference("", "Expand", {ts(FLOAT, {"B", 4}), vec({1, 1})}, {}, 13), (Types{ts(FLOAT, {"B", 4})}));
}
TEST(Expand, UnknownTargetValuesKnownLength) {
  EXPECT_EQ(run_shape_inference("", "Expand", {ts(FLOAT, {5}), ts(INT64, {2})}, {}, 13), (Types{ts(FLOAT, {"_d0", 5})}));
}
TEST(Expand, Errors) {
  EXPECT_EQ(errors(run_node("", "Expand", {ts(FLOAT, {3}), vec({4})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Expand", {ts(FLOAT, {3})}, {}, 13)), 1u);
}

// ---- Tile ----
TEST(Tile, Repeats) {
  EXPECT_EQ(run_shape_inference("", "Tile", {ts(FLOAT, {"B", 3}), vec({2, 4})}, {}, 13), (Types{ts(FLOAT, {"2*B", 12})}));
}
TEST(Tile, SymbolicRepeats) {
  EXPECT_EQ(run_shape_inference("", "Tile", {ts(FLOAT, {1, 3}), sym_value(ts(INT64, {2}), {"B", 1})}, {}, 6),
            (Types{ts(FLOAT, {"B", 3})}));
}
TEST(Tile, Opset1TilesAndAxis) {
  EXPECT_EQ(run_shape_inference("", "Tile", {ts(FLOAT, {2, 3}), constant(Tensor::scalar(3)), constant(Tensor::scalar(1))},
                                {}, 1),
            (Types{ts(FLOAT, {2, 9})}));
}
TEST(Tile, UnknownRepeats) {
  EXPECT_EQ(run_shape_inference("", "Tile", {ts(FLOAT, {2, 3}), ts(INT64, {2})}, {}, 13),
            (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Tile, WrongLengthIsError) { EXPECT_EQ(errors(run_node("", "Tile", {ts(FLOAT, {2, 3}), vec({2})}, {}, 13)), 1u); }

// ---- Pad ----
TEST(Pad, AttributeAtOpset2) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {"N", 3, 4})}, {attr("pads", std::vector<int64_t>{0, 1, 2, 0, 1, 2})},
                                2),
            (Types{ts(FLOAT, {"N", 5, 8})}));
}
TEST(Pad, PaddingsAtOpset1) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {3})}, {attr("paddings", std::vector<int64_t>{1, 1})}, 1),
            (Types{ts(FLOAT, {5})}));
}
TEST(Pad, InputAtOpset11WithSymbolicDims) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {"H", "W"}), vec({1, 0, 1, -1})}, {}, 11),
            (Types{ts(FLOAT, {"H+2", "W-1"})}));
}
TEST(Pad, SymbolicPads) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {"B", 4}), sym_value(ts(INT64, {4}), {0, 0, 0, "P"})}, {}, 13),
            (Types{ts(FLOAT, {"B", "P+4"})}));
}
TEST(Pad, AxesAtOpset18) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {"N", 3, 4}), vec({1, 2}), omitted(), vec({-1})}, {}, 18),
            (Types{ts(FLOAT, {"N", 3, 7})}));
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {"N", 3, 4}), vec({1, 2}), omitted(), vec({1})}, {}, 23),
            (Types{ts(FLOAT, {"N", 6, 4})}));
}
TEST(Pad, UnknownPads) {
  EXPECT_EQ(run_shape_inference("", "Pad", {ts(FLOAT, {2, 3}), ts(INT64, {4})}, {}, 13),
            (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Pad, Errors) {
  EXPECT_EQ(errors(run_node("", "Pad", {ts(FLOAT, {2, 3}), vec({1, 1})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Pad", {ts(FLOAT, {2}), vec({-2, -1})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Pad", {ts(FLOAT, {2})}, {}, 2)), 1u);
  EXPECT_EQ(errors(run_node("", "Pad", {ts(FLOAT, {2})}, {}, 13)), 1u);
}
