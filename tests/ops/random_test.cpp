// The random generators: RandomNormal/RandomUniform, their *Like forms, Bernoulli, Multinomial.
#include "op_test_util.hpp"

TEST(Random, RandomFromShapeAttribute) {
  EXPECT_EQ(Op("RandomNormal").opset(22).infer({}, {attr("shape", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(
      Op("RandomUniform")
          .opset(22)
          .infer({}, {attr("shape", std::vector<int64_t>{4}), attr("dtype", static_cast<int64_t>(DataType::DOUBLE))}),
      (Types{ts(DOUBLE, {4})}));
}
TEST(Random, RandomWithoutShapeIsUsageError) {
  EXPECT_ERROR(Op("RandomNormal").opset(22).run({}).report, "missing required attribute 'shape'");
}
TEST(Random, LikeAndBernoulli) {
  EXPECT_EQ(Op("RandomNormalLike").opset(22).infer({ts(FLOAT16, {"N", 3})}), (Types{ts(FLOAT16, {"N", 3})}));
  EXPECT_EQ(Op("RandomUniformLike")
                .opset(22)
                .infer({ts(FLOAT, {"N"})}, {attr("dtype", static_cast<int64_t>(DataType::DOUBLE))}),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(
      Op("Bernoulli").opset(22).infer({ts(FLOAT, {2, "S"})}, {attr("dtype", static_cast<int64_t>(DataType::BOOL))}),
      (Types{ts(BOOL, {2, "S"})}));
}
TEST(Random, Multinomial) {
  EXPECT_EQ(Op("Multinomial").opset(22).infer({ts(FLOAT, {"B", 10})}, {attr("sample_size", 5)}),
            (Types{ts(INT32, {"B", 5})}));
  EXPECT_ERROR(Op("Multinomial").opset(22).run({ts(FLOAT, {10})}).report, "input must be 2-D [batch_size, class_size]");
}

TEST(Random, OlderVersions) {
  EXPECT_EQ(Op("RandomNormal").opset(1).infer({}, {attr("shape", std::vector<int64_t>{2, 3})}),
            (Types{ts(FLOAT, {2, 3})}));
  EXPECT_EQ(Op("RandomUniformLike").opset(1).infer({ts(DOUBLE, {"N"})}), (Types{ts(DOUBLE, {"N"})}));
  EXPECT_EQ(Op("Bernoulli").opset(15).infer({ts(FLOAT, {"N"})}), (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(Op("Multinomial").opset(7).infer({ts(FLOAT, {"B", 4})}, {attr("sample_size", 2)}),
            (Types{ts(INT32, {"B", 2})}));
}
