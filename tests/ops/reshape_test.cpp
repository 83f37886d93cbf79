#include "op_test_util.hpp"

TEST(Reshape, ConstantTarget) {
  EXPECT_EQ(Op("Reshape").opset(13).infer({ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({6, 4}))}),
            (Types{ts(FLOAT, {6, 4})}));
}
TEST(Reshape, ZeroCopiesAndMinusOneInfers) {
  EXPECT_EQ(Op("Reshape").opset(14).infer({ts(FLOAT, {"B", "T", 768}), constant(Tensor::vector({0, 0, 12, -1}))}),
            (Types{ts(FLOAT, {"B", "T", 12, 64})}));
}
TEST(Reshape, SymbolicTargetWithMinusOne) {
  EXPECT_EQ(Op("Reshape").opset(14).infer({ts(FLOAT, {"B", "T", 768}), sym_value(ts(INT64, {4}), {"B", "T", 12, -1})}),
            (Types{ts(FLOAT, {"B", "T", 12, 64})}));
}
TEST(Reshape, MinusOneGivesProductExpression) {
  EXPECT_EQ(Op("Reshape").opset(19).infer({ts(FLOAT, {"B", "T", 64}), sym_value(ts(INT64, {2}), {"B", -1})}),
            (Types{ts(FLOAT, {"B", "64*T"})}));
}
TEST(Reshape, MinusOneFloorDivision) {
  EXPECT_EQ(Op("Reshape").opset(13).infer({ts(FLOAT, {"N", 10}), constant(Tensor::vector({3, -1}))}),
            (Types{ts(FLOAT, {3, "(10*N)//3"})}));
}
TEST(Reshape, AllowZeroKeepsZero) {
  EXPECT_EQ(
      Op("Reshape").opset(14).infer({ts(FLOAT, {0, 4}), constant(Tensor::vector({0, 4}))}, {attr("allowzero", 1)}),
      (Types{ts(FLOAT, {0, 4})}));
}
TEST(Reshape, AllowZeroIgnoredBefore14) {
  EXPECT_EQ(
      Op("Reshape").opset(13).infer({ts(FLOAT, {"B", 4}), constant(Tensor::vector({0, 2, 2}))}, {attr("allowzero", 1)}),
      (Types{ts(FLOAT, {"B", 2, 2})}));
}
TEST(Reshape, AttributeAtOpset1) {
  EXPECT_EQ(Op("Reshape").opset(1).infer({ts(FLOAT, {2, 6})}, {attr("shape", std::vector<int64_t>{-1, 3})}),
            (Types{ts(FLOAT, {4, 3})}));
}
TEST(Reshape, UnknownTargetKnownLength) {
  EXPECT_EQ(Op("Reshape").opset(21).infer({ts(FLOAT, {2, 6}), ts(INT64, {3})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2"})}));
}
// The output holds as many elements as the input (spec), so a 1-D target of
// unknown value can only be [total]: 2*3*4 = 24, B*T*4 symbolically.
TEST(Reshape, UnknownTargetOfLengthOneIsTotalSize) {
  EXPECT_EQ(Op("Reshape").opset(21).infer({ts(FLOAT, {2, 3, 4}), ts(INT64, {1})}), (Types{ts(FLOAT, {24})}));
}
TEST(Reshape, UnknownTargetOfLengthOneSymbolicTotal) {
  EXPECT_EQ(Op("Reshape").opset(14).infer({ts(FLOAT, {"B", "T", 4}), ts(INT64, {1})}),
            (Types{ts(FLOAT, {SymbolicDim("B") * SymbolicDim("T") * SymbolicDim(4)})}));
}
TEST(Reshape, UnknownInputShapeKeepsKnownTargetDims) {
  EXPECT_EQ(Op("Reshape").opset(23).infer({ts(FLOAT), constant(Tensor::vector({4, -1}))}),
            (Types{ts(FLOAT, {4, "_d0"})}));
}
TEST(Reshape, PropagatesValue) {
  RunResult r = Op("Reshape").opset(13).run({sym_value(ts(INT64, {2}), {"B", "T"}), constant(Tensor::vector({2, 1}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2, 1}));
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{"B", "T"}));
}
TEST(Reshape, Errors) {
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({-1, -1}))}).report,
               "target shape has more than one -1");
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({4, -1}))}).report,
               "the -1 dim is not an integer");
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({5}))}).report,
               "element counts differ");
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({0, 0, 0}))}).report,
               "is 0 (copy) but the input [2,3] has no dim 2");
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({-2, 3}))}).report,
               "target shape has invalid dim -2");
  EXPECT_ERROR(Op("Reshape")
                   .opset(14)
                   .run({ts(FLOAT, {0, 3}), constant(Tensor::vector({0, -1}))}, {attr("allowzero", 1)})
                   .report,
               "target shape has both 0 and -1 with allowzero=1");
}
TEST(Reshape, MissingShapeIsUsageError) {
  EXPECT_ERROR(Op("Reshape").opset(13).run({ts(FLOAT, {2, 3})}).report, "missing required input 1");
  EXPECT_ERROR(Op("Reshape").opset(1).run({ts(FLOAT, {2, 3})}).report, "missing required attribute 'shape'");
}
