#include "op_test_util.hpp"

TEST(MicrosoftRecurrent, AttnLSTM) {
  EXPECT_EQ(Op(kMs, "AttnLSTM")
                .outputs(3)
                .infer({ts(FLOAT, {"T", "B", 32}), ts(FLOAT, {2, 64, 32}), ts(FLOAT, {2, 64, 16})},
                       {attr("direction", "bidirectional")}),
            (Types{ts(FLOAT, {"T", 2, "B", 16}), ts(FLOAT, {2, "B", 16}), ts(FLOAT, {2, "B", 16})}));
  EXPECT_ERROR(
      Op(kMs, "AttnLSTM").run({ts(FLOAT, {"T", "B", 32}), ts(FLOAT, {1, 64, 32}), ts(FLOAT, {1, 64, 8})}).report,
      "W [1,64,32] does not have 4*hidden_size rows");
}
// ContribOperators.md LinearAttention: output (B, T, max(H_q, H_kv) * d_v); present_state (B, H_kv, d_k, d_v), or
// (W, B, H_kv, d_k, d_v) with state_window W.
TEST(MicrosoftRecurrent, LinearAttention) {
  const std::vector<In> in{ts(FLOAT, {"B", "T", 256}), ts(FLOAT, {"B", "T", 128}), ts(FLOAT, {"B", "T", 192})};
  EXPECT_EQ(Op(kMs, "LinearAttention").outputs(2).infer(in, {attr("q_num_heads", 4), attr("kv_num_heads", 2)}),
            (Types{ts(FLOAT, {"B", "T", 384}), ts(FLOAT, {"B", 2, 64, 96})}));
  EXPECT_EQ(Op(kMs, "LinearAttention")
                .outputs(2)
                .infer(in, {attr("q_num_heads", 2), attr("kv_num_heads", 4), attr("state_window", 3)}),
            (Types{ts(FLOAT, {"B", "T", 192}), ts(FLOAT, {3, "B", 4, 128, 48})}));
  EXPECT_ERROR(Op(kMs, "LinearAttention").outputs(2).run(in, {attr("q_num_heads", 3), attr("kv_num_heads", 2)}).report,
               "query hidden size 256 is not a multiple of its 3 heads");
  EXPECT_ERROR(Op(kMs, "LinearAttention").outputs(2).run(in, {attr("q_num_heads", 4)}).report,
               "missing required attribute 'kv_num_heads'");
}
TEST(MicrosoftRecurrent, LinearAttentionGate) {
  EXPECT_EQ(Op(kMs, "LinearAttentionGate")
                .outputs(2)
                .infer({ts(FLOAT16, {"B", "T", 16}), ts(FLOAT, {16}), ts(FLOAT, {16}), ts(FLOAT16, {"B", "T", 16})}),
            (Types{ts(FLOAT16, {"B", "T", 16}), ts(FLOAT16, {"B", "T", 16})}));
  EXPECT_ERROR(Op(kMs, "LinearAttentionGate")
                   .outputs(2)
                   .run({ts(FLOAT16, {"B", "T", 16}), ts(FLOAT, {16}), ts(FLOAT, {16})})
                   .report,
               "the beta output needs input b");
}
// ContribOperators.md GatedDeltaNet: output (tokens, max(H_q, H_v), d_v); final_state (B, H_v, d_v, d_qk) float;
// state_update (B, C * (H_v + H_k * d_qk + H_v * d_v)).
TEST(MicrosoftRecurrent, GatedDeltaNet) {
  EXPECT_EQ(Op(kMs, "GatedDeltaNet")
                .outputs(2)
                .infer({ts(FLOAT16, {"N", 4, 128}), ts(FLOAT16, {"N", 4, 128}), ts(FLOAT16, {"N", 8, 64}),
                        ts(INT32, {"B+1"})}),
            (Types{ts(FLOAT16, {"N", 8, 64}), ts(FLOAT, {"B", 8, 64, 128})}));
  EXPECT_EQ(
      Op(kMs, "GatedDeltaNet")
          .outputs(3)
          .infer({ts(FLOAT, {"B", "S", 2, 16}), ts(FLOAT, {"B", "S", 2, 16}), ts(FLOAT, {"B", "S", 2, 8}), omitted(),
                  omitted(), omitted(), omitted(), omitted(), omitted(), ts(INT32, {"B"})},
                 {attr("state_update_capacity", 2)}),
      (Types{ts(FLOAT, {"B", "S", 2, 8}), ts(FLOAT, {"B", 2, 8, 16}), ts(FLOAT, {"B", 2 * (2 + 2 * 16 + 2 * 8)})}));
  EXPECT_ERROR(Op(kMs, "GatedDeltaNet")
                   .run({ts(FLOAT, {"N", 4, 16}), ts(FLOAT, {"N", 2, 16}), ts(FLOAT, {"N", 4, 8}), ts(INT32, {3})})
                   .report,
               "num_heads_q 4 must equal num_heads_k 2");
  EXPECT_ERROR(
      Op(kMs, "GatedDeltaNet").run({ts(FLOAT, {"N", 4, 16}), ts(FLOAT, {"N", 4, 16}), ts(FLOAT, {"N", 4, 8})}).report,
      "initial_state, which is then required");
}
// ContribOperators.md CausalConvWithState: present_state (B, C, (k_1 - 1) * dilation), led by W with state_window;
// channels_last: (B, state_length, d_1, ..., d_n).
TEST(MicrosoftRecurrent, CausalConvWithState) {
  EXPECT_EQ(Op(kMs, "CausalConvWithState").outputs(2).infer({ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {64, 1, 4})}),
            (Types{ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {"B", 64, 3})}));
  EXPECT_EQ(Op(kMs, "CausalConvWithState")
                .outputs(2)
                .infer({ts(FLOAT, {"B", "L", 4, 16}), ts(FLOAT, {64, 1, 4})},
                       {attr("channels_last", 1), attr("dilation", 2), attr("state_window", 2)}),
            (Types{ts(FLOAT, {"B", "L", 4, 16}), ts(FLOAT, {2, "B", 6, 4, 16})}));
  EXPECT_ERROR(Op(kMs, "CausalConvWithState").outputs(2).run({ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {32, 1, 4})}).report,
               "weight has 32 channels, input has 64");
  EXPECT_ERROR(Op(kMs, "CausalConvWithState")
                   .outputs(2)
                   .run({ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {64, 1, 4})}, {attr("state_window", 9)})
                   .report,
               "state_window must be in [0, 8]");
}
TEST(MicrosoftRecurrent, VarlenCausalConvWithState) {
  EXPECT_EQ(Op(kMs, "VarlenCausalConvWithState")
                .outputs(3)
                .infer({ts(FLOAT16, {"T", 64}), ts(FLOAT16, {64, 1, 4}), ts(INT32, {"B+1"}), omitted(),
                        ts(FLOAT16, {"B", 64, 3}), ts(INT32, {"B"})},
                       {attr("state_update_capacity", 4)}),
            (Types{ts(FLOAT16, {"T", 64}), ts(FLOAT16, {"B", 64, 3}), ts(FLOAT16, {"B", 4, 64})}));
  EXPECT_ERROR(Op(kMs, "VarlenCausalConvWithState")
                   .outputs(2)
                   .run({ts(FLOAT16, {"T", 64}), ts(FLOAT16, {64, 1, 4}), ts(INT32, {"B+1"}), omitted(),
                         ts(FLOAT16, {"B", 64, 3})},
                        {attr("dilation", 2)})
                   .report,
               "must hold (kernel_size - 1) * dilation = 6 positions");
}
TEST(MicrosoftRecurrent, EngramGate) {
  const Type k = ts(FLOAT, {"B", "S", 4, 256});
  EXPECT_EQ(
      Op(kMs, "EngramGate")
          .outputs(2)
          .infer({k, k, ts(FLOAT, {"B", "S", 256}), ts(FLOAT, {4, 256}), ts(FLOAT, {4, 256}), ts(FLOAT, {4, 256})}),
      (Types{k, k}));
  EXPECT_ERROR(Op(kMs, "EngramGate")
                   .outputs(2)
                   .run({k, k, ts(FLOAT, {"B", "S", 256}), ts(FLOAT, {4, 256}), ts(FLOAT, {4, 256})})
                   .report,
               "gated_value_normed needs conv_norm_scale");
}
