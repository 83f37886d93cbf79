// Loss functions: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
#include "op_test_util.hpp"

TEST(SoftmaxCrossEntropyLoss, ScalarOrPerElementLoss) {
  EXPECT_EQ(Op("SoftmaxCrossEntropyLoss").opset(12).outputs(2).infer({ts(FLOAT, {"N", 5, "d"}), ts(INT64, {"N", "d"})}),
            (Types{ts(FLOAT, {}), ts(FLOAT, {"N", 5, "d"})}));
  EXPECT_EQ(Op("SoftmaxCrossEntropyLoss")
                .opset(13)
                .infer({ts(DOUBLE, {"N", 5}), ts(INT32, {"N"})}, {attr("reduction", "none")}),
            (Types{ts(DOUBLE, {"N"})}));
  EXPECT_ERROR(Op("SoftmaxCrossEntropyLoss").opset(13).run({ts(FLOAT, {"N", 5}), ts(INT64, {"N", 2})}).report,
               "target rank must be input rank - 1");
}

TEST(NegativeLogLikelihoodLoss, Opset12) {
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss").opset(12).infer({ts(FLOAT, {3, 5}), ts(INT64, {3})}),
            (Types{ts(FLOAT, {})}));
}
TEST(NegativeLogLikelihoodLoss, Opset22) {
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss")
                .opset(22)
                .infer({ts(FLOAT, {3, 5, 6, 6}), ts(INT64, {3, 6, 6})}, {attr("reduction", "none")}),
            (Types{ts(FLOAT, {3, 6, 6})}));
  EXPECT_EQ(Op("NegativeLogLikelihoodLoss").opset(22).infer({ts(FLOAT, {3, 5}), ts(INT64, {3}), ts(FLOAT, {5})}),
            (Types{ts(FLOAT, {})}));
  EXPECT_ERROR(Op("NegativeLogLikelihoodLoss").opset(22).run({ts(FLOAT, {3, 5}), ts(INT64, {3, 5})}).report,
               "target rank must be input rank - 1");
}
