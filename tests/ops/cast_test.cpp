#include "op_test_util.hpp"

TEST(Cast, ChangesDtypeKeepsShape) {
  EXPECT_EQ(Op("Cast").opset(13).infer({ts(FLOAT, {"B", 3})}, {attr("to", 10)}), (Types{ts(FLOAT16, {"B", 3})}));
  EXPECT_EQ(Op("Cast").opset(19).infer({ts(INT64)}, {attr("to", 1)}), (Types{ts(FLOAT)}));
}
TEST(Cast, StringTypeNameAtOpset1) {
  EXPECT_EQ(Op("Cast").opset(1).infer({ts(FLOAT, {2})}, {attr("to", "INT32")}), (Types{ts(INT32, {2})}));
}
TEST(Cast, IntegerValuesPropagate) {
  RunResult r = Op("Cast").opset(13).run({sym_value(ts(INT64, {2}), {"B", 4})}, {attr("to", 6)});
  EXPECT_EQ(r.outputs[0], ts(INT32, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", 4}));
  // A symbolic value is taken to fit float32's exact integers (below 2^24, as
  // onnxruntime's symbolic shape inference takes it: torch casts sizes to
  // float for positions, grids and scales), and float64's (2^53); FLOAT16
  // keeps no symbolic value.
  RunResult f = Op("Cast").opset(13).run({sym_value(ts(INT64, {2}), {"B", 4})}, {attr("to", 1)});
  ASSERT_TRUE(f.values[0]);
  EXPECT_EQ(*f.values[0], (V{"B", 4}));
  RunResult p = Op("Cast").opset(13).run({sym_value(ts(INT64, {1}), {"B*T"})}, {attr("to", 1)});
  ASSERT_TRUE(p.values[0]);
  EXPECT_EQ(*p.values[0], (V{"B*T"}));
  RunResult d = Op("Cast").opset(13).run({sym_value(ts(INT64, {1}), {"B*T"})}, {attr("to", 11)});
  ASSERT_TRUE(d.values[0]);
  EXPECT_EQ(*d.values[0], (V{"B*T"}));
  EXPECT_FALSE(Op("Cast").opset(13).run({sym_value(ts(INT64, {1}), {"B"})}, {attr("to", 10)}).values[0]);
}
// Integers that float32 holds exactly (below 2^24) keep their values; ones
// that it would round do not.
TEST(Cast, ExactIntegersIntoFloatKeepTheirValues) {
  RunResult r = Op("Cast").opset(13).run({sym_value(ts(INT32, {}), {10})}, {attr("to", 1)});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{10}));
  RunResult big = Op("Cast").opset(13).run({sym_value(ts(INT64, {}), {(int64_t{1} << 24) + 1})}, {attr("to", 1)});
  EXPECT_FALSE(big.values[0]);
}
// A narrowing cast wraps values that do not fit (300 as uint8 is 44): no value.
TEST(Cast, ValuesOutOfTheTargetRangeAreDropped) {
  RunResult r = Op("Cast").opset(13).run({sym_value(ts(INT64, {2}), {3, 300})}, {attr("to", 2)});
  EXPECT_FALSE(r.values[0]);
  RunResult ok = Op("Cast").opset(13).run({sym_value(ts(INT64, {2}), {3, 200})}, {attr("to", 2)});
  ASSERT_TRUE(ok.values[0]);
  EXPECT_EQ(*ok.values[0], (V{3, 200}));
}
// Integral floats cast to integers exactly; to bool, non-zero is true.
TEST(Cast, IntegralFloatsAndBool) {
  RunResult i = Op("Cast").opset(13).run({sym_value(ts(FLOAT, {2}), {2, -3})}, {attr("to", 7)});
  ASSERT_TRUE(i.values[0]);
  EXPECT_EQ(*i.values[0], (V{2, -3}));
  RunResult b = Op("Cast").opset(13).run({sym_value(ts(FLOAT, {2}), {2, 0})}, {attr("to", 9)});
  ASSERT_TRUE(b.values[0]);
  EXPECT_EQ(*b.values[0], (V{1, 0}));
}
TEST(Cast, Errors) {
  EXPECT_ERROR(Op("Cast").opset(13).run({ts(FLOAT, {2})}).report, "missing required attribute 'to'");
  EXPECT_ERROR(Op("Cast").opset(13).run({ts(FLOAT, {2})}, {attr("to", 99)}).report,
               "invalid target type in attribute 'to'");
}

TEST(CastLike, TakesTargetDtype) {
  EXPECT_EQ(Op("CastLike").opset(15).infer({ts(FLOAT, {"B", 3}), ts(DOUBLE, {})}), (Types{ts(DOUBLE, {"B", 3})}));
  EXPECT_EQ(Op("CastLike").opset(23).infer({ts(INT32, {2}), ts(INT64, {})}), (Types{ts(INT64, {2})}));
}
TEST(CastLike, MissingTargetIsUsageError) {
  EXPECT_ERROR(Op("CastLike").opset(15).run({ts(FLOAT, {2})}).report, "missing required input 1");
}
