// Operators whose newer versions (opsets 18..27) only extend the types:
// they are registered at those versions with the existing rule. One line
// per family checks the behaviour at the newest opset, and that the rule
// resolved is the one registered at that since_version.
#include "op_test_util.hpp"

namespace {
int resolved(const char* op, int64_t opset) { return resolve_rule(ops::kBuiltinRules, "", op, opset).since_version; }
}  // namespace

TEST(NewerOpsets, ResolvesToTheNewestRegisteredVersion) {
  EXPECT_EQ(resolved("Acos", 27), 22);
  EXPECT_EQ(resolved("Conv", 22), 22);
  EXPECT_EQ(resolved("LSTM", 23), 22);
  EXPECT_EQ(resolved("Cast", 25), 25);
  EXPECT_EQ(resolved("Cast", 24), 24);
  EXPECT_EQ(resolved("Reshape", 27), 25);
  EXPECT_EQ(resolved("TopK", 24), 24);
  EXPECT_EQ(resolved("Range", 27), 27);
  EXPECT_EQ(resolved("Range", 26), 11);
  EXPECT_EQ(resolved("IsNaN", 20), 20);
  EXPECT_EQ(resolved("Attention", 25), 24);
  EXPECT_EQ(resolved("DFT", 19), 17);
  EXPECT_EQ(resolved("DFT", 20), 20);
}
TEST(NewerOpsets, MlOpsets4And5) {
  // ai.onnx.ml 5 (operator_sets_ml.h): TreeEnsemble, and TreeEnsembleClassifier/Regressor deprecated.
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "ai.onnx.ml", "TreeEnsembleClassifier", 5).since_version, 5);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "ai.onnx.ml", "TreeEnsembleRegressor", 5).since_version, 5);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "ai.onnx.ml", "TreeEnsembleRegressor", 4).since_version, 3);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "ai.onnx.ml", "LabelEncoder", 5).since_version, 4);
}
TEST(NewerOpsets, UnaryAt22) {
  EXPECT_EQ(Op("Acos").opset(22).infer({ts(FLOAT16, {"N", 3})}), (Types{ts(FLOAT16, {"N", 3})}));
  EXPECT_EQ(Op("Mish").opset(22).infer({ts(FLOAT, {2, "S"})}), (Types{ts(FLOAT, {2, "S"})}));
}
TEST(NewerOpsets, IsInfIsNaNAt20) {
  EXPECT_EQ(Op("IsNaN").opset(20).infer({ts(FLOAT16, {"N"})}), (Types{ts(BOOL, {"N"})}));
  EXPECT_EQ(Op("IsInf").opset(20).infer({ts(DOUBLE, {2, 3})}, {attr("detect_negative", 0)}), (Types{ts(BOOL, {2, 3})}));
}
TEST(NewerOpsets, SwishAt24) {
  EXPECT_EQ(Op("Swish").opset(24).infer({ts(FLOAT, {"B", 8})}, {attr("alpha", 1.5)}), (Types{ts(FLOAT, {"B", 8})}));
}
TEST(NewerOpsets, ConvAndPoolsAt22) {
  EXPECT_EQ(Op("Conv").opset(22).infer({ts(FLOAT, {1, 1, 5, 5}), ts(FLOAT, {1, 1, 3, 3})},
                                       {attr("pads", std::vector<int64_t>{1, 1, 1, 1})}),
            (Types{ts(FLOAT, {1, 1, 5, 5})}));
  EXPECT_EQ(
      Op("MaxPool").opset(22).infer({ts(FLOAT, {1, 3, 32, 32})}, {attr("kernel_shape", std::vector<int64_t>{2, 2}),
                                                                  attr("strides", std::vector<int64_t>{2, 2})}),
      (Types{ts(FLOAT, {1, 3, 16, 16})}));
  EXPECT_EQ(Op("GlobalAveragePool").opset(22).infer({ts(FLOAT, {"N", 3, "H", "W"})}),
            (Types{ts(FLOAT, {"N", 3, 1, 1})}));
}
TEST(NewerOpsets, RnnAt22) {
  EXPECT_EQ(Op("GRU").opset(22).outputs(2).infer(
                {ts(FLOAT, {"S", "B", 8}), ts(FLOAT, {1, 48, 8}), ts(FLOAT, {1, 48, 16})}, {attr("hidden_size", 16)}),
            (Types{ts(FLOAT, {"S", 1, "B", 16}), ts(FLOAT, {1, "B", 16})}));
}
TEST(NewerOpsets, CastAt24And25) {
  EXPECT_EQ(Op("Cast").opset(24).infer(
                {ts(FLOAT, {"N"})}, {attr("to", static_cast<int64_t>(DataType::FLOAT8E8M0)), attr("round_mode", "up")}),
            (Types{ts(DataType::FLOAT8E8M0, {"N"})}));
  EXPECT_EQ(Op("CastLike").opset(25).infer({ts(FLOAT, {"N"}), ts(INT8, {})}), (Types{ts(INT8, {"N"})}));
}
TEST(NewerOpsets, ShapeOpsAt25) {
  EXPECT_EQ(Op("Reshape").opset(25).infer({ts(FLOAT, {2, 3, 4}), constant(Tensor::vector({6, -1}))}),
            (Types{ts(FLOAT, {6, 4})}));
  EXPECT_EQ(Op("Transpose").opset(24).infer({ts(FLOAT, {"a", "b"})}), (Types{ts(FLOAT, {"b", "a"})}));
  EXPECT_EQ(Op("Flatten").opset(25).infer({ts(FLOAT, {2, 3, 4})}, {attr("axis", 1)}), (Types{ts(FLOAT, {2, 12})}));
  EXPECT_EQ(Op("Shape").opset(25).infer({ts(FLOAT, {2, "S"})}), (Types{ts(INT64, {2})}));
  EXPECT_EQ(Op("Pad").opset(24).infer({ts(FLOAT, {3, 4}), constant(Tensor::vector({1, 0, 1, 0}))}),
            (Types{ts(FLOAT, {5, 4})}));
}
TEST(NewerOpsets, TopKAt24) {
  EXPECT_EQ(Op("TopK").opset(24).outputs(2).infer({ts(FLOAT, {3, 4}), constant(Tensor::vector({2}))}),
            (Types{ts(FLOAT, {3, 2}), ts(INT64, {3, 2})}));
}
TEST(NewerOpsets, CumProdAt26) {
  EXPECT_EQ(Op("CumProd").opset(26).infer({ts(DOUBLE, {"N", 5}), constant(Tensor::scalar(1))}),
            (Types{ts(DOUBLE, {"N", 5})}));
  EXPECT_ERROR(Op("CumProd").opset(26).run({ts(DOUBLE, {5}), constant(Tensor::scalar(1))}).report,
               "axis 1 is out of range");
}
TEST(NewerOpsets, RangeAt27) {
  EXPECT_EQ(Op("Range").opset(27).infer(
                {constant(Tensor::scalar(0)), constant(Tensor::scalar(10)), constant(Tensor::scalar(3))}),
            (Types{ts(INT64, {4})}));
}
