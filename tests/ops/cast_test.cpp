#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
}  // namespace

TEST(Cast, ChangesDtypeKeepsShape) {
  EXPECT_EQ(run_shape_inference("", "Cast", {ts(FLOAT, {"B", 3})}, {attr("to", 10)}, 13), (Types{ts(FLOAT16, {"B", 3})}));
  EXPECT_EQ(run_shape_inference("", "Cast", {ts(INT64)}, {attr("to", 1)}, 19), (Types{ts(FLOAT)}));
}
TEST(Cast, StringTypeNameAtOpset1) {
  EXPECT_EQ(run_shape_inference("", "Cast", {ts(FLOAT, {2})}, {attr("to", "INT32")}, 1), (Types{ts(INT32, {2})}));
}
TEST(Cast, IntegerValuesPropagate) {
  RunResult r = run_node("", "Cast", {sym_value(ts(INT64, {2}), {"B", 4})}, {attr("to", 6)}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT32, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", 4}));
  RunResult f = run_node("", "Cast", {sym_value(ts(INT64, {2}), {"B", 4})}, {attr("to", 1)}, 13);
  EXPECT_FALSE(f.values[0]);
}
// Integers that float32 holds exactly (below 2^24) keep their values; ones
// that it would round do not.
TEST(Cast, ExactIntegersIntoFloatKeepTheirValues) {
  RunResult r = run_node("", "Cast", {sym_value(ts(INT32, {}), {10})}, {attr("to", 1)}, 13);
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{10}));
  RunResult big = run_node("", "Cast", {sym_value(ts(INT64, {}), {(int64_t{1} << 24) + 1})}, {attr("to", 1)}, 13);
  EXPECT_FALSE(big.values[0]);
}
// A narrowing cast wraps values that do not fit (300 as uint8 is 44): no value.
TEST(Cast, ValuesOutOfTheTargetRangeAreDropped) {
  RunResult r = run_node("", "Cast", {sym_value(ts(INT64, {2}), {3, 300})}, {attr("to", 2)}, 13);
  EXPECT_FALSE(r.values[0]);
  RunResult ok = run_node("", "Cast", {sym_value(ts(INT64, {2}), {3, 200})}, {attr("to", 2)}, 13);
  ASSERT_TRUE(ok.values[0]);
  EXPECT_EQ(*ok.values[0], (V{3, 200}));
}
// Integral floats cast to integers exactly; to bool, non-zero is true.
TEST(Cast, IntegralFloatsAndBool) {
  RunResult i = run_node("", "Cast", {sym_value(ts(FLOAT, {2}), {2, -3})}, {attr("to", 7)}, 13);
  ASSERT_TRUE(i.values[0]);
  EXPECT_EQ(*i.values[0], (V{2, -3}));
  RunResult b = run_node("", "Cast", {sym_value(ts(FLOAT, {2}), {2, 0})}, {attr("to", 9)}, 13);
  ASSERT_TRUE(b.values[0]);
  EXPECT_EQ(*b.values[0], (V{1, 0}));
}
TEST(Cast, Errors) {
  EXPECT_EQ(errors(run_node("", "Cast", {ts(FLOAT, {2})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Cast", {ts(FLOAT, {2})}, {attr("to", 99)}, 13)), 1u);
}

TEST(CastLike, TakesTargetDtype) {
  EXPECT_EQ(run_shape_inference("", "CastLike", {ts(FLOAT, {"B", 3}), ts(DOUBLE, {})}, {}, 15),
            (Types{ts(DOUBLE, {"B", 3})}));
  EXPECT_EQ(run_shape_inference("", "CastLike", {ts(INT32, {2}), ts(INT64, {})}, {}, 23), (Types{ts(INT64, {2})}));
}
TEST(CastLike, MissingTargetIsUsageError) { EXPECT_EQ(errors(run_node("", "CastLike", {ts(FLOAT, {2})}, {}, 15)), 1u); }

TEST(Identity, PassesTypeAndValue) {
  RunResult r = run_node("", "Identity", {sym_value(ts(INT64, {2}), {"B", "T"})}, {}, 16);
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  EXPECT_EQ(*r.values[0], (V{"B", "T"}));
  EXPECT_EQ(run_shape_inference("", "Identity", {Type::sequence(ts(FLOAT, {"N"}))}, {}, 14),
            (Types{Type::sequence(ts(FLOAT, {"N"}))}));
  EXPECT_EQ(run_shape_inference("", "Identity", {ts(FLOAT, {3})}, {}, 1), (Types{ts(FLOAT, {3})}));
}
TEST(Identity, MissingInputIsUsageError) { EXPECT_EQ(errors(run_node("", "Identity", {}, {}, 13)), 1u); }
