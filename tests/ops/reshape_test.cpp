#include "op_test_util.hpp"
#include "symshape/ops/common/tensor_values.hpp"

TEST(Reshape, OutputShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      {"ConstantTarget", "Reshape", {ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({6, 4}))}, {}, 13,
       {ts(FLOAT, {6, 4})}},
      {"ZeroCopiesAndMinusOneInfers", "Reshape",
       {ts(FLOAT, {"B", "T", 768}), constant(Tensor::vector({0, 0, 12, -1}))}, {}, 14,
       {ts(FLOAT, {"B", "T", 12, 64})}},
      {"SymbolicTargetWithMinusOne", "Reshape",
       {ts(FLOAT, {"B", "T", 768}), sym_value(ts(INT64, {4}), {"B", "T", 12, -1})}, {}, 14,
       {ts(FLOAT, {"B", "T", 12, 64})}},
      {"MinusOneGivesProductExpression", "Reshape", {ts(FLOAT, {"B", "T", 64}), sym_value(ts(INT64, {2}), {"B", -1})},
       {}, 19, {ts(FLOAT, {"B", "64*T"})}},
      {"MinusOneFloorDivision", "Reshape", {ts(FLOAT, {"N", 10}), constant(Tensor::vector({3, -1}))}, {}, 13,
       {ts(FLOAT, {3, "(10*N)//3"})}},
      {"AllowZeroKeepsZero", "Reshape", {ts(FLOAT, {0, 4}), constant(Tensor::vector({0, 4}))}, {attr("allowzero", 1)},
       14, {ts(FLOAT, {0, 4})}},
      {"ZeroCopiesBefore14", "Reshape", {ts(FLOAT, {"B", 4}), constant(Tensor::vector({0, 2, 2}))}, {}, 13,
       {ts(FLOAT, {"B", 2, 2})}},
      {"AttributeAtOpset1", "Reshape", {ts(FLOAT, {2, 6})}, {attr("shape", std::vector<int64_t>{-1, 3})}, 1,
       {ts(FLOAT, {4, 3})}},
      {"UnknownTargetKnownLength", "Reshape", {ts(FLOAT, {2, 6}), ts(INT64, {3})}, {}, 21,
       {ts(FLOAT, {"_d0", "_d1", "_d2"})}},
      // The output holds as many elements as the input (spec), so a 1-D target of
      // unknown value can only be [total]: 2*3*4 = 24, B*T*4 symbolically.
      {"UnknownTargetOfLengthOneIsTotalSize", "Reshape", {ts(FLOAT, {2, 3, 4}), ts(INT64, {1})}, {}, 21,
       {ts(FLOAT, {24})}},
      {"UnknownTargetOfLengthOneSymbolicTotal", "Reshape", {ts(FLOAT, {"B", "T", 4}), ts(INT64, {1})}, {}, 14,
       {ts(FLOAT, {SymbolicDim("B") * SymbolicDim("T") * SymbolicDim(4)})}},
      {"UnknownInputShapeKeepsKnownTargetDims", "Reshape", {ts(FLOAT), constant(Tensor::vector({4, -1}))}, {}, 23,
       {ts(FLOAT, {4, "_d0"})}},
  };
  // clang-format on
  expect_shapes(cases);
}
TEST(Reshape, Errors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"TwoMinusOnes", "Reshape", {ts(FLOAT, {2, 3}), constant(Tensor::vector({-1, -1}))}, {}, 13,
       "target shape has more than one -1"},
      {"MinusOneNotIntegral", "Reshape", {ts(FLOAT, {2, 3}), constant(Tensor::vector({4, -1}))}, {}, 13,
       "the -1 dim is not an integer"},
      {"ElementCountsDiffer", "Reshape", {ts(FLOAT, {2, 3}), constant(Tensor::vector({5}))}, {}, 13,
       "element counts differ"},
      {"ZeroCopiesAMissingDim", "Reshape", {ts(FLOAT, {2, 3}), constant(Tensor::vector({0, 0, 0}))}, {}, 13,
       "is 0 (copy) but the input [2,3] has no dim 2"},
      {"InvalidNegativeDim", "Reshape", {ts(FLOAT, {2, 3}), constant(Tensor::vector({-2, 3}))}, {}, 13,
       "target shape has invalid dim -2"},
      {"ZeroAndMinusOneWithAllowZero", "Reshape", {ts(FLOAT, {0, 3}), constant(Tensor::vector({0, -1}))},
       {attr("allowzero", 1)}, 14, "target shape has both 0 and -1 with allowzero=1"},
      {"MissingShapeInput", "Reshape", {ts(FLOAT, {2, 3})}, {}, 13, "missing required input 1"},
      {"MissingShapeAttributeAtOpset1", "Reshape", {ts(FLOAT, {2, 3})}, {}, 1, "missing required attribute 'shape'"},
      {"AllowZeroBefore14", "Reshape", {ts(FLOAT, {"B", 4}), constant(Tensor::vector({0, 2, 2}))},
       {attr("allowzero", 1)}, 13, "unknown attribute 'allowzero' for Reshape-13"},
  };
  // clang-format on
  expect_errors(cases);
}
TEST(Reshape, PropagatesValue) {
  RunResult r = Op("Reshape").opset(13).run({sym_value(ts(INT64, {2}), {"B", "T"}), constant(Tensor::vector({2, 1}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2, 1}));
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{"B", "T"}));
}
// Found by tests/fuzz/fuzz_engine (Expand): a shape input of 2^63-1 elements.
TEST(Reshape, TargetTooLongGivesUnknownRank) {
  for (const int64_t length : {INT64_MAX, symshape::ops::kMaxRankFromLength + 1})
    EXPECT_EQ(Op("Reshape").opset(14).infer({ts(FLOAT, {"B", 4}), ts(INT64, {length})}), (Types{ts(FLOAT)})) << length;
}
