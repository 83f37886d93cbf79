#include "op_test_util.hpp"

// ---- axes as an attribute (ReduceSum < 13, others < 18) ----
TEST(Reduce, AttrAxesKeepdims) {
  EXPECT_EQ(Op("ReduceMean").opset(17).infer({ts(FLOAT, {"B", "T", 768})}, {attr("axes", I64s{-1})}),
            (Types{ts(FLOAT, {"B", "T", 1})}));
}
TEST(Reduce, AttrAxesNoKeepdims) {
  EXPECT_EQ(Op("ReduceMax")
                .opset(13)
                .infer({ts(FLOAT, {"N", "C", "H", "W"})}, {attr("axes", I64s{2, 3}), attr("keepdims", 0)}),
            (Types{ts(FLOAT, {"N", "C"})}));
  EXPECT_EQ(Op("ReduceSum").opset(11).infer({ts(FLOAT, {"N", 5})}, {attr("axes", I64s{0}), attr("keepdims", 0)}),
            (Types{ts(FLOAT, {5})}));
}
TEST(Reduce, NoAxesReducesAll) {
  EXPECT_EQ(Op("ReduceL2").opset(13).infer({ts(FLOAT, {"N", 5})}), (Types{ts(FLOAT, {1, 1})}));
  EXPECT_EQ(Op("ReduceLogSumExp").opset(13).infer({ts(FLOAT, {"N", 5})}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT, {})}));
}
TEST(Reduce, AllAttrFamilyMembers) {
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"})
    EXPECT_EQ(Op(op).opset(11).infer({ts(FLOAT, {"a", "b", "c"})}, {attr("axes", I64s{1})}),
              (Types{ts(FLOAT, {"a", 1, "c"})}))
        << op;
}
TEST(Reduce, AttrAxisOutOfRangeIsError) {
  RunResult r = Op("ReduceMean").opset(13).run({ts(FLOAT, {2, 3})}, {attr("axes", I64s{2})});
  EXPECT_ERROR(r.report, "axis 2 is out of range");
}
TEST(Reduce, RepeatedAxisIsError) {
  EXPECT_ERROR(Op("ReduceMean").opset(13).run({ts(FLOAT, {2, 3})}, {attr("axes", I64s{1, -1})}).report,
               "axis -1 is repeated in axes");
}
TEST(Reduce, AxesAttributeAfterSwitchIsUsageError) {
  EXPECT_ERROR(Op("ReduceMean").run({ts(FLOAT, {2, 3})}, {attr("axes", I64s{1})}).report,
               "'axes' is an input since this opset, not an attribute");
  // ReduceSum-13 is in ONNX's schema table, so the schema check names it first.
  EXPECT_ERROR(Op("ReduceSum").opset(13).run({ts(FLOAT, {2, 3})}, {attr("axes", I64s{1})}).report,
               "unknown attribute 'axes' for ReduceSum-13");
}
TEST(Reduce, AxesInputBeforeSwitchIsUsageError) {
  EXPECT_ERROR(Op("ReduceMean").opset(17).run({ts(FLOAT, {2, 3}), constant(Tensor::vector({1}))}).report,
               "ReduceMean-13 takes at most 1 input, got 2");
}

// ---- axes as an input (ReduceSum 13+, others 18+) ----
TEST(Reduce, AxesInput) {
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"B", "T", 768}), constant(Tensor::vector({1}))}),
            (Types{ts(FLOAT, {"B", 1, 768})}));
  EXPECT_EQ(Op("ReduceMean").infer({ts(FLOAT, {"B", "T", 768}), constant(Tensor::vector({-1}))}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT, {"B", "T"})}));
  for (const char* op : {"ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
                         "ReduceLogSumExp", "ReduceSumSquare"})
    EXPECT_EQ(Op(op).infer({ts(FLOAT, {"a", "b", "c"}), constant(Tensor::vector({0, 2}))}),
              (Types{ts(FLOAT, {1, "b", 1})}))
        << op;
}
TEST(Reduce, EmptyAxesInputReducesAllOrIsNoop) {
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"N", 4})}), (Types{ts(FLOAT, {1, 1})}));
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"N", 4})}, {attr("noop_with_empty_axes", 1)}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("ReduceMax")
                .infer({ts(FLOAT, {"N", 4}), constant(Tensor::vector({}))},
                       {attr("noop_with_empty_axes", 1), attr("keepdims", 0)}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("ReduceMax").infer({ts(FLOAT, {"N", 4}), constant(Tensor::vector({}))}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT, {})}));
}
TEST(Reduce, UnknownAxesValues) {
  // keepdims: the rank stays; dims are unknown (named) except those already 1.
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"N", 1, 4}), ts(INT64, {1})}),
            (Types{ts(FLOAT, {"_d0", 1, "_d1"})}));
  // no keepdims, known number of axes: rank - k.
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"N", 1, 4}), ts(INT64, {2})}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT, {"_d0"})}));
  // no keepdims, unknown number of axes: unknown rank.
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {"N", 1, 4}), ts(INT64, {"k"})}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT)}));
}
// One unknown axis of [3,2,2] without keepdims leaves [2,2], [3,2] or [3,2]:
// the second dim is 2 whichever axis goes.
TEST(Reduce, UnknownAxesKeepDimsCommonToEveryChoice) {
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {3, 2, 2}), ts(INT64, {1})}, {attr("keepdims", 0)}),
            (Types{ts(FLOAT, {"_d0", 2})}));
}
// As many (distinct) axes as the rank reduce every axis: [1,1,1] with keepdims.
TEST(Reduce, UnknownAxesCoveringTheRank) {
  EXPECT_EQ(Op("ReduceSum").opset(13).infer({ts(FLOAT, {3, 2, 2}), ts(INT64, {3})}), (Types{ts(FLOAT, {1, 1, 1})}));
}
TEST(Reduce, AxesInputOutOfRangeIsError) {
  EXPECT_ERROR(Op("ReduceL1").run({ts(FLOAT, {2, 3}), constant(Tensor::vector({-3}))}).report,
               "axis -3 is out of range");
}
TEST(Reduce, UnknownInputRank) {
  EXPECT_EQ(Op("ReduceMean").opset(13).infer({ts(FLOAT)}, {attr("axes", I64s{1})}), (Types{ts(FLOAT)}));
}
TEST(Reduce, UsesPropagatedAxes) {
  EXPECT_EQ(Op("ReduceMean").infer({ts(FLOAT, {"B", "T", 8}), sym_value(ts(INT64, {1}), {1})}),
            (Types{ts(FLOAT, {"B", 1, 8})}));
}

// ---- partial data propagation ----
TEST(Reduce, ProdOfShapeIsProductValue) {
  RunResult r = Op("ReduceProd").opset(13).run({sym_value(ts(INT64, {3}), {"B", "T", 768})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {1}));
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("768*B*T")}));
}
TEST(Reduce, ProdWithAxesInputAt18) {
  RunResult r =
      Op("ReduceProd").run({sym_value(ts(INT64, {2}), {"B", 4}), constant(Tensor::vector({0}))}, {attr("keepdims", 0)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("4*B")}));
}
TEST(Reduce, SumOfValues) {
  RunResult r = Op("ReduceSum").opset(13).run({sym_value(ts(INT64, {2}), {"past", "seq"})});
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("past+seq")}));
}
TEST(Reduce, NoValueForFloatOrMean) {
  RunResult r = Op("ReduceMean").opset(13).run({sym_value(ts(INT64, {2}), {"a", "b"})});
  EXPECT_FALSE(r.values[0].has_value());
}

// ---- ArgMax / ArgMin ----
TEST(ArgReduce, Int64Output) {
  EXPECT_EQ(Op("ArgMax").opset(13).infer({ts(FLOAT, {"B", "T", 50257})}, {attr("axis", -1)}),
            (Types{ts(INT64, {"B", "T", 1})}));
  EXPECT_EQ(Op("ArgMin").opset(12).infer({ts(FLOAT, {"B", "T", 50257})},
                                         {attr("axis", 1), attr("keepdims", 0), attr("select_last_index", 1)}),
            (Types{ts(INT64, {"B", 50257})}));
  EXPECT_EQ(Op("ArgMax").opset(1).infer({ts(FLOAT, {"N", 3})}), (Types{ts(INT64, {1, 3})}));
  EXPECT_EQ(Op("ArgMax").opset(13).infer({ts(FLOAT)}), (Types{ts(INT64)}));
}
TEST(ArgReduce, AxisOutOfRangeIsError) {
  EXPECT_ERROR(Op("ArgMax").opset(13).run({ts(FLOAT, {2, 3})}, {attr("axis", 2)}).report, "axis 2 is out of range");
}
TEST(Reduce, ProdOfValueWithUnknownShape) {
  RunResult r = Op("ReduceProd").opset(13).run({sym_value(ts(INT64), {"B", "T"})}, {attr("keepdims", 0)});
  EXPECT_EQ(r.outputs[0], ts(INT64, {}));
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("B*T")}));
}

// Shape -> ReduceProd gives the element count as a value; a transformer
// block's LayerNorm -> MatMul -> Softmax -> ReduceMean keeps symbolic dims.
TEST(Reduce, ChainShapeReduceProdAndTransformerBlock) {
  Model m;
  m.opset_imports[""] = 18;
  GraphBuilder b(*m.graph);
  b.input("x", ts(FLOAT, {"B", "T", 768}));
  b.input("g", ts(FLOAT, {768}));
  b.input("w", ts(FLOAT, {768, 3072}));
  b.node("Shape", {"x"}, {"s"});
  b.node("ReduceProd", {"s"}, {"numel"});
  b.node("LayerNormalization", {"x", "g"}, {"ln"}, {attr("axis", -1)});
  b.node("MatMul", {"ln", "w"}, {"h"});
  b.node("Softmax", {"h"}, {"p"});
  b.initializer("axes", Tensor::vector({1}));
  b.node("ReduceMean", {"p", "axes"}, {"m"}, {attr("keepdims", 0)});
  b.output("numel");
  b.output("m");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(m.graph->outputs[0]->type, ts(INT64, {1}));
  ASSERT_TRUE(m.graph->outputs[0]->symbolic_value.has_value());
  EXPECT_EQ(*m.graph->outputs[0]->symbolic_value, (std::vector<SymbolicDim>{SymbolicDim("768*B*T")}));
  EXPECT_EQ(m.graph->outputs[1]->type, ts(FLOAT, {"B", 3072}));
}
