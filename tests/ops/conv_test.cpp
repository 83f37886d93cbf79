#include "op_test_util.hpp"

// ---- Conv ----
TEST(Conv, OutputShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      {"Stride2Pad1GivesHalfExpression", "Conv", {ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3})},
       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}, 11,
       {ts(FLOAT, {"N", 16, "(H+1)//2", "(W+1)//2"})}},
      {"KernelShapeAttributeAndDilations", "Conv",
       {ts(FLOAT, {"N", 8, "H", 32}), ts(FLOAT, {8, 8, 3, 3}), ts(FLOAT, {8})},
       {attr("kernel_shape", I64s{3, 3}), attr("dilations", I64s{2, 2})}, 11, {ts(FLOAT, {"N", 8, "H-4", 28})}},
      {"IntegerDims", "Conv", {ts(FLOAT, {1, 3, 224, 224}), ts(FLOAT, {64, 3, 7, 7})},
       {attr("strides", I64s{2, 2}), attr("pads", I64s{3, 3, 3, 3})}, 1, {ts(FLOAT, {1, 64, 112, 112})}},
      {"Conv1d", "Conv", {ts(FLOAT, {"N", 80, "T"}), ts(FLOAT, {256, 80, 5})}, {attr("pads", I64s{2, 2})}, 11,
       {ts(FLOAT, {"N", 256, "T"})}},
      {"Conv3d", "Conv", {ts(FLOAT, {"N", 3, "D", 16, 16}), ts(FLOAT, {4, 3, 1, 2, 2})},
       {attr("strides", I64s{1, 2, 2})}, 11, {ts(FLOAT, {"N", 4, "D", 8, 8})}},
      {"AutoPadSameUpper", "Conv", {ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3})},
       {attr("auto_pad", "SAME_UPPER"), attr("strides", I64s{2, 2})}, 11,
       {ts(FLOAT, {"N", 16, "(H+1)//2", "(W+1)//2"})}},
      {"AutoPadSameLower", "Conv", {ts(FLOAT, {"N", 3, "H", 10}), ts(FLOAT, {16, 3, 3, 3})},
       {attr("auto_pad", "SAME_LOWER"), attr("strides", I64s{3, 3})}, 11, {ts(FLOAT, {"N", 16, "(H+2)//3", 4})}},
      {"AutoPadValid", "Conv", {ts(FLOAT, {"N", 3, "H", 10}), ts(FLOAT, {16, 3, 3, 3})}, {attr("auto_pad", "VALID")},
       11, {ts(FLOAT, {"N", 16, "H-2", 8})}},
      {"GroupedDepthwise", "Conv", {ts(FLOAT, {"N", 32, "H", "W"}), ts(FLOAT, {32, 1, 3, 3})},
       {attr("group", 32), attr("pads", I64s{1, 1, 1, 1})}, 11, {ts(FLOAT, {"N", 32, "H", "W"})}},
      {"UnknownWeightShapeKeepsRank", "Conv", {ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT)}, {}, 11,
       {ts(FLOAT, {"N", "_d0", "_d1", "_d2"})}},
      {"UnknownInputShapeKeepsRank", "Conv", {ts(FLOAT), ts(FLOAT, {16, 3, 3, 3})}, {}, 11,
       {ts(FLOAT, {"_d0", 16, "_d1", "_d2"})}},
      {"BothUnknownGiveUnknownRank", "Conv", {ts(FLOAT), ts(FLOAT)}, {}, 11, {ts(FLOAT)}},
      {"BothUnknownRankFromKernelShape", "Conv", {ts(FLOAT), ts(FLOAT)}, {attr("kernel_shape", I64s{3})}, 11,
       {ts(FLOAT, {"_d0", "_d1", "_d2"})}},
      {"SymbolicKernelFromWeight", "Conv", {ts(FLOAT, {"N", 3, "H", 9}), ts(FLOAT, {16, 3, "k", 3})}, {}, 11,
       {ts(FLOAT, {"N", 16, "H-k+1", 7})}},
      {"ConvInteger", "ConvInteger", {ts(UINT8, {"N", 3, "H", "W"}), ts(UINT8, {8, 3, 3, 3})},
       {attr("pads", I64s{1, 1, 1, 1})}, 10, {ts(INT32, {"N", 8, "H", "W"})}},
      {"QLinearConv", "QLinearConv", {ts(UINT8, {"N", 3, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}),
       ts(INT8, {8, 3, 3, 3}), ts(FLOAT, {}), ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {}), ts(INT32, {8})},
       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}, 10,
       {ts(INT8, {"N", 8, "(H+1)//2", "(W+1)//2"})}},
      {"DeformConv", "DeformConv",
       {ts(FLOAT, {"N", 4, "H", "W"}), ts(FLOAT, {8, 4, 3, 3}), ts(FLOAT, {"N", 18, "H", "W"})},
       {attr("pads", I64s{1, 1, 1, 1})}, 19, {ts(FLOAT, {"N", 8, "H", "W"})}},
      {"Col2Im", "Col2Im",
       {ts(FLOAT, {"N", 27, "L"}), sym_value(ts(INT64, {2}), {"H", "W"}), constant(Tensor::vector({3, 3}))}, {}, 18,
       {ts(FLOAT, {"N", 3, "H", "W"})}},
  };
  // clang-format on
  expect_shapes(cases);
}
TEST(Conv, Errors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"ChannelMismatchIsError", "Conv", {ts(FLOAT, {1, 4, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}, {}, 11,
       "input channels 4 do not match weight"},
      {"StridesLengthIsError", "Conv", {ts(FLOAT, {1, 3, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}, {attr("strides", I64s{2})},
       11, "attribute 'strides' has 1 values, expected 2"},
      {"PadsLengthIsError", "Conv", {ts(FLOAT, {1, 3, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}, {attr("pads", I64s{1, 1})},
       11, "attribute 'pads' has 2 values, expected 4"},
      {"KernelLargerThanInputIsError", "Conv", {ts(FLOAT, {1, 3, 2, 8}), ts(FLOAT, {16, 3, 5, 5})}, {}, 11,
       "spatial dim 0 of size 2 is smaller than the kernel"},
      {"MissingWeightIsUsageError", "Conv", {ts(FLOAT, {1, 3, 8, 8})}, {}, 11, "missing required input 1"},
      {"Col2ImChannelsNotAMultipleOfTheBlock", "Col2Im",
       {ts(FLOAT, {1, 10, 4}), constant(Tensor::vector({4, 4})), constant(Tensor::vector({3, 3}))}, {}, 18,
       "is not a multiple of prod(block_shape)"},
  };
  // clang-format on
  expect_errors(cases);
}

// A ResNet stem and a bottleneck, as one graph: shapes flow as expressions.
TEST(Conv, ResNetStemChain) {
  Model m;
  m.opset_imports[""] = 13;
  GraphBuilder b(*m.graph);
  b.input("x", ts(FLOAT, {"N", 3, "H", "W"}));
  b.input("w1", ts(FLOAT, {64, 3, 7, 7}));
  b.input("w2", ts(FLOAT, {128, 64, 3, 3}));
  b.input("fc", ts(FLOAT, {1000, 128}));
  b.node("Conv", {"x", "w1"}, {"c1"}, {attr("strides", I64s{2, 2}), attr("pads", I64s{3, 3, 3, 3})});
  b.node("Relu", {"c1"}, {"r1"});
  b.node("MaxPool", {"r1"}, {"p1"},
         {attr("kernel_shape", I64s{3, 3}), attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})});
  b.node("Conv", {"p1", "w2"}, {"c2"}, {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})});
  b.node("GlobalAveragePool", {"c2"}, {"g"});
  b.node("Flatten", {"g"}, {"f"});
  b.node("Gemm", {"f", "fc"}, {"y"}, {attr("transB", 1)});
  b.output("p1");
  b.output("c2");
  b.output("g");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(m.graph->outputs[0]->type, ts(FLOAT, {"N", 64, "((H+1)//2+1)//2", "((W+1)//2+1)//2"}));
  EXPECT_EQ(m.graph->outputs[1]->type, ts(FLOAT, {"N", 128, "(((H+1)//2+1)//2+1)//2", "(((W+1)//2+1)//2+1)//2"}));
  EXPECT_EQ(m.graph->outputs[2]->type, ts(FLOAT, {"N", 128, 1, 1}));
  // The expressions evaluate as the integer formula does.
  auto dims = m.graph->outputs[1]->type.shape().evaluate({{"N", 2}, {"H", 224}, {"W", 225}});
  ASSERT_TRUE(dims);
  EXPECT_EQ(*dims, (std::vector<int64_t>{2, 128, 28, 29}));
}

// ---- ConvTranspose ----
TEST(ConvTranspose, OutputShapes) {
  // clang-format off
  const ShapeCase cases[] = {
      {"Stride2", "ConvTranspose", {ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64, 32, 4, 4})},
       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}, 11, {ts(FLOAT, {"N", 32, "2*H", "2*W"})}},
      {"OutputPaddingDilationsGroup", "ConvTranspose", {ts(FLOAT, {1, 4, 5, "W"}), ts(FLOAT, {4, 2, 3, 3})},
       {attr("strides", I64s{3, 2}), attr("output_padding", I64s{1, 1}), attr("dilations", I64s{2, 1}),
       attr("group", 2)}, 11, {ts(FLOAT, {1, 4, 18, "2*W+2"})}},
      {"SameUpper", "ConvTranspose", {ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 8, 3, 3})},
       {attr("strides", I64s{2, 2}), attr("auto_pad", "SAME_UPPER")}, 11, {ts(FLOAT, {"N", 8, "2*H", "2*W"})}},
      {"OutputShapeAttribute", "ConvTranspose", {ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 8, 3, 3})},
       {attr("strides", I64s{2, 2}), attr("output_shape", I64s{21, 33})}, 1, {ts(FLOAT, {"N", 8, 21, 33})}},
  };
  // clang-format on
  expect_shapes(cases);
}
TEST(ConvTranspose, Errors) {
  // clang-format off
  const ErrorCase cases[] = {
      {"ChannelMismatchIsError", "ConvTranspose", {ts(FLOAT, {1, 4, 5, 5}), ts(FLOAT, {3, 2, 3, 3})}, {}, 11,
       "input channels 4 do not match weight"},
  };
  // clang-format on
  expect_errors(cases);
}

// ---- Pools ----

TEST(CausalConvWithState, OutputAndState) {
  EXPECT_EQ(Op("CausalConvWithState").opset(27).outputs(2).infer({ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {64, 1, 4})}),
            (Types{ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {"B", 64, 3})}));
}
TEST(CausalConvWithState, ChannelMismatchIsError) {
  EXPECT_ERROR(
      Op("CausalConvWithState").opset(27).outputs(2).run({ts(FLOAT, {1, 64, 9}), ts(FLOAT, {32, 1, 4})}).report,
      "weight has 32 channels, input has 64");
}
