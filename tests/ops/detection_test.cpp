// NonMaxSuppression, TfIdfVectorizer, SoftmaxCrossEntropyLoss, Upsample 1,
// and the older registrations of the random/loss rules.
#include "op_test_util.hpp"

TEST(Detection, NonMaxSuppression) {
  EXPECT_EQ(Op("NonMaxSuppression").opset(10).infer({ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {"B", 80, "S"})}),
            (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_EQ(Op("NonMaxSuppression").opset(11).infer({ts(FLOAT), ts(FLOAT)}), (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_ERROR(Op("NonMaxSuppression").opset(11).run({ts(FLOAT, {"B", "S", 5}), ts(FLOAT, {"B", 1, "S"})}).report,
               "boxes must be [num_batches, spatial_dimension, 4]");
}
TEST(Detection, TfIdfVectorizer) {
  EXPECT_EQ(Op("TfIdfVectorizer")
                .opset(9)
                .infer({ts(INT64, {"N", "C"})}, {attr("ngram_indexes", std::vector<int64_t>{0, 4, 2})}),
            (Types{ts(FLOAT, {"N", 5})}));
  EXPECT_EQ(
      Op("TfIdfVectorizer").opset(9).infer({ts(STRING, {"C"})}, {attr("ngram_indexes", std::vector<int64_t>{0, 1})}),
      (Types{ts(FLOAT, {2})}));
  EXPECT_ERROR(Op("TfIdfVectorizer").opset(9).run({ts(INT64, {"C"})}).report,
               "missing required attribute 'ngram_indexes'");
  EXPECT_ERROR(Op("TfIdfVectorizer")
                   .opset(9)
                   .run({ts(INT64, {1, 2, 3})}, {attr("ngram_indexes", std::vector<int64_t>{0})})
                   .report,
               "input must be [C] or [N, C]");
}
TEST(Detection, SoftmaxCrossEntropyLoss) {
  EXPECT_EQ(Op("SoftmaxCrossEntropyLoss").opset(12).outputs(2).infer({ts(FLOAT, {"N", 5, "d"}), ts(INT64, {"N", "d"})}),
            (Types{ts(FLOAT, {}), ts(FLOAT, {"N", 5, "d"})}));
  EXPECT_EQ(Op("SoftmaxCrossEntropyLoss")
                .opset(13)
                .infer({ts(DOUBLE, {"N", 5}), ts(INT32, {"N"})}, {attr("reduction", "none")}),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_ERROR(Op("SoftmaxCrossEntropyLoss").opset(13).run({ts(FLOAT, {"N", 5}), ts(INT64, {"N", 2})}).report,
               "target rank must be input rank - 1");
}
TEST(Detection, Upsample1) {
  EXPECT_EQ(Op("Upsample")
                .opset(1)
                .infer({ts(FLOAT, {"N", 3, "H", 5})}, {attr("height_scale", 2.0), attr("width_scale", 1.5)}),
            (Types{ts(FLOAT, {"N", 3, SymbolicDim("H") * 2, 7})}));
  EXPECT_ERROR(
      Op("Upsample").opset(1).run({ts(FLOAT, {3, 5})}, {attr("height_scale", 2.0), attr("width_scale", 2.0)}).report,
      "input must be 4-D [N, C, H, W]");
}
TEST(Detection, OlderRandomAndLossVersions) {
  EXPECT_EQ(Op("RandomNormal").opset(1).infer({}, {attr("shape", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(Op("RandomUniformLike").opset(1).infer({ts(DOUBLE, {"N"})}), (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(Op("Bernoulli").opset(15).infer({ts(FLOAT, {"N"})}), (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(Op("Multinomial").opset(7).infer({ts(FLOAT, {"B", 4})}, {attr("sample_size", 2)}),
            (Types{ts(INT32, {"B", 2})}));
  EXPECT_EQ(Op("Det").opset(11).infer({ts(FLOAT, {"B", 2, 2})}), (Types{ts(FLOAT, {"B"})}));
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss").opset(12).infer({ts(FLOAT, {3, 5}), ts(INT64, {3})}),
            (Types{ts(FLOAT, {})}));
  EXPECT_ERROR(Op("Det").opset(11).run({ts(FLOAT, {3})}).report, "input must have rank >= 2, got shape [3]");
}
