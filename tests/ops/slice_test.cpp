#include "symshape/ops/slice.hpp"

#include <limits>

#include "op_test_util.hpp"

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
Type slice1(SymbolicDim d, int64_t s, int64_t e, int64_t k = 1) {
  return Op("Slice").opset(13).infer({ts(FLOAT, {d}), vec({s}), vec({e}), vec({0}), vec({k})}).at(0);
}
}  // namespace

// One axis of length `dim`, sliced as Python's dim[start:end:step] would be.
TEST(Slice, OneAxisLengths) {
  struct Case {
    const char* name;
    SymbolicDim dim;
    int64_t start, end, step;
    Type expected;
  };
  const Case cases[] = {
      {"10[2:8]", 10, 2, 8, 1, ts(FLOAT, {6})},
      {"10[-3:]", 10, -3, kMax, 1, ts(FLOAT, {3})},
      {"10[0:10:3]", 10, 0, 10, 3, ts(FLOAT, {4})},
      {"10[8:2]", 10, 8, 2, 1, ts(FLOAT, {0})},
      {"10[-1::-1]", 10, -1, kMin, -1, ts(FLOAT, {10})},
      {"10[8:1:-2]", 10, 8, 1, -2, ts(FLOAT, {4})},
      {"10[100:-100:-1]", 10, 100, -100, -1, ts(FLOAT, {10})},
      {"n[1:]", "n", 1, kMax, 1, ts(FLOAT, {"max(0,n-1)"})},
      {"n[0:]", "n", 0, kMax, 1, ts(FLOAT, {"n"})},
      {"n[0:4]", "n", 0, 4, 1, ts(FLOAT, {"min(4,n)"})},
      {"n[0:-1]", "n", 0, -1, 1, ts(FLOAT, {"max(0,n-1)"})},
      {"n[-1:]", "n", -1, kMax, 1, ts(FLOAT, {"min(1,n)"})},
      {"n[0::2]", "n", 0, kMax, 2, ts(FLOAT, {"(n+1)//2"})},
      {"n[-1::-1]", "n", -1, kMin, -1, ts(FLOAT, {"n"})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(slice1(c.dim, c.start, c.end, c.step), c.expected);
  }
}
TEST(Slice, OutputShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      // x[:, past:past+seq] with x:[B, past+seq]
      {"SymbolicStartsFromValues", "Slice", {ts(FLOAT, {"B", "past+seq"}), sym_value(ts(INT64, {1}), {"past"}),
       sym_value(ts(INT64, {1}), {"past+seq"}), vec({1})}, {}, 13, {ts(FLOAT, {"B", "seq"})}},
      {"AttributesAtOpset1", "Slice", {ts(FLOAT, {"B", 20, 10})}, {attr("starts", std::vector<int64_t>{1, 2}),
       attr("ends", std::vector<int64_t>{kMax, -2}), attr("axes", std::vector<int64_t>{1, 2})}, 1,
       {ts(FLOAT, {"B", 19, 6})}},
      {"DefaultAxesAtOpset10", "Slice", {ts(FLOAT, {6, 8}), vec({1, 2}), vec({3, 4})}, {}, 10, {ts(FLOAT, {2, 2})}},
      {"UnknownStartsGiveUnknownDim", "Slice", {ts(FLOAT, {"B", 8}), ts(INT64, {1}), vec({4}), vec({1})}, {}, 13,
       {ts(FLOAT, {"B", "_d0"})}},
      {"UnknownAxesGiveUnknownDims", "Slice", {ts(FLOAT, {"B", 8}), vec({0}), vec({4}), ts(INT64, {1})}, {}, 13,
       {ts(FLOAT, {"_d0", "_d1"})}},
      // Omitted axes are [0, ..., k-1] for k starts (spec): one unknown start of
      // [B,8,5] slices axis 0 only. An empty dim stays empty whatever the bounds.
      {"UnknownStartsWithoutAxesSliceTheFirstAxes", "Slice", {ts(FLOAT, {"B", 8, 5}), ts(INT64, {1}), ts(INT64, {1})},
       {}, 13, {ts(FLOAT, {"_d0", 8, 5})}},
      // PyTorch's relative position shift: x[..., :x.size(-1)//2 + 1] of a
      // dim 2*seq-1 clamped at 0 takes seq elements (0 when seq is 0).
      {"RelativePositionShiftTakesSeq", "Slice", {ts(FLOAT, {"B", "max(0,2*seq-1)"}), vec({0}),
       sym_value(ts(INT64, {1}), {"max(0,2*seq-1)//2+1"}), vec({1})}, {}, 13, {ts(FLOAT, {"B", "seq"})}},
      {"EmptyDimStaysEmpty", "Slice", {ts(FLOAT, {0, 8}), ts(INT64, {2}), ts(INT64, {2}), ts(INT64, {2})}, {}, 13,
       {ts(FLOAT, {0, "_d0"})}},
  };
  // clang-format on
  expect_shapes(cases);
}
TEST(Slice, Errors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"ZeroStep", "Slice", {ts(FLOAT, {6}), vec({0}), vec({4}), vec({0}), vec({0})}, {}, 13,
       "slice step must not be 0"},
      {"StartsEndsLengthsDiffer", "Slice", {ts(FLOAT, {6}), vec({0, 1}), vec({4})}, {}, 13,
       "starts and ends have different lengths"},
      {"AxisOutOfRange", "Slice", {ts(FLOAT, {6}), vec({0}), vec({4}), vec({1})}, {}, 13, "axis 1 is out of range"},
      {"MissingEndsInput", "Slice", {ts(FLOAT, {6}), vec({0})}, {}, 13, "missing required input 2"},
      {"MissingEndsAttributeAtOpset1", "Slice", {ts(FLOAT, {6})}, {attr("starts", std::vector<int64_t>{0})}, 1,
       "missing required attribute 'ends' (Slice-1)"},
  };
  // clang-format on
  expect_errors(cases);
}
TEST(Slice, PropagatesValues) {
  RunResult r = Op("Slice").opset(13).run({sym_value(ts(INT64, {3}), {"B", "T", 768}), vec({0}), vec({2})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{"B", "T"}));
  RunResult rev = Op("Slice").opset(13).run(
      {sym_value(ts(INT64, {3}), {"B", "T", 768}), vec({-1}), vec({kMin}), vec({0}), vec({-2})});
  EXPECT_EQ(*rev.values[0], (V{768, "B"}));
}

// Soundness: the symbolic length, evaluated at n = 0..12, equals the integer
// computation (Python/ONNX slicing) for many start/end/step combinations.
TEST(Slice, SymbolicLengthMatchesIntegerSemantics) {
  const std::vector<int64_t> bounds = {kMin, -15, -5, -2, -1, 0, 1, 2, 3, 7, 15, kMax};
  const std::vector<int64_t> steps = {1, 2, 3, -1, -2, -3};
  int checked = 0;
  for (int64_t s : bounds)
    for (int64_t e : bounds)
      for (int64_t k : steps) {
        const SymbolicDim len = ops::slice_detail::length(SymbolicDim("n"), s, e, k);
        if (len.is_unknown()) continue;
        for (int64_t n = 0; n <= 12; ++n) {
          Result<int64_t> v = evaluate(len.expr(), {{"n", n}});
          ASSERT_TRUE(v) << len.to_string();
          EXPECT_EQ(*v, ops::slice_detail::int_length(n, s, e, k))
              << "n=" << n << " start=" << s << " end=" << e << " step=" << k << " expr=" << len.to_string();
          ++checked;
        }
      }
  EXPECT_GT(checked, 5000);
}
TEST(Slice, IntegerLengthFollowsTheSpecClamping) {
  // len(range(10)[s:e:k]) in Python, except where the ONNX spec clamps
  // otherwise: with a negative step the start goes into [0, 9], so -15 is 0
  // and [-15:-20:-1] has one element (Python: none; onnxruntime: one).
  EXPECT_EQ(ops::slice_detail::int_length(10, -15, 15, 1), 10);
  EXPECT_EQ(ops::slice_detail::int_length(10, 15, -15, -1), 10);
  EXPECT_EQ(ops::slice_detail::int_length(10, -15, -20, -1), 1);
  EXPECT_EQ(ops::slice_detail::int_length(10, -15, -20, -3), 1);
  EXPECT_EQ(ops::slice_detail::int_length(10, 3, -3, 2), 2);
  EXPECT_EQ(ops::slice_detail::int_length(0, -1, kMin, -1), 0);
}
