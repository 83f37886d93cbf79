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
// Two symbolic dims broadcast to the exact dim of every valid run (equal, or
// one of them 1, zero-size dims included) and record the relation.
TEST(Elementwise, DifferentSymbolsGiveTheExactBroadcastAndAContract) {
  RunResult r = Op("Add").run({ts(FLOAT, {"a"}), ts(FLOAT, {"b"})});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {"max(a,b)*min(1,a,b)"})}));
  ASSERT_EQ(r.report.contracts.size(), 1u);
  EXPECT_EQ(r.report.contracts[0].relation(), "a == b or a == 1 or b == 1");
  EXPECT_EQ(r.report.contracts[0].kind, Contract::Kind::Broadcast);
}
TEST(Elementwise, BroadcastUsesTheProver) {
  const ShapeCase cases[] = {
      // a table sliced to min(64, seq) against seq: seq whenever valid
      {"table", "Add", {ts(FLOAT, {"seq", 8}), ts(FLOAT, {"min(64,seq)", 8})}, {}, 17, {ts(FLOAT, {"seq", 8})}},
      {"table first", "Add", {ts(FLOAT, {"min(64,seq)"}), ts(FLOAT, {"seq"})}, {}, 17, {ts(FLOAT, {"seq"})}},
      // a dim >= 2 cannot be the 1
      {">= 2", "Mul", {ts(FLOAT, {"n+2"}), ts(FLOAT, {"m"})}, {}, 14, {ts(FLOAT, {"n+2"})}},
      // an even dim is never 1 either (a feature pyramid's 2*((h+31)//32)
      // against (h+15)//16), even when it can be 0
      {"even",
       "Add",
       {ts(FLOAT, {"(h+15)//16"}), ts(FLOAT, {"2*((h+31)//32)"})},
       {},
       14,
       {ts(FLOAT, {"2*((h+31)//32)"})}},
      // both >= 1: the larger
      {">= 1", "Sub", {ts(FLOAT, {"n+1"}), ts(FLOAT, {"m+1"})}, {}, 14, {ts(FLOAT, {"max(m+1,n+1)"})}},
      // seq against seq times an indicator (GPT-2's positions sliced from a
      // 64-row table broadcast with seq, then added to the tokens): the
      // latter is seq or 0, and the result either way
      {"indicator multiple",
       "Add",
       {ts(FLOAT, {"seq"}), ts(FLOAT, {"seq*min(1,max(0,min(64,past+seq)-past))"})},
       {},
       14,
       {ts(FLOAT, {"seq*min(1,max(0,min(64,past+seq)-past))"})}},
      {"indicator multiple first",
       "Add",
       {ts(FLOAT, {"n*min(1,k)"}), ts(FLOAT, {"n"})},
       {},
       14,
       {ts(FLOAT, {"n*min(1,k)"})}},
      // e vs max(0, e): equal for dims >= 0
      {"max(0,e)", "Add", {ts(FLOAT, {"e"}), ts(FLOAT, {"max(0,e)"})}, {}, 14, {ts(FLOAT, {"e"})}},
  };
  expect_shapes(cases);
}
TEST(Elementwise, BroadcastContractsAreRecordedOnce) {
  RunResult r = Op("Where").run({ts(BOOL, {"k"}), ts(FLOAT, {"k"}), ts(FLOAT, {3})});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {3})}));
  ASSERT_EQ(r.report.contracts.size(), 1u);
  EXPECT_EQ(r.report.contracts[0].relation(), "k == 3 or k == 1");
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
// Max/Min of values: the prover picks the side that always wins (h//2 is
// never below (h-1)//2), and an open comparison stays a max or min.
TEST(Elementwise, MaxAndMinOfValuesAskTheProver) {
  const In a = sym_value(ts(INT64, {2}), {"h//2", "h"});
  const In b = sym_value(ts(INT64, {2}), {"(h-1)//2", 4});
  RunResult mx = Op("Max").opset(13).run({a, b});
  ASSERT_TRUE(mx.values[0]);
  EXPECT_EQ(*mx.values[0], (std::vector<SymbolicDim>{SymbolicDim("h//2"), SymbolicDim("max(4,h)")}));
  RunResult mn = Op("Min").opset(13).run({a, b});
  ASSERT_TRUE(mn.values[0]);
  EXPECT_EQ(*mn.values[0], (std::vector<SymbolicDim>{SymbolicDim("(h-1)//2"), SymbolicDim("min(4,h)")}));
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

// And with a known false and Or with a known true decide without the other
// side (torch's floor division of possibly negative ints goes through them);
// Xor needs both.
TEST(Elementwise, LogicShortCircuits) {
  const Type b2 = ts(BOOL, {2});
  auto value = [](const RunResult& r) { return r.values[0] ? *r.values[0] : std::vector<SymbolicDim>{-1}; };
  RunResult a = Op("And").run({sym_value(b2, {0, 1}), b2});
  EXPECT_EQ(value(a), (std::vector<SymbolicDim>{0, SymbolicDim()}));
  RunResult o = Op("Or").run({b2, sym_value(b2, {1, 0})});
  EXPECT_EQ(value(o), (std::vector<SymbolicDim>{1, SymbolicDim()}));
  RunResult x = Op("Xor").run({sym_value(b2, {1, 0}), b2});
  EXPECT_EQ(value(x), (std::vector<SymbolicDim>{SymbolicDim(), SymbolicDim()}));
  RunResult both = Op("Xor").run({sym_value(b2, {1, 0}), sym_value(b2, {1, 1})});
  EXPECT_EQ(value(both), (std::vector<SymbolicDim>{0, 1}));
}
