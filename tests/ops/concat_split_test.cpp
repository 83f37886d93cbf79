#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
}  // namespace

// ---- Concat ----
TEST(Concat, SumsAlongAxis) {
  EXPECT_EQ(run_shape_inference("", "Concat", {ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 64})},
                                {attr("axis", 2)}, 13),
            (Types{ts(FLOAT, {"B", "T", 128})}));
}
TEST(Concat, SymbolicSum) {
  EXPECT_EQ(run_shape_inference("", "Concat", {ts(FLOAT, {"B", "past", 64}), ts(FLOAT, {"B", "seq", 64})},
                                {attr("axis", -2)}, 11),
            (Types{ts(FLOAT, {"B", "past+seq", 64})}));
}
TEST(Concat, IntegerWinsForOtherDims) {
  EXPECT_EQ(run_shape_inference("", "Concat", {ts(FLOAT, {"n", 2}), ts(FLOAT, {3, 2})}, {attr("axis", 1)}, 4),
            (Types{ts(FLOAT, {3, 4})}));
}
TEST(Concat, DefaultAxisAtOpset1) {
  EXPECT_EQ(run_shape_inference("", "Concat", {ts(FLOAT, {2, 3}), ts(FLOAT, {2, 5})}, {}, 1), (Types{ts(FLOAT, {2, 8})}));
}
TEST(Concat, UnknownRankInputMakesAxisUnknown) {
  EXPECT_EQ(run_shape_inference("", "Concat", {ts(FLOAT, {2, 3}), ts(FLOAT)}, {attr("axis", 0)}, 13),
            (Types{ts(FLOAT, {"_d0", 3})}));
}
TEST(Concat, ConcatenatesValues) {
  RunResult r = run_node("", "Concat", {sym_value(ts(INT64, {1}), {"B"}), constant(Tensor::vector({-1, 64}))},
                         {attr("axis", 0)}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", -1, 64}));
}
TEST(Concat, Errors) {
  EXPECT_EQ(errors(run_node("", "Concat", {ts(FLOAT, {2, 3}), ts(FLOAT, {2})}, {attr("axis", 0)})), 1u);
  EXPECT_EQ(errors(run_node("", "Concat", {ts(FLOAT, {2, 3}), ts(FLOAT, {3, 3})}, {attr("axis", 1)})), 1u);
  EXPECT_EQ(errors(run_node("", "Concat", {ts(FLOAT, {2, 3})}, {attr("axis", 2)})), 1u);
  EXPECT_EQ(errors(run_node("", "Concat", {ts(FLOAT, {2, 3})}, {}, 13)), 1u);  // axis required
}

// ---- Split ----
TEST(Split, EqualSplitOfInteger) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"B", 6})}, {attr("axis", 1)}, 13, 3),
            (Types{ts(FLOAT, {"B", 2}), ts(FLOAT, {"B", 2}), ts(FLOAT, {"B", 2})}));
}
TEST(Split, AttributeBefore13) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {5, "B"})}, {attr("split", std::vector<int64_t>{2, 3})}, 11, 2),
            (Types{ts(FLOAT, {2, "B"}), ts(FLOAT, {3, "B"})}));
}
TEST(Split, InputAt13) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"B", 7}), constant(Tensor::vector({3, 4}))}, {attr("axis", -1)},
                                13, 2),
            (Types{ts(FLOAT, {"B", 3}), ts(FLOAT, {"B", 4})}));
}
TEST(Split, SymbolicSizes) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"a+b"}), sym_value(ts(INT64, {2}), {"a", "b"})}, {}, 13, 2),
            (Types{ts(FLOAT, {"a"}), ts(FLOAT, {"b"})}));
}
TEST(Split, EvenSymbolicSplitBefore18) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"2*H"})}, {}, 13, 2),
            (Types{ts(FLOAT, {"H"}), ts(FLOAT, {"H"})}));
}
TEST(Split, NumOutputsUnevenInteger) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {7})}, {attr("num_outputs", 3)}, 18, 3),
            (Types{ts(FLOAT, {3}), ts(FLOAT, {3}), ts(FLOAT, {1})}));
}
TEST(Split, NumOutputsSymbolicUsesCeil) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"n"})}, {attr("num_outputs", 3)}, 18, 3),
            (Types{ts(FLOAT, {"(n+2)//3"}), ts(FLOAT, {"(n+2)//3"}), ts(FLOAT, {"max(0,n-2*((n+2)//3))"})}));
}
TEST(Split, NumOutputsEvenSymbolic) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {"2*H"})}, {attr("num_outputs", 2)}, 18, 2),
            (Types{ts(FLOAT, {"H"}), ts(FLOAT, {"H"})}));
}
TEST(Split, UnknownSizesGiveUnknownAxis) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {4, 6}), ts(INT64, {2})}, {attr("axis", 1)}, 13, 2),
            (Types{ts(FLOAT, {4, "_d0"}), ts(FLOAT, {4, "_d1"})}));
}
// The split sizes are non-negative and sum to the axis dim (spec): with an
// empty axis every piece is empty, whatever the values.
TEST(Split, UnknownSizesOfAnEmptyAxis) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {0}), ts(INT64, {3})}, {}, 13, 3),
            (Types{ts(FLOAT, {0}), ts(FLOAT, {0}), ts(FLOAT, {0})}));
}
TEST(Split, UnknownSizeOfASingleOutputIsTheWholeAxis) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {4, "N"}), ts(INT64, {1})}, {attr("axis", 1)}, 13, 1),
            (Types{ts(FLOAT, {4, "N"})}));
}
TEST(Split, SplitsValues) {
  RunResult r = run_node("", "Split", {sym_value(ts(INT64, {3}), {"B", "T", 768})}, {attr("split", std::vector<int64_t>{2, 1})},
                         11, 2);
  ASSERT_TRUE(r.values[0] && r.values[1]);
  EXPECT_EQ(*r.values[0], (V{"B", "T"}));
  EXPECT_EQ(*r.values[1], (V{768}));
}
TEST(Split, Errors) {
  EXPECT_EQ(errors(run_node("", "Split", {ts(FLOAT, {7})}, {}, 13, 2)), 1u);  // uneven before 18
  EXPECT_EQ(errors(run_node("", "Split", {ts(FLOAT, {7}), constant(Tensor::vector({3, 3}))}, {}, 13, 2)), 1u);
  EXPECT_EQ(errors(run_node("", "Split", {ts(FLOAT, {6}), constant(Tensor::vector({3, 3}))}, {}, 13, 3)), 1u);
  EXPECT_EQ(errors(run_node("", "Split", {ts(FLOAT, {6})}, {attr("num_outputs", 2)}, 18, 3)), 1u);
  EXPECT_EQ(errors(run_node("", "Split", {ts(FLOAT, {6})}, {}, 18, 2)), 1u);  // neither split nor num_outputs
}
TEST(Split, Opset1SecondInputAndOpset2Attribute) {
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {6, "B"}), constant(Tensor::vector({1, 5}))}, {}, 1, 2),
            (Types{ts(FLOAT, {1, "B"}), ts(FLOAT, {5, "B"})}));
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT, {6, "B"})}, {attr("split", std::vector<int64_t>{4, 2})}, 2, 2),
            (Types{ts(FLOAT, {4, "B"}), ts(FLOAT, {2, "B"})}));
  EXPECT_EQ(run_shape_inference("", "Split", {ts(FLOAT)}, {}, 2, 2), (Types{ts(FLOAT), ts(FLOAT)}));
}
