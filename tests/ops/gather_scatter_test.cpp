#include "op_test_util.hpp"

// ---- Gather ----
TEST(Gather, Axis0) {
  EXPECT_EQ(Op("Gather").opset(13).infer({ts(FLOAT, {"V", 768}), ts(INT64, {"B", "T"})}),
            (Types{ts(FLOAT, {"B", "T", 768})}));
}
TEST(Gather, OtherAxisAndScalarIndex) {
  EXPECT_EQ(Op("Gather").opset(11).infer({ts(FLOAT, {"B", "T", 768}), ts(INT64, {})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"B", 768})}));
  EXPECT_EQ(Op("Gather").opset(1).infer({ts(FLOAT, {"B", "T", 768}), ts(INT64, {5})}, {attr("axis", -1)}),
            (Types{ts(FLOAT, {"B", "T", 5})}));
}
TEST(Gather, UnknownRank) { EXPECT_EQ(Op("Gather").opset(13).infer({ts(FLOAT), ts(INT64, {2})}), (Types{ts(FLOAT)})); }
TEST(Gather, PropagatesValues) {
  RunResult r =
      Op("Gather").opset(13).run({sym_value(ts(INT64, {3}), {"B", "T", 768}), constant(Tensor::vector({-1, 0}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{768, "B"}));
  RunResult s = Op("Gather").opset(13).run({sym_value(ts(INT64, {3}), {"B", "T", 768}), constant(Tensor::scalar(1))});
  EXPECT_EQ(s.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*s.values[0], (V{"T"}));
}
TEST(Gather, Errors) {
  EXPECT_ERROR(Op("Gather").run({ts(FLOAT, {2, 3}), ts(INT64, {1})}, {attr("axis", 2)}).report,
               "axis 2 is out of range");
  EXPECT_ERROR(Op("Gather").run({ts(FLOAT, {}), ts(INT64, {1})}).report, "data must have rank >= 1");
  EXPECT_ERROR(Op("Gather").run({sym_value(ts(INT64, {2}), {"a", "b"}), constant(Tensor::scalar(2))}).report,
               "index 2 is out of range");
  EXPECT_ERROR(Op("Gather").run({ts(FLOAT, {2})}).report, "missing required input 1");
}

// ---- GatherElements ----
TEST(GatherElements, ShapeOfIndices) {
  EXPECT_EQ(Op("GatherElements").opset(13).infer({ts(FLOAT, {"N", 5}), ts(INT64, {"N", 2})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(Op("GatherElements").opset(11).infer({ts(FLOAT), ts(INT64, {3, 2})}), (Types{ts(FLOAT, {3, 2})}));
}
TEST(GatherElements, RankMismatchIsError) {
  EXPECT_ERROR(Op("GatherElements").run({ts(FLOAT, {3, 5}), ts(INT64, {3})}).report,
               "indices [3] must have the rank of data [3,5]");
}

// ---- GatherND ----
TEST(GatherND, Basic) {
  EXPECT_EQ(Op("GatherND").opset(11).infer({ts(FLOAT, {2, 3, 4}), ts(INT64, {"K", 2})}), (Types{ts(FLOAT, {"K", 4})}));
}
TEST(GatherND, BatchDims) {
  EXPECT_EQ(Op("GatherND").opset(13).infer({ts(FLOAT, {"B", 3, 4}), ts(INT64, {"B", 5, 1})}, {attr("batch_dims", 1)}),
            (Types{ts(FLOAT, {"B", 5, 4})}));
}
TEST(GatherND, SymbolicLastIndexDimGivesUnknownRank) {
  EXPECT_EQ(Op("GatherND").opset(12).infer({ts(FLOAT, {2, 3}), ts(INT64, {4, "k"})}), (Types{ts(FLOAT)}));
}
TEST(GatherND, Errors) {
  EXPECT_ERROR(Op("GatherND").opset(13).run({ts(FLOAT, {2, 3}), ts(INT64, {4, 3})}).report,
               "last indices dim 3 must be in [1, rank(data) - batch_dims]");
  EXPECT_ERROR(Op("GatherND").opset(13).run({ts(FLOAT, {2, 3}), ts(INT64, {2, 1})}, {attr("batch_dims", 2)}).report,
               "batch_dims 2 must be in [0, min(rank(data), rank(indices)))");
}

// ---- Scatter family ----
TEST(Scatter, PassesDataThrough) {
  EXPECT_EQ(Op("ScatterElements").infer({ts(FLOAT, {"N", 4}), ts(INT64, {2, 4}), ts(FLOAT, {2, 4})}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("ScatterND").opset(16).infer({ts(FLOAT, {"N", 4}), ts(INT64, {2, 1}), ts(FLOAT, {2, 4})}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("Scatter").opset(9).infer({ts(FLOAT, {3, 3}), ts(INT64, {1, 2}), ts(FLOAT, {1, 2})}),
            (Types{ts(FLOAT, {3, 3})}));
}
TEST(Scatter, Errors) {
  EXPECT_ERROR(Op("ScatterElements").opset(13).run({ts(FLOAT, {3, 3}), ts(INT64, {2}), ts(FLOAT, {2})}).report,
               "data, indices and updates must have the same rank");
  EXPECT_ERROR(Op("ScatterND").opset(13).run({ts(FLOAT, {3, 3}), ts(INT64, {2, 1})}).report,
               "missing required input 2");
}

TEST(TensorScatter, PresentCacheIsPastCache) {
  EXPECT_EQ(Op("TensorScatter").opset(24).infer({ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {2, 3, 1, 5}), ts(INT64, {2})}),
            (Types{ts(FLOAT, {2, 3, 4, 5})}));
  EXPECT_EQ(
      Op("TensorScatter")
          .opset(24)
          .infer({ts(FLOAT, {"B", "max", 64}), ts(FLOAT, {"B", "S", 64})}, {attr("axis", 1), attr("mode", "circular")}),
      (Types{ts(FLOAT, {"B", "max", 64})}));
}
TEST(TensorScatter, MismatchOutsideAxisIsError) {
  EXPECT_ERROR(Op("TensorScatter").opset(24).run({ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {2, 2, 1, 5})}).report,
               "update [2,2,1,5] differs from past_cache [2,3,4,5] at dim 1");
}
TEST(TensorScatter, BadModeIsError) {
  EXPECT_ERROR(
      Op("TensorScatter").opset(24).run({ts(FLOAT, {2, 4, 5}), ts(FLOAT, {2, 1, 5})}, {attr("mode", "ring")}).report,
      "mode must be 'linear' or 'circular'");
}
