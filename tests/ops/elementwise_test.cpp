#include "op_test_util.hpp"

TEST(Elementwise, SameShape) {
  EXPECT_EQ(Op("Add").infer({ts(FLOAT, {3, 4}), ts(FLOAT, {3, 4})}), (Types{ts(FLOAT, {3, 4})}));
}
TEST(Elementwise, BroadcastsSymbolsAndOnes) {
  EXPECT_EQ(Op("Mul").infer({ts(FLOAT, {"batch", "seq", 768}), ts(FLOAT, {1, "seq", 1})}),
            (Types{ts(FLOAT, {"batch", "seq", 768})}));
}
TEST(Elementwise, BroadcastsLowerRank) {
  EXPECT_EQ(Op("Sub").infer({ts(FLOAT, {"N", 3, 4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {"N", 3, 4})}));
}
TEST(Elementwise, IntegerWinsOverSymbol) {
  EXPECT_EQ(Op("Add").infer({ts(FLOAT, {"n"}), ts(FLOAT, {5})}), (Types{ts(FLOAT, {5})}));
}
TEST(Elementwise, DifferentSymbolsGiveFreshDim) {
  EXPECT_EQ(Op("Add").infer({ts(FLOAT, {"a"}), ts(FLOAT, {"b"})}), (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Elementwise, ComparisonIsBool) {
  EXPECT_EQ(Op("Less").infer({ts(FLOAT, {2, 3}), ts(FLOAT, {3})}), (Types{ts(BOOL, {2, 3})}));
}
TEST(Elementwise, IncompatibleIsError) {
  RunResult r = Op("Add").run({ts(FLOAT, {2, 3}), ts(FLOAT, {4})});
  EXPECT_ERROR(r.report, "cannot broadcast [2,3] with [4]");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("cannot broadcast"), std::string::npos);
}
TEST(Elementwise, UnknownRankPropagates) {
  EXPECT_EQ(Op("Add").infer({ts(FLOAT), ts(FLOAT, {3})}), (Types{ts(FLOAT)}));
}
// Integral float values: exact results only (4/2 = 2; 4/3 has no value).
TEST(Elementwise, IntegralFloatArithmetic) {
  RunResult s = Op("Sub").opset(14).run({sym_value(ts(FLOAT, {}), {10}), sym_value(ts(FLOAT, {}), {1})});
  ASSERT_TRUE(s.values[0]);
  EXPECT_EQ(*s.values[0], (std::vector<SymbolicDim>{9}));
  RunResult d = Op("Div").opset(14).run({sym_value(ts(FLOAT, {}), {4}), sym_value(ts(FLOAT, {}), {2})});
  ASSERT_TRUE(d.values[0]);
  EXPECT_EQ(*d.values[0], (std::vector<SymbolicDim>{2}));
  EXPECT_FALSE(Op("Div").opset(14).run({sym_value(ts(FLOAT, {}), {4}), sym_value(ts(FLOAT, {}), {3})}).values[0]);
  // 2^24 + 1 is not a float32.
  EXPECT_FALSE(
      Op("Add").opset(14).run({sym_value(ts(FLOAT, {}), {int64_t{1} << 24}), sym_value(ts(FLOAT, {}), {1})}).values[0]);
}
TEST(Elementwise, PropagatesShapeArithmetic) {
  RunResult r = Op("Mul").run({sym_value(ts(INT64, {2}), {"b", 4}), constant(Tensor::vector({2, 3}))});
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("2*b"), 12}));
}
TEST(Elementwise, VariadicSum) {
  EXPECT_EQ(Op("Sum").infer({ts(FLOAT, {3, 1}), ts(FLOAT, {1, 4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {3, 4})}));
}
TEST(Elementwise, LegacyBroadcastKeepsFirstShape) {
  EXPECT_EQ(Op("Add").opset(6).infer({ts(FLOAT, {2, 3, 4}), ts(FLOAT, {3})}, {attr("broadcast", 1), attr("axis", 1)}),
            (Types{ts(FLOAT, {2, 3, 4})}));
}
TEST(Elementwise, LegacyComparisonIsBool) {
  EXPECT_EQ(Op("Less").opset(1).infer({ts(FLOAT, {"n", 3}), ts(FLOAT, {3})}, {attr("broadcast", 1)}),
            (Types{ts(BOOL, {"n", 3})}));
}
TEST(Elementwise, PReluKeepsInputShape) {
  EXPECT_EQ(Op("PRelu").opset(16).infer({ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 1, 1})}),
            (Types{ts(FLOAT, {"N", 8, "H", "W"})}));
}
TEST(Elementwise, EqualAtOpset19) {
  EXPECT_EQ(Op("Equal").opset(19).infer({ts(INT64, {"n"}), ts(INT64, {1})}), (Types{ts(BOOL, {"n"})}));
}
