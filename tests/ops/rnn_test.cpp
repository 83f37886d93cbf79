#include "op_test_util.hpp"

TEST(Lstm, ForwardOutputs) {
  EXPECT_EQ(
      Op("LSTM").opset(14).outputs(3).infer(
          {ts(FLOAT, {"S", "B", 32}), ts(FLOAT, {1, 256, 32}), ts(FLOAT, {1, 256, 64})}, {attr("hidden_size", 64)}),
      (Types{ts(FLOAT, {"S", 1, "B", 64}), ts(FLOAT, {1, "B", 64}), ts(FLOAT, {1, "B", 64})}));
}
TEST(Lstm, BidirectionalLayout1) {
  EXPECT_EQ(Op("LSTM").opset(14).outputs(3).infer(
                {ts(FLOAT, {"B", "S", 32}), ts(FLOAT, {2, 256, 32}), ts(FLOAT, {2, 256, 64})},
                {attr("hidden_size", 64), attr("direction", "bidirectional"), attr("layout", 1)}),
            (Types{ts(FLOAT, {"B", "S", 2, 64}), ts(FLOAT, {"B", 2, 64}), ts(FLOAT, {"B", 2, 64})}));
}
TEST(Lstm, HiddenSizeFromR) {
  EXPECT_EQ(Op("LSTM").opset(7).outputs(3).infer(
                {ts(FLOAT, {"S", "B", 32}), ts(FLOAT, {1, "G", 32}), ts(FLOAT, {1, "G", "H"})}),
            (Types{ts(FLOAT, {"S", 1, "B", "H"}), ts(FLOAT, {1, "B", "H"}), ts(FLOAT, {1, "B", "H"})}));
}
TEST(Lstm, OmittedYStillGivesStates) {
  RunResult r =
      Op("LSTM").opset(14).outputs(3).run({ts(FLOAT, {"S", "B", 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16}),
                                           omitted(), omitted(), ts(FLOAT, {1, "B", 16}), ts(FLOAT, {1, "B", 16})},
                                          {attr("hidden_size", 16)});
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_EQ(r.outputs[1], ts(FLOAT, {1, "B", 16}));
}
TEST(Lstm, DirectionMismatchIsError) {
  EXPECT_ERROR(
      Op("LSTM")
          .opset(14)
          .outputs(3)
          .run({ts(FLOAT, {5, 2, 8}), ts(FLOAT, {2, 64, 8}), ts(FLOAT, {2, 64, 16})}, {attr("hidden_size", 16)})
          .report,
      "W/R dim 0 is 2 but direction 'forward' has 1 direction(s)");
}
TEST(Lstm, WrongWRowsIsError) {
  EXPECT_ERROR(
      Op("LSTM")
          .opset(14)
          .run({ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 48, 8}), ts(FLOAT, {1, 48, 16})}, {attr("hidden_size", 16)})
          .report,
      "W [1,48,8] does not have 4*hidden_size rows");
}
TEST(Lstm, LayoutBefore14IsIgnoredAndBadLayoutIsError) {
  EXPECT_EQ(Op("LSTM").opset(7).infer({ts(FLOAT, {"S", "B", 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16})},
                                      {attr("hidden_size", 16)}),
            (Types{ts(FLOAT, {"S", 1, "B", 16})}));
  EXPECT_ERROR(Op("LSTM")
                   .opset(14)
                   .run({ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16})},
                        {attr("hidden_size", 16), attr("layout", 2)})
                   .report,
               "layout must be 0 or 1, got 2");
}
TEST(Lstm, MissingRIsUsageError) {
  EXPECT_ERROR(
      Op("LSTM").opset(14).run({ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 64, 8})}, {attr("hidden_size", 16)}).report,
      "missing required input 2");
}
TEST(Gru, TwoOutputs) {
  EXPECT_EQ(
      Op("GRU").opset(14).outputs(2).infer({ts(FLOAT, {"S", "B", 16}), ts(FLOAT, {2, 96, 16}), ts(FLOAT, {2, 96, 32})},
                                           {attr("hidden_size", 32), attr("direction", "bidirectional")}),
      (Types{ts(FLOAT, {"S", 2, "B", 32}), ts(FLOAT, {2, "B", 32})}));
  EXPECT_EQ(Op("GRU").opset(3).outputs(2).infer({ts(FLOAT, {"S", "B", 16}), ts(FLOAT, {1, 96, 16}), ts(FLOAT)}),
            (Types{ts(FLOAT, {"S", 1, "B", 32}), ts(FLOAT, {1, "B", 32})}));
}
TEST(Rnn, ReverseAndBadDirection) {
  EXPECT_EQ(
      Op("RNN").opset(14).outputs(2).infer({ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})},
                                           {attr("hidden_size", 8), attr("direction", "reverse"), attr("layout", 1)}),
      (Types{ts(FLOAT, {"B", "S", 1, 8}), ts(FLOAT, {"B", 1, 8})}));
  EXPECT_ERROR(
      Op("RNN")
          .opset(14)
          .run({ts(FLOAT, {5, 2, 4}), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})}, {attr("direction", "sideways")})
          .report,
      "unknown direction 'sideways'");
}
TEST(Rnn, UnknownXKeepsRank) {
  EXPECT_EQ(Op("RNN").opset(7).outputs(2).infer({ts(FLOAT), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})}),
            (Types{ts(FLOAT, {"_d0", 1, "_d1", 8}), ts(FLOAT, {1, "_d1", 8})}));
}
