#include "op_test_util.hpp"

namespace {
In scalar(int64_t v) { return constant(Tensor::scalar(v)); }
In fscalar(double v) { return constant(Tensor::floats({v}, {})); }
In sym(SymbolicDim d) { return sym_value(ts(INT64, {}), {std::move(d)}); }
}  // namespace

TEST(Range, ConstantIntegers) {
  RunResult r = Op("Range").opset(11).run({scalar(1), scalar(10), scalar(3)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{1, 4, 7}));
}
TEST(Range, NegativeDelta) {
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(10), scalar(4), scalar(-2)}), (Types{ts(INT64, {3})}));
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(1), scalar(4), scalar(-2)}), (Types{ts(INT64, {0})}));
}
TEST(Range, SymbolicLimit) {
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(0), sym("T"), scalar(1)}), (Types{ts(INT64, {"T"})}));
  EXPECT_EQ(Op("Range").opset(11).infer({sym("P"), sym("P+S"), scalar(1)}), (Types{ts(INT64, {"S"})}));
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(0), sym("T"), scalar(2)}), (Types{ts(INT64, {"(T+1)//2"})}));
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(5), sym("T"), scalar(1)}), (Types{ts(INT64, {"max(0,T-5)"})}));
  EXPECT_EQ(Op("Range").opset(11).infer({sym("T"), scalar(0), scalar(-1)}), (Types{ts(INT64, {"T"})}));
  // The prover shows the count never negative where bounds alone do not.
  EXPECT_EQ(Op("Range").opset(11).infer({sym("T//2"), sym("T"), scalar(1)}), (Types{ts(INT64, {"T-T//2"})}));
  EXPECT_EQ(Op("Range").opset(11).infer({sym("S"), sym("T"), scalar(1)}), (Types{ts(INT64, {"max(0,T-S)"})}));
}
TEST(Range, FloatConstants) {
  EXPECT_EQ(Op("Range").opset(11).infer({fscalar(0), fscalar(1), fscalar(0.25)}), (Types{ts(FLOAT, {4})}));
}
// Float bounds known as (integral) values: ceil((10 - 0) / 1) = 10 elements.
TEST(Range, IntegralFloatValues) {
  EXPECT_EQ(Op("Range").opset(11).infer(
                {sym_value(ts(FLOAT, {}), {0}), sym_value(ts(FLOAT, {}), {10}), sym_value(ts(FLOAT, {}), {1})}),
            (Types{ts(FLOAT, {10})}));
}
TEST(Range, UnknownDeltaGivesUnknownLength) {
  EXPECT_EQ(Op("Range").opset(11).infer({scalar(0), scalar(10), ts(INT64, {})}), (Types{ts(INT64, {"_d0"})}));
}
TEST(Range, Errors) {
  EXPECT_ERROR(Op("Range").opset(11).run({scalar(0), scalar(10), scalar(0)}).report, "delta must not be 0");
  EXPECT_ERROR(Op("Range").opset(11).run({scalar(0), constant(Tensor::vector({1, 2})), scalar(1)}).report,
               "input 1 must be a scalar, got [2]");
  EXPECT_ERROR(Op("Range").opset(11).run({scalar(0), scalar(10)}).report, "missing required input 2");
}
