#include "infer/graph_test_util.hpp"

// Relu is max(0, x) on values; Ceil/Floor keep integral float values.
TEST(Unary, ReluAndRoundingCarryValues) {
  RunResult r = Op("Relu").opset(14).run({sym_value(ts(INT64, {3}), {-2, 0, 5})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{0, 0, 5}));
  RunResult pad = Op("Relu").opset(14).run({sym_value(ts(INT64, {2}), {"2*((h+3)//4)-(h+1)//2+3", "h-4"})});
  ASSERT_TRUE(pad.values[0]);
  EXPECT_EQ(*pad.values[0],
            (std::vector<SymbolicDim>{SymbolicDim("2*((h+3)//4)-(h+1)//2+3"), SymbolicDim("max(0,h-4)")}));
  RunResult c = Op("Ceil").opset(13).run({sym_value(ts(FLOAT, {1}), {-4})});
  ASSERT_TRUE(c.values[0]);
  EXPECT_EQ(*c.values[0], (std::vector<SymbolicDim>{-4}));
}
namespace {
// y = <op>(Div(a, b)) over float scalars of known (integral) values.
std::optional<std::vector<SymbolicDim>> rounded_quotient(const std::string& op, int64_t a, int64_t b) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {}))->symbolic_value = std::vector<SymbolicDim>{a};
  g.input("b", ts(FLOAT, {}))->symbolic_value = std::vector<SymbolicDim>{b};
  g.node("Div", {"a", "b"}, {"q"});
  g.node(op, {"q"}, {"y"});
  g.output("y");
  infer_shapes(m);
  return m.graph->outputs[0]->symbolic_value;
}
}  // namespace
// -4 / -3 = 1.33: Ceil gives 2, Floor 1; 7 / -2 = -3.5: Ceil -3, Floor -4.
TEST(Unary, CeilAndFloorOfAFloatQuotient) {
  EXPECT_EQ(rounded_quotient("Ceil", -4, -3), (std::vector<SymbolicDim>{2}));
  EXPECT_EQ(rounded_quotient("Floor", -4, -3), (std::vector<SymbolicDim>{1}));
  EXPECT_EQ(rounded_quotient("Ceil", 7, -2), (std::vector<SymbolicDim>{-3}));
  EXPECT_EQ(rounded_quotient("Floor", 7, -2), (std::vector<SymbolicDim>{-4}));
}
TEST(Unary, PassthroughKeepsSymbolicShape) {
  for (const char* op : {"Abs",  "Neg",   "Relu",       "Sigmoid",   "Tanh",       "Exp",       "Log",
                         "Sqrt", "Erf",   "Sign",       "Softplus",  "Softsign",   "HardSwish", "Round",
                         "Ceil", "Floor", "Reciprocal", "Sin",       "Acosh",      "Shrink",    "ThresholdedRelu",
                         "Celu", "Elu",   "Selu",       "LeakyRelu", "HardSigmoid"})
    EXPECT_EQ(Op(op).opset(17).infer({ts(FLOAT, {"B", "T", 768})}), (Types{ts(FLOAT, {"B", "T", 768})})) << op;
}
TEST(Unary, OpsOfLaterOpsets) {
  EXPECT_EQ(Op("Mish").infer({ts(FLOAT, {"N", 8})}), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(Op("Gelu").opset(20).infer({ts(FLOAT16, {"N", 8})}, {attr("approximate", "tanh")}),
            (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_EQ(Op("BitwiseNot").infer({ts(INT32, {3, "k"})}), (Types{ts(INT32, {3, "k"})}));
}
TEST(Unary, GeluIsNotAnOpBefore20) {
  RunResult r = Op("Gelu").run({ts(FLOAT, {2})});
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_NE(r.outputs[0], ts(FLOAT, {2}));
}
TEST(Unary, UnknownRankStaysUnknown) { EXPECT_EQ(Op("Relu").infer({ts(FLOAT)}), (Types{ts(FLOAT)})); }
TEST(Unary, MissingInputIsUsageError) {
  RunResult r = Op("Relu").run({omitted()});
  EXPECT_ERROR(r.report, "missing required input 0");
}
TEST(Unary, BoolOutputs) {
  EXPECT_EQ(Op("Not").infer({ts(BOOL, {"n", 2})}), (Types{ts(BOOL, {"n", 2})}));
  EXPECT_EQ(Op("IsNaN").infer({ts(FLOAT, {"n", 2})}), (Types{ts(BOOL, {"n", 2})}));
  EXPECT_EQ(Op("IsInf").opset(10).infer({ts(DOUBLE, {"n"})}), (Types{ts(BOOL, {"n"})}));
}
TEST(Unary, ClipAttributeAndInputForms) {
  EXPECT_EQ(Op("Clip").opset(6).infer({ts(FLOAT, {"N", 4})}, {attr("min", 0.0), attr("max", 6.0)}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("Clip").opset(13).infer({ts(FLOAT, {"N", 4}), ts(FLOAT, {}), ts(FLOAT, {})}),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(Op("Clip").opset(11).infer({ts(FLOAT, {"N", 4}), omitted(), ts(FLOAT, {})}), (Types{ts(FLOAT, {"N", 4})}));
}
TEST(Unary, ClipNonScalarBoundIsError) {
  RunResult r = Op("Clip").opset(13).run({ts(FLOAT, {"N", 4}), ts(FLOAT, {4})});
  EXPECT_ERROR(r.report, "min must be a scalar, got shape [4]");
}
TEST(Unary, DropoutMaskTypePerOpset) {
  EXPECT_EQ(Op("Dropout").opset(7).outputs(2).infer({ts(FLOAT, {"N", 16})}, {attr("ratio", 0.5)}),
            (Types{ts(FLOAT, {"N", 16}), ts(FLOAT, {"N", 16})}));
  EXPECT_EQ(Op("Dropout").opset(10).outputs(2).infer({ts(FLOAT, {"N", 16})}),
            (Types{ts(FLOAT, {"N", 16}), ts(BOOL, {"N", 16})}));
  EXPECT_EQ(Op("Dropout").opset(13).outputs(2).infer({ts(FLOAT, {"N", 16}), ts(FLOAT, {}), ts(BOOL, {})}),
            (Types{ts(FLOAT, {"N", 16}), ts(BOOL, {"N", 16})}));
  EXPECT_EQ(Op("Dropout").opset(12).infer({ts(FLOAT, {"N", 16})}), (Types{ts(FLOAT, {"N", 16})}));
}
TEST(Unary, DropoutRatioInputBefore12IsUsageError) {
  RunResult r = Op("Dropout").opset(10).run({ts(FLOAT, {2}), ts(FLOAT, {})});
  EXPECT_ERROR(r.report, "Dropout-10 takes at most 1 input, got 2");
}
TEST(Unary, DropoutNonScalarRatioIsError) {
  RunResult r = Op("Dropout").opset(13).run({ts(FLOAT, {2}), ts(FLOAT, {2})});
  EXPECT_ERROR(r.report, "ratio must be a scalar, got shape [2]");
}
TEST(Unary, SoftmaxFamilyKeepsShape) {
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    EXPECT_EQ(Op(op).opset(13).infer({ts(FLOAT, {"B", 12, "T", "T"})}), (Types{ts(FLOAT, {"B", 12, "T", "T"})})) << op;
    EXPECT_EQ(Op(op).opset(11).infer({ts(FLOAT, {"B", 10})}, {attr("axis", 1)}), (Types{ts(FLOAT, {"B", 10})})) << op;
  }
}
TEST(Unary, SoftmaxAxisOutOfRangeIsError) {
  RunResult r = Op("Softmax").opset(13).run({ts(FLOAT, {"B", 10})}, {attr("axis", 2)});
  EXPECT_ERROR(r.report, "axis 2 is out of range");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("out of range"), std::string::npos);
  EXPECT_ERROR(Op("LogSoftmax").opset(11).run({ts(FLOAT, {"B", 10})}, {attr("axis", -3)}).report,
               "axis -3 is out of range");
}
TEST(Unary, Softmax13OnScalarIsError) {
  EXPECT_ERROR(Op("Softmax").opset(13).run({ts(FLOAT, {})}).report, "axis -1 is out of range");
}
TEST(Unary, NormalisersKeepShape) {
  EXPECT_EQ(Op("LpNormalization").opset(1).infer({ts(FLOAT, {"N", 64})}, {attr("p", 2)}),
            (Types{ts(FLOAT, {"N", 64})}));
  EXPECT_EQ(Op("MeanVarianceNormalization").opset(13).infer({ts(FLOAT, {"N", 3, "H", "W"})}),
            (Types{ts(FLOAT, {"N", 3, "H", "W"})}));
  EXPECT_EQ(Op("LRN").opset(13).infer({ts(FLOAT, {"N", 3, "H", "W"})}, {attr("size", 5)}),
            (Types{ts(FLOAT, {"N", 3, "H", "W"})}));
}
TEST(Unary, LrnWithoutSizeIsUsageError) {
  EXPECT_ERROR(Op("LRN").opset(13).run({ts(FLOAT, {1, 3, 4, 4})}).report, "missing required attribute 'size'");
}
TEST(Unary, MvnAxesOutOfRangeIsError) {
  EXPECT_ERROR(
      Op("MeanVarianceNormalization").run({ts(FLOAT, {1, 3})}, {attr("axes", std::vector<int64_t>{0, 2})}).report,
      "axis 2 is out of range");
}
TEST(Unary, NegAndAbsPropagateIntegerValues) {
  RunResult r = Op("Neg").opset(13).run({sym_value(ts(INT64, {2}), {"seq", -3})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("-seq"), 3}));
  RunResult a = Op("Abs").opset(13).run({sym_value(ts(INT64, {3}), {"seq", -3, "a-b"})});
  ASSERT_TRUE(a.values[0].has_value());
  EXPECT_EQ((*a.values[0])[0], SymbolicDim("seq"));
  EXPECT_EQ((*a.values[0])[1], SymbolicDim(3));
  EXPECT_EQ((*a.values[0])[2], SymbolicDim("max(a-b,b-a)"));
}
// Floats too (torch's arange(seq - 1, -seq, -1.0)), fractions included.
TEST(Unary, NegAndAbsPropagateFloatValues) {
  EXPECT_EQ(*Op("Neg").opset(13).run({sym_value(ts(FLOAT, {2}), {2, "seq-1"})}).values[0], (V{-2, "1-seq"}));
  RunResult r = Op("Abs").opset(13).run({constant(Tensor::floats({-2.5, 0.75}, {2}))});
  ASSERT_TRUE(r.fractions[0]);
  EXPECT_EQ(r.fractions[0]->num, (V{10, 3}));
  EXPECT_EQ(r.fractions[0]->den, 4);
}
TEST(Unary, RoundIsHalfToEven) {
  RunResult r = Op("Round").opset(11).run({constant(Tensor::floats({0.5, 1.5, 2.5, -2.5, -0.75, 1.25}, {6}))});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (V{0, 2, 2, -2, -1, 1}));
}

TEST(Identity, PassesTypeAndValue) {
  RunResult r = Op("Identity").opset(16).run({sym_value(ts(INT64, {2}), {"B", "T"})});
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  EXPECT_EQ(*r.values[0], (V{"B", "T"}));
  EXPECT_EQ(Op("Identity").opset(14).infer({Type::sequence(ts(FLOAT, {"N"}))}),
            (Types{Type::sequence(ts(FLOAT, {"N"}))}));
  EXPECT_EQ(Op("Identity").opset(1).infer({ts(FLOAT, {3})}), (Types{ts(FLOAT, {3})}));
}
TEST(Identity, MissingInputIsUsageError) {
  EXPECT_ERROR(Op("Identity").opset(13).run({}).report, "missing required input 0");
}

// Clip of known integer values: clamp(k - L, min=0) in computed pads.
TEST(Unary, ClipPropagatesValues) {
  RunResult r =
      Op("Clip").opset(13).run({sym_value(ts(INT64, {2}), {"k-4", 7}), constant(Tensor::scalar(0)), omitted()});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("max(0,k-4)"), 7}));
  RunResult both = Op("Clip").opset(13).run(
      {sym_value(ts(INT64, {2}), {"k", 9}), constant(Tensor::scalar(2)), constant(Tensor::scalar(5))});
  ASSERT_TRUE(both.values[0]);
  EXPECT_EQ(*both.values[0], (std::vector<SymbolicDim>{SymbolicDim("min(5,max(2,k))"), 5}));
  // The prover settles a bound the expression's bounds leave open: the
  // TF-SAME pad 2*((h+3)//4) - (h+1)//2 + 3 is never negative (but may
  // exceed h), and (h+1)//2 is never negative and never exceeds h.
  RunResult same = Op("Clip").opset(13).run({sym_value(ts(INT64, {2}), {"2*((h+3)//4)-(h+1)//2+3", "(h+1)//2"}),
                                             constant(Tensor::scalar(0)), sym_value(ts(INT64, {}), {"h"})});
  ASSERT_TRUE(same.values[0]);
  EXPECT_EQ(*same.values[0],
            (std::vector<SymbolicDim>{SymbolicDim("min(h,2*((h+3)//4)-(h+1)//2+3)"), SymbolicDim("(h+1)//2")}));
  // A bound whose value is unknown gives no value.
  EXPECT_FALSE(Op("Clip").opset(13).run({sym_value(ts(INT64, {1}), {"k"}), ts(INT64, {}), omitted()}).values[0]);
  // Opset 6: whole float attributes bound whole float values.
  RunResult f = Op("Clip").opset(6).run({sym_value(ts(FLOAT, {1}), {9})}, {attr("min", 0.0), attr("max", 6.0)});
  ASSERT_TRUE(f.values[0]);
  EXPECT_EQ(*f.values[0], (std::vector<SymbolicDim>{6}));
}
