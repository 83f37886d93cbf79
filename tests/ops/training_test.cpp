// ai.onnx.preview.training: Adagrad, Momentum, Adam, Gradient.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
constexpr const char* TR = "ai.onnx.preview.training";
}

TEST(Training, AdagradAndMomentumMirrorXAndAccumulator) {
  for (const char* op : {"Adagrad", "Momentum"}) {
    EXPECT_EQ(run_shape_inference(TR, op,
                                  {ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4}), ts(FLOAT, {"a", 3}),
                                   ts(DOUBLE, {4}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4})},
                                  {}, 18, 4),
              (Types{ts(FLOAT, {"a", 3}), ts(DOUBLE, {4}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4})}))
        << op;
    EXPECT_EQ(run_node(TR, op, {ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {2}), ts(FLOAT, {2})}, {}, 18, 2).report.errors(), 1u)
        << op;
  }
}
TEST(Training, AdamHasThreeOutputGroups) {
  EXPECT_EQ(run_shape_inference(TR, "Adam",
                                {ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {"n"}), ts(FLOAT, {"n"}), ts(FLOAT16, {"n"}),
                                 ts(DOUBLE, {"n"})},
                                {}, 18, 3),
            (Types{ts(FLOAT, {"n"}), ts(FLOAT16, {"n"}), ts(DOUBLE, {"n"})}));
  EXPECT_EQ(run_node(TR, "Adam", {ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})}, {}, 18, 1)
                .report.errors(),
            1u);
}
TEST(Training, GradientTypedLikeXs) {
  EXPECT_EQ(run_shape_inference(TR, "Gradient", {ts(FLOAT, {"N", 2}), ts(DOUBLE, {3})},
                                {Attribute::make_strings("xs", {"in1", "in0"}), attr("y", "out9")}, 18, 2),
            (Types{ts(DOUBLE, {3}), ts(FLOAT, {"N", 2})}));
  EXPECT_EQ(run_node(TR, "Gradient", {ts(FLOAT, {2})}, {attr("y", "z")}).report.errors(), 1u);
  EXPECT_EQ(run_node(TR, "Gradient", {ts(FLOAT, {2})}, {Attribute::make_strings("xs", {"in0"}), attr("y", "z")}, 18, 2)
                .report.errors(),
            1u);
}
