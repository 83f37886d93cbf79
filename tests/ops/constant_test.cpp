#include "op_test_util.hpp"
#include "symshape/ops/common/tensor_values.hpp"

// ---- Constant ----
TEST(Constant, ValueTensor) {
  RunResult r = Op("Constant").opset(13).run({}, {Attribute::make_tensor("value", Tensor::vector({12, 64}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{12, 64}));
  EXPECT_EQ(
      Op("Constant").opset(1).infer({}, {Attribute::make_tensor("value", Tensor::floats({1, 2, 3, 4, 5, 6}, {2, 3}))}),
      (Types{ts(FLOAT, {2, 3})}));
}
TEST(Constant, SparseValue) {
  Attribute a = Attribute::make_tensor("sparse_value", Tensor::floats({}, {10, 20}));
  a.kind = Attribute::Kind::SparseTensor;
  EXPECT_EQ(Op("Constant").opset(11).infer({}, {a}), (Types{ts(FLOAT, {10, 20})}));
}
TEST(Constant, ScalarAndListAttributesAt12) {
  RunResult i = Op("Constant").opset(12).run({}, {attr("value_int", 7)});
  EXPECT_EQ(i.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*i.values[0], (V{7}));
  RunResult is = Op("Constant").opset(19).run({}, {attr("value_ints", std::vector<int64_t>{1, 2, 3})});
  EXPECT_EQ(is.outputs[0], ts(INT64, {3}));
  EXPECT_EQ(*is.values[0], (V{1, 2, 3}));
  EXPECT_EQ(Op("Constant").opset(13).infer({}, {attr("value_float", 1.5)}), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(Op("Constant").opset(21).infer({}, {attr_floats("value_floats", {1, 2})}), (Types{ts(FLOAT, {2})}));
  EXPECT_EQ(Op("Constant").opset(23).infer({}, {attr("value_string", "a")}), (Types{ts(STRING, {})}));
  EXPECT_EQ(Op("Constant").opset(13).infer({}, {Attribute::make_strings("value_strings", {"a", "b", "c"})}),
            (Types{ts(STRING, {3})}));
}
// Integral float constants are tracked as values; others are not.
TEST(Constant, IntegralFloatValues) {
  RunResult one = Op("Constant").opset(13).run({}, {attr("value_float", 1.0)});
  ASSERT_TRUE(one.values[0]);
  EXPECT_EQ(*one.values[0], (V{1}));
  RunResult t = Op("Constant").opset(13).run({}, {Attribute::make_tensor("value", Tensor::floats({0, 10}, {2}))});
  ASSERT_TRUE(t.values[0]);
  EXPECT_EQ(*t.values[0], (V{0, 10}));
  EXPECT_FALSE(Op("Constant").opset(13).run({}, {attr("value_float", 1.5)}).values[0]);
}
TEST(Constant, NoneOrTwoValuesIsUsageError) {
  EXPECT_ERROR(Op("Constant").opset(13).run({}).report, "Constant needs one value attribute");
  EXPECT_ERROR(Op("Constant").opset(13).run({}, {attr("value_int", 1), attr("value_float", 1.0)}).report,
               "Constant has more than one value attribute");
}

// ---- ConstantOfShape ----
TEST(ConstantOfShape, SymbolicShapeDefaultFloat) {
  EXPECT_EQ(Op("ConstantOfShape").opset(9).infer({sym_value(ts(INT64, {2}), {"B", "T"})}),
            (Types{ts(FLOAT, {"B", "T"})}));
}
// Found by tests/fuzz/fuzz_engine (Expand): a shape input of 2^63-1 elements.
TEST(ConstantOfShape, ShapeInputTooLongGivesUnknownRank) {
  for (const int64_t length : {INT64_MAX, symshape::ops::kMaxRankFromLength + 1})
    EXPECT_EQ(Op("ConstantOfShape").opset(9).infer({ts(INT64, {length})}), (Types{ts(FLOAT)})) << length;
}
TEST(ConstantOfShape, FillTypeAndValues) {
  RunResult r = Op("ConstantOfShape")
                    .opset(20)
                    .run({constant(Tensor::vector({3}))}, {Attribute::make_tensor("value", Tensor::ints({1}, {1}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{1, 1, 1}));
}
TEST(ConstantOfShape, EmptyShapeIsScalar) {
  RunResult r = Op("ConstantOfShape")
                    .opset(21)
                    .run({constant(Tensor::ints({}, {0}))},
                         {Attribute::make_tensor("value", Tensor::ints({5}, {1}, DataType::INT32))});
  EXPECT_EQ(r.outputs[0], ts(INT32, {}));
  EXPECT_EQ(*r.values[0], (V{5}));
}
TEST(ConstantOfShape, UnknownValuesKnownLength) {
  EXPECT_EQ(Op("ConstantOfShape").opset(23).infer({ts(INT64, {2})}), (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(ConstantOfShape, Errors) {
  EXPECT_ERROR(Op("ConstantOfShape").opset(9).run({constant(Tensor::vector({2, -3}))}).report,
               "shape has a negative dim -3");
  EXPECT_ERROR(Op("ConstantOfShape")
                   .opset(9)
                   .run({constant(Tensor::vector({2}))}, {Attribute::make_tensor("value", Tensor::vector({1, 2}))})
                   .report,
               "attribute 'value' must hold exactly one element");
  EXPECT_ERROR(Op("ConstantOfShape").opset(9).run({}).report, "missing required input 0");
}

// ---- EyeLike ----
TEST(EyeLike, ShapeAndDtype) {
  EXPECT_EQ(Op("EyeLike").opset(9).infer({ts(FLOAT, {"N", 4})}), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("EyeLike").opset(22).infer({ts(FLOAT, {3, 3})}, {attr("dtype", 7)}), (Types{ts(INT64, {3, 3})}));
}
TEST(EyeLike, NotTwoDIsError) {
  EXPECT_ERROR(Op("EyeLike").opset(9).run({ts(FLOAT, {3})}).report, "input must be 2-D, got [3]");
}
