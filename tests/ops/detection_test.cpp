// NonMaxSuppression, TfIdfVectorizer, SoftmaxCrossEntropyLoss, Upsample 1,
// and the older registrations of the random/loss rules.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(Detection, NonMaxSuppression) {
  EXPECT_EQ(run_shape_inference("", "NonMaxSuppression", {ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {"B", 80, "S"})}, {}, 10),
            (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_EQ(run_shape_inference("", "NonMaxSuppression", {ts(FLOAT), ts(FLOAT)}, {}, 11), (Types{ts(INT64, {"_d0", 3})}));
  EXPECT_EQ(run_node("", "NonMaxSuppression", {ts(FLOAT, {"B", "S", 5}), ts(FLOAT, {"B", 1, "S"})}, {}, 11).report.errors(), 1u);
}
TEST(Detection, TfIdfVectorizer) {
  EXPECT_EQ(run_shape_inference("", "TfIdfVectorizer", {ts(INT64, {"N", "C"})}, {attr("ngram_indexes", std::vector<int64_t>{0, 4, 2})}, 9),
            (Types{ts(FLOAT, {"N", 5})}));
  EXPECT_EQ(run_shape_inference("", "TfIdfVectorizer", {ts(STRING, {"C"})}, {attr("ngram_indexes", std::vector<int64_t>{0, 1})}, 9),
            (Types{ts(FLOAT, {2})}));
  EXPECT_EQ(run_node("", "TfIdfVectorizer", {ts(INT64, {"C"})}, {}, 9).report.errors(), 1u);
  EXPECT_EQ(run_node("", "TfIdfVectorizer", {ts(INT64, {1, 2, 3})}, {attr("ngram_indexes", std::vector<int64_t>{0})}, 9)
                .report.errors(),
            1u);
}
TEST(Detection, SoftmaxCrossEntropyLoss) {
  EXPECT_EQ(run_shape_inference("", "SoftmaxCrossEntropyLoss", {ts(FLOAT, {"N", 5, "d"}), ts(INT64, {"N", "d"})}, {}, 12, 2),
            (Types{ts(FLOAT, {}), ts(FLOAT, {"N", 5, "d"})}));
  EXPECT_EQ(run_shape_inference("", "SoftmaxCrossEntropyLoss", {ts(DOUBLE, {"N", 5}), ts(INT32, {"N"})}, {attr("reduction", "none")}, 13),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(run_node("", "SoftmaxCrossEntropyLoss", {ts(FLOAT, {"N", 5}), ts(INT64, {"N", 2})}, {}, 13).report.errors(), 1u);
}
TEST(Detection, Upsample1) {
  EXPECT_EQ(run_shape_inference("", "Upsample", {ts(FLOAT, {"N", 3, "H", 5})}, {attr("height_scale", 2.0), attr("width_scale", 1.5)}, 1),
            (Types{ts(FLOAT, {"N", 3, SymbolicDim("H") * 2, 7})}));
  EXPECT_EQ(run_node("", "Upsample", {ts(FLOAT, {3, 5})}, {attr("height_scale", 2.0), attr("width_scale", 2.0)}, 1).report.errors(), 1u);
}
TEST(Detection, OlderRandomAndLossVersions) {
  EXPECT_EQ(run_shape_inference("", "RandomNormal", {}, {attr("shape", std::vector<int64_t>{2, 3})}, 1), (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(run_shape_inference("", "RandomUniformLike", {ts(DOUBLE, {"N"})}, {}, 1), (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "Bernoulli", {ts(FLOAT, {"N"})}, {}, 15), (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "Multinomial", {ts(FLOAT, {"B", 4})}, {attr("sample_size", 2)}, 7), (Types{ts(INT32, {"B", 2})}));
  EXPECT_EQ(run_shape_inference("", "Det", {ts(FLOAT, {"B", 2, 2})}, {}, 11), (Types{ts(FLOAT, {"B"})}));
  EXPECT_EQ(run_shape_inference("", "NegativeLogLikelihoodLoss", {ts(FLOAT, {3, 5}), ts(INT64, {3})}, {}, 12), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(run_node("", "Det", {ts(FLOAT, {3})}, {}, 11).report.errors(), 1u);
}
