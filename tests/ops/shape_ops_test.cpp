#include "op_test_util.hpp"
#include "symshape/ops/common/tensor_values.hpp"

// ---- Shape ----
TEST(Shape, GivesRankAndValues) {
  RunResult r = Op("Shape").opset(13).run({ts(FLOAT, {"B", "T", 768})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", "T", 768}));
}
TEST(Shape, StartEndAtOpset15) {
  RunResult r = Op("Shape").opset(15).run({ts(FLOAT, {"B", "T", 768})}, {attr("start", 1), attr("end", -1)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {1}));
  EXPECT_EQ(*r.values[0], (V{"T"}));
}
TEST(Shape, StartEndClampedAtOpset15) {
  RunResult r = Op("Shape").opset(21).run({ts(FLOAT, {"B", "T", 768})}, {attr("start", -10), attr("end", 100)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {3}));
}
TEST(Shape, StartIsUnknownBeforeOpset15) {
  RunResult r = Op("Shape").opset(13).run({ts(FLOAT, {2, 3})}, {attr("start", 1)});
  EXPECT_ERROR(r.report, "unknown attribute 'start' for Shape-13");
  EXPECT_EQ(Op("Shape").opset(13).infer({ts(FLOAT, {2, 3})}), (Types{ts(INT64, {2})}));
}
TEST(Shape, UnknownRank) { EXPECT_EQ(Op("Shape").infer({ts(FLOAT)}), (Types{ts(INT64, {"_d0"})})); }
TEST(Shape, MissingInputIsUsageError) { EXPECT_ERROR(Op("Shape").run({}).report, "missing required input 0"); }

// ---- Size ----
TEST(Size, ScalarWithProductValue) {
  RunResult r = Op("Size").opset(13).run({ts(FLOAT, {"B", 3, 4})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"12*B"}));
}
TEST(Size, UnknownRankHasNoValue) {
  RunResult r = Op("Size").opset(1).run({ts(FLOAT)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  EXPECT_FALSE(r.values[0]);
}
TEST(Size, MissingInputIsUsageError) { EXPECT_ERROR(Op("Size").opset(19).run({}).report, "missing required input 0"); }

// ---- Flatten ----
TEST(Flatten, DefaultAxis) {
  EXPECT_EQ(Op("Flatten").opset(13).infer({ts(FLOAT, {"N", 3, 4, 5})}), (Types{ts(FLOAT, {"N", 60})}));
}
TEST(Flatten, AxisZeroAndNegative) {
  EXPECT_EQ(Op("Flatten").opset(9).infer({ts(FLOAT, {"N", "C", 4})}, {attr("axis", 0)}),
            (Types{ts(FLOAT, {1, "4*C*N"})}));
  EXPECT_EQ(Op("Flatten").opset(11).infer({ts(FLOAT, {"N", "C", 4})}, {attr("axis", -1)}),
            (Types{ts(FLOAT, {"C*N", 4})}));
  EXPECT_EQ(Op("Flatten").opset(21).infer({ts(FLOAT, {"N", "C", 4})}, {attr("axis", 3)}),
            (Types{ts(FLOAT, {"4*C*N", 1})}));
}
TEST(Flatten, UnknownRankIsRank2) { EXPECT_EQ(Op("Flatten").infer({ts(FLOAT)}), (Types{ts(FLOAT, {"_d0", "_d1"})})); }
TEST(Flatten, AxisOutOfRangeIsError) {
  EXPECT_ERROR(Op("Flatten").run({ts(FLOAT, {2, 3})}, {attr("axis", 3)}).report, "axis 3 is out of range");
}

// ---- Squeeze ----
TEST(Squeeze, AxesAttributeBefore13) {
  EXPECT_EQ(Op("Squeeze").opset(11).infer({ts(FLOAT, {1, "T", 1})}, {attr("axes", std::vector<int64_t>{0})}),
            (Types{ts(FLOAT, {"T", 1})}));
}
TEST(Squeeze, AxesInputFrom13) {
  EXPECT_EQ(Op("Squeeze").opset(13).infer({ts(FLOAT, {1, "T", 1}), constant(Tensor::vector({-1}))}),
            (Types{ts(FLOAT, {1, "T"})}));
}
TEST(Squeeze, NoAxesDropsOnes) {
  EXPECT_EQ(Op("Squeeze").opset(21).infer({ts(FLOAT, {1, "T", 1, 5})}), (Types{ts(FLOAT, {"T", 5})}));
}
TEST(Squeeze, UnknownAxesValueKnownLength) {
  EXPECT_EQ(Op("Squeeze").opset(13).infer({ts(FLOAT, {1, "T", 1}), ts(INT64, {2})}), (Types{ts(FLOAT, {"_d0"})}));
}
// Squeezing a dim that is not 1 is an error (spec), so one axis of unknown
// value on [1,3,4,5] can only be axis 0.
TEST(Squeeze, UnknownAxesWithOneCandidate) {
  EXPECT_EQ(Op("Squeeze").opset(13).infer({ts(FLOAT, {1, 3, 4, 5}), ts(INT64, {1})}), (Types{ts(FLOAT, {3, 4, 5})}));
}
// [1,3,1,5] with one axis gives [3,1,5] or [1,3,5]: the last dim is 5 either way.
TEST(Squeeze, UnknownAxesKeepDimsCommonToEveryChoice) {
  EXPECT_EQ(Op("Squeeze").opset(13).infer({ts(FLOAT, {1, 3, 1, 5}), ts(INT64, {1})}),
            (Types{ts(FLOAT, {"_d0", "_d1", 5})}));
}
TEST(Squeeze, NonOneAxisIsError) {
  EXPECT_ERROR(Op("Squeeze").opset(13).run({ts(FLOAT, {3, 4}), constant(Tensor::vector({0}))}).report,
               "cannot squeeze axis 0 of size 3 in [3,4]");
}
TEST(Squeeze, PropagatesValueOfOneElement) {
  RunResult r = Op("Squeeze").opset(13).run({sym_value(ts(INT64, {1}), {"B"}), constant(Tensor::vector({0}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  EXPECT_EQ(*r.values[0], (V{"B"}));
}

// ---- Unsqueeze ----
TEST(Unsqueeze, AxesAttributeBefore13) {
  EXPECT_EQ(Op("Unsqueeze").opset(1).infer({ts(FLOAT, {"B", "T"})}, {attr("axes", std::vector<int64_t>{0, 3})}),
            (Types{ts(FLOAT, {1, "B", "T", 1})}));
}
TEST(Unsqueeze, NegativeAxesInput) {
  EXPECT_EQ(Op("Unsqueeze").opset(13).infer({ts(FLOAT, {"B", "T"}), constant(Tensor::vector({-1, 1}))}),
            (Types{ts(FLOAT, {"B", 1, "T", 1})}));
}
// Inserting 1s anywhere into [1,1] gives [1,1,1]; into [3,4] with one axis,
// no position is fixed.
TEST(Unsqueeze, UnknownAxesKeepDimsCommonToEveryChoice) {
  EXPECT_EQ(Op("Unsqueeze").opset(13).infer({ts(FLOAT, {1, 1}), ts(INT64, {1})}), (Types{ts(FLOAT, {1, 1, 1})}));
  EXPECT_EQ(Op("Unsqueeze").opset(13).infer({ts(FLOAT, {3, 4}), ts(INT64, {1})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2"})}));
}
// Found by tests/fuzz/fuzz_engine: an axes input declared with 2^30 elements
// (values unknown) made the rule allocate that many dims. A negative declared
// length gives an unknown rank too.
TEST(Unsqueeze, AxesInputTooLongGivesUnknownRank) {
  using symshape::ops::kMaxRankFromLength;
  for (const int64_t length : {INT64_MAX, int64_t{1} << 30, kMaxRankFromLength - 1, int64_t{-1}})
    EXPECT_EQ(Op("Unsqueeze").opset(13).infer({ts(FLOAT, {"B", 4}), ts(INT64, {length})}), (Types{ts(FLOAT)}))
        << length;
  const Types at_limit = Op("Unsqueeze").opset(13).infer({ts(FLOAT, {"B", 4}), ts(INT64, {kMaxRankFromLength - 2})});
  ASSERT_EQ(at_limit.size(), 1u);
  EXPECT_EQ(at_limit[0].shape().rank(), kMaxRankFromLength);
}
TEST(Unsqueeze, ScalarKeepsItsValue) {
  RunResult r = Op("Unsqueeze").opset(23).run({sym_value(ts(INT64, {}), {"T"}), constant(Tensor::vector({0}))});
  EXPECT_EQ(r.outputs[0], ts(INT64, {1}));
  EXPECT_EQ(*r.values[0], (V{"T"}));
}
TEST(Unsqueeze, RepeatedAxisIsError) {
  EXPECT_ERROR(Op("Unsqueeze").opset(13).run({ts(FLOAT, {2}), constant(Tensor::vector({0, 0}))}).report,
               "axes contain a repeated axis");
}
TEST(Unsqueeze, MissingAxesIsUsageError) {
  EXPECT_ERROR(Op("Unsqueeze").opset(13).run({ts(FLOAT, {2})}).report, "missing required input 1");
  EXPECT_ERROR(Op("Unsqueeze").opset(11).run({ts(FLOAT, {2})}).report,
               "missing required attribute 'axes' (Unsqueeze-11)");
}

// ---- Transpose ----
TEST(Transpose, DefaultReverses) {
  EXPECT_EQ(Op("Transpose").opset(13).infer({ts(FLOAT, {"B", "T", 8})}), (Types{ts(FLOAT, {8, "T", "B"})}));
}
TEST(Transpose, Perm) {
  EXPECT_EQ(Op("Transpose")
                .opset(21)
                .infer({ts(FLOAT, {"B", "T", 12, 64})}, {attr("perm", std::vector<int64_t>{0, 2, 1, 3})}),
            (Types{ts(FLOAT, {"B", 12, "T", 64})}));
}
TEST(Transpose, UnknownRankWithPerm) {
  EXPECT_EQ(Op("Transpose").opset(1).infer({ts(FLOAT)}, {attr("perm", std::vector<int64_t>{1, 0})}),
            (Types{ts(FLOAT, {"_d0", "_d1"})}));
}
TEST(Transpose, BadPermIsError) {
  EXPECT_ERROR(Op("Transpose").run({ts(FLOAT, {2, 3})}, {attr("perm", std::vector<int64_t>{0, 0})}).report,
               "perm is not a permutation of 0..1");
  EXPECT_ERROR(Op("Transpose").run({ts(FLOAT, {2, 3})}, {attr("perm", std::vector<int64_t>{0})}).report,
               "perm has 1 entries for input of rank 2");
}
