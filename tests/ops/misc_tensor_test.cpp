#include "op_test_util.hpp"

// ---- Where ----
TEST(Where, ThreeWayBroadcast) {
  EXPECT_EQ(Op("Where").opset(16).infer({ts(BOOL, {"B", 1, "T"}), ts(FLOAT, {12, 1}), ts(FLOAT, {})}),
            (Types{ts(FLOAT, {"B", 12, "T"})}));
  EXPECT_EQ(Op("Where").opset(9).infer({ts(BOOL), ts(FLOAT, {3}), ts(FLOAT, {3})}), (Types{ts(FLOAT)}));
}
TEST(Where, PropagatesValues) {
  RunResult r = Op("Where").opset(16).run(
      {constant(Tensor::ints({1, 0}, {2}, DataType::BOOL)), sym_value(ts(INT64, {2}), {"B", "T"}), vec({7})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", 7}));
}
TEST(Where, IncompatibleIsError) {
  EXPECT_ERROR(Op("Where").opset(16).run({ts(BOOL, {2}), ts(FLOAT, {3}), ts(FLOAT, {3})}).report,
               "cannot broadcast [2] with [3]");
}

// ---- NonZero ----
TEST(NonZero, RankByUnknown) {
  EXPECT_EQ(Op("NonZero").opset(13).infer({ts(FLOAT, {"B", 3})}), (Types{ts(INT64, {2, "_d0"})}));
  EXPECT_EQ(Op("NonZero").opset(9).infer({ts(FLOAT)}), (Types{ts(INT64, {"_d0", "_d1"})}));
}
TEST(NonZero, MissingInputIsUsageError) {
  EXPECT_ERROR(Op("NonZero").opset(13).run({}).report, "missing required input 0");
}

// ---- OneHot ----
TEST(OneHot, DepthFromConstant) {
  EXPECT_EQ(Op("OneHot").opset(11).infer({ts(INT64, {"B", "T"}), constant(Tensor::scalar(10)), ts(FLOAT, {2})}),
            (Types{ts(FLOAT, {"B", "T", 10})}));
  EXPECT_EQ(Op("OneHot").opset(9).infer({ts(INT64, {"B"}), constant(Tensor::floats({5}, {})), ts(INT32, {2})},
                                        {attr("axis", 0)}),
            (Types{ts(INT32, {5, "B"})}));
}
TEST(OneHot, UnknownDepth) {
  EXPECT_EQ(Op("OneHot").opset(11).infer({ts(INT64, {3}), ts(INT64, {}), ts(FLOAT, {2})}),
            (Types{ts(FLOAT, {3, "_d0"})}));
}
TEST(OneHot, Errors) {
  EXPECT_ERROR(Op("OneHot").opset(11).run({ts(INT64, {3}), constant(Tensor::scalar(4)), ts(FLOAT, {3})}).report,
               "values must be a 2-element 1-D tensor");
  EXPECT_ERROR(Op("OneHot")
                   .opset(11)
                   .run({ts(INT64, {3}), constant(Tensor::scalar(4)), ts(FLOAT, {2})}, {attr("axis", 2)})
                   .report,
               "axis 2 is out of range");
}

// ---- TopK ----
TEST(TopK, AttributeKAtOpset1) {
  EXPECT_EQ(Op("TopK").opset(1).outputs(2).infer({ts(FLOAT, {"B", 100})}, {attr("k", 5)}),
            (Types{ts(FLOAT, {"B", 5}), ts(INT64, {"B", 5})}));
}
TEST(TopK, InputKAndAxis) {
  EXPECT_EQ(Op("TopK").opset(10).outputs(2).infer({ts(FLOAT, {"B", 100}), vec({3})}, {attr("axis", 0)}),
            (Types{ts(FLOAT, {3, 100}), ts(INT64, {3, 100})}));
  EXPECT_EQ(Op("TopK").opset(11).outputs(2).infer({ts(FLOAT, {"B", "V"}), sym_value(ts(INT64, {1}), {"K"})}),
            (Types{ts(FLOAT, {"B", "K"}), ts(INT64, {"B", "K"})}));
}
TEST(TopK, UnknownK) {
  EXPECT_EQ(Op("TopK").opset(11).outputs(2).infer({ts(FLOAT, {4, 8}), ts(INT64, {1})}),
            (Types{ts(FLOAT, {4, "_d0"}), ts(INT64, {4, "_d0"})}));  // values and indices: one length
}
TEST(TopK, Errors) {
  EXPECT_ERROR(Op("TopK").opset(11).outputs(2).run({ts(FLOAT, {4, 8}), vec({9})}).report, "k = 9 is out of range");
  EXPECT_ERROR(Op("TopK").opset(1).outputs(2).run({ts(FLOAT, {4, 8})}).report, "missing required attribute 'k'");
}

// ---- Trilu, CumSum, ReverseSequence ----
TEST(Passthrough, TriluCumSumReverseSequence) {
  EXPECT_EQ(Op("Trilu").opset(14).infer({ts(FLOAT, {"B", "T", "T"}), constant(Tensor::scalar(1))}),
            (Types{ts(FLOAT, {"B", "T", "T"})}));
  EXPECT_EQ(Op("CumSum").opset(14).infer({ts(INT32, {"N", 4}), constant(Tensor::scalar(1))}),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_EQ(Op("ReverseSequence").opset(10).infer({ts(FLOAT, {"T", "B", 8}), ts(INT64, {"B"})}),
            (Types{ts(FLOAT, {"T", "B", 8})}));
}
TEST(Passthrough, Errors) {
  EXPECT_ERROR(Op("Trilu").opset(14).run({ts(FLOAT, {3})}).report, "input must have rank >= 2, got [3]");
  EXPECT_ERROR(Op("CumSum").opset(11).run({ts(FLOAT, {3}), constant(Tensor::scalar(1))}).report,
               "axis 1 is out of range");
  EXPECT_ERROR(Op("ReverseSequence").opset(10).run({ts(FLOAT, {3, 2}), ts(INT64, {2})}, {attr("batch_axis", 0)}).report,
               "batch_axis and time_axis must be 0 and 1 in some order");
}

// ---- DepthToSpace / SpaceToDepth ----
TEST(DepthToSpace, Dims) {
  EXPECT_EQ(Op("DepthToSpace").opset(13).infer({ts(FLOAT, {"N", 16, "H", "W"})}, {attr("blocksize", 2)}),
            (Types{ts(FLOAT, {"N", 4, "2*H", "2*W"})}));
  EXPECT_EQ(Op("SpaceToDepth").opset(1).infer({ts(FLOAT, {"N", 3, "2*H", 8})}, {attr("blocksize", 2)}),
            (Types{ts(FLOAT, {"N", 12, "H", 4})}));
}
TEST(DepthToSpace, Errors) {
  EXPECT_ERROR(Op("DepthToSpace").opset(11).run({ts(FLOAT, {1, 6, 2, 2})}, {attr("blocksize", 2)}).report,
               "channels 6 are not divisible by blocksize^2 = 4");
  EXPECT_ERROR(Op("SpaceToDepth").opset(13).run({ts(FLOAT, {1, 6, 2})}, {attr("blocksize", 2)}).report,
               "input must be 4-D, got [1,6,2]");
  EXPECT_ERROR(Op("DepthToSpace").opset(13).run({ts(FLOAT, {1, 8, 2, 2})}).report,
               "missing required attribute 'blocksize'");
}

// ---- Compress ----
TEST(Compress, KnownCondition) {
  EXPECT_EQ(
      Op("Compress")
          .opset(11)
          .infer({ts(FLOAT, {"B", 3}), constant(Tensor::ints({1, 0, 1}, {3}, DataType::BOOL))}, {attr("axis", 1)}),
      (Types{ts(FLOAT, {"B", 2})}));
}
TEST(Compress, UnknownConditionFlattened) {
  EXPECT_EQ(Op("Compress").opset(9).infer({ts(FLOAT, {"B", 3}), ts(BOOL, {"n"})}), (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Compress, Errors) {
  EXPECT_ERROR(Op("Compress").opset(11).run({ts(FLOAT, {2, 3}), ts(BOOL, {2, 2})}).report,
               "condition must be 1-D, got [2,2]");
  EXPECT_ERROR(Op("Compress").opset(11).run({ts(FLOAT, {2, 3}), ts(BOOL, {2})}, {attr("axis", 2)}).report,
               "axis 2 is out of range");
}

// ---- Unique ----
TEST(Unique, FlattenedSharesCount) {
  EXPECT_EQ(Op("Unique").opset(11).outputs(4).infer({ts(FLOAT, {"B", 3})}),
            (Types{ts(FLOAT, {"_d0"}), ts(INT64, {"_d0"}), ts(INT64, {"3*B"}), ts(INT64, {"_d0"})}));
}
TEST(Unique, WithAxis) {
  EXPECT_EQ(Op("Unique").opset(11).outputs(4).infer({ts(FLOAT, {"B", 3})}, {attr("axis", 0)}),
            (Types{ts(FLOAT, {"_d0", 3}), ts(INT64, {"_d0"}), ts(INT64, {"B"}), ts(INT64, {"_d0"})}));
}
TEST(Unique, AxisOutOfRangeIsError) {
  EXPECT_ERROR(Op("Unique").opset(11).outputs(4).run({ts(FLOAT, {3})}, {attr("axis", 1)}).report,
               "axis 1 is out of range");
}
TEST(TopK, KMustHaveOneElement) {
  EXPECT_ERROR(Op("TopK").opset(11).outputs(2).run({ts(FLOAT, {4, 8}), vec({1, 2})}).report,
               "K must be a 1-element 1-D tensor, got [2]");
}
