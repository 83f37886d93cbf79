#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
}  // namespace

// ---- Shape ----
TEST(Shape, GivesRankAndValues) {
  RunResult r = run_node("", "Shape", {ts(FLOAT, {"B", "T", 768})}, {}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", "T", 768}));
}
TEST(Shape, StartEndAtOpset15) {
  RunResult r = run_node("", "Shape", {ts(FLOAT, {"B", "T", 768})}, {attr("start", 1), attr("end", -1)}, 15);
  EXPECT_EQ(r.outputs[0], ts(INT64, {1}));
  EXPECT_EQ(*r.values[0], (V{"T"}));
}
TEST(Shape, StartEndClampedAtOpset15) {
  RunResult r = run_node("", "Shape", {ts(FLOAT, {"B", "T", 768})}, {attr("start", -10), attr("end", 100)}, 21);
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
}
TEST(Shape, StartIgnoredBeforeOpset15) {
  EXPECT_EQ(run_shape_inference("", "Shape", {ts(FLOAT, {2, 3})}, {attr("start", 1)}, 13), (Types{ts(INT64, {2})}));
}
TEST(Shape, UnknownRank) {
  EXPECT_EQ(run_shape_inference("", "Shape", {ts(FLOAT)}), (Types{ts(INT64, {"_d0"})}));
}
TEST(Shape, MissingInputIsUsageError) { EXPECT_EQ(errors(run_node("", "Shape", {})), 1u); }

// ---- Size ----
TEST(Size, ScalarWithProductValue) {
  RunResult r = run_node("", "Size", {ts(FLOAT, {"B", 3, 4})}, {}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"12*B"}));
}
TEST(Size, UnknownRankHasNoValue) {
  RunResult r = run_node("", "Size", {ts(FLOAT)}, {}, 1);
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  EXPECT_FALSE(r.values[0]);
}
TEST(Size, MissingInputIsUsageError) { EXPECT_EQ(errors(run_node("", "Size", {}, {}, 19)), 1u); }

// ---- Flatten ----
TEST(Flatten, DefaultAxis) {
  EXPECT_EQ(run_shape_inference("", "Flatten", {ts(FLOAT, {"N", 3, 4, 5})}, {}, 13), (Types{ts(FLOAT, {"N", 60})}));
}
TEST(Flatten, AxisZeroAndNegative) {
  EXPECT_EQ(run_shape_inference("", "Flatten", {ts(FLOAT, {"N", "C", 4})}, {attr("axis", 0)}, 9),
            (Types{ts(FLOAT, {1, "4*C*N"})}));
  EXPECT_EQ(run_shape_inference("", "Flatten", {ts(FLOAT, {"N", "C", 4})}, {attr("axis", -1)}, 11),
            (Types{ts(FLOAT, {"C*N", 4})}));
  EXPECT_EQ(run_shape_inference("", "Flatten", {ts(FLOAT, {"N", "C", 4})}, {attr("axis", 3)}, 21),
            (Types{ts(FLOAT, {"4*C*N", 1})}));
}
TEST(Flatten, UnknownRankIsRank2) {
  EXPECT_EQ(run_shape_inference("", "Flatten", {ts(FLOAT)}), (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Flatten, AxisOutOfRangeIsError) {
  EXPECT_EQ(errors(run_node("", "Flatten", {ts(FLOAT, {2, 3})}, {attr("axis", 3)})), 1u);
}

// ---- Squeeze ----
TEST(Squeeze, AxesAttributeBefore13) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, "T", 1})}, {attr("axes", std::vector<int64_t>{0})}, 11),
            (Types{ts(FLOAT, {"T", 1})}));
}
TEST(Squeeze, AxesInputFrom13) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, "T", 1}), constant(Tensor::vector({-1}))}, {}, 13),
            (Types{ts(FLOAT, {1, "T"})}));
}
TEST(Squeeze, NoAxesDropsOnes) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, "T", 1, 5})}, {}, 21), (Types{ts(FLOAT, {"T", 5})}));
}
TEST(Squeeze, UnknownAxesValueKnownLength) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, "T", 1}), ts(INT64, {2})}, {}, 13),
            (Types{ts(FLOAT, {"_d0"})}));
}
// Squeezing a dim that is not 1 is an error (spec), so one axis of unknown
// value on [1,3,4,5] can only be axis 0.
TEST(Squeeze, UnknownAxesWithOneCandidate) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, 3, 4, 5}), ts(INT64, {1})}, {}, 13),
            (Types{ts(FLOAT, {3, 4, 5})}));
}
// [1,3,1,5] with one axis gives [3,1,5] or [1,3,5]: the last dim is 5 either way.
TEST(Squeeze, UnknownAxesKeepDimsCommonToEveryChoice) {
  EXPECT_EQ(run_shape_inference("", "Squeeze", {ts(FLOAT, {1, 3, 1, 5}), ts(INT64, {1})}, {}, 13),
            (Types{ts(FLOAT, {"_d0", "_d1", 5})}));
}
TEST(Squeeze, NonOneAxisIsError) {
  EXPECT_EQ(errors(run_node("", "Squeeze", {ts(FLOAT, {3, 4}), constant(Tensor::vector({0}))}, {}, 13)), 1u);
}
TEST(Squeeze, PropagatesValueOfOneElement) {
  RunResult r = run_node("", "Squeeze", {sym_value(ts(INT64, {1}), {"B"}), constant(Tensor::vector({0}))}, {}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*r.values[0], (V{"B"}));
}

// ---- Unsqueeze ----
TEST(Unsqueeze, AxesAttributeBefore13) {
  EXPECT_EQ(run_shape_inference("", "Unsqueeze", {ts(FLOAT, {"B", "T"})}, {attr("axes", std::vector<int64_t>{0, 3})}, 1),
            (Types{ts(FLOAT, {1, "B", "T", 1})}));
}
TEST(Unsqueeze, NegativeAxesInput) {
  EXPECT_EQ(run_shape_inference("", "Unsqueeze", {ts(FLOAT, {"B", "T"}), constant(Tensor::vector({-1, 1}))}, {}, 13),
            (Types{ts(FLOAT, {"B", 1, "T", 1})}));
}
// Inserting 1s anywhere into [1,1] gives [1,1,1]; into [3,4] with one axis,
// no position is fixed.
TEST(Unsqueeze, UnknownAxesKeepDimsCommonToEveryChoice) {
  EXPECT_EQ(run_shape_inference("", "Unsqueeze", {ts(FLOAT, {1, 1}), ts(INT64, {1})}, {}, 13),
            (Types{ts(FLOAT, {1, 1, 1})}));
  EXPECT_EQ(run_shape_inference("", "Unsqueeze", {ts(FLOAT, {3, 4}), ts(INT64, {1})}, {}, 13),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2"})}));
}
TEST(Unsqueeze, ScalarKeepsItsValue) {
  RunResult r = run_node("", "Unsqueeze", {sym_value(ts(INT64, {}), {"T"}), constant(Tensor::vector({0}))}, {}, 23);
  EXPECT_EQ(r.outputs[0], ts(INT64, {1}));
  EXPECT_EQ(*r.values[0], (V{"T"}));
}
TEST(Unsqueeze, RepeatedAxisIsError) {
  EXPECT_EQ(errors(run_node("", "Unsqueeze", {ts(FLOAT, {2}), constant(Tensor::vector({0, 0}))}, {}, 13)), 1u);
}
TEST(Unsqueeze, MissingAxesIsUsageError) {
  EXPECT_EQ(errors(run_node("", "Unsqueeze", {ts(FLOAT, {2})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "Unsqueeze", {ts(FLOAT, {2})}, {}, 11)), 1u);
}

// ---- Transpose ----
TEST(Transpose, DefaultReverses) {
  EXPECT_EQ(run_shape_inference("", "Transpose", {ts(FLOAT, {"B", "T", 8})}, {}, 13), (Types{ts(FLOAT, {8, "T", "B"})}));
}
TEST(Transpose, Perm) {
  EXPECT_EQ(run_shape_inference("", "Transpose", {ts(FLOAT, {"B", "T", 12, 64})},
                                {attr("perm", std::vector<int64_t>{0, 2, 1, 3})}, 21),
            (Types{ts(FLOAT, {"B", 12, "T", 64})}));
}
TEST(Transpose, UnknownRankWithPerm) {
  EXPECT_EQ(run_shape_inference("", "Transpose", {ts(FLOAT)}, {attr("perm", std::vector<int64_t>{1, 0})}, 1),
            (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Transpose, BadPermIsError) {
  EXPECT_EQ(errors(run_node("", "Transpose", {ts(FLOAT, {2, 3})}, {attr("perm", std::vector<int64_t>{0, 0})})), 1u);
  EXPECT_EQ(errors(run_node("", "Transpose", {ts(FLOAT, {2, 3})}, {attr("perm", std::vector<int64_t>{0})})), 1u);
}
