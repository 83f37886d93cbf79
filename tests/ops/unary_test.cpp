#include "infer/graph_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

// Relu is max(0, x) on values; Ceil/Floor keep integral float values.
TEST(Unary, ReluAndRoundingCarryValues) {
  RunResult r = run_node("", "Relu", {sym_value(ts(INT64, {3}), {-2, 0, 5})}, {}, 14);
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{0, 0, 5}));
  RunResult c = run_node("", "Ceil", {sym_value(ts(FLOAT, {1}), {-4})}, {}, 13);
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
  for (const char* op : {"Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Erf", "Sign", "Softplus",
                         "Softsign", "HardSwish", "Round", "Ceil", "Floor", "Reciprocal", "Sin", "Acosh", "Shrink",
                         "ThresholdedRelu", "Celu", "Elu", "Selu", "LeakyRelu", "HardSigmoid"})
    EXPECT_EQ(run_shape_inference("", op, {ts(FLOAT, {"B", "T", 768})}, {}, 17), (Types{ts(FLOAT, {"B", "T", 768})}))
        << op;
}
TEST(Unary, OpsOfLaterOpsets) {
  EXPECT_EQ(run_shape_inference("", "Mish", {ts(FLOAT, {"N", 8})}, {}, 18), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(run_shape_inference("", "Gelu", {ts(FLOAT16, {"N", 8})}, {attr("approximate", "tanh")}, 20),
            (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_EQ(run_shape_inference("", "BitwiseNot", {ts(INT32, {3, "k"})}, {}, 18), (Types{ts(INT32, {3, "k"})}));
}
TEST(Unary, GeluIsNotAnOpBefore20) {
  RunResult r = run_node("", "Gelu", {ts(FLOAT, {2})}, {}, 18);
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_NE(r.outputs[0], ts(FLOAT, {2}));
}
TEST(Unary, UnknownRankStaysUnknown) {
  EXPECT_EQ(run_shape_inference("", "Relu", {ts(FLOAT)}), (Types{ts(FLOAT)}));
}
TEST(Unary, MissingInputIsUsageError) {
  RunResult r = run_node("", "Relu", {omitted()});
  EXPECT_EQ(r.report.errors(), 1u);
}
TEST(Unary, BoolOutputs) {
  EXPECT_EQ(run_shape_inference("", "Not", {ts(BOOL, {"n", 2})}), (Types{ts(BOOL, {"n", 2})}));
  EXPECT_EQ(run_shape_inference("", "IsNaN", {ts(FLOAT, {"n", 2})}), (Types{ts(BOOL, {"n", 2})}));
  EXPECT_EQ(run_shape_inference("", "IsInf", {ts(DOUBLE, {"n"})}, {}, 10), (Types{ts(BOOL, {"n"})}));
}
TEST(Unary, ClipAttributeAndInputForms) {
  EXPECT_EQ(run_shape_inference("", "Clip", {ts(FLOAT, {"N", 4})}, {attr("min", 0.0), attr("max", 6.0)}, 6),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "Clip", {ts(FLOAT, {"N", 4}), ts(FLOAT, {}), ts(FLOAT, {})}, {}, 13),
            (Types{ts(FLOAT, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "Clip", {ts(FLOAT, {"N", 4}), omitted(), ts(FLOAT, {})}, {}, 11),
            (Types{ts(FLOAT, {"N", 4})}));
}
TEST(Unary, ClipNonScalarBoundIsError) {
  RunResult r = run_node("", "Clip", {ts(FLOAT, {"N", 4}), ts(FLOAT, {4})}, {}, 13);
  EXPECT_EQ(r.report.errors(), 1u);
}
TEST(Unary, DropoutMaskTypePerOpset) {
  EXPECT_EQ(run_shape_inference("", "Dropout", {ts(FLOAT, {"N", 16})}, {attr("ratio", 0.5)}, 7, 2),
            (Types{ts(FLOAT, {"N", 16}), ts(FLOAT, {"N", 16})}));
  EXPECT_EQ(run_shape_inference("", "Dropout", {ts(FLOAT, {"N", 16})}, {}, 10, 2),
            (Types{ts(FLOAT, {"N", 16}), ts(BOOL, {"N", 16})}));
  EXPECT_EQ(run_shape_inference("", "Dropout", {ts(FLOAT, {"N", 16}), ts(FLOAT, {}), ts(BOOL, {})}, {}, 13, 2),
            (Types{ts(FLOAT, {"N", 16}), ts(BOOL, {"N", 16})}));
  EXPECT_EQ(run_shape_inference("", "Dropout", {ts(FLOAT, {"N", 16})}, {}, 12), (Types{ts(FLOAT, {"N", 16})}));
}
TEST(Unary, DropoutRatioInputBefore12IsUsageError) {
  RunResult r = run_node("", "Dropout", {ts(FLOAT, {2}), ts(FLOAT, {})}, {}, 10);
  EXPECT_EQ(r.report.errors(), 1u);
}
TEST(Unary, DropoutNonScalarRatioIsError) {
  RunResult r = run_node("", "Dropout", {ts(FLOAT, {2}), ts(FLOAT, {2})}, {}, 13);
  EXPECT_EQ(r.report.errors(), 1u);
}
TEST(Unary, SoftmaxFamilyKeepsShape) {
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    EXPECT_EQ(run_shape_inference("", op, {ts(FLOAT, {"B", 12, "T", "T"})}, {}, 13),
              (Types{ts(FLOAT, {"B", 12, "T", "T"})}))
        << op;
    EXPECT_EQ(run_shape_inference("", op, {ts(FLOAT, {"B", 10})}, {attr("axis", 1)}, 11), (Types{ts(FLOAT, {"B", 10})}))
        << op;
  }
}
TEST(Unary, SoftmaxAxisOutOfRangeIsError) {
  RunResult r = run_node("", "Softmax", {ts(FLOAT, {"B", 10})}, {attr("axis", 2)}, 13);
  EXPECT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("out of range"), std::string::npos);
  EXPECT_EQ(run_node("", "LogSoftmax", {ts(FLOAT, {"B", 10})}, {attr("axis", -3)}, 11).report.errors(), 1u);
}
TEST(Unary, Softmax13OnScalarIsError) {
  EXPECT_EQ(run_node("", "Softmax", {ts(FLOAT, {})}, {}, 13).report.errors(), 1u);
}
TEST(Unary, NormalisersKeepShape) {
  EXPECT_EQ(run_shape_inference("", "LpNormalization", {ts(FLOAT, {"N", 64})}, {attr("p", 2)}, 1),
            (Types{ts(FLOAT, {"N", 64})}));
  EXPECT_EQ(run_shape_inference("", "MeanVarianceNormalization", {ts(FLOAT, {"N", 3, "H", "W"})}, {}, 13),
            (Types{ts(FLOAT, {"N", 3, "H", "W"})}));
  EXPECT_EQ(run_shape_inference("", "LRN", {ts(FLOAT, {"N", 3, "H", "W"})}, {attr("size", 5)}, 13),
            (Types{ts(FLOAT, {"N", 3, "H", "W"})}));
}
TEST(Unary, LrnWithoutSizeIsUsageError) {
  EXPECT_EQ(run_node("", "LRN", {ts(FLOAT, {1, 3, 4, 4})}, {}, 13).report.errors(), 1u);
}
TEST(Unary, MvnAxesOutOfRangeIsError) {
  EXPECT_EQ(run_node("", "MeanVarianceNormalization", {ts(FLOAT, {1, 3})}, {attr("axes", std::vector<int64_t>{0, 2})})
                .report.errors(),
            1u);
}
TEST(Unary, NegAndAbsPropagateIntegerValues) {
  RunResult r = run_node("", "Neg", {sym_value(ts(INT64, {2}), {"seq", -3})}, {}, 13);
  EXPECT_EQ(r.outputs[0], ts(INT64, {2}));
  ASSERT_TRUE(r.values[0].has_value());
  EXPECT_EQ(*r.values[0], (std::vector<SymbolicDim>{SymbolicDim("-seq"), 3}));
  RunResult a = run_node("", "Abs", {sym_value(ts(INT64, {3}), {"seq", -3, "a-b"})}, {}, 13);
  ASSERT_TRUE(a.values[0].has_value());
  EXPECT_EQ((*a.values[0])[0], SymbolicDim("seq"));
  EXPECT_EQ((*a.values[0])[1], SymbolicDim(3));
  EXPECT_TRUE((*a.values[0])[2].is_unknown());
  EXPECT_FALSE(run_node("", "Neg", {sym_value(ts(FLOAT, {1}), {2})}, {}, 13).values[0].has_value());
}
