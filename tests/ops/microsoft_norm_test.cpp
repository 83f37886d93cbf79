#include "op_test_util.hpp"

// onnxruntime's contrib LayerNormalization / SimplifiedLayerNormalization are
// ai.onnx v1 schemas (contrib_defs.cc, SetDomain(kOnnxDomain)); ONNX's own
// LayerNormalization-17 applies from opset 17, so these run at opset 16.
TEST(MicrosoftNorm, LayerNormalizationStats) {
  EXPECT_EQ(Op("LayerNormalization")
                .opset(16)
                .outputs(3)
                .infer({ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {768}), ts(FLOAT16, {768})}),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT, {"B", "S", 1})}));
  // Stats are [d0, .., d_{axis-1}, 1, .., 1] as the kernels allocate them (layer_norm_impl).
  EXPECT_EQ(Op("SimplifiedLayerNormalization")
                .outputs(2)
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", 1, 1})}));
  EXPECT_ERROR(Op("LayerNormalization").opset(16).run({ts(FLOAT, {"B", 768})}).report, "missing required input 1");
  EXPECT_ERROR(
      Op("LayerNormalization").opset(16).run({ts(FLOAT, {"B", 768}), ts(FLOAT, {768})}, {attr("axis", 2)}).report,
      "axis 2 is out of range");
}
TEST(MicrosoftNorm, LayerNormalizationDomain) {
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "LayerNormalization", 16).since_version, 1);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "LayerNormalization", 17).since_version, 17);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "SimplifiedLayerNormalization", 21).since_version, 1);
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "com.microsoft", "LayerNormalization", 1));
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "com.microsoft", "SimplifiedLayerNormalization", 1));
}
TEST(MicrosoftNorm, SkipLayerNormalizationOutputs) {
  EXPECT_EQ(Op(kMs, "SkipLayerNormalization")
                .outputs(4)
                .infer({ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {768}),
                        ts(FLOAT16, {768}), ts(FLOAT16, {768})}),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT, {"B", "S", 1}), ts(FLOAT, {"B", "S", 1}),
                   ts(FLOAT16, {"B", "S", 768})}));
  EXPECT_EQ(Op(kMs, "SkipSimplifiedLayerNormalization")
                .infer({ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {64})}),
            (Types{ts(FLOAT, {"B", "S", 64})}));
  EXPECT_ERROR(Op(kMs, "SkipLayerNormalization").run({ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 64})}).report,
               "missing required input 2");
  EXPECT_ERROR(Op(kMs, "SkipLayerNormalization").run({ts(FLOAT, {64}), ts(FLOAT, {64}), ts(FLOAT, {64})}).report,
               "input must be 2-D or 3-D, got [64]");
}
TEST(MicrosoftNorm, EmbedLayerNormalization) {
  EXPECT_EQ(Op(kMs, "EmbedLayerNormalization")
                .outputs(3)
                .infer({ts(INT32, {"B", "S"}), ts(INT32, {"B", "S"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}),
                        ts(FLOAT, {2, 768}), ts(FLOAT, {768}), ts(FLOAT, {768}), ts(INT32, {"B", "S"})}),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(INT32, {"B"}), ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(Op(kMs, "EmbedLayerNormalization")
                .outputs(2)
                .infer({ts(INT32, {"B", "S"}), omitted(), ts(FLOAT16, {30522, 768}), ts(FLOAT16, {512, 768}), omitted(),
                        ts(FLOAT16, {768}), ts(FLOAT16, {768})}),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(INT32, {"B"})}));
  EXPECT_ERROR(Op(kMs, "EmbedLayerNormalization")
                   .run({ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768})})
                   .report,
               "missing required input 5");
}

// EmbedLayerNormalizationShapeInference: position_embedding must have
// word_embedding's hidden size.
TEST(MicrosoftNorm, EmbedLayerNormalizationHiddenMismatch) {
  EXPECT_ERROR(Op(kMs, "EmbedLayerNormalization")
                   .run({ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 512}), omitted(),
                         ts(FLOAT, {768}), ts(FLOAT, {768})})
                   .report,
               "position_embedding hidden size 512 differs from word_embedding's");
}
// EmbedLayerNormalizationShapeInference: gamma should be 1-D.
TEST(MicrosoftNorm, EmbedLayerNormalizationGammaRank) {
  EXPECT_ERROR(Op(kMs, "EmbedLayerNormalization")
                   .run({ts(INT32, {"B", "S"}), omitted(), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}), omitted(),
                         ts(FLOAT, {1, 768}), ts(FLOAT, {768})})
                   .report,
               "gamma must be 1-D, got [1,768]");
}
// EmbedLayerNormalizationShapeInference reads segment_embedding (input 4)
// whenever segment_ids (input 1) is given.
TEST(MicrosoftNorm, EmbedLayerNormalizationSegmentIdsNeedEmbedding) {
  EXPECT_ERROR(Op(kMs, "EmbedLayerNormalization")
                   .run({ts(INT32, {"B", "S"}), ts(INT32, {"B", "S"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}),
                         omitted(), ts(FLOAT, {768}), ts(FLOAT, {768})})
                   .report,
               "segment_ids is given without segment_embedding");
}
// EmbedLayerNormalizationShapeInference: "segment_ids input shall be 2 dimensions".
TEST(MicrosoftNorm, EmbedLayerNormalizationSegmentIdsRank) {
  EXPECT_ERROR(Op(kMs, "EmbedLayerNormalization")
                   .run({ts(INT32, {"B", "S"}), ts(INT32, {"B"}), ts(FLOAT, {30522, 768}), ts(FLOAT, {512, 768}),
                         ts(FLOAT, {2, 768}), ts(FLOAT, {768}), ts(FLOAT, {768})})
                   .report,
               "segment_ids must be 2-D, got [B]");
}
