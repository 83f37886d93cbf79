#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
}  // namespace

// ---- Gather ----
TEST(Gather, Axis0) {
  EXPECT_EQ(run_shape_inference("", "Gather", {ts(FLOAT, {"V", 768}), ts(INT64, {"B", "T"})}, {}, 13),
            (Types{ts(FLOAT, {"B", "T", 768})}));
}
TEST(Gather, OtherAxisAndScalarIndex) {
  EXPECT_EQ(run_shape_inference("", "Gather", {ts(FLOAT, {"B", "T", 768}), ts(INT64, {})}, {attr("axis", 1)}, 11),
            (Types{ts(FLOAT, {"B", 768})}));
  EXPECT_EQ(run_shape_inference("", "Gather", {ts(FLOAT, {"B", "T", 768}), ts(INT64, {5})}, {attr("axis", -1)}, 1),
            (Types{ts(FLOAT, {"B", "T", 5})}));
}
TEST(Gather, UnknownRank) {
  EXPECT_EQ(run_shape_inference("", "Gather", {ts(FLOAT), ts(INT64, {2})}, {}, 13), (Types{ts(FLOAT)}));
}
TEST(Gather, PropagatesValues) {
  RunResult r = run_node("", "Gather", {sym_value(ts(INT64, {3}), {"B", "T", 768}), constant(Tensor::vector({-1, 0}))},
                         {}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{768, "B"}));
  RunResult s = run_node("", "Gather", {sym_value(ts(INT64, {3}), {"B", "T", 768}), constant(Tensor::scalar(1))}, {}, 13);
  EXPECT_EQ(s.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*s.values[0], (V{"T"}));
}
TEST(Gather, Errors) {
  EXPECT_EQ(errors(run_node("", "Gather", {ts(FLOAT, {2, 3}), ts(INT64, {1})}, {attr("axis", 2)})), 1u);
  EXPECT_EQ(errors(run_node("", "Gather", {ts(FLOAT, {}), ts(INT64, {1})})), 1u);
  EXPECT_EQ(errors(run_node("", "Gather", {sym_value(ts(INT64, {2}), {"a", "b"}), constant(Tensor::scalar(2))})), 1u);
  EXPECT_EQ(errors(run_node("", "Gather", {ts(FLOAT, {2})})), 1u);
}

// ---- GatherElements ----
TEST(GatherElements, ShapeOfIndices) {
  EXPECT_EQ(run_shape_inference("", "GatherElements", {ts(FLOAT, {"N", 5}), ts(INT64, {"N", 2})}, {attr("axis", 1)}, 13),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(run_shape_inference("", "GatherElements", {ts(FLOAT), ts(INT64, {3, 2})}, {}, 11), (Types{ts(FLOAT, {3, 2})}));
}
TEST(GatherElements, RankMismatchIsError) {
  EXPECT_EQ(errors(run_node("", "GatherElements", {ts(FLOAT, {3, 5}), ts(INT64, {3})})), 1u);
}

// ---- GatherND ----
TEST(GatherND, Basic) {
  EXPECT_EQ(run_shape_inference("", "GatherND", {ts(FLOAT, {2, 3, 4}), ts(INT64, {"K", 2})}, {}, 11),
            (Types{ts(FLOAT, {"K", 4})}));
}
TEST(GatherND, BatchDims) {
  EXPECT_EQ(run_shape_inference("", "GatherND", {ts(FLOAT, {"B", 3, 4}), ts(INT64, {"B", 5, 1})}, {attr("batch_dims", 1)},
                                13),
            (Types{ts(FLOAT, {"B", 5, 4})}));
}
TEST(GatherND, SymbolicLastIndexDimGivesUnknownRank) {
  EXPECT_EQ(run_shape_inference("", "GatherND", {ts(FLOAT, {2, 3}), ts(INT64, {4, "k"})}, {}, 12), (Types{ts(FLOAT)}));
}
TEST(GatherND, Errors) {
  EXPECT_EQ(errors(run_node("", "GatherND", {ts(FLOAT, {2, 3}), ts(INT64, {4, 3})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "GatherND", {ts(FLOAT, {2, 3}), ts(INT64, {2, 1})}, {attr("batch_dims", 2)}, 13)), 1u);
}

// ---- Scatter family ----
TEST(Scatter, PassesDataThrough) {
  EXPECT_EQ(run_shape_inference("", "ScatterElements", {ts(FLOAT, {"N", 4}), ts(INT64, {2, 4}), ts(FLOAT, {2, 4})}, {}, 18),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "ScatterND", {ts(FLOAT, {"N", 4}), ts(INT64, {2, 1}), ts(FLOAT, {2, 4})}, {}, 16),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "Scatter", {ts(FLOAT, {3, 3}), ts(INT64, {1, 2}), ts(FLOAT, {1, 2})}, {}, 9),
            (Types{ts(FLOAT, {3, 3})}));
}
TEST(Scatter, Errors) {
  EXPECT_EQ(errors(run_node("", "ScatterElements", {ts(FLOAT, {3, 3}), ts(INT64, {2}), ts(FLOAT, {2})}, {}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "ScatterND", {ts(FLOAT, {3, 3}), ts(INT64, {2, 1})}, {}, 13)), 1u);
}
