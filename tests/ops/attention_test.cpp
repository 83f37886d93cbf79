// Attention (23/24), RotaryEmbedding and LinearAttention; shapes from the specification's
// examples (onnx/backend/test/case/node/attention.py and the operator docs).
#include "op_test_util.hpp"

namespace {
// ai.onnx Attention at opset 23, where it was introduced.
Op attention() { return Op("Attention").opset(23); }
}  // namespace

TEST(Attention, FourD) {
  EXPECT_EQ(attention().infer({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}),
            (Types{ts(FLOAT, {2, 3, 4, 8})}));
}
TEST(Attention, GroupQuery) {
  EXPECT_EQ(attention().infer({ts(FLOAT, {2, 9, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}),
            (Types{ts(FLOAT, {2, 9, 4, 8})}));
}
TEST(Attention, DifferentValueHeadSize) {
  EXPECT_EQ(attention().infer({ts(FLOAT16, {2, 3, 4, 8}), ts(FLOAT16, {2, 3, 6, 8}), ts(FLOAT16, {2, 3, 6, 10})}),
            (Types{ts(FLOAT16, {2, 3, 4, 10})}));
}
TEST(Attention, ThreeDWithHeads) {
  EXPECT_EQ(attention().infer({ts(FLOAT, {2, 4, 24}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 30})},
                              {attr("q_num_heads", 3), attr("kv_num_heads", 3)}),
            (Types{ts(FLOAT, {2, 4, 30})}));
}
TEST(Attention, ThreeDGroupQueryHiddenIsQHeadsTimesVHead) {
  EXPECT_EQ(attention().infer({ts(FLOAT, {2, 4, 72}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})},
                              {attr("q_num_heads", 9), attr("kv_num_heads", 3)}),
            (Types{ts(FLOAT, {2, 4, 72})}));
}
TEST(Attention, PastAndPresentKeyValue) {
  EXPECT_EQ(
      attention().outputs(4).infer({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 10}),
                                    omitted(), ts(FLOAT, {2, 3, 12, 8}), ts(FLOAT, {2, 3, 12, 10})}),
      (Types{ts(FLOAT, {2, 3, 4, 10}), ts(FLOAT, {2, 3, 18, 8}), ts(FLOAT, {2, 3, 18, 10}), ts(FLOAT, {2, 3, 4, 18})}));
}
TEST(Attention, SymbolicKvCacheGrowsByTheNewTokens) {
  EXPECT_EQ(attention().outputs(4).infer({ts(FLOAT, {"B", 32, 1, 128}), ts(FLOAT, {"B", 8, 1, 128}),
                                          ts(FLOAT, {"B", 8, 1, 128}), ts(BOOL, {"B", 1, 1, "past+1"}),
                                          ts(FLOAT, {"B", 8, "past", 128}), ts(FLOAT, {"B", 8, "past", 128})}),
            (Types{ts(FLOAT, {"B", 32, 1, 128}), ts(FLOAT, {"B", 8, "past+1", 128}), ts(FLOAT, {"B", 8, "past+1", 128}),
                   ts(FLOAT, {"B", 32, 1, "past+1"})}));
}
TEST(Attention, SymbolicThreeDHidden) {
  EXPECT_EQ(
      attention().outputs(2).infer({ts(FLOAT, {"B", "S", "H"}), ts(FLOAT, {"B", "T", "K"}), ts(FLOAT, {"B", "T", "V"})},
                                   {attr("q_num_heads", 4), attr("kv_num_heads", 2)}),
      (Types{ts(FLOAT, {"B", "S", "4*(V//2)"}), ts(FLOAT, {"B", 2, "T", "H//4"})}));
}
TEST(Attention, NonpadKvSeqlenAtOpset24) {
  EXPECT_EQ(attention().opset(24).infer({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}),
                                         omitted(), omitted(), omitted(), ts(INT64, {2})}),
            (Types{ts(FLOAT, {2, 3, 4, 8})}));
  EXPECT_ERROR(attention()
                   .run({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}), omitted(),
                         omitted(), omitted(), ts(INT64, {2})})
                   .report,
               "expected at most 6 inputs");  // seven inputs only from opset 24
}
TEST(Attention, UnknownRankQueryGivesUnknownOutput) {
  EXPECT_EQ(attention().infer({ts(FLOAT), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}), (Types{ts(FLOAT)}));
}
TEST(Attention, ThreeDWithoutHeadsIsUsageError) {
  RunResult r = attention().run({ts(FLOAT, {2, 4, 24}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})});
  ASSERT_ERROR(r.report, "need the q_num_heads and kv_num_heads attributes");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("q_num_heads"), std::string::npos);
}
TEST(Attention, HeadsNotMultipleIsError) {
  EXPECT_ERROR(attention().run({ts(FLOAT, {2, 4, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}).report,
               "q_num_heads 4 is not a multiple of kv_num_heads 3");
}
TEST(Attention, HiddenNotDivisibleIsError) {
  EXPECT_ERROR(attention()
                   .run({ts(FLOAT, {2, 4, 25}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})},
                        {attr("q_num_heads", 3), attr("kv_num_heads", 3)})
                   .report,
               "Q hidden size 25 is not divisible by 3 heads");
}
TEST(Attention, PastKeyWithoutPastValueIsUsageError) {
  EXPECT_ERROR(attention()
                   .run({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}), omitted(),
                         ts(FLOAT, {2, 3, 12, 8})})
                   .report,
               "past_key and past_value must be given together");
}
TEST(Attention, WrongRankIsError) {
  EXPECT_ERROR(attention().run({ts(FLOAT, {4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}).report,
               "Q must be 3-D or 4-D, got shape [4,8]");
}

TEST(RotaryEmbedding, FourD) {
  EXPECT_EQ(Op("RotaryEmbedding")
                .opset(23)
                .infer({ts(FLOAT, {2, 4, 3, 8}), ts(FLOAT, {50, 4}), ts(FLOAT, {50, 4}), ts(INT64, {2, 3})}),
            (Types{ts(FLOAT, {2, 4, 3, 8})}));
}
TEST(RotaryEmbedding, ThreeDWithNumHeads) {
  EXPECT_EQ(Op("RotaryEmbedding")
                .opset(23)
                .infer({ts(FLOAT, {"B", "S", 32}), ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {"B", "S", 4})},
                       {attr("num_heads", 4)}),
            (Types{ts(FLOAT, {"B", "S", 32})}));
}
TEST(RotaryEmbedding, ThreeDWithoutNumHeadsIsUsageError) {
  EXPECT_ERROR(
      Op("RotaryEmbedding").opset(23).run({ts(FLOAT, {2, 3, 32}), ts(FLOAT, {2, 3, 4}), ts(FLOAT, {2, 3, 4})}).report,
      "a 3-D input needs the num_heads attribute");
}
TEST(RotaryEmbedding, BadPositionIdsRankIsError) {
  EXPECT_ERROR(Op("RotaryEmbedding")
                   .opset(23)
                   .run({ts(FLOAT, {2, 4, 3, 8}), ts(FLOAT, {50, 4}), ts(FLOAT, {50, 4}), ts(INT64, {6})})
                   .report,
               "position_ids must be 2-D [batch, sequence]");
}

TEST(LinearAttention, OutputAndState) {
  EXPECT_EQ(Op("LinearAttention")
                .opset(27)
                .outputs(2)
                .infer({ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 32}), ts(FLOAT, {"B", "T", 48})},
                       {attr("q_num_heads", 4), attr("kv_num_heads", 2)}),
            (Types{ts(FLOAT, {"B", "T", 96}), ts(FLOAT, {"B", 2, 16, 24})}));
}
TEST(LinearAttention, MissingHeadsIsUsageError) {
  EXPECT_ERROR(Op("LinearAttention")
                   .opset(27)
                   .outputs(2)
                   .run({ts(FLOAT, {1, 2, 64}), ts(FLOAT, {1, 2, 64}), ts(FLOAT, {1, 2, 64})})
                   .report,
               "missing required attribute 'q_num_heads'");
}
