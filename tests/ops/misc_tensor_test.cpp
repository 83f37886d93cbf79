#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
using V = std::vector<SymbolicDim>;
std::size_t errors(const RunResult& r) { return r.report.errors(); }
In vec(std::vector<int64_t> v) { return constant(Tensor::vector(std::move(v))); }
}  // namespace

// ---- Where ----
TEST(Where, ThreeWayBroadcast) {
  EXPECT_EQ(run_shape_inference("", "Where", {ts(BOOL, {"B", 1, "T"}), ts(FLOAT, {12, 1}), ts(FLOAT, {})}, {}, 16),
            (Types{ts(FLOAT, {"B", 12, "T"})}));
  EXPECT_EQ(run_shape_inference("", "Where", {ts(BOOL), ts(FLOAT, {3}), ts(FLOAT, {3})}, {}, 9), (Types{ts(FLOAT)}));
}
TEST(Where, PropagatesValues) {
  RunResult r = run_node("", "Where", {constant(Tensor::ints({1, 0}, {2}, DataType::BOOL)),
                                       sym_value(ts(INT64, {2}), {"B", "T"}), vec({7})},
                         {}, 16);
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", 7}));
}
TEST(Where, IncompatibleIsError) {
  EXPECT_EQ(errors(run_node("", "Where", {ts(BOOL, {2}), ts(FLOAT, {3}), ts(FLOAT, {3})}, {}, 16)), 1u);
}

// ---- NonZero ----
TEST(NonZero, RankByUnknown) {
  EXPECT_EQ(run_shape_inference("", "NonZero", {ts(FLOAT, {"B", 3})}, {}, 13), (Types{ts(INT64, {2, "_d0"})}));
  EXPECT_EQ(run_shape_inference("", "NonZero", {ts(FLOAT)}, {}, 9), (Types{ts(INT64, {"_d0", "_d1"})}));
}
TEST(NonZero, MissingInputIsUsageError) { EXPECT_EQ(errors(run_node("", "NonZero", {}, {}, 13)), 1u); }

// ---- OneHot ----
TEST(OneHot, DepthFromConstant) {
  EXPECT_EQ(run_shape_inference("", "OneHot", {ts(INT64, {"B", "T"}), constant(Tensor::scalar(10)), ts(FLOAT, {2})}, {},
                                11),
            (Types{ts(FLOAT, {"B", "T", 10})}));
  EXPECT_EQ(run_shape_inference("", "OneHot", {ts(INT64, {"B"}), constant(Tensor::floats({5}, {})), ts(INT32, {2})},
                                {attr("axis", 0)}, 9),
            (Types{ts(INT32, {5, "B"})}));
}
TEST(OneHot, UnknownDepth) {
  EXPECT_EQ(run_shape_inference("", "OneHot", {ts(INT64, {3}), ts(INT64, {}), ts(FLOAT, {2})}, {}, 11),
            (Types{ts(FLOAT, {3, "_d0"})}));
}
TEST(OneHot, Errors) {
  EXPECT_EQ(errors(run_node("", "OneHot", {ts(INT64, {3}), constant(Tensor::scalar(4)), ts(FLOAT, {3})}, {}, 11)), 1u);
  EXPECT_EQ(errors(run_node("", "OneHot", {ts(INT64, {3}), constant(Tensor::scalar(4)), ts(FLOAT, {2})},
                            {attr("axis", 2)}, 11)),
            1u);
}

// ---- TopK ----
TEST(TopK, AttributeKAtOpset1) {
  EXPECT_EQ(run_shape_inference("", "TopK", {ts(FLOAT, {"B", 100})}, {attr("k", 5)}, 1, 2),
            (Types{ts(FLOAT, {"B", 5}), ts(INT64, {"B", 5})}));
}
TEST(TopK, InputKAndAxis) {
  EXPECT_EQ(run_shape_inference("", "TopK", {ts(FLOAT, {"B", 100}), vec({3})}, {attr("axis", 0)}, 10, 2),
            (Types{ts(FLOAT, {3, 100}), ts(INT64, {3, 100})}));
  EXPECT_EQ(run_shape_inference("", "TopK", {ts(FLOAT, {"B", "V"}), sym_value(ts(INT64, {1}), {"K"})}, {}, 11, 2),
            (Types{ts(FLOAT, {"B", "K"}), ts(INT64, {"B", "K"})}));
}
TEST(TopK, UnknownK) {
  EXPECT_EQ(run_shape_inference("", "TopK", {ts(FLOAT, {4, 8}), ts(INT64, {1})}, {}, 11, 2),
            (Types{ts(FLOAT, {4, "_d0"}), ts(INT64, {4, "_d1"})}));
}
TEST(TopK, Errors) {
  EXPECT_EQ(errors(run_node("", "TopK", {ts(FLOAT, {4, 8}), vec({9})}, {}, 11, 2)), 1u);
  EXPECT_EQ(errors(run_node("", "TopK", {ts(FLOAT, {4, 8})}, {}, 1, 2)), 1u);
}

// ---- Trilu, CumSum, ReverseSequence ----
TEST(Passthrough, TriluCumSumReverseSequence) {
  EXPECT_EQ(run_shape_inference("", "Trilu", {ts(FLOAT, {"B", "T", "T"}), constant(Tensor::scalar(1))}, {}, 14),
            (Types{ts(FLOAT, {"B", "T", "T"})}));
  EXPECT_EQ(run_shape_inference("", "CumSum", {ts(INT32, {"N", 4}), constant(Tensor::scalar(1))}, {}, 14),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "ReverseSequence", {ts(FLOAT, {"T", "B", 8}), ts(INT64, {"B"})}, {}, 10),
            (Types{ts(FLOAT, {"T", "B", 8})}));
}
TEST(Passthrough, Errors) {
  EXPECT_EQ(errors(run_node("", "Trilu", {ts(FLOAT, {3})}, {}, 14)), 1u);
  EXPECT_EQ(errors(run_node("", "CumSum", {ts(FLOAT, {3}), constant(Tensor::scalar(1))}, {}, 11)), 1u);
  EXPECT_EQ(errors(run_node("", "ReverseSequence", {ts(FLOAT, {3, 2}), ts(INT64, {2})}, {attr("batch_axis", 0)}, 10)), 1u);
}

// ---- DepthToSpace / SpaceToDepth ----
TEST(DepthToSpace, Dims) {
  EXPECT_EQ(run_shape_inference("", "DepthToSpace", {ts(FLOAT, {"N", 16, "H", "W"})}, {attr("blocksize", 2)}, 13),
            (Types{ts(FLOAT, {"N", 4, "2*H", "2*W"})}));
  EXPECT_EQ(run_shape_inference("", "SpaceToDepth", {ts(FLOAT, {"N", 3, "2*H", 8})}, {attr("blocksize", 2)}, 1),
            (Types{ts(FLOAT, {"N", 12, "H", 4})}));
}
TEST(DepthToSpace, Errors) {
  EXPECT_EQ(errors(run_node("", "DepthToSpace", {ts(FLOAT, {1, 6, 2, 2})}, {attr("blocksize", 2)}, 11)), 1u);
  EXPECT_EQ(errors(run_node("", "SpaceToDepth", {ts(FLOAT, {1, 6, 2})}, {attr("blocksize", 2)}, 13)), 1u);
  EXPECT_EQ(errors(run_node("", "DepthToSpace", {ts(FLOAT, {1, 8, 2, 2})}, {}, 13)), 1u);
}

// ---- Compress ----
TEST(Compress, KnownCondition) {
  EXPECT_EQ(run_shape_inference("", "Compress", {ts(FLOAT, {"B", 3}), constant(Tensor::ints({1, 0, 1}, {3}, DataType::BOOL))},
                                {attr("axis", 1)}, 11),
            (Types{ts(FLOAT, {"B", 2})}));
}
TEST(Compress, UnknownConditionFlattened) {
  EXPECT_EQ(run_shape_inference("", "Compress", {ts(FLOAT, {"B", 3}), ts(BOOL, {"n"})}, {}, 9),
            (Types{ts(FLOAT, {"_d0"})}));
}
TEST(Compress, Errors) {
  EXPECT_EQ(errors(run_node("", "Compress", {ts(FLOAT, {2, 3}), ts(BOOL, {2, 2})}, {}, 11)), 1u);
  EXPECT_EQ(errors(run_node("", "Compress", {ts(FLOAT, {2, 3}), ts(BOOL, {2})}, {attr("axis", 2)}, 11)), 1u);
}

// ---- Unique ----
TEST(Unique, FlattenedSharesCount) {
  EXPECT_EQ(run_shape_inference("", "Unique", {ts(FLOAT, {"B", 3})}, {}, 11, 4),
            (Types{ts(FLOAT, {"_d0"}), ts(INT64, {"_d0"}), ts(INT64, {"3*B"}), ts(INT64, {"_d0"})}));
}
TEST(Unique, WithAxis) {
  EXPECT_EQ(run_shape_inference("", "Unique", {ts(FLOAT, {"B", 3})}, {attr("axis", 0)}, 11, 4),
            (Types{ts(FLOAT, {"_d0", 3}), ts(INT64, {"_d0"}), ts(INT64, {"B"}), ts(INT64, {"_d0"})}));
}
TEST(Unique, AxisOutOfRangeIsError) {
  EXPECT_EQ(errors(run_node("", "Unique", {ts(FLOAT, {3})}, {attr("axis", 1)}, 11, 4)), 1u);
}
TEST(TopK, KMustHaveOneElement) {
  EXPECT_EQ(errors(run_node("", "TopK", {ts(FLOAT, {4, 8}), vec({1, 2})}, {}, 11, 2)), 1u);
}
