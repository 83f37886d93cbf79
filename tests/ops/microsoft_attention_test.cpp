#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
const char* kMs = "com.microsoft";
}

TEST(MicrosoftAttention, AttentionOutputAndPresent) {
  EXPECT_EQ(run_shape_inference(kMs, "Attention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B"}), ts(FLOAT, {2, "B", 12, "P", 64})},
                                {attr("num_heads", 12)}, 18, 2),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {2, "B", 12, "P+S", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "Attention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 1792})},
                                {attr("num_heads", 8), attr("qkv_hidden_sizes", std::vector<int64_t>{512, 512, 768})}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "Attention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304})}).report.errors(), 1u);
  EXPECT_EQ(run_node(kMs, "Attention", {ts(FLOAT, {"B", "S", 768})}, {attr("num_heads", 12)}).report.errors(), 1u);
}
TEST(MicrosoftAttention, MultiHeadAttentionPresentIsPastPlusL) {
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention",
                                {ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", "L", 768}), ts(FLOAT16, {"B", "L", 768}), omitted(), omitted(), omitted(),
                                 ts(FLOAT16, {"B", 12, "P", 64}), ts(FLOAT16, {"B", 12, "P", 64})},
                                {attr("num_heads", 12)}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", 12, "L+P", 64}), ts(FLOAT16, {"B", 12, "L+P", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention", {ts(FLOAT, {"B", "S", 12, 3, 64})}, {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 12, 2, 64})}, {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "MultiHeadAttention", {ts(FLOAT, {"B", "S", 768})}).report.errors(), 1u);
}
TEST(MicrosoftAttention, GroupQueryAttention) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", 8, "P", 64}),
                                 ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}), sym_value(ts(INT32, {}), {"T"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8)}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "max(P, T)", 64}), ts(FLOAT16, {"B", 8, "max(P, T)", 64})}));
  // Packed QKV: (32 + 2*8) * 64 = 3072.
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), omitted(), omitted(), ts(INT32, {"B"}), ts(INT32, {})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8)}, 18, 2),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "_d0", 64})}));
  EXPECT_EQ(run_node(kMs, "GroupQueryAttention", {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512})},
                     {attr("num_heads", 32), attr("kv_num_heads", 8)}).report.errors(), 1u);
}
TEST(MicrosoftAttention, PackedAttentions) {
  EXPECT_EQ(run_shape_inference(kMs, "PackedAttention", {ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304}), ts(FLOAT16, {2304}), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                                {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"T", 768})}));
  EXPECT_EQ(run_shape_inference(kMs, "PackedMultiHeadAttention", {ts(FLOAT16, {"T", 12, 3, 64}), omitted(), omitted(), omitted(), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                                {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"T", 768})}));
  EXPECT_EQ(run_node(kMs, "PackedAttention", {ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304})}).report.errors(), 1u);
}
TEST(MicrosoftAttention, DecoderMaskedAndSparse) {
  EXPECT_EQ(run_shape_inference(kMs, "DecoderMaskedMultiHeadAttention",
                                {ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(), omitted(),
                                 ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}), ts(INT32, {})},
                                {attr("num_heads", 12)}, 18, 3),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "SparseAttention",
                                {ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), ts(FLOAT16, {"B", 8, "M", 64}), ts(FLOAT16, {"B", 8, "M", 64}),
                                 ts(INT32, {1, 33}), ts(INT32, {1, 528}), ts(INT32, {1}), ts(INT32, {"B"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8)}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "M", 64}), ts(FLOAT16, {"B", 8, "M", 64})}));
  EXPECT_EQ(run_node(kMs, "SparseAttention", {ts(FLOAT16, {"B", "S", 3072})}, {attr("num_heads", 32), attr("kv_num_heads", 8)}).report.errors(), 1u);
}
TEST(MicrosoftAttention, Longformer) {
  EXPECT_EQ(run_shape_inference(kMs, "LongformerAttention",
                                {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {"B", "S"}), ts(FLOAT, {768, 2304}),
                                 ts(FLOAT, {2304}), ts(INT32, {"B", "S"})},
                                {attr("num_heads", 12), attr("window", 256)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "LongformerAttention", {ts(FLOAT, {"B", "S", 768})}, {attr("num_heads", 12)}).report.errors(), 1u);
}
TEST(MicrosoftAttention, PositionBiases) {
  EXPECT_EQ(run_shape_inference(kMs, "GatedRelativePositionBias",
                                {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}), ts(FLOAT, {8}), ts(FLOAT, {1, 12, 1, 1})},
                                {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", 12, "S", "S"})}));
  EXPECT_EQ(run_shape_inference(kMs, "RelativePositionBias", {ts(FLOAT, {32, 8}), sym_value(ts(INT64, {1}), {"Q"}), sym_value(ts(INT64, {1}), {"K"})}),
            (Types{ts(FLOAT, {1, 8, "Q", "K"})}));
  EXPECT_EQ(run_node(kMs, "RelativePositionBias", {ts(FLOAT, {32, 8})}).report.errors(), 1u);
}
TEST(MicrosoftAttention, RemoveAndRestorePadding) {
  EXPECT_EQ(run_shape_inference(kMs, "RemovePadding", {ts(FLOAT16, {"B", "S", 768}), ts(INT32, {"B"})}, {}, 18, 4),
            (Types{ts(FLOAT16, {"_d0", 768}), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"}), ts(INT32, {1})}));
  EXPECT_EQ(run_shape_inference(kMs, "RestorePadding", {ts(FLOAT16, {"T", 768}), ts(INT32, {"B", "S"})}), (Types{ts(FLOAT16, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "RestorePadding", {ts(FLOAT16, {"T", 768})}).report.errors(), 1u);
}
