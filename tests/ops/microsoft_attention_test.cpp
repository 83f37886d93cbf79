#include "op_test_util.hpp"

TEST(MicrosoftAttention, AttentionOutputAndPresent) {
  EXPECT_EQ(Op(kMs, "Attention")
                .outputs(2)
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B"}),
                        ts(FLOAT, {2, "B", 12, "P", 64})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {2, "B", 12, "P+S", 64})}));
  EXPECT_EQ(Op(kMs, "Attention")
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 1792})},
                       {attr("num_heads", 8), attr("qkv_hidden_sizes", std::vector<int64_t>{512, 512, 768})}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "Attention").run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304})}).report,
               "missing required attribute 'num_heads'");
  EXPECT_ERROR(Op(kMs, "Attention").run({ts(FLOAT, {"B", "S", 768})}, {attr("num_heads", 12)}).report,
               "missing required input 1");
}
TEST(MicrosoftAttention, MultiHeadAttentionPresentIsPastPlusL) {
  EXPECT_EQ(
      Op(kMs, "MultiHeadAttention")
          .outputs(3)
          .infer({ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", "L", 768}), ts(FLOAT16, {"B", "L", 768}), omitted(),
                  omitted(), omitted(), ts(FLOAT16, {"B", 12, "P", 64}), ts(FLOAT16, {"B", 12, "P", 64})},
                 {attr("num_heads", 12)}),
      (Types{ts(FLOAT16, {"B", "S", 768}), ts(FLOAT16, {"B", 12, "L+P", 64}), ts(FLOAT16, {"B", 12, "L+P", 64})}));
  EXPECT_EQ(Op(kMs, "MultiHeadAttention").infer({ts(FLOAT, {"B", "S", 12, 3, 64})}, {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_EQ(Op(kMs, "MultiHeadAttention")
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 12, 2, 64})}, {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "MultiHeadAttention").run({ts(FLOAT, {"B", "S", 768})}).report,
               "missing required attribute 'num_heads'");
}
TEST(MicrosoftAttention, GroupQueryAttention) {
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                        ts(FLOAT16, {"B", 8, "P", 64}), ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}),
                        sym_value(ts(INT32, {}), {"T"})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8)}),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "max(P, T)", 64}),
                   ts(FLOAT16, {"B", 8, "max(P, T)", 64})}));
  // Packed QKV: (32 + 2*8) * 64 = 3072.
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .outputs(2)
                .infer({ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), omitted(), omitted(), ts(INT32, {"B"}),
                        ts(INT32, {})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8)}),
            // No past and no total_sequence_length value: present length falls back to the
            // query's sequence length (BaseGroupQueryAttentionTypeAndShapeInference).
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "S", 64})}));
  EXPECT_ERROR(Op(kMs, "GroupQueryAttention")
                   .run({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512})},
                        {attr("num_heads", 32), attr("kv_num_heads", 8)})
                   .report,
               "missing required input 5");
}
TEST(MicrosoftAttention, PackedAttentions) {
  EXPECT_EQ(Op(kMs, "PackedAttention")
                .infer({ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304}), ts(FLOAT16, {2304}), ts(INT32, {"B", "S"}),
                        ts(INT32, {"B+1"})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"T", 768})}));
  EXPECT_EQ(Op(kMs, "PackedMultiHeadAttention")
                .infer({ts(FLOAT16, {"T", 12, 3, 64}), omitted(), omitted(), omitted(), ts(INT32, {"B", "S"}),
                        ts(INT32, {"B+1"})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"T", 768})}));
  EXPECT_ERROR(Op(kMs, "PackedAttention").run({ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304})}).report,
               "missing required input 2");
}
TEST(MicrosoftAttention, DecoderMaskedAndSparse) {
  EXPECT_EQ(Op(kMs, "DecoderMaskedMultiHeadAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(),
                        omitted(), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}), ts(INT32, {})},
                       {attr("num_heads", 12), attr("past_present_share_buffer", 1)}),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64})}));
  EXPECT_EQ(Op(kMs, "SparseAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", "S", 3072}), omitted(), omitted(), ts(FLOAT16, {"B", 8, "M", 64}),
                        ts(FLOAT16, {"B", 8, "M", 64}), ts(INT32, {1, 33}), ts(INT32, {1, 528}), ts(INT32, {1}),
                        ts(INT32, {"B"})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8), attr("sparse_block_size", 64)}),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "M", 64}), ts(FLOAT16, {"B", 8, "M", 64})}));
  EXPECT_ERROR(Op(kMs, "SparseAttention")
                   .run({ts(FLOAT16, {"B", "S", 3072})}, {attr("num_heads", 32), attr("kv_num_heads", 8)})
                   .report,
               "missing required input 3");
}
TEST(MicrosoftAttention, Longformer) {
  EXPECT_EQ(Op(kMs, "LongformerAttention")
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {"B", "S"}),
                        ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B", "S"})},
                       {attr("num_heads", 12), attr("window", 256)}),
            (Types{ts(FLOAT, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "LongformerAttention").run({ts(FLOAT, {"B", "S", 768})}, {attr("num_heads", 12)}).report,
               "missing required input 1");
}
TEST(MicrosoftAttention, PositionBiases) {
  EXPECT_EQ(Op(kMs, "GatedRelativePositionBias")
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}),
                        ts(FLOAT, {8}), ts(FLOAT, {1, 12, 1, 1})},
                       {attr("num_heads", 12)}),
            (Types{ts(FLOAT, {"B", 12, "S", "S"})}));
  EXPECT_EQ(Op(kMs, "RelativePositionBias")
                .infer({ts(FLOAT, {32, 8}), sym_value(ts(INT64, {1}), {"Q"}), sym_value(ts(INT64, {1}), {"K"})},
                       {attr("max_distance", 128)}),
            (Types{ts(FLOAT, {1, 8, "Q", "K"})}));
  EXPECT_ERROR(Op(kMs, "RelativePositionBias").run({ts(FLOAT, {32, 8})}).report, "missing required input 1");
}
TEST(MicrosoftAttention, RemoveAndRestorePadding) {
  EXPECT_EQ(Op(kMs, "RemovePadding").outputs(4).infer({ts(FLOAT16, {"B", "S", 768}), ts(INT32, {"B"})}),
            (Types{ts(FLOAT16, {"_d0", 768}), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"}), ts(INT32, {1})}));
  EXPECT_EQ(Op(kMs, "RestorePadding").infer({ts(FLOAT16, {"T", 768}), ts(INT32, {"B", "S"})}),
            (Types{ts(FLOAT16, {"B", "S", 768})}));
  EXPECT_ERROR(Op(kMs, "RestorePadding").run({ts(FLOAT16, {"T", 768})}).report, "missing required input 1");
}

// ---- Checks against onnxruntime's contrib shape inference (bert_defs.cc, shape_inference_functions.cc) ----

namespace {
const std::vector<Attribute> kHeads12 = {attr("num_heads", 12)};
constexpr DataType UNDEFINED = DataType::UNDEFINED;
}  // namespace

// AttentionTypeAndShapeInference: with past_present_share_buffer the present
// keeps the past's (max_sequence_length) shape, per the schema's present doc.
TEST(MicrosoftAttentionOrt, AttentionSharedBufferPresentIsPast) {
  EXPECT_EQ(Op(kMs, "Attention")
                .outputs(2)
                .infer({ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B", "M"}),
                        ts(FLOAT, {2, "B", 12, "M", 64}), omitted(), ts(INT32, {1})},
                       {attr("num_heads", 12), attr("past_present_share_buffer", 1)}),
            (Types{ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {2, "B", 12, "M", 64})}));
}
// AttentionTypeAndShapeInference: "Invalid bias shape" for a bias that is not 1-D.
TEST(MicrosoftAttentionOrt, AttentionBiasMustBe1D) {
  EXPECT_ERROR(Op(kMs, "Attention")
                   .run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {1, 2304})}, kHeads12)
                   .report,
               "bias has unexpected rank: [1,2304]");
}
// AttentionTypeAndShapeInference: "qkv_hidden_sizes should have 3 elements".
TEST(MicrosoftAttentionOrt, AttentionQkvHiddenSizesNeedsThree) {
  EXPECT_ERROR(Op(kMs, "Attention")
                   .run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 1536}), ts(FLOAT, {1536})},
                        {attr("num_heads", 12), attr("qkv_hidden_sizes", std::vector<int64_t>{768, 768})})
                   .report,
               "qkv_hidden_sizes must have 3 positive values");
}
// AttentionTypeAndShapeInference: v_hidden_size is bias dim 0 / 3.
TEST(MicrosoftAttentionOrt, AttentionVHiddenFromBias) {
  EXPECT_EQ(
      Op(kMs, "Attention").infer({ts(FLOAT, {"B", "S", 512}), ts(FLOAT, {512, "W"}), ts(FLOAT, {2304})}, kHeads12),
      (Types{ts(FLOAT, {"B", "S", 768})}));
}

// MultiHeadAttentionTypeAndShapeInference: past_key (6) with
// past_sequence_length (8) means shared buffers; present keeps the past's shape.
TEST(MicrosoftAttentionOrt, MhaSharedBufferPresentIsPast) {
  EXPECT_EQ(Op(kMs, "MultiHeadAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(),
                        omitted(), omitted(), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}),
                        ts(INT32, {1})},
                       kHeads12),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64})}));
}
// MultiHeadAttentionTypeAndShapeInference: packed KV -> output has the query's shape.
TEST(MicrosoftAttentionOrt, MhaPackedKvOutputIsQueryShape) {
  EXPECT_EQ(
      Op(kMs, "MultiHeadAttention").infer({ts(FLOAT, {"B", "S", "D"}), ts(FLOAT, {"B", "L", 12, 2, 64})}, kHeads12),
      (Types{ts(FLOAT, {"B", "S", "D"})}));
}
// MultiHeadAttentionTypeAndShapeInference: "Inputs 2 (value) shall be 3 or 4 dimensions".
TEST(MicrosoftAttentionOrt, MhaValueRankError) {
  EXPECT_ERROR(Op(kMs, "MultiHeadAttention")
                   .run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 768}), ts(FLOAT, {"B", 768})}, kHeads12)
                   .report,
               "value has unexpected rank: [B,768]");
}
// qk output: (batch_size, num_heads, sequence_length, total_sequence_length)
// (schema doc; CUDA MultiHeadAttention::ComputeInternal output_qk_dims). Its
// element type is the independent QK parameter, so it stays unset.
TEST(MicrosoftAttentionOrt, MhaQkShape) {
  EXPECT_EQ(Op(kMs, "MultiHeadAttention")
                .outputs(4)
                .infer({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {"B", "L", 768}), ts(FLOAT, {"B", "L", 768}), omitted(),
                        omitted(), omitted(), ts(FLOAT, {"B", 12, "P", 64}), ts(FLOAT, {"B", 12, "P", 64})},
                       kHeads12)[3],
            ts(UNDEFINED, {"B", 12, "S", "L+P"}));
}

// GroupQueryAttentionTypeAndShapeInference: sliding_window_cache=1 uses the
// past buffer's shape for present (use_max_past_present_buffer = 1).
TEST(MicrosoftAttentionOrt, GqaSlidingWindowCachePresentIsPast) {
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                        ts(FLOAT16, {"B", 8, "C", 64}), ts(FLOAT16, {"B", 8, "C", 64}), ts(INT32, {"B"}),
                        sym_value(ts(INT32, {}), {"T"})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8), attr("local_window_size", 128),
                        attr("sliding_window_cache", 1)}),
            (Types{ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", 8, "C", 64}), ts(FLOAT16, {"B", 8, "C", 64})}));
}
// BaseGroupQueryAttentionTypeAndShapeInference: present takes past_key's
// element type (T_CACHE; a quantized cache stays int8).
TEST(MicrosoftAttentionOrt, GqaPresentHasPastElementType) {
  EXPECT_EQ(
      Op(kMs, "GroupQueryAttention")
          .outputs(3)
          .infer({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                  ts(INT8, {"B", 8, "P", 64}), ts(INT8, {"B", 8, "P", 64}), ts(INT32, {"B"}),
                  sym_value(ts(INT32, {}), {"T"})},
                 {attr("num_heads", 32), attr("kv_num_heads", 8), attr("k_quant_type", "PER_TENSOR"),
                  attr("v_quant_type", "PER_TENSOR")}),
      (Types{ts(FLOAT16, {"B", "S", 2048}), ts(INT8, {"B", 8, "max(P, T)", 64}), ts(INT8, {"B", 8, "max(P, T)", 64})}));
}
// BaseGroupQueryAttentionTypeAndShapeInference: output_qk is
// (batch_size, num_heads, sequence_length, total_sequence_length) of the query's type.
TEST(MicrosoftAttentionOrt, GqaOutputQk) {
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .outputs(4)
                .infer({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                        ts(FLOAT16, {"B", 8, "P", 64}), ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}),
                        sym_value(ts(INT32, {}), {"T"})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8), attr("qk_output", 1)})[3],
            ts(FLOAT16, {"B", 32, "S", "T"}));
}
// "Output QK buffer was provided but qk_output attribute was not configured".
TEST(MicrosoftAttentionOrt, GqaOutputQkNeedsAttribute) {
  EXPECT_ERROR(
      Op(kMs, "GroupQueryAttention")
          .outputs(4)
          .run({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                ts(FLOAT16, {"B", 8, "P", 64}), ts(FLOAT16, {"B", 8, "P", 64}), ts(INT32, {"B"}), ts(INT32, {})},
               {attr("num_heads", 32), attr("kv_num_heads", 8)})
          .report,
      "output_qk is given but the qk_output attribute is 0");
}
// The schema has 16 inputs (q_norm_weight 14, k_norm_weight 15).
TEST(MicrosoftAttentionOrt, GqaAcceptsQkNormWeights) {
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .run({ts(FLOAT16, {"B", "S", 2048}), ts(FLOAT16, {"B", "S", 512}), ts(FLOAT16, {"B", "S", 512}),
                      omitted(), omitted(), ts(INT32, {"B"}), ts(INT32, {}), omitted(), omitted(), omitted(), omitted(),
                      omitted(), omitted(), omitted(), ts(FLOAT16, {64}), ts(FLOAT16, {64})},
                     {attr("num_heads", 32), attr("kv_num_heads", 8)})
                .report.errors(),
            0u);
}
// Unpacked QKV: propagateShapeFromInputToOutput(ctx, 0, 0).
TEST(MicrosoftAttentionOrt, GqaOutputIsQueryShape) {
  EXPECT_EQ(Op(kMs, "GroupQueryAttention")
                .infer({ts(FLOAT16, {"B", "S", "D"}), ts(FLOAT16, {"B", "S", "Dkv"}), ts(FLOAT16, {"B", "S", "Dkv"}),
                        omitted(), omitted(), ts(INT32, {"B"}), ts(INT32, {})},
                       {attr("num_heads", 32), attr("kv_num_heads", 8)}),
            (Types{ts(FLOAT16, {"B", "S", "D"})}));
}

// PackedAttentionTypeAndShapeInference: "qkv_hidden_sizes should have 3 elements".
TEST(MicrosoftAttentionOrt, PackedAttentionQkvHiddenSizesNeedsThree) {
  EXPECT_ERROR(Op(kMs, "PackedAttention")
                   .run({ts(FLOAT16, {"T", 768}), ts(FLOAT16, {768, 2304}), ts(FLOAT16, {2304}), ts(INT32, {"B", "S"}),
                         ts(INT32, {"B+1"})},
                        {attr("num_heads", 12), attr("qkv_hidden_sizes", std::vector<int64_t>{768})})
                   .report,
               "qkv_hidden_sizes must have 3 values");
}
// PackedMultiHeadAttentionTypeAndShapeInference: "Inputs 0 (query) shall be 2 or 4 dimensions".
TEST(MicrosoftAttentionOrt, PackedMhaQueryRank3IsError) {
  EXPECT_ERROR(
      Op(kMs, "PackedMultiHeadAttention")
          .run({ts(FLOAT16, {"T", 12, 64}), omitted(), omitted(), omitted(), ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
               kHeads12)
          .report,
      "query must be 2-D or 4-D, got [T,12,64]");
}
// PackedMultiHeadAttentionTypeAndShapeInference: "Inputs 2 (value) shall be 2 dimensions".
TEST(MicrosoftAttentionOrt, PackedMhaValueRankError) {
  EXPECT_ERROR(Op(kMs, "PackedMultiHeadAttention")
                   .run({ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 12, 64}), omitted(),
                         ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                        kHeads12)
                   .report,
               "value has unexpected rank: [T,12,64]");
}
// PackedMultiHeadAttentionTypeAndShapeInference: [token_count, value dim 1].
TEST(MicrosoftAttentionOrt, PackedMhaOutputFromValue) {
  EXPECT_EQ(Op(kMs, "PackedMultiHeadAttention")
                .infer({ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 768}), ts(FLOAT16, {"T", 512}), omitted(),
                        ts(INT32, {"B", "S"}), ts(INT32, {"B+1"})},
                       kHeads12),
            (Types{ts(FLOAT16, {"T", 512})}));
}

// MultiHeadAttentionTypeAndShapeInference(ctx, 5): without buffer sharing,
// present = past with sequence past + kv_sequence_length (value dim 1).
TEST(MicrosoftAttentionOrt, DmmhaPresentIsPastPlusOne) {
  EXPECT_EQ(Op(kMs, "DecoderMaskedMultiHeadAttention")
                .outputs(3)
                .infer({ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(),
                        omitted(), ts(FLOAT16, {"B", 12, "P", 64}), ts(FLOAT16, {"B", 12, "P", 64})},
                       kHeads12),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 12, "P+1", 64}), ts(FLOAT16, {"B", 12, "P+1", 64})}));
}
// Packed QKV [B, 1, 2*hidden + v_hidden]: onnxruntime sets no output shape (v_hidden is not determined).
TEST(MicrosoftAttentionOrt, DmmhaPackedQkvOutputHiddenUnknown) {
  EXPECT_EQ(Op(kMs, "DecoderMaskedMultiHeadAttention").infer({ts(FLOAT16, {"B", 1, 2304})}, kHeads12),
            (Types{ts(FLOAT16, {"B", 1, "_d0"})}));
}
// qk: (batch_size, num_heads, 1, total_sequence_length); shared buffers:
// total = past_sequence_length (input 7) + 1. Element type is QK (unset).
TEST(MicrosoftAttentionOrt, DmmhaQkShape) {
  EXPECT_EQ(Op(kMs, "DecoderMaskedMultiHeadAttention")
                .outputs(4)
                .infer({ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {"B", 1, 768}), omitted(),
                        omitted(), ts(FLOAT16, {"B", 12, "M", 64}), ts(FLOAT16, {"B", 12, "M", 64}),
                        sym_value(ts(INT32, {1}), {"P"})},
                       {attr("num_heads", 12), attr("past_present_share_buffer", 1)})[3],
            ts(UNDEFINED, {"B", 12, 1, "P+1"}));
}
// Cross attention: key is [B, N, L, H], total_sequence_length = L.
TEST(MicrosoftAttentionOrt, DmmhaCrossQkShape) {
  EXPECT_EQ(Op(kMs, "DecoderMaskedMultiHeadAttention")
                .outputs(4)
                .infer({ts(FLOAT, {"B", 1, 768}), ts(FLOAT, {"B", 12, "L", 64}), ts(FLOAT, {"B", 12, "L", 64})},
                       {attr("num_heads", 12), attr("output_qk", 1)}),
            (Types{ts(FLOAT, {"B", 1, 768}), Type(), Type(), ts(UNDEFINED, {"B", 12, 1, "L"})}));
}
// The schema has 11 inputs (bias is input 10).
TEST(MicrosoftAttentionOrt, DmmhaHasElevenInputs) {
  std::vector<In> in(12, omitted());
  in[0] = ts(FLOAT, {"B", 1, 768});
  in[11] = ts(FLOAT, {2304});
  EXPECT_ERROR(Op(kMs, "DecoderMaskedMultiHeadAttention").run(in, kHeads12).report, "expected at most 11 inputs");
}

// SparseAttention: sparse_block_size is required; "The past_key input shall be 4 dimensions".
TEST(MicrosoftAttentionOrt, SparseAttentionChecks) {
  const std::vector<In> in = {ts(FLOAT16, {"B", "S", 3072}),
                              omitted(),
                              omitted(),
                              ts(FLOAT16, {"B", 8, "M", 64}),
                              ts(FLOAT16, {"B", 8, "M", 64}),
                              ts(INT32, {1, 33}),
                              ts(INT32, {1, 528}),
                              ts(INT32, {1}),
                              ts(INT32, {"B"})};
  EXPECT_ERROR(Op(kMs, "SparseAttention").run(in, {attr("num_heads", 32), attr("kv_num_heads", 8)}).report,
               "missing required attribute 'sparse_block_size'");
  std::vector<In> bad = in;
  bad[3] = ts(FLOAT16, {"B", 8, 64});
  EXPECT_ERROR(Op(kMs, "SparseAttention")
                   .run(bad, {attr("num_heads", 32), attr("kv_num_heads", 8), attr("sparse_block_size", 64)})
                   .report,
               "past_key has unexpected rank: [B,8,64]");
}
// LongformerAttention: window is a required attribute.
TEST(MicrosoftAttentionOrt, LongformerNeedsWindow) {
  EXPECT_ERROR(Op(kMs, "LongformerAttention")
                   .run({ts(FLOAT, {"B", "S", 768}), ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(FLOAT, {"B", "S"}),
                         ts(FLOAT, {768, 2304}), ts(FLOAT, {2304}), ts(INT32, {"B", "S"})},
                        kHeads12)
                   .report,
               "missing required attribute 'window'");
}
// GatedRelativePositionBias (bert_defs.cc): [token_offset dim 0, num_heads, dim 1, dim 1].
TEST(MicrosoftAttentionOrt, GatedRelativePositionBiasFromTokenOffset) {
  EXPECT_EQ(Op(kMs, "GatedRelativePositionBias")
                .infer({ts(FLOAT, {"T", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}),
                        ts(FLOAT, {8}), ts(FLOAT, {1, 12, 1, 1}), ts(INT32, {"B", "S"})},
                       kHeads12),
            (Types{ts(FLOAT, {"B", 12, "S", "S"})}));
}
// "GatedRelativePositionBias: token_offset must have rank >= 2".
TEST(MicrosoftAttentionOrt, GatedRelativePositionBiasTokenOffsetRank) {
  EXPECT_ERROR(Op(kMs, "GatedRelativePositionBias")
                   .run({ts(FLOAT, {"T", 768}), ts(FLOAT, {768}), ts(FLOAT, {1, 12, "S", "S"}), ts(FLOAT, {64, 8}),
                         ts(FLOAT, {8}), ts(FLOAT, {1, 12, 1, 1}), ts(INT32, {"BS"})},
                        kHeads12)
                   .report,
               "token_offset must have rank >= 2, got [BS]");
}
// RelativePositionBias: max_distance is a required attribute.
TEST(MicrosoftAttentionOrt, RelativePositionBiasNeedsMaxDistance) {
  EXPECT_ERROR(Op(kMs, "RelativePositionBias").run({ts(FLOAT, {32, 8}), ts(INT64, {1}), ts(INT64, {1})}).report,
               "missing required attribute 'max_distance'");
}

// DecoderMaskedSelfAttention: AttentionTypeAndShapeInference with past at input 4; with
// past_present_share_buffer the present is the past buffer.
TEST(MicrosoftAttentionMore, DecoderMaskedSelfAttention) {
  const std::vector<In> in{ts(FLOAT16, {"B", 1, 768}),
                           ts(FLOAT16, {768, 2304}),
                           ts(FLOAT16, {2304}),
                           omitted(),
                           ts(FLOAT16, {2, "B", 12, "M", 64}),
                           omitted(),
                           ts(INT32, {1})};
  EXPECT_EQ(Op(kMs, "DecoderMaskedSelfAttention")
                .outputs(2)
                .infer(in, {attr("num_heads", 12), attr("past_present_share_buffer", 1)}),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {2, "B", 12, "M", 64})}));
  EXPECT_EQ(Op(kMs, "DecoderMaskedSelfAttention").outputs(2).infer(in, {attr("num_heads", 12)}),
            (Types{ts(FLOAT16, {"B", 1, 768}), ts(FLOAT16, {2, "B", 12, "M+1", 64})}));
  std::vector<In> no_past = in;
  no_past[4] = omitted();
  EXPECT_ERROR(Op(kMs, "DecoderMaskedSelfAttention").outputs(2).run(no_past, {attr("num_heads", 12)}).report,
               "missing required input 4");
}
TEST(MicrosoftAttentionMore, DecoderAttention) {
  std::vector<In> in{ts(FLOAT, {"S", "B", 512}),
                     ts(FLOAT, {"T", "B", 512}),
                     ts(FLOAT, {512, 512}),
                     ts(FLOAT, {512, 1024}),
                     ts(FLOAT, {1536}),
                     omitted(),
                     omitted(),
                     omitted(),
                     ts(BOOL, {1}),
                     ts(BOOL, {1}),
                     ts(BOOL, {1}),
                     ts(BOOL, {1})};
  EXPECT_EQ(Op(kMs, "DecoderAttention").outputs(3).infer(in, {attr("num_heads", 8)}),
            (Types{ts(FLOAT, {"S", "B", 512}), ts(FLOAT, {"B", 8, "_d0", 64}), ts(FLOAT, {"B", 8, "_d1", 64})}));
  EXPECT_ERROR(Op(kMs, "DecoderAttention").run(in, {attr("num_heads", 6)}).report,
               "hidden size 512 is not a multiple of num_heads");
}
TEST(MicrosoftAttentionMore, PagedAttention) {
  std::vector<In> in{
      ts(FLOAT16, {"T", 512}),        ts(FLOAT16, {"T", 128}), ts(FLOAT16, {"T", 128}), ts(FLOAT16, {"NB", 16, 2, 64}),
      ts(FLOAT16, {"NB", 16, 2, 64}), ts(INT32, {"B+1"}),      ts(INT32, {"B"}),        ts(INT32, {"B", "MB"})};
  const std::vector<Attribute> a{attr("num_heads", 8), attr("kv_num_heads", 2)};
  EXPECT_EQ(Op(kMs, "PagedAttention").outputs(3).infer(in, a),
            (Types{ts(FLOAT16, {"T", 512}), ts(FLOAT16, {"NB", 16, 2, 64}), ts(FLOAT16, {"NB", 16, 2, 64})}));
  // Packed QKV [T, (8 + 2*2) * 64]: the output keeps N*H = 512.
  std::vector<In> packed{
      ts(FLOAT16, {"T", 768}),        omitted(),          omitted(),        ts(FLOAT16, {"NB", 16, 2, 64}),
      ts(FLOAT16, {"NB", 16, 2, 64}), ts(INT32, {"B+1"}), ts(INT32, {"B"}), ts(INT32, {"B", "MB"})};
  EXPECT_EQ(Op(kMs, "PagedAttention").infer(packed, a), (Types{ts(FLOAT16, {"T", 512})}));
  in[3] = ts(FLOAT16, {"NB", 16, 64});
  EXPECT_ERROR(Op(kMs, "PagedAttention").run(in, a).report, "key_cache has unexpected rank");
}
TEST(MicrosoftAttentionMore, GemmaRotaryEmbedding) {
  const Type qk = ts(FLOAT16, {"B", 8, "S", 64});
  EXPECT_EQ(Op(kMs, "GemmaRotaryEmbedding").outputs(2).infer({ts(FLOAT, {"B", "S", 64}), qk, qk, qk, qk}),
            (Types{qk, qk}));
  EXPECT_ERROR(Op(kMs, "GemmaRotaryEmbedding")
                   .outputs(2)
                   .run({ts(FLOAT, {"B", "S", 64}), qk, qk, ts(FLOAT16, {"B", 64}), qk})
                   .report,
               "k has unexpected rank");
}
TEST(MicrosoftAttentionMore, MRotaryEmbedding) {
  const std::vector<In> in{ts(FLOAT, {"B", "S", 1024}), ts(INT64, {3, "B", "S"}), ts(FLOAT, {4096, 32}),
                           ts(FLOAT, {4096, 32})};
  EXPECT_EQ(Op(kMs, "MRotaryEmbedding").infer(in, {attr("mrope_section", I64s{16, 8, 8}), attr("num_heads", 16)}),
            (Types{ts(FLOAT, {"B", "S", 1024})}));
  EXPECT_ERROR(Op(kMs, "MRotaryEmbedding").run(in).report, "missing required attribute 'mrope_section'");
  EXPECT_ERROR(
      Op(kMs, "MRotaryEmbedding")
          .run({ts(FLOAT, {"B", "S", 1024}), ts(INT64, {2, "B", "S"}), ts(FLOAT, {4096, 32}), ts(FLOAT, {4096, 32})},
               {attr("mrope_section", I64s{16, 8, 8})})
          .report,
      "position_ids must be [3, B, S]");
}
