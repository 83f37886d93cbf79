#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
const char* kMs = "com.microsoft";
}

// onnxruntime's contrib LayerNormalization / SimplifiedLayerNormalization are
// ai.onnx v1 schemas (contrib_defs.cc, SetDomain(kOnnxDomain)); ONNX's own
// LayerNormalization-17 applies from opset 17, so these run at opset 16.
TEST(MicrosoftNorm, LayerNormalizationStats) {
  EXPECT_EQ(run_shape_inference("", "LayerNormalization", {ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}, {}, 16, 3),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT, {"B", "S", 1})}));
  // Stats are [d0, .., d_{axis-1}, 1, .., 1] as the kernels allocate them (layer_norm_impl).
  EXPECT_EQ(run_shape_inference("", "SimplifiedLayerNormalization", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768})}, {attr("axis", 1)}, 18, 2),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", 1, 1})}));
  EXPECT_EQ(run_node("", "LayerNormalization", {ts(FLOAT, {"B", 768})}, {}, 16).report.errors(), 1u);
  EXPECT_EQ(run_node("", "LayerNormalization", {ts(FLOAT, {"B", 768}), ts(FLOAT, {768})}, {attr("axis", 2)}, 16).report.errors(), 1u);
}
TEST(MicrosoftNorm, LayerNormalizationDomain) {
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "LayerNormalization", 16).since_version, 1);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "LayerNormalization", 17).since_version, 17);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "SimplifiedLayerNormalization", 21).since_version, 1);
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "com.microsoft", "LayerNormalization", 1));
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "com.microsoft", "SimplifiedLayerNormalization", 1));
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

// EmbedLayerNormalizationShapeInference: position_embedding must have
// word_embedding's hidden size.
TEST(MicrosoftNorm, EmbedLayerNormalizationHiddenMismatch) {
  EXPECT_EQ(run_node(kMs, "EmbedLayerNormalization",
                     {ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 512}), omitted(), ts(FLOAT, {768}), ts(FLOAT, {768})})
                .report.errors(),
            1u);
}
// EmbedLayerNormalizationShapeInference: gamma should be 1-D.
TEST(MicrosoftNorm, EmbedLayerNormalizationGammaRank) {
  EXPECT_EQ(run_node(kMs, "EmbedLayerNormalization",
                     {ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}), omitted(), ts(FLOAT, {1, 768}), ts(FLOAT, {768})})
                .report.errors(),
            1u);
}
// EmbedLayerNormalizationShapeInference reads segment_embedding (input 4)
// whenever segment_ids (input 1) is given.
TEST(MicrosoftNorm, EmbedLayerNormalizationSegmentIdsNeedEmbedding) {
  EXPECT_EQ(run_node(kMs, "EmbedLayerNormalization",
                     {ts(INT32, {"B", "S"}), ts(INT32, {"B", "S"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}), omitted(), ts(FLOAT, {768}),
                      ts(FLOAT, {768})})
                .report.errors(),
            1u);
}
// EmbedLayerNormalizationShapeInference: "segment_ids input shall be 2 dimensions".
TEST(MicrosoftNorm, EmbedLayerNormalizationSegmentIdsRank) {
  EXPECT_EQ(run_node(kMs, "EmbedLayerNormalization",
                     {ts(INT32, {"B", "S"}), ts(INT32, {"B"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}), ts(FLOAT, {2, 768}), ts(FLOAT, {768}),
                      ts(FLOAT, {768})})
                .report.errors(),
            1u);
}
