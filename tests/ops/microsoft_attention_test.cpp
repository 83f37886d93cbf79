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
            // No past and no total_sequence_length value: present length falls back to the
            // query's sequence length (BaseGroupQueryAttentionTypeAndShapeInference).
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "S", 64})}));
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
                                {attr("num_heads", 12), attr("past_present_share_buffer", 1)}, 18, 3),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64})}));
  EXPECT_EQ(run_shape_inference(kMs, "SparseAttention",
                                {ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), ts(FLOAT16, {"B", 8, "M", 64}), ts(FLOAT16, {"B", 8, "M", 64}),
                                 ts(INT32, {1, 33}), ts(INT32, {1, 528}), ts(INT32, {1}), ts(INT32, {"B"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8), attr("sparse_block_size", 64)}, 18, 3),
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
  EXPECT_EQ(run_shape_inference(kMs, "RelativePositionBias", {ts(FLOAT, {32, 8}), sym_value(ts(INT64, {1}), {"Q"}), sym_value(ts(INT64, {1}), {"K"})},
                                {attr("max_distance", 128)}),
            (Types{ts(FLOAT, {1, 8, "Q", "K"})}));
  EXPECT_EQ(run_node(kMs, "RelativePositionBias", {ts(FLOAT, {32, 8})}).report.errors(), 1u);
}
TEST(MicrosoftAttention, RemoveAndRestorePadding) {
  EXPECT_EQ(run_shape_inference(kMs, "RemovePadding", {ts(FLOAT16, {"B", "S", 768}), ts(INT32, {"B"})}, {}, 18, 4),
            (Types{ts(FLOAT16, {"_d0", 768}), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"}), ts(INT32, {1})}));
  EXPECT_EQ(run_shape_inference(kMs, "RestorePadding", {ts(FLOAT16, {"T", 768}), ts(INT32, {"B", "S"})}), (Types{ts(FLOAT16, {"B", "S", 768})}));
  EXPECT_EQ(run_node(kMs, "RestorePadding", {ts(FLOAT16, {"T", 768})}).report.errors(), 1u);
}

// ---- Checks against onnxruntime's contrib shape inference (bert_defs.cc, shape_inference_functions.cc) ----

namespace {
const std::vector<Attribute> kHeads12 = {attr("num_heads", 12)};
constexpr DataType UNDEFINED = DataType::UNDEFINED;
}  // namespace

// AttentionTypeAndShapeInference: with past_present_share_buffer the present
// keeps the past's (max_sequence_length) shape, per the schema's present doc.
TEST(MicrosoftAttentionOrt, AttentionSharedBufferPresentIsPast) {
  EXPECT_EQ(run_shape_inference(kMs, "Attention",
                                {ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B", "M"}),
                                 ts(FLOAT, {2, "B", 12, "M", 64}), omitted(), ts(INT32, {1})},
                                {attr("num_heads", 12), attr("past_present_share_buffer", 1)}, 18, 2),
            (Types{ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {2, "B", 12, "M", 64})}));
}
// AttentionTypeAndShapeInference: "Invalid bias shape" for a bias that is not 1-D.
TEST(MicrosoftAttentionOrt, AttentionBiasMustBe1D) {
  EXPECT_EQ(run_node(kMs, "Attention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {1, 2304})}, kHeads12).report.errors(), 1u);
}
// AttentionTypeAndShapeInference: "qkv_hidden_sizes should have 3 elements".
TEST(MicrosoftAttentionOrt, AttentionQkvHiddenSizesNeedsThree) {
  EXPECT_EQ(run_node(kMs, "Attention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 1536}), ts(FLOAT, {1536})},
                     {attr("num_heads", 12), attr("qkv_hidden_sizes", std::vector<int64_t>{768, 768})}).report.errors(),
            1u);
}
// AttentionTypeAndShapeInference: v_hidden_size is bias dim 0 / 3.
TEST(MicrosoftAttentionOrt, AttentionVHiddenFromBias) {
  EXPECT_EQ(run_shape_inference(kMs, "Attention", {ts(FLOAT, {"B", "S", 512}), ts(FLOAT, {512, "W"}), ts(FLOAT, {2304})}, kHeads12),
            (Types{ts(FLOAT, {"B", "S", 768})}));
}

// MultiHeadAttentionTypeAndShapeInference: past_key (6) with
// past_sequence_length (8) means shared buffers; present keeps the past's shape.
TEST(MicrosoftAttentionOrt, MhaSharedBufferPresentIsPast) {
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention",
                                {ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(), omitted(), omitted(),
                                 ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}), ts(INT32, {1})},
                                kHeads12, 18, 3),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64})}));
}
// MultiHeadAttentionTypeAndShapeInference: packed KV -> output has the query's shape.
TEST(MicrosoftAttentionOrt, MhaPackedKvOutputIsQueryShape) {
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention", {ts(FLOAT, {"B", "S", "D"}), ts(FLOAT, {"B", "L", 12, 2, 64})}, kHeads12),
            (Types{ts(FLOAT, {"B", "S", "D"})}));
}
// MultiHeadAttentionTypeAndShapeInference: "Inputs 2 (value) shall be 3 or 4 dimensions".
TEST(MicrosoftAttentionOrt, MhaValueRankError) {
  EXPECT_EQ(run_node(kMs, "MultiHeadAttention", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 768}), ts(FLOAT, {"B", 768})}, kHeads12)
                .report.errors(),
            1u);
}
// qk output: (batch_size, num_heads, sequence_length, total_sequence_length)
// (schema doc; CUDA MultiHeadAttention::ComputeInternal output_qk_dims). Its
// element type is the independent QK parameter, so it stays unset.
TEST(MicrosoftAttentionOrt, MhaQkShape) {
  EXPECT_EQ(run_shape_inference(kMs, "MultiHeadAttention",
                                {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 768}), ts(FLOAT, {"B", "L", 768}), omitted(), omitted(), omitted(),
                                 ts(FLOAT, {"B", 12, "P", 64}), ts(FLOAT, {"B", 12, "P", 64})},
                                kHeads12, 18, 4)[3],
            ts(UNDEFINED, {"B", 12, "S", "L+P"}));
}

// GroupQueryAttentionTypeAndShapeInference: sliding_window_cache=1 uses the
// past buffer's shape for present (use_max_past_present_buffer = 1).
TEST(MicrosoftAttentionOrt, GqaSlidingWindowCachePresentIsPast) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", 8, "C", 64}),
                                 ts(FLOAT16, {"B", 8, "C", 64}), ts(INT32, {"B"}), sym_value(ts(INT32, {}), {"T"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8), attr("local_window_size", 128), attr("sliding_window_cache", 1)}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "C", 64}), ts(FLOAT16, {"B", 8, "C", 64})}));
}
// BaseGroupQueryAttentionTypeAndShapeInference: present takes past_key's
// element type (T_CACHE; a quantized cache stays int8).
TEST(MicrosoftAttentionOrt, GqaPresentHasPastElementType) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), ts(INT8, {"B", 8, "P", 64}),
                                 ts(INT8, {"B", 8, "P", 64}), ts(INT32, {"B"}), sym_value(ts(INT32, {}), {"T"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8), attr("k_quant_type", "PER_TENSOR"), attr("v_quant_type", "PER_TENSOR")}, 18, 3),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(INT8, {"B", 8, "max(P, T)", 64}), ts(INT8, {"B", 8, "max(P, T)", 64})}));
}
// BaseGroupQueryAttentionTypeAndShapeInference: output_qk is
// (batch_size, num_heads, sequence_length, total_sequence_length) of the query's type.
TEST(MicrosoftAttentionOrt, GqaOutputQk) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", 8, "P", 64}),
                                 ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}), sym_value(ts(INT32, {}), {"T"})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8), attr("qk_output", 1)}, 18, 4)[3],
            ts(FLOAT16, {"B", 32, "S", "T"}));
}
// "Output QK buffer was provided but qk_output attribute was not configured".
TEST(MicrosoftAttentionOrt, GqaOutputQkNeedsAttribute) {
  EXPECT_EQ(run_node(kMs, "GroupQueryAttention",
                     {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", 8, "P", 64}),
                      ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}), ts(INT32, {})},
                     {attr("num_heads", 32), attr("kv_num_heads", 8)}, 18, 4)
                .report.errors(),
            1u);
}
// The schema has 16 inputs (q_norm_weight 14, k_norm_weight 15).
TEST(MicrosoftAttentionOrt, GqaAcceptsQkNormWeights) {
  EXPECT_EQ(run_node(kMs, "GroupQueryAttention",
                     {ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}), omitted(), omitted(), ts(INT32, {"B"}),
                      ts(INT32, {}), omitted(), omitted(), omitted(), omitted(), omitted(), omitted(), omitted(), ts(FLOAT16, {64}), ts(FLOAT16, {64})},
                     {attr("num_heads", 32), attr("kv_num_heads", 8)})
                .report.errors(),
            0u);
}
// Unpacked QKV: propagateShapeFromInputToOutput(ctx, 0, 0).
TEST(MicrosoftAttentionOrt, GqaOutputIsQueryShape) {
  EXPECT_EQ(run_shape_inference(kMs, "GroupQueryAttention",
                                {ts(FLOAT16, {"B", "S", "D"}), ts(FLOAT16, {"B", "S", "Dkv"}), ts(FLOAT16, {"B", "S", "Dkv"}), omitted(), omitted(),
                                 ts(INT32, {"B"}), ts(INT32, {})},
                                {attr("num_heads", 32), attr("kv_num_heads", 8)}),
            (Types{ts(FLOAT16, {"B", "S", "D"})}));
}

// PackedAttentionTypeAndShapeInference: "qkv_hidden_sizes should have 3 elements".
TEST(MicrosoftAttentionOrt, PackedAttentionQkvHiddenSizesNeedsThree) {
  EXPECT_EQ(run_node(kMs, "PackedAttention", {ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304}), ts(FLOAT16, {2304}), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                     {attr("num_heads", 12), attr("qkv_hidden_sizes", std::vector<int64_t>{768})})
                .report.errors(),
            1u);
}
// PackedMultiHeadAttentionTypeAndShapeInference: "Inputs 0 (query) shall be 2 or 4 dimensions".
TEST(MicrosoftAttentionOrt, PackedMhaQueryRank3IsError) {
  EXPECT_EQ(run_node(kMs, "PackedMultiHeadAttention", {ts(FLOAT16, {"T", 12, 64}), omitted(), omitted(), omitted(), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                     kHeads12)
                .report.errors(),
            1u);
}
// PackedMultiHeadAttentionTypeAndShapeInference: "Inputs 2 (value) shall be 2 dimensions".
TEST(MicrosoftAttentionOrt, PackedMhaValueRankError) {
  EXPECT_EQ(run_node(kMs, "PackedMultiHeadAttention",
                     {ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 12, 64}), omitted(), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})}, kHeads12)
                .report.errors(),
            1u);
}
// PackedMultiHeadAttentionTypeAndShapeInference: [token_count, value dim 1].
TEST(MicrosoftAttentionOrt, PackedMhaOutputFromValue) {
  EXPECT_EQ(run_shape_inference(kMs, "PackedMultiHeadAttention",
                                {ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 512}), omitted(), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                                kHeads12),
            (Types{ts(FLOAT16, {"T", 512})}));
}

// MultiHeadAttentionTypeAndShapeInference(ctx, 5): without buffer sharing,
// present = past with sequence past + kv_sequence_length (value dim 1).
TEST(MicrosoftAttentionOrt, DmmhaPresentIsPastPlusOne) {
  EXPECT_EQ(run_shape_inference(kMs, "DecoderMaskedMultiHeadAttention",
                                {ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(), omitted(),
                                 ts(FLOAT16, {"B", 12, "P", 64}), ts(FLOAT16, {"B", 12, "P", 64})},
                                kHeads12, 18, 3),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "P+1", 64}), ts(FLOAT16, {"B", 12, "P+1", 64})}));
}
// Packed QKV [B, 1, 2*hidden + v_hidden]: onnxruntime sets no output shape (v_hidden is not determined).
TEST(MicrosoftAttentionOrt, DmmhaPackedQkvOutputHiddenUnknown) {
  EXPECT_EQ(run_shape_inference(kMs, "DecoderMaskedMultiHeadAttention", {ts(FLOAT16, {"B", 1, 2304})}, kHeads12),
            (Types{ts(FLOAT16, {"B", 1, "_d0"})}));
}
// qk: (batch_size, num_heads, 1, total_sequence_length); shared buffers:
// total = past_sequence_length (input 7) + 1. Element type is QK (unset).
TEST(MicrosoftAttentionOrt, DmmhaQkShape) {
  EXPECT_EQ(run_shape_inference(kMs, "DecoderMaskedMultiHeadAttention",
                                {ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(), omitted(),
                                 ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}), sym_value(ts(INT32, {1}), {"P"})},
                                {attr("num_heads", 12), attr("past_present_share_buffer", 1)}, 18, 4)[3],
            ts(UNDEFINED, {"B", 12, 1, "P+1"}));
}
// Cross attention: key is [B, N, L, H], total_sequence_length = L.
TEST(MicrosoftAttentionOrt, DmmhaCrossQkShape) {
  EXPECT_EQ(run_shape_inference(kMs, "DecoderMaskedMultiHeadAttention",
                                {ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {"B", 12, "L", 64}), ts(FLOAT, {"B", 12, "L", 64})},
                                {attr("num_heads", 12), attr("output_qk", 1)}, 18, 4),
            (Types{ts(FLOAT, {"B", 1, 768}), Type(), Type(), ts(UNDEFINED, {"B", 12, 1, "L"})}));
}
// The schema has 11 inputs (bias is input 10).
TEST(MicrosoftAttentionOrt, DmmhaHasElevenInputs) {
  std::vector<In> in(12, omitted());
  in[0] = ts(FLOAT, {"B", 1, 768});
  in[11] = ts(FLOAT, {2304});
  EXPECT_EQ(run_node(kMs, "DecoderMaskedMultiHeadAttention", in, kHeads12).report.errors(), 1u);
}

// SparseAttention: sparse_block_size is required; "The past_key input shall be 4 dimensions".
TEST(MicrosoftAttentionOrt, SparseAttentionChecks) {
  const std::vector<In> in = {ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), ts(FLOAT16, {"B", 8, "M", 64}), ts(FLOAT16, {"B", 8, "M", 64}),
                              ts(INT32, {1, 33}), ts(INT32, {1, 528}), ts(INT32, {1}), ts(INT32, {"B"})};
  EXPECT_EQ(run_node(kMs, "SparseAttention", in, {attr("num_heads", 32), attr("kv_num_heads", 8)}).report.errors(), 1u);
  std::vector<In> bad = in;
  bad[3] = ts(FLOAT16, {"B", 8, 64});
  EXPECT_EQ(run_node(kMs, "SparseAttention", bad, {attr("num_heads", 32), attr("kv_num_heads", 8), attr("sparse_block_size", 64)}).report.errors(), 1u);
}
// LongformerAttention: window is a required attribute.
TEST(MicrosoftAttentionOrt, LongformerNeedsWindow) {
  EXPECT_EQ(run_node(kMs, "LongformerAttention",
                     {ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {"B", "S"}), ts(FLOAT, {768, 2304}),
                      ts(FLOAT, {2304}), ts(INT32, {"B", "S"})},
                     kHeads12)
                .report.errors(),
            1u);
}
// GatedRelativePositionBias (bert_defs.cc): [token_offset dim 0, num_heads, dim 1, dim 1].
TEST(MicrosoftAttentionOrt, GatedRelativePositionBiasFromTokenOffset) {
  EXPECT_EQ(run_shape_inference(kMs, "GatedRelativePositionBias",
                                {ts(FLOAT, {"T", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}), ts(FLOAT, {8}),
                                 ts(FLOAT, {1, 12, 1, 1}), ts(INT32, {"B", "S"})},
                                kHeads12),
            (Types{ts(FLOAT, {"B", 12, "S", "S"})}));
}
// "GatedRelativePositionBias: token_offset must have rank >= 2".
TEST(MicrosoftAttentionOrt, GatedRelativePositionBiasTokenOffsetRank) {
  EXPECT_EQ(run_node(kMs, "GatedRelativePositionBias",
                     {ts(FLOAT, {"T", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}), ts(FLOAT, {8}),
                      ts(FLOAT, {1, 12, 1, 1}), ts(INT32, {"BS"})},
                     kHeads12)
                .report.errors(),
            1u);
}
// RelativePositionBias: max_distance is a required attribute.
TEST(MicrosoftAttentionOrt, RelativePositionBiasNeedsMaxDistance) {
  EXPECT_EQ(run_node(kMs, "RelativePositionBias", {ts(FLOAT, {32, 8}), ts(INT64, {1}), ts(INT64, {1})}).report.errors(), 1u);
}
