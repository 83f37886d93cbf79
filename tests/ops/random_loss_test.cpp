// Opset-22 versions of the random generators, Det and NegativeLogLikelihoodLoss.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(RandomLoss, RandomFromShapeAttribute) {
  EXPECT_EQ(run_shape_inference("", "RandomNormal", {}, {attr("shape", std::vector<int64_t>{2, 3})}, 22),
            (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(run_shape_inference("", "RandomUniform", {},
                                {attr("shape", std::vector<int64_t>{4}), attr("dtype", static_cast<int64_t>(DataType::DOUBLE))},
                                22),
            (Types{ts(DOUBLE, {4})}));
}
TEST(RandomLoss, RandomWithoutShapeIsUsageError) {
  EXPECT_EQ(run_node("", "RandomNormal", {}, {}, 22).report.errors(), 1u);
}
TEST(RandomLoss, LikeAndBernoulli) {
  EXPECT_EQ(run_shape_inference("", "RandomNormalLike", {ts(FLOAT16, {"N", 3})}, {}, 22), (Types{ts(FLOAT16, {"N", 3})}));
  EXPECT_EQ(run_shape_inference("", "RandomUniformLike", {ts(FLOAT, {"N"})},
                                {attr("dtype", static_cast<int64_t>(DataType::DOUBLE))}, 22),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "Bernoulli", {ts(FLOAT, {2, "S"})}, {attr("dtype", static_cast<int64_t>(DataType::BOOL))},
                                22),
            (Types{ts(BOOL, {2, "S"})}));
}
TEST(RandomLoss, Multinomial) {
  EXPECT_EQ(run_shape_inference("", "Multinomial", {ts(FLOAT, {"B", 10})}, {attr("sample_size", 5)}, 22),
            (Types{ts(INT32, {"B", 5})}));
  EXPECT_EQ(run_node("", "Multinomial", {ts(FLOAT, {10})}, {}, 22).report.errors(), 1u);
}
TEST(RandomLoss, Det) {
  EXPECT_EQ(run_shape_inference("", "Det", {ts(FLOAT, {"B", 3, 3})}, {}, 22), (Types{ts(FLOAT, {"B"})}));
  EXPECT_EQ(run_shape_inference("", "Det", {ts(FLOAT, {"M", "M"})}, {}, 22), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(run_node("", "Det", {ts(FLOAT, {3, 4})}, {}, 22).report.errors(), 1u);
}
TEST(RandomLoss, NegativeLogLikelihoodLoss) {
  EXPECT_EQ(run_shape_inference("", "NegativeLogLikelihoodLoss", {ts(FLOAT, {3, 5, 6, 6}), ts(INT64, {3, 6, 6})},
                                {attr("reduction", "none")}, 22),
            (Types{ts(FLOAT, {3, 6, 6})}));
  EXPECT_EQ(run_shape_inference("", "NegativeLogLikelihoodLoss", {ts(FLOAT, {3, 5}), ts(INT64, {3}), ts(FLOAT, {5})}, {}, 22),
            (Types{ts(FLOAT, {})}));
  EXPECT_EQ(run_node("", "NegativeLogLikelihoodLoss", {ts(FLOAT, {3, 5}), ts(INT64, {3, 5})}, {}, 22).report.errors(), 1u);
}
