#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(Elementwise, SameShape) {
  EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT, {3, 4}), ts(FLOAT, {3, 4})}), (Types{ts(FLOAT, {3, 4})}));
}
TEST(Elementwise, BroadcastsSymbolsAndOnes) {
  EXPECT_EQ(run_shape_inference("", "Mul", {ts(FLOAT, {"batch", "seq", 768}), ts(FLOAT, {1, "seq", 1})}),
            (Types{ts(FLOAT, {"batch", "seq", 768})}));
}
TEST(Elementwise, BroadcastsLowerRank) {
  EXPECT_EQ(run_shape_inference("", "Sub", {ts(FLOAT, {"N", 3, 4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {"N", 3, 4})}));
}
TEST(Elementwise, IntegerWinsOverSymbol) {
  EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT, {"n"}), ts(FLOAT, {5})}), (Types{ts(FLOAT, {5})}));
}
TEST(Elementwise, DifferentSymbolsGiveFreshDim) {
  EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT, {"a"}), ts(FLOAT, {"b"})}), (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Elementwise, ComparisonIsBool) {
  EXPECT_EQ(run_shape_inference("", "Less", {ts(FLOAT, {2, 3}), ts(FLOAT, {3})}), (Types{ts(BOOL, {2, 3})}));
}
TEST(Elementwise, IncompatibleIsError) {
  RunResult r = run_node("", "Add", {ts(FLOAT, {2, 3}), ts(FLOAT, {4})});
  EXPECT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("cannot broadcast"), std::string::npos);
}
TEST(Elementwise, UnknownRankPropagates) {
  EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT), ts(FLOAT, {3})}), (Types{ts(FLOAT)}));
}
// Integral float values: exact results only (4/2 = 2; 4/3 has no value).
TEST(Elementwise, IntegralFloatArithmetic) {
  RunResult s = run_node("", "Sub", {sym_value(ts(FLOAT, {}), {10}), sym_value(ts(FLOAT, {}), {1})}, {}, 14);
  ASSERT_TRUE(s.values[0]);
  EXPECT_EQ(*s.values[0], (std::vector<SymbolicDim>{9}));
  RunResult d = run_node("", "Div", {sym_value(ts(FLOAT, {}), {4}), sym_value(ts(FLOAT, {}), {2})}, {}, 14);
  ASSERT_TRUE(d.values[0]);
  EXPECT_EQ(*d.values[0], (std::vector<SymbolicDim>{2}));
  EXPECT_FALSE(run_node("", "Div", {sym_value(ts(FLOAT, {}), {4}), sym_value(ts(FLOAT, {}), {3})}, {}, 14).values[0]);
  // 2^24 + 1 is not a float32.
  EXPECT_FALSE(run_node("", "Add", {sym_value(ts(FLOAT, {}), {int64_t{1} << 24}), sym_value(ts(FLOAT, {}), {1})}, {}, 14)
                   .values[0]);
}
TEST(Elementwise, PropagatesShapeArithmetic) {
  RunResult r = run_node("", "Mul", {sym_value(ts(INT64, {2}), {"b", 4}), constant(Tensor::vector({2, 3}))});
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("2*b"), 12}));
}
TEST(Elementwise, VariadicSum) {
  EXPECT_EQ(run_shape_inference("", "Sum", {ts(FLOAT, {3, 1}), ts(FLOAT, {1, 4}), ts(FLOAT, {4})}),
            (Types{ts(FLOAT, {3, 4})}));
}
TEST(Elementwise, LegacyBroadcastKeepsFirstShape) {
  EXPECT_EQ(run_shape_inference("", "Add", {ts(FLOAT, {2, 3, 4}), ts(FLOAT, {3})}, {attr("broadcast", 1), attr("axis", 1)}, 6),
            (Types{ts(FLOAT, {2, 3, 4})}));
}
TEST(Elementwise, LegacyComparisonIsBool) {
  EXPECT_EQ(run_shape_inference("", "Less", {ts(FLOAT, {"n", 3}), ts(FLOAT, {3})}, {attr("broadcast", 1)}, 1),
            (Types{ts(BOOL, {"n", 3})}));
}
TEST(Elementwise, PReluKeepsInputShape) {
  EXPECT_EQ(run_shape_inference("", "PRelu", {ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 1, 1})}, {}, 16),
            (Types{ts(FLOAT, {"N", 8, "H", "W"})}));
}
TEST(Elementwise, EqualAtOpset19) {
  EXPECT_EQ(run_shape_inference("", "Equal", {ts(INT64, {"n"}), ts(INT64, {1})}, {}, 19), (Types{ts(BOOL, {"n"})}));
}
