#include "op_test_util.hpp"

// ---- Conv ----
TEST(Conv, Stride2Pad1GivesHalfExpression) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3})},
                                       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(FLOAT, {"N", 16, "(H+1)//2", "(W+1)//2"})}));
}
TEST(Conv, KernelShapeAttributeAndDilations) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 8, "H", 32}), ts(FLOAT, {8, 8, 3, 3}), ts(FLOAT, {8})},
                                       {attr("kernel_shape", I64s{3, 3}), attr("dilations", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 8, "H-4", 28})}));
}
TEST(Conv, IntegerDims) {
  EXPECT_EQ(Op("Conv").opset(1).infer({ts(FLOAT, {1, 3, 224, 224}), ts(FLOAT, {64, 3, 7, 7})},
                                      {attr("strides", I64s{2, 2}), attr("pads", I64s{3, 3, 3, 3})}),
            (Types{ts(FLOAT, {1, 64, 112, 112})}));
}
TEST(Conv, Conv1dAndConv3d) {
  EXPECT_EQ(
      Op("Conv").opset(11).infer({ts(FLOAT, {"N", 80, "T"}), ts(FLOAT, {256, 80, 5})}, {attr("pads", I64s{2, 2})}),
      (Types{ts(FLOAT, {"N", 256, "T"})}));
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "D", 16, 16}), ts(FLOAT, {4, 3, 1, 2, 2})},
                                       {attr("strides", I64s{1, 2, 2})}),
            (Types{ts(FLOAT, {"N", 4, "D", 8, 8})}));
}
TEST(Conv, AutoPadSameAndValid) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT, {16, 3, 3, 3})},
                                       {attr("auto_pad", "SAME_UPPER"), attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 16, "(H+1)//2", "(W+1)//2"})}));
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", 10}), ts(FLOAT, {16, 3, 3, 3})},
                                       {attr("auto_pad", "SAME_LOWER"), attr("strides", I64s{3, 3})}),
            (Types{ts(FLOAT, {"N", 16, "(H+2)//3", 4})}));
  EXPECT_EQ(
      Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", 10}), ts(FLOAT, {16, 3, 3, 3})}, {attr("auto_pad", "VALID")}),
      (Types{ts(FLOAT, {"N", 16, "H-2", 8})}));
}
TEST(Conv, GroupedDepthwise) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 32, "H", "W"}), ts(FLOAT, {32, 1, 3, 3})},
                                       {attr("group", 32), attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(FLOAT, {"N", 32, "H", "W"})}));
}
TEST(Conv, ChannelMismatchIsError) {
  EXPECT_ERROR(Op("Conv").opset(11).run({ts(FLOAT, {1, 4, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}).report,
               "input channels 4 do not match weight");
}
TEST(Conv, BadAttributeLengthIsError) {
  EXPECT_ERROR(
      Op("Conv").opset(11).run({ts(FLOAT, {1, 3, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}, {attr("strides", I64s{2})}).report,
      "attribute 'strides' has 1 values, expected 2");
  EXPECT_ERROR(
      Op("Conv").opset(11).run({ts(FLOAT, {1, 3, 8, 8}), ts(FLOAT, {16, 3, 3, 3})}, {attr("pads", I64s{1, 1})}).report,
      "attribute 'pads' has 2 values, expected 4");
}
TEST(Conv, KernelLargerThanInputIsError) {
  EXPECT_ERROR(Op("Conv").opset(11).run({ts(FLOAT, {1, 3, 2, 8}), ts(FLOAT, {16, 3, 5, 5})}).report,
               "spatial dim 0 of size 2 is smaller than the kernel");
}
TEST(Conv, MissingWeightIsUsageError) {
  EXPECT_ERROR(Op("Conv").opset(11).run({ts(FLOAT, {1, 3, 8, 8})}).report, "missing required input 1");
}
TEST(Conv, UnknownWeightShapeKeepsRank) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(FLOAT)}),
            (Types{ts(FLOAT, {"N", "_d0", "_d1", "_d2"})}));
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT), ts(FLOAT, {16, 3, 3, 3})}),
            (Types{ts(FLOAT, {"_d0", 16, "_d1", "_d2"})}));
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT), ts(FLOAT)}), (Types{ts(FLOAT)}));
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT), ts(FLOAT)}, {attr("kernel_shape", I64s{3})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2"})}));
}
TEST(Conv, SymbolicKernelFromWeight) {
  EXPECT_EQ(Op("Conv").opset(11).infer({ts(FLOAT, {"N", 3, "H", 9}), ts(FLOAT, {16, 3, "k", 3})}),
            (Types{ts(FLOAT, {"N", 16, "H-k+1", 7})}));
}
TEST(Conv, IntegerAndQLinear) {
  EXPECT_EQ(Op("ConvInteger")
                .opset(10)
                .infer({ts(UINT8, {"N", 3, "H", "W"}), ts(UINT8, {8, 3, 3, 3})}, {attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(INT32, {"N", 8, "H", "W"})}));
  EXPECT_EQ(Op("QLinearConv")
                .opset(10)
                .infer({ts(UINT8, {"N", 3, "H", "W"}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {8, 3, 3, 3}),
                        ts(FLOAT, {}), ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {}), ts(INT32, {8})},
                       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(INT8, {"N", 8, "(H+1)//2", "(W+1)//2"})}));
}
TEST(Conv, DeformConv) {
  EXPECT_EQ(Op("DeformConv")
                .opset(19)
                .infer({ts(FLOAT, {"N", 4, "H", "W"}), ts(FLOAT, {8, 4, 3, 3}), ts(FLOAT, {"N", 18, "H", "W"})},
                       {attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(FLOAT, {"N", 8, "H", "W"})}));
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
  EXPECT_EQ(m.graph->outputs[1]->type,
            ts(FLOAT, {"N", 128, "(((H+1)//2+1)//2+1)//2", "(((W+1)//2+1)//2+1)//2"}));
  EXPECT_EQ(m.graph->outputs[2]->type, ts(FLOAT, {"N", 128, 1, 1}));
  // The expressions evaluate as the integer formula does.
  auto dims = m.graph->outputs[1]->type.shape().evaluate({{"N", 2}, {"H", 224}, {"W", 225}});
  ASSERT_TRUE(dims);
  EXPECT_EQ(*dims, (std::vector<int64_t>{2, 128, 28, 29}));
}

// ---- ConvTranspose ----
TEST(ConvTranspose, Stride2) {
  EXPECT_EQ(Op("ConvTranspose")
                .opset(11)
                .infer({ts(FLOAT, {"N", 64, "H", "W"}), ts(FLOAT, {64, 32, 4, 4})},
                       {attr("strides", I64s{2, 2}), attr("pads", I64s{1, 1, 1, 1})}),
            (Types{ts(FLOAT, {"N", 32, "2*H", "2*W"})}));
}
TEST(ConvTranspose, OutputPaddingDilationsGroup) {
  EXPECT_EQ(Op("ConvTranspose")
                .opset(11)
                .infer({ts(FLOAT, {1, 4, 5, "W"}), ts(FLOAT, {4, 2, 3, 3})},
                       {attr("strides", I64s{3, 2}), attr("output_padding", I64s{1, 1}), attr("dilations", I64s{2, 1}),
                        attr("group", 2)}),
            (Types{ts(FLOAT, {1, 4, 18, "2*W+2"})}));
}
TEST(ConvTranspose, SameAndOutputShape) {
  EXPECT_EQ(Op("ConvTranspose")
                .opset(11)
                .infer({ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 8, 3, 3})},
                       {attr("strides", I64s{2, 2}), attr("auto_pad", "SAME_UPPER")}),
            (Types{ts(FLOAT, {"N", 8, "2*H", "2*W"})}));
  EXPECT_EQ(Op("ConvTranspose")
                .opset(1)
                .infer({ts(FLOAT, {"N", 8, "H", "W"}), ts(FLOAT, {8, 8, 3, 3})},
                       {attr("strides", I64s{2, 2}), attr("output_shape", I64s{21, 33})}),
            (Types{ts(FLOAT, {"N", 8, 21, 33})}));
}
TEST(ConvTranspose, ChannelMismatchIsError) {
  EXPECT_ERROR(Op("ConvTranspose").opset(11).run({ts(FLOAT, {1, 4, 5, 5}), ts(FLOAT, {3, 2, 3, 3})}).report,
               "input channels 4 do not match weight");
}

// ---- Pools ----
TEST(Pool, MaxPoolFloorAndIndices) {
  EXPECT_EQ(Op("MaxPool").opset(12).outputs(2).infer({ts(FLOAT, {"N", 64, "H", "W"})},
                                                     {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 64, "H//2", "W//2"}), ts(INT64, {"N", 64, "H//2", "W//2"})}));
}
TEST(Pool, MaxPoolCeilMode) {
  EXPECT_EQ(
      Op("MaxPool").opset(10).infer({ts(FLOAT, {1, 1, 5, "H"})}, {attr("kernel_shape", I64s{2, 2}),
                                                                  attr("strides", I64s{2, 2}), attr("ceil_mode", 1)}),
      (Types{ts(FLOAT, {1, 1, 3, "(H+1)//2"})}));
  EXPECT_EQ(Op("MaxPool").opset(10).infer({ts(FLOAT, {1, 1, 5, 5})},
                                          {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {1, 1, 2, 2})}));
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
TEST(Pool, MaxPoolDilations) {
  EXPECT_EQ(Op("MaxPool").opset(12).infer({ts(FLOAT, {1, 1, "H", 10})},
                                          {attr("kernel_shape", I64s{3, 3}), attr("dilations", I64s{2, 2})}),
            (Types{ts(FLOAT, {1, 1, "H-4", 6})}));
}
TEST(Pool, AveragePoolSameAndPads) {
  EXPECT_EQ(Op("AveragePool")
                .opset(11)
                .infer({ts(FLOAT, {"N", 3, "H", 7})},
                       {attr("kernel_shape", I64s{3, 3}), attr("strides", I64s{2, 2}), attr("auto_pad", "SAME_UPPER")}),
            (Types{ts(FLOAT, {"N", 3, "(H+1)//2", 4})}));
  EXPECT_EQ(Op("AveragePool")
                .opset(7)
                .infer({ts(FLOAT, {"N", 3, "H", 7})}, {attr("kernel_shape", I64s{3, 3}), attr("pads", I64s{1, 1, 1, 1}),
                                                       attr("count_include_pad", 1)}),
            (Types{ts(FLOAT, {"N", 3, "H", 7})}));
}
TEST(Pool, LpPool) {
  EXPECT_EQ(Op("LpPool").opset(11).infer({ts(FLOAT, {"N", 3, "L"})}, {attr("kernel_shape", I64s{4}), attr("p", 2)}),
            (Types{ts(FLOAT, {"N", 3, "L-3"})}));
}
TEST(Pool, MissingKernelShapeIsUsageError) {
  EXPECT_ERROR(Op("MaxPool").opset(12).run({ts(FLOAT, {1, 3, 8, 8})}).report,
               "missing required attribute 'kernel_shape'");
}
TEST(Pool, KernelRankMismatchIsError) {
  EXPECT_ERROR(Op("AveragePool").opset(11).run({ts(FLOAT, {1, 3, 8, 8})}, {attr("kernel_shape", I64s{2})}).report,
               "kernel_shape must have 2 values");
}
TEST(Pool, UnknownInputKeepsRankFromKernel) {
  EXPECT_EQ(Op("MaxPool").opset(12).infer({ts(FLOAT)}, {attr("kernel_shape", I64s{2, 2})}),
            (Types{ts(FLOAT, {"_d0", "_d1", "_d2", "_d3"})}));
}
TEST(Pool, Global) {
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"})
    EXPECT_EQ(Op(op).opset(2).infer({ts(FLOAT, {"N", 2048, "H", "W"})}), (Types{ts(FLOAT, {"N", 2048, 1, 1})})) << op;
  EXPECT_ERROR(Op("GlobalMaxPool").opset(1).run({ts(FLOAT, {5})}).report, "input must have rank >= 2");
}
TEST(Pool, MaxRoiPool) {
  EXPECT_EQ(Op("MaxRoiPool")
                .opset(1)
                .infer({ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT, {"R", 5})}, {attr("pooled_shape", I64s{7, 7})}),
            (Types{ts(FLOAT, {"R", 256, 7, 7})}));
  EXPECT_ERROR(Op("MaxRoiPool").opset(1).run({ts(FLOAT, {1, 2, 3, 3}), ts(FLOAT, {4, 5})}).report,
               "missing required attribute 'pooled_shape'");
}
TEST(Pool, RoiAlign) {
  EXPECT_EQ(Op("RoiAlign")
                .opset(16)
                .infer({ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT, {"R", 4}), ts(INT64, {"R"})},
                       {attr("output_height", 14), attr("output_width", 7)}),
            (Types{ts(FLOAT, {"R", 256, 14, 7})}));
  EXPECT_EQ(Op("RoiAlign").opset(10).infer({ts(FLOAT, {"N", 256, "H", "W"}), ts(FLOAT), ts(INT64, {"R"})}),
            (Types{ts(FLOAT, {"R", 256, 1, 1})}));
  EXPECT_ERROR(Op("RoiAlign").opset(16).run({ts(FLOAT, {1, 2, 3, 3}), ts(FLOAT, {4, 5}), ts(INT64, {4})}).report,
               "rois must have shape [num_rois, 4], got [4,5]");
}
TEST(Pool, MaxUnpool) {
  EXPECT_EQ(Op("MaxUnpool")
                .opset(11)
                .infer({ts(FLOAT, {"N", 3, "H", "W"}), ts(INT64, {"N", 3, "H", "W"})},
                       {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}),
            (Types{ts(FLOAT, {"N", 3, "2*H", "2*W"})}));
  EXPECT_EQ(
      Op("MaxUnpool")
          .opset(11)
          .infer({ts(FLOAT, {"N", 3, 2, 2}), ts(INT64, {"N", 3, 2, 2}), sym_value(ts(INT64, {4}), {"N", 3, 5, 5})},
                 {attr("kernel_shape", I64s{2, 2}), attr("strides", I64s{2, 2})}),
      (Types{ts(FLOAT, {"N", 3, 5, 5})}));
  EXPECT_ERROR(Op("MaxUnpool").opset(11).run({ts(FLOAT, {1, 3, 2, 2}), ts(INT64, {1, 3, 2, 2})}).report,
               "missing required attribute 'kernel_shape'");
}
TEST(Pool, Col2Im) {
  EXPECT_EQ(Op("Col2Im").infer(
                {ts(FLOAT, {"N", 27, "L"}), sym_value(ts(INT64, {2}), {"H", "W"}), constant(Tensor::vector({3, 3}))}),
            (Types{ts(FLOAT, {"N", 3, "H", "W"})}));
  EXPECT_ERROR(Op("Col2Im")
                   .run({ts(FLOAT, {1, 10, 4}), constant(Tensor::vector({4, 4})), constant(Tensor::vector({3, 3}))})
                   .report,
               "is not a multiple of prod(block_shape)");
}
