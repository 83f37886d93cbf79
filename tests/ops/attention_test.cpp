// Attention (23/24), RMSNormalization, RotaryEmbedding, TensorScatter,
// LinearAttention and CausalConvWithState; shapes from the specification's
// examples (onnx/backend/test/case/node/attention.py and the operator docs).
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
Types attention(const std::vector<In>& inputs, std::vector<Attribute> attrs = {}, int64_t opset = 23,
                std::size_t outputs = 1) {
  return run_shape_inference("", "Attention", inputs, std::move(attrs), opset, outputs);
}
}  // namespace

TEST(Attention, FourD) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}),
            (Types{ts(FLOAT, {2, 3, 4, 8})}));
}
TEST(Attention, GroupQuery) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 9, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}),
            (Types{ts(FLOAT, {2, 9, 4, 8})}));
}
TEST(Attention, DifferentValueHeadSize) {
  EXPECT_EQ(attention({ts(FLOAT16, {2, 3, 4, 8}), ts(FLOAT16, {2, 3, 6, 8}), ts(FLOAT16, {2, 3, 6, 10})}),
            (Types{ts(FLOAT16, {2, 3, 4, 10})}));
}
TEST(Attention, ThreeDWithHeads) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 4, 24}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 30})},
                      {attr("q_num_heads", 3), attr("kv_num_heads", 3)}),
            (Types{ts(FLOAT, {2, 4, 30})}));
}
TEST(Attention, ThreeDGroupQueryHiddenIsQHeadsTimesVHead) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 4, 72}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})},
                      {attr("q_num_heads", 9), attr("kv_num_heads", 3)}),
            (Types{ts(FLOAT, {2, 4, 72})}));
}
TEST(Attention, PastAndPresentKeyValue) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 10}), omitted(),
                       ts(FLOAT, {2, 3, 12, 8}), ts(FLOAT, {2, 3, 12, 10})},
                      {}, 23, 4),
            (Types{ts(FLOAT, {2, 3, 4, 10}), ts(FLOAT, {2, 3, 18, 8}), ts(FLOAT, {2, 3, 18, 10}),
                   ts(FLOAT, {2, 3, 4, 18})}));
}
TEST(Attention, SymbolicKvCacheGrowsByTheNewTokens) {
  EXPECT_EQ(attention({ts(FLOAT, {"B", 32, 1, 128}), ts(FLOAT, {"B", 8, 1, 128}), ts(FLOAT, {"B", 8, 1, 128}),
                       ts(BOOL, {"B", 1, 1, "past+1"}), ts(FLOAT, {"B", 8, "past", 128}),
                       ts(FLOAT, {"B", 8, "past", 128})},
                      {}, 23, 4),
            (Types{ts(FLOAT, {"B", 32, 1, 128}), ts(FLOAT, {"B", 8, "past+1", 128}),
                   ts(FLOAT, {"B", 8, "past+1", 128}), ts(FLOAT, {"B", 32, 1, "past+1"})}));
}
TEST(Attention, SymbolicThreeDHidden) {
  EXPECT_EQ(attention({ts(FLOAT, {"B", "S", "H"}), ts(FLOAT, {"B", "T", "K"}), ts(FLOAT, {"B", "T", "V"})},
                      {attr("q_num_heads", 4), attr("kv_num_heads", 2)}, 23, 2),
            (Types{ts(FLOAT, {"B", "S", "4*(V//2)"}), ts(FLOAT, {"B", 2, "T", "H//4"})}));
}
TEST(Attention, NonpadKvSeqlenAtOpset24) {
  EXPECT_EQ(attention({ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}), omitted(),
                       omitted(), omitted(), ts(INT64, {2})},
                      {}, 24),
            (Types{ts(FLOAT, {2, 3, 4, 8})}));
  EXPECT_EQ(run_node("", "Attention",
                     {ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}), omitted(), omitted(),
                      omitted(), ts(INT64, {2})},
                     {}, 23)
                .report.errors(),
            1u);  // seven inputs only from opset 24
}
TEST(Attention, UnknownRankQueryGivesUnknownOutput) {
  EXPECT_EQ(attention({ts(FLOAT), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}), (Types{ts(FLOAT)}));
}
TEST(Attention, ThreeDWithoutHeadsIsUsageError) {
  RunResult r = run_node("", "Attention", {ts(FLOAT, {2, 4, 24}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})}, {},
                         23);
  ASSERT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("q_num_heads"), std::string::npos);
}
TEST(Attention, HeadsNotMultipleIsError) {
  EXPECT_EQ(run_node("", "Attention", {ts(FLOAT, {2, 4, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}, {},
                     23)
                .report.errors(),
            1u);
}
TEST(Attention, HiddenNotDivisibleIsError) {
  EXPECT_EQ(run_node("", "Attention", {ts(FLOAT, {2, 4, 25}), ts(FLOAT, {2, 6, 24}), ts(FLOAT, {2, 6, 24})},
                     {attr("q_num_heads", 3), attr("kv_num_heads", 3)}, 23)
                .report.errors(),
            1u);
}
TEST(Attention, PastKeyWithoutPastValueIsUsageError) {
  EXPECT_EQ(run_node("", "Attention",
                     {ts(FLOAT, {2, 3, 4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8}), omitted(),
                      ts(FLOAT, {2, 3, 12, 8})},
                     {}, 23)
                .report.errors(),
            1u);
}
TEST(Attention, WrongRankIsError) {
  EXPECT_EQ(run_node("", "Attention", {ts(FLOAT, {4, 8}), ts(FLOAT, {2, 3, 6, 8}), ts(FLOAT, {2, 3, 6, 8})}, {}, 23)
                .report.errors(),
            1u);
}

TEST(RMSNormalization, KeepsShapeWithScaleType) {
  EXPECT_EQ(run_shape_inference("", "RMSNormalization", {ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {4, 5})}, {attr("axis", 2)},
                                23),
            (Types{ts(FLOAT, {2, 3, 4, 5})}));
  EXPECT_EQ(run_shape_inference("", "RMSNormalization", {ts(FLOAT, {"B", "S", 768}), ts(FLOAT16, {768})}, {}, 23),
            (Types{ts(FLOAT16, {"B", "S", 768})}));
}
TEST(RMSNormalization, AxisOutOfRangeIsError) {
  EXPECT_EQ(
      run_node("", "RMSNormalization", {ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("axis", 2)}, 23).report.errors(), 1u);
}
TEST(RMSNormalization, MissingScaleIsUsageError) {
  EXPECT_EQ(run_node("", "RMSNormalization", {ts(FLOAT, {2, 3})}, {}, 23).report.errors(), 1u);
}

TEST(RotaryEmbedding, FourD) {
  EXPECT_EQ(run_shape_inference("", "RotaryEmbedding",
                                {ts(FLOAT, {2, 4, 3, 8}), ts(FLOAT, {50, 4}), ts(FLOAT, {50, 4}), ts(INT64, {2, 3})},
                                {}, 23),
            (Types{ts(FLOAT, {2, 4, 3, 8})}));
}
TEST(RotaryEmbedding, ThreeDWithNumHeads) {
  EXPECT_EQ(run_shape_inference("", "RotaryEmbedding",
                                {ts(FLOAT, {"B", "S", 32}), ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {"B", "S", 4})},
                                {attr("num_heads", 4)}, 23),
            (Types{ts(FLOAT, {"B", "S", 32})}));
}
TEST(RotaryEmbedding, ThreeDWithoutNumHeadsIsUsageError) {
  EXPECT_EQ(run_node("", "RotaryEmbedding", {ts(FLOAT, {2, 3, 32}), ts(FLOAT, {2, 3, 4}), ts(FLOAT, {2, 3, 4})}, {}, 23)
                .report.errors(),
            1u);
}
TEST(RotaryEmbedding, BadPositionIdsRankIsError) {
  EXPECT_EQ(run_node("", "RotaryEmbedding",
                     {ts(FLOAT, {2, 4, 3, 8}), ts(FLOAT, {50, 4}), ts(FLOAT, {50, 4}), ts(INT64, {6})}, {}, 23)
                .report.errors(),
            1u);
}

TEST(TensorScatter, PresentCacheIsPastCache) {
  EXPECT_EQ(run_shape_inference("", "TensorScatter", {ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {2, 3, 1, 5}), ts(INT64, {2})},
                                {}, 24),
            (Types{ts(FLOAT, {2, 3, 4, 5})}));
  EXPECT_EQ(run_shape_inference("", "TensorScatter", {ts(FLOAT, {"B", "max", 64}), ts(FLOAT, {"B", "S", 64})},
                                {attr("axis", 1), attr("mode", "circular")}, 24),
            (Types{ts(FLOAT, {"B", "max", 64})}));
}
TEST(TensorScatter, MismatchOutsideAxisIsError) {
  EXPECT_EQ(run_node("", "TensorScatter", {ts(FLOAT, {2, 3, 4, 5}), ts(FLOAT, {2, 2, 1, 5})}, {}, 24).report.errors(),
            1u);
}
TEST(TensorScatter, BadModeIsError) {
  EXPECT_EQ(run_node("", "TensorScatter", {ts(FLOAT, {2, 4, 5}), ts(FLOAT, {2, 1, 5})}, {attr("mode", "ring")}, 24)
                .report.errors(),
            1u);
}

TEST(LinearAttention, OutputAndState) {
  EXPECT_EQ(run_shape_inference("", "LinearAttention",
                                {ts(FLOAT, {"B", "T", 64}), ts(FLOAT, {"B", "T", 32}), ts(FLOAT, {"B", "T", 48})},
                                {attr("q_num_heads", 4), attr("kv_num_heads", 2)}, 27, 2),
            (Types{ts(FLOAT, {"B", "T", 96}), ts(FLOAT, {"B", 2, 16, 24})}));
}
TEST(LinearAttention, MissingHeadsIsUsageError) {
  EXPECT_EQ(run_node("", "LinearAttention", {ts(FLOAT, {1, 2, 64}), ts(FLOAT, {1, 2, 64}), ts(FLOAT, {1, 2, 64})}, {},
                     27, 2)
                .report.errors(),
            1u);
}

TEST(CausalConvWithState, OutputAndState) {
  EXPECT_EQ(run_shape_inference("", "CausalConvWithState", {ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {64, 1, 4})}, {}, 27,
                                2),
            (Types{ts(FLOAT, {"B", 64, "L"}), ts(FLOAT, {"B", 64, 3})}));
}
TEST(CausalConvWithState, ChannelMismatchIsError) {
  EXPECT_EQ(
      run_node("", "CausalConvWithState", {ts(FLOAT, {1, 64, 9}), ts(FLOAT, {32, 1, 4})}, {}, 27, 2).report.errors(),
      1u);
}
