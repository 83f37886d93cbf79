#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
const char* kMs = "com.microsoft";
}

TEST(MicrosoftNorm, LayerNormalizationStats) {
  EXPECT_EQ(run_shape_inference(kMs, "LayerNormalization", {ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}, {}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT, {"B", "S", 1})}));
  EXPECT_EQ(run_shape_inference(kMs, "SimplifiedLayerNormalization", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768})}, {attr("axis", 1)}, 18, 2),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", 1, 1})}));
  EXPECT_EQ(run_node(kMs, "LayerNormalization", {ts(FLOAT, {"B", 768})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "LayerNormalization", {ts(FLOAT, {"B", 768}), ts(FLOAT, {768})}, {attr("axis", 2)}).report.errors(), 1u);
}
TEST(MicrosoftNorm, SkipLayerNormalizationOutputs) {
  EXPECT_EQ(run_shape_inference(kMs, "SkipLayerNormalization", {ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}, {}, 18, 4),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT16, {"B", "S", 768})}));
  EXPECT_EQ(run_shape_inference(kMs, "SkipSimplifiedLayerNormalization", {ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {64})}),
            (Types{ts(FLOAT, {"B", "S", 64})}));
  EXPECT_EQ(run_node(kMs, "SkipLayerNormalization", {ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 64})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "SkipLayerNormalization", {ts(FLOAT, {64}), ts(FLOAT, {64}), ts(FLOAT, {64})}).report.errors(), 1u);
}
TEST(MicrosoftNorm, EmbedLayerNormalization) {
  EXPECT_EQ(run_shape_inference(kMs, "EmbedLayerNormalization",
                                {ts(INT32, {"B", "S"}), ts(INT32, {"B", "S"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}), ts(FLOAT, {2, 768}),
                                 ts(FLOAT, {768}), ts(FLOAT, {768}), ts(INT32, {"B", "S"})},
                                {}, 18, 3),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(INT32, {"B"}), ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_shape_inference(kMs, "EmbedLayerNormalization",
                                {ts(INT32, {"B", "S"}), omitted(), ts(FLOAT16, {30522, 768}), ts(FLOAT16, {512, 768}), omitted(), ts(FLOAT16, {768}), ts(FLOAT16, {768})},
                                {}, 18, 2),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(INT32, {"B"})}));
  EXPECT_EQ(run_node(kMs, "EmbedLayerNormalization", {ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768})}).report.errors(), 1u);
}
