// Opset-22 versions of the random generators, Det and NegativeLogLikelihoodLoss.
#include "op_test_util.hpp"

TEST(RandomLoss, RandomFromShapeAttribute) {
  EXPECT_EQ(Op("RandomNormal").opset(22).infer({}, {attr("shape", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(
      Op("RandomUniform")
          .opset(22)
          .infer({}, {attr("shape", std::vector<int64_t>{4}), attr("dtype", static_cast<int64_t>(DataType::DOUBLE))}),
      (Types{ts(DOUBLE, {4})}));
}
TEST(RandomLoss, RandomWithoutShapeIsUsageError) {
  EXPECT_ERROR(Op("RandomNormal").opset(22).run({}).report, "missing required attribute 'shape'");
}
TEST(RandomLoss, LikeAndBernoulli) {
  EXPECT_EQ(Op("RandomNormalLike").opset(22).infer({ts(FLOAT16, {"N", 3})}), (Types{ts(FLOAT16, {"N", 3})}));
  EXPECT_EQ(Op("RandomUniformLike")
                .opset(22)
                .infer({ts(FLOAT, {"N"})}, {attr("dtype", static_cast<int64_t>(DataType::DOUBLE))}),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(
      Op("Bernoulli").opset(22).infer({ts(FLOAT, {2, "S"})}, {attr("dtype", static_cast<int64_t>(DataType::BOOL))}),
      (Types{ts(BOOL, {2, "S"})}));
}
TEST(RandomLoss, Multinomial) {
  EXPECT_EQ(Op("Multinomial").opset(22).infer({ts(FLOAT, {"B", 10})}, {attr("sample_size", 5)}),
            (Types{ts(INT32, {"B", 5})}));
  EXPECT_ERROR(Op("Multinomial").opset(22).run({ts(FLOAT, {10})}).report, "input must be 2-D [batch_size, class_size]");
}
TEST(RandomLoss, Det) {
  EXPECT_EQ(Op("Det").opset(22).infer({ts(FLOAT, {"B", 3, 3})}), (Types{ts(FLOAT, {"B"})}));
  EXPECT_EQ(Op("Det").opset(22).infer({ts(FLOAT, {"M", "M"})}), (Types{ts(FLOAT, {})}));
  EXPECT_ERROR(Op("Det").opset(22).run({ts(FLOAT, {3, 4})}).report, "the last two dims must be equal");
}
TEST(RandomLoss, NegativeLogLikelihoodLoss) {
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss")
                .opset(22)
                .infer({ts(FLOAT, {3, 5, 6, 6}), ts(INT64, {3, 6, 6})}, {attr("reduction", "none")}),
            (Types{ts(FLOAT, {3, 6, 6})}));
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss").opset(22).infer({ts(FLOAT, {3, 5}), ts(INT64, {3}), ts(FLOAT, {5})}),
            (Types{ts(FLOAT, {})}));
  EXPECT_ERROR(Op("NegativeLogLikelihoodLoss").opset(22).run({ts(FLOAT, {3, 5}), ts(INT64, {3, 5})}).report,
               "target rank must be input rank - 1");
}
