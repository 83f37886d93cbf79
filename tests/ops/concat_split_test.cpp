#include "op_test_util.hpp"

// ---- Concat ----
TEST(Concat, SumsAlongAxis) {
  EXPECT_EQ(Op("Concat").opset(13).infer({ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 64})}, {attr("axis", 2)}),
            (Types{ts(FLOAT, {"B", "T", 128})}));
}
TEST(Concat, SymbolicSum) {
  EXPECT_EQ(
      Op("Concat").opset(11).infer({ts(FLOAT, {"B", "past", 64}), ts(FLOAT, {"B", "seq", 64})}, {attr("axis", -2)}),
      (Types{ts(FLOAT, {"B", "past+seq", 64})}));
}
TEST(Concat, IntegerWinsForOtherDims) {
  EXPECT_EQ(Op("Concat").opset(4).infer({ts(FLOAT, {"n", 2}), ts(FLOAT, {3, 2})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {3, 4})}));
}
TEST(Concat, DefaultAxisAtOpset1) {
  EXPECT_EQ(Op("Concat").opset(1).infer({ts(FLOAT, {2, 3}), ts(FLOAT, {2, 5})}), (Types{ts(FLOAT, {2, 8})}));
}
TEST(Concat, UnknownRankInputMakesAxisUnknown) {
  EXPECT_EQ(Op("Concat").opset(13).infer({ts(FLOAT, {2, 3}), ts(FLOAT)}, {attr("axis", 0)}),
            (Types{ts(FLOAT, {"_d0", 3})}));
}
TEST(Concat, ConcatenatesValues) {
  RunResult r = Op("Concat").opset(13).run({sym_value(ts(INT64, {1}), {"B"}), constant(Tensor::vector({-1, 64}))},
                                           {attr("axis", 0)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", -1, 64}));
}
TEST(Concat, Errors) {
  EXPECT_ERROR(Op("Concat").run({ts(FLOAT, {2, 3}), ts(FLOAT, {2})}, {attr("axis", 0)}).report,
               "all inputs must have the same rank");
  EXPECT_ERROR(Op("Concat").run({ts(FLOAT, {2, 3}), ts(FLOAT, {3, 3})}, {attr("axis", 1)}).report,
               "dim 0 differs between inputs: [2,3] vs [3,3]");
  EXPECT_ERROR(Op("Concat").run({ts(FLOAT, {2, 3})}, {attr("axis", 2)}).report, "axis 2 is out of range");
  EXPECT_ERROR(Op("Concat").opset(13).run({ts(FLOAT, {2, 3})}).report,
               "missing required attribute 'axis'");  // axis required
}

// ---- Split ----
TEST(Split, EqualSplitOfInteger) {
  EXPECT_EQ(Op("Split").opset(13).outputs(3).infer({ts(FLOAT, {"B", 6})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"B", 2}), ts(FLOAT, {"B", 2}), ts(FLOAT, {"B", 2})}));
}
TEST(Split, AttributeBefore13) {
  EXPECT_EQ(Op("Split").opset(11).outputs(2).infer({ts(FLOAT, {5, "B"})}, {attr("split", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {2, "B"}), ts(FLOAT, {3, "B"})}));
}
TEST(Split, InputAt13) {
  EXPECT_EQ(Op("Split").opset(13).outputs(2).infer({ts(FLOAT, {"B", 7}), constant(Tensor::vector({3, 4}))},
                                                   {attr("axis", -1)}),
            (Types{ts(FLOAT, {"B", 3}), ts(FLOAT, {"B", 4})}));
}
TEST(Split, SymbolicSizes) {
  EXPECT_EQ(Op("Split").opset(13).outputs(2).infer({ts(FLOAT, {"a+b"}), sym_value(ts(INT64, {2}), {"a", "b"})}),
            (Types{ts(FLOAT, {"a"}), ts(FLOAT, {"b"})}));
}
TEST(Split, EvenSymbolicSplitBefore18) {
  EXPECT_EQ(Op("Split").opset(13).outputs(2).infer({ts(FLOAT, {"2*H"})}), (Types{ts(FLOAT, {"H"}), ts(FLOAT, {"H"})}));
}
TEST(Split, NumOutputsUnevenInteger) {
  EXPECT_EQ(Op("Split").outputs(3).infer({ts(FLOAT, {7})}, {attr("num_outputs", 3)}),
            (Types{ts(FLOAT, {3}), ts(FLOAT, {3}), ts(FLOAT, {1})}));
}
TEST(Split, NumOutputsSymbolicUsesCeil) {
  EXPECT_EQ(Op("Split").outputs(3).infer({ts(FLOAT, {"n"})}, {attr("num_outputs", 3)}),
            (Types{ts(FLOAT, {"(n+2)//3"}), ts(FLOAT, {"(n+2)//3"}), ts(FLOAT, {"max(0,n-2*((n+2)//3))"})}));
}
TEST(Split, NumOutputsEvenSymbolic) {
  EXPECT_EQ(Op("Split").outputs(2).infer({ts(FLOAT, {"2*H"})}, {attr("num_outputs", 2)}),
            (Types{ts(FLOAT, {"H"}), ts(FLOAT, {"H"})}));
}
TEST(Split, UnknownSizesGiveUnknownAxis) {
  EXPECT_EQ(Op("Split").opset(13).outputs(2).infer({ts(FLOAT, {4, 6}), ts(INT64, {2})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {4, "_d0"}), ts(FLOAT, {4, "_d1"})}));
}
// The split sizes are non-negative and sum to the axis dim (spec): with an
// empty axis every piece is empty, whatever the values.
TEST(Split, UnknownSizesOfAnEmptyAxis) {
  EXPECT_EQ(Op("Split").opset(13).outputs(3).infer({ts(FLOAT, {0}), ts(INT64, {3})}),
            (Types{ts(FLOAT, {0}), ts(FLOAT, {0}), ts(FLOAT, {0})}));
}
TEST(Split, UnknownSizeOfASingleOutputIsTheWholeAxis) {
  EXPECT_EQ(Op("Split").opset(13).infer({ts(FLOAT, {4, "N"}), ts(INT64, {1})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {4, "N"})}));
}
TEST(Split, SplitsValues) {
  RunResult r = Op("Split").opset(11).outputs(2).run({sym_value(ts(INT64, {3}), {"B", "T", 768})},
                                                     {attr("split", std::vector<int64_t>{2, 1})});
  ASSERT_TRUE(r.values[0] && r.values[1]);
  EXPECT_EQ(*r.values[0], (V{"B", "T"}));
  EXPECT_EQ(*r.values[1], (V{768}));
}
TEST(Split, Errors) {
  EXPECT_ERROR(Op("Split").opset(13).outputs(2).run({ts(FLOAT, {7})}).report,
               "dim 7 cannot be split evenly into 2 outputs");  // uneven before 18
  EXPECT_ERROR(Op("Split").opset(13).outputs(2).run({ts(FLOAT, {7}), constant(Tensor::vector({3, 3}))}).report,
               "split sizes sum to 6 but the axis dim is 7");
  EXPECT_ERROR(Op("Split").opset(13).outputs(3).run({ts(FLOAT, {6}), constant(Tensor::vector({3, 3}))}).report,
               "split has 2 entries for 3 outputs");
  EXPECT_ERROR(Op("Split").outputs(3).run({ts(FLOAT, {6})}, {attr("num_outputs", 2)}).report,
               "num_outputs is 2 but the node has 3 outputs");
  EXPECT_ERROR(Op("Split").outputs(2).run({ts(FLOAT, {6})}).report,
               "either the split input or the num_outputs attribute is required");  // neither split nor num_outputs
}
TEST(Split, Opset1SecondInputAndOpset2Attribute) {
  EXPECT_EQ(Op("Split").opset(1).outputs(2).infer({ts(FLOAT, {6, "B"}), constant(Tensor::vector({1, 5}))}),
            (Types{ts(FLOAT, {1, "B"}), ts(FLOAT, {5, "B"})}));
  EXPECT_EQ(Op("Split").opset(2).outputs(2).infer({ts(FLOAT, {6, "B"})}, {attr("split", std::vector<int64_t>{4, 2})}),
            (Types{ts(FLOAT, {4, "B"}), ts(FLOAT, {2, "B"})}));
  EXPECT_EQ(Op("Split").opset(2).outputs(2).infer({ts(FLOAT)}), (Types{ts(FLOAT), ts(FLOAT)}));
}
