#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
}  // namespace

// ---- Constant ----
TEST(Constant, ValueTensor) {
  RunResult r = run_node("", "Constant", {}, {Attribute::make_tensor("value", Tensor::vector({12, 64}))}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{12, 64}));
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {Attribute::make_tensor("value", Tensor::floats({1, 2, 3, 4, 5, 6}, {2, 3}))},
                                1),
            (Types{ts(FLOAT, {2, 3})}));
}
TEST(Constant, SparseValue) {
  Attribute a = Attribute::make_tensor("sparse_value", Tensor::floats({}, {10, 20}));
  a.kind = Attribute::Kind::SparseTensor;
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {a}, 11), (Types{ts(FLOAT, {10, 20})}));
}
TEST(Constant, ScalarAndListAttributesAt12) {
  RunResult i = run_node("", "Constant", {}, {attr("value_int", 7)}, 12);
  EXPECT_EQ(i.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*i.values[0], (V{7}));
  RunResult is = run_node("", "Constant", {}, {attr("value_ints", std::vector<int64_t>{1, 2, 3})}, 19);
  EXPECT_EQ(is.outputs[0], ts(INT64, {3}));
  EXPECT_EQ(*is.values[0], (V{1, 2, 3}));
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {attr("value_float", 1.5)}, 13), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {attr_floats("value_floats", {1, 2})}, 21), (Types{ts(FLOAT, {2})}));
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {attr("value_string", "a")}, 23), (Types{ts(STRING, {})}));
  EXPECT_EQ(run_shape_inference("", "Constant", {}, {Attribute::make_strings("value_strings", {"a", "b", "c"})}, 13),
            (Types{ts(STRING, {3})}));
}
// Integral float constants are tracked as values; others are not.
TEST(Constant, IntegralFloatValues) {
  RunResult one = run_node("", "Constant", {}, {attr("value_float", 1.0)}, 13);
  ASSERT_TRUE(one.values[0]);
  EXPECT_EQ(*one.values[0], (V{1}));
  RunResult t = run_node("", "Constant", {}, {Attribute::make_tensor("value", Tensor::floats({0, 10}, {2}))}, 13);
  ASSERT_TRUE(t.values[0]);
  EXPECT_EQ(*t.values[0], (V{0, 10}));
  EXPECT_FALSE(run_node("", "Constant", {}, {attr("value_float", 1.5)}, 13).values[0]);
}
TEST(Constant, NoneOrTwoValuesIsUsageError) {
  EXPECT_EQ(errors(run_node("", "Constant", {}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Constant", {}, {attr("value_int", 1), attr("value_float", 1.0)}, 13)), 1u);
}

// ---- ConstantOfShape ----
TEST(ConstantOfShape, SymbolicShapeDefaultFloat) {
  EXPECT_EQ(run_shape_inference("", "ConstantOfShape", {sym_value(ts(INT64, {2}), {"B", "T"})}, {}, 9),
            (Types{ts(FLOAT, {"B", "T"})}));
}
TEST(ConstantOfShape, FillTypeAndValues) {
  RunResult r = run_node("", "ConstantOfShape", {constant(Tensor::vector({3}))},
                         {Attribute::make_tensor("value", Tensor::ints({1}, {1}))}, 20);
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{1, 1, 1}));
}
TEST(ConstantOfShape, EmptyShapeIsScalar) {
  RunResult r = run_node("", "ConstantOfShape", {constant(Tensor::ints({}, {0}))},
                         {Attribute::make_tensor("value", Tensor::ints({5}, {1}, DataType::INT32))}, 21);
  EXPECT_EQ(r.outputs[0], ts(INT32, {}));
  EXPECT_EQ(*r.values[0], (V{5}));
}
TEST(ConstantOfShape, UnknownValuesKnownLength) {
  EXPECT_EQ(run_shape_inference("", "ConstantOfShape", {ts(INT64, {2})}, {}, 23), (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(ConstantOfShape, Errors) {
  EXPECT_EQ(errors(run_node("", "ConstantOfShape", {constant(Tensor::vector({2, -3}))}, {}, 9)), 1u);
  EXPECT_EQ(errors(run_node("", "ConstantOfShape", {constant(Tensor::vector({2}))},
                            {Attribute::make_tensor("value", Tensor::vector({1, 2}))}, 9)),
            1u);
  EXPECT_EQ(errors(run_node("", "ConstantOfShape", {}, {}, 9)), 1u);
}

// ---- EyeLike ----
TEST(EyeLike, ShapeAndDtype) {
  EXPECT_EQ(run_shape_inference("", "EyeLike", {ts(FLOAT, {"N", 4})}, {}, 9), (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "EyeLike", {ts(FLOAT, {3, 3})}, {attr("dtype", 7)}, 22), (Types{ts(INT64, {3, 3})}));
}
TEST(EyeLike, NotTwoDIsError) { EXPECT_EQ(errors(run_node("", "EyeLike", {ts(FLOAT, {3})}, {}, 9)), 1u); }
