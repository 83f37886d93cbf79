// ai.onnx.preview.training: Adagrad, Momentum, Adam, Gradient.
#include "op_test_util.hpp"

namespace {
constexpr const char* TR = "ai.onnx.preview.training";
}

TEST(Training, AdagradAndMomentumMirrorXAndAccumulator) {
  for (const char* op : {"Adagrad", "Momentum"}) {
    // Momentum's required attributes (Adagrad has none required).
    const std::vector<Attribute> attrs =
        std::string(op) == "Momentum" ? std::vector<Attribute>{attr("alpha", 0.9), attr("beta", 1.0),
                                                               attr("mode", "standard"), attr("norm_coefficient", 0.0)}
                                      : std::vector<Attribute>{};
    EXPECT_EQ(Op(TR, op).outputs(4).infer({ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4}),
                                           ts(FLOAT, {"a", 3}), ts(DOUBLE, {4}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4})},
                                          attrs),
              (Types{ts(FLOAT, {"a", 3}), ts(DOUBLE, {4}), ts(FLOAT, {"a", 3}), ts(DOUBLE, {4})}))
        << op;
    EXPECT_ERROR(
        Op(TR, op).outputs(2).run({ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {2}), ts(FLOAT, {2})}, attrs).report,
        "missing required input 4")
        << op;
  }
  EXPECT_ERROR(Op(TR, "Momentum")
                   .run({ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})},
                        {attr("alpha", 0.9), attr("beta", 1.0), attr("mode", "standard")})
                   .report,
               "missing required attribute 'norm_coefficient' (Momentum-1)");
}
TEST(Training, AdamHasThreeOutputGroups) {
  EXPECT_EQ(Op(TR, "Adam")
                .outputs(3)
                .infer({ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {"n"}), ts(FLOAT, {"n"}), ts(FLOAT16, {"n"}),
                        ts(DOUBLE, {"n"})}),
            (Types{ts(FLOAT, {"n"}), ts(FLOAT16, {"n"}), ts(DOUBLE, {"n"})}));
  EXPECT_ERROR(
      Op(TR, "Adam").run({ts(FLOAT, {}), ts(INT64, {}), ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})}).report,
      "missing required input 5");
}
TEST(Training, GradientTypedLikeXs) {
  EXPECT_EQ(Op(TR, "Gradient")
                .outputs(2)
                .infer({ts(FLOAT, {"N", 2}), ts(DOUBLE, {3})},
                       {Attribute::make_strings("xs", {"in1", "in0"}), attr("y", "out9")}),
            (Types{ts(DOUBLE, {3}), ts(FLOAT, {"N", 2})}));
  EXPECT_ERROR(Op(TR, "Gradient").run({ts(FLOAT, {2})}, {attr("y", "z")}).report, "missing required attribute 'xs'");
  EXPECT_ERROR(Op(TR, "Gradient")
                   .outputs(2)
                   .run({ts(FLOAT, {2})}, {Attribute::make_strings("xs", {"in0"}), attr("y", "z")})
                   .report,
               "expected at most 1 outputs");
}
