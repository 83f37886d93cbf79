// Pooling: MaxPool, AveragePool, LpPool, the Global*Pool ops and MaxUnpool.
#include "op_test_util.hpp"
#include "symshape/ops/common/tensor_values.hpp"

TEST(Pool, OutputShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      {"MaxPoolFloorAndIndices", "MaxPool", {ts(FLOAT, {"N", 64, "H", "W"})},
       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}, 12,
       {ts(FLOAT, {"N", 64, "H//2", "W//2"}), ts(INT64, {"N", 64, "H//2", "W//2"})}, 2},
      {"MaxPoolCeilMode", "MaxPool", {ts(FLOAT, {1, 1, 5, "H"})},
       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2}), attr("ceil_mode", 1)}, 10,
       {ts(FLOAT, {1, 1, 3, "(H+1)//2"})}},
      {"MaxPoolFloorModeByDefault", "MaxPool", {ts(FLOAT, {1, 1, 5, 5})},
       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}, 10, {ts(FLOAT, {1, 1, 2, 2})}},
      {"MaxPoolDilations", "MaxPool", {ts(FLOAT, {1, 1, "H", 10})},
       {attr("kernel_shape", I64s{3, 3}), attr("dilations", I64s{2, 2})}, 12, {ts(FLOAT, {1, 1, "H-4", 6})}},
      {"AveragePoolSameUpper", "AveragePool", {ts(FLOAT, {"N", 3, "H", 7})},
       {attr("kernel_shape", I64s{3, 3}), attr("strides", I64s{2, 2}), attr("auto_pad", "SAME_UPPER")}, 11,
       {ts(FLOAT, {"N", 3, "(H+1)//2", 4})}},
      {"AveragePoolPadsAtOpset7", "AveragePool", {ts(FLOAT, {"N", 3, "H", 7})},
       {attr("kernel_shape", I64s{3, 3}), attr("pads", I64s{1, 1, 1, 1}), attr("count_include_pad", 1)}, 7,
       {ts(FLOAT, {"N", 3, "H", 7})}},
      {"LpPool", "LpPool", {ts(FLOAT, {"N", 3, "L"})}, {attr("kernel_shape", I64s{4}), attr("p", 2)}, 11,
       {ts(FLOAT, {"N", 3, "L-3"})}},
      {"UnknownInputKeepsRankFromKernel", "MaxPool", {ts(FLOAT)}, {attr("kernel_shape", I64s{2, 2})}, 12,
       {ts(FLOAT, {"_d0", "_d1", "_d2", "_d3"})}},
      {"MaxUnpool", "MaxUnpool", {ts(FLOAT, {"N", 3, "H", "W"}), ts(INT64, {"N", 3, "H", "W"})},
       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}, 11, {ts(FLOAT, {"N", 3, "2*H", "2*W"})}},
      {"MaxUnpoolOutputShapeInput", "MaxUnpool",
       {ts(FLOAT, {"N", 3, 2, 2}), ts(INT64, {"N", 3, 2, 2}), sym_value(ts(INT64, {4}), {"N", 3, 5, 5})},
       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}, 11, {ts(FLOAT, {"N", 3, 5, 5})}},
  };
  // clang-format on
  expect_shapes(cases);
}
TEST(Pool, Errors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"MissingKernelShapeIsUsageError", "MaxPool", {ts(FLOAT, {1, 3, 8, 8})}, {}, 12,
       "missing required attribute 'kernel_shape'"},
      {"KernelRankMismatchIsError", "AveragePool", {ts(FLOAT, {1, 3, 8, 8})}, {attr("kernel_shape", I64s{2})}, 11,
       "kernel_shape must have 2 values"},
      {"MaxUnpoolWithoutKernelShape", "MaxUnpool", {ts(FLOAT, {1, 3, 2, 2}), ts(INT64, {1, 3, 2, 2})}, {}, 11,
       "missing required attribute 'kernel_shape'"},
  };
  // clang-format on
  expect_errors(cases);
}
// Found by tests/fuzz/fuzz_engine (Expand): a shape input of 2^63-1 elements.
TEST(Pool, MaxUnpoolOutputShapeTooLongGivesUnknownRank) {
  for (const int64_t length : {INT64_MAX, symshape::ops::kMaxRankFromLength + 1})
    EXPECT_EQ(Op("MaxUnpool")
                  .opset(11)
                  .infer({ts(FLOAT, {"N", 3, 2, 2}), ts(INT64, {"N", 3, 2, 2}), ts(INT64, {length})},
                         {attr("kernel_shape", I64s{2, 2})}),
              (Types{ts(FLOAT)}))
        << length;
}
TEST(Pool, CeilModeLastWindowMustStartInsideInput) {
  // ceil((6-1)/2)+1 = 4 windows, but the 4th would start at 6, in the right padding.
  EXPECT_EQ(
      Op("MaxPool").opset(12).infer({ts(FLOAT, {1, 1, 6, 7})}, {attr("kernel_shape", I64s{1, 1}),
                                                                attr("strides", I64s{2, 2}), attr("ceil_mode", 1)}),
      (Types{ts(FLOAT, {1, 1, 3, 4})}));
  EXPECT_EQ(Op("AveragePool")
                .opset(19)
                .infer({ts(FLOAT, {1, 1, 5, 5})}, {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2}),
                                                   attr("pads", I64s{1, 1, 1, 1}), attr("ceil_mode", 1)}),
            (Types{ts(FLOAT, {1, 1, 3, 3})}));
  // Symbolic: exact as a Min; it evaluates like the integer rule.
  Types t = Op("MaxPool").opset(12).infer(
      {ts(FLOAT, {1, 1, "H", 1})},
      {attr("kernel_shape", I64s{1, 1}), attr("strides", I64s{2, 1}), attr("ceil_mode", 1)});
  for (int64_t h : {5, 6, 7, 8}) {
    auto d = t.at(0).shape().evaluate({{"H", h}});
    ASSERT_TRUE(d);
    EXPECT_EQ((*d)[2], (h + 1) / 2) << h;
  }
}
TEST(Pool, Global) {
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"})
    EXPECT_EQ(Op(op).opset(2).infer({ts(FLOAT, {"N", 2048, "H", "W"})}), (Types{ts(FLOAT, {"N", 2048, 1, 1})})) << op;
  EXPECT_ERROR(Op("GlobalMaxPool").opset(1).run({ts(FLOAT, {5})}).report, "input must have rank >= 2");
}
