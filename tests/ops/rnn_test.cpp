#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(Lstm, ForwardOutputs) {
  EXPECT_EQ(run_shape_inference("", "LSTM",
                                {ts(FLOAT, {"S", "B", 32}), ts(FLOAT, {1, 256, 32}), ts(FLOAT, {1, 256, 64})},
                                {attr("hidden_size", 64)}, 14, 3),
            (Types{ts(FLOAT, {"S", 1, "B", 64}), ts(FLOAT, {1, "B", 64}), ts(FLOAT, {1, "B", 64})}));
}
TEST(Lstm, BidirectionalLayout1) {
  EXPECT_EQ(run_shape_inference("", "LSTM",
                                {ts(FLOAT, {"B", "S", 32}), ts(FLOAT, {2, 256, 32}), ts(FLOAT, {2, 256, 64})},
                                {attr("hidden_size", 64), attr("direction", "bidirectional"), attr("layout", 1)}, 14, 3),
            (Types{ts(FLOAT, {"B", "S", 2, 64}), ts(FLOAT, {"B", 2, 64}), ts(FLOAT, {"B", 2, 64})}));
}
TEST(Lstm, HiddenSizeFromR) {
  EXPECT_EQ(run_shape_inference("", "LSTM", {ts(FLOAT, {"S", "B", 32}), ts(FLOAT, {1, "G", 32}), ts(FLOAT, {1, "G", "H"})},
                                {}, 7, 3),
            (Types{ts(FLOAT, {"S", 1, "B", "H"}), ts(FLOAT, {1, "B", "H"}), ts(FLOAT, {1, "B", "H"})}));
}
TEST(Lstm, OmittedYStillGivesStates) {
  RunResult r = run_node("", "LSTM",
                         {ts(FLOAT, {"S", "B", 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16}), omitted(), omitted(),
                          ts(FLOAT, {1, "B", 16}), ts(FLOAT, {1, "B", 16})},
                         {attr("hidden_size", 16)}, 14, 3);
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_EQ(r.outputs[1], ts(FLOAT, {1, "B", 16}));
}
TEST(Lstm, DirectionMismatchIsError) {
  EXPECT_EQ(run_node("", "LSTM", {ts(FLOAT, {5, 2, 8}), ts(FLOAT, {2, 64, 8}), ts(FLOAT, {2, 64, 16})},
                     {attr("hidden_size", 16)}, 14, 3)
                .report.errors(),
            1u);
}
TEST(Lstm, WrongWRowsIsError) {
  EXPECT_EQ(run_node("", "LSTM", {ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 48, 8}), ts(FLOAT, {1, 48, 16})},
                     {attr("hidden_size", 16)}, 14)
                .report.errors(),
            1u);
}
TEST(Lstm, LayoutBefore14IsIgnoredAndBadLayoutIsError) {
  EXPECT_EQ(run_shape_inference("", "LSTM", {ts(FLOAT, {"S", "B", 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16})},
                                {attr("hidden_size", 16)}, 7),
            (Types{ts(FLOAT, {"S", 1, "B", 16})}));
  EXPECT_EQ(run_node("", "LSTM", {ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 64, 8}), ts(FLOAT, {1, 64, 16})},
                     {attr("hidden_size", 16), attr("layout", 2)}, 14)
                .report.errors(),
            1u);
}
TEST(Lstm, MissingRIsUsageError) {
  EXPECT_EQ(run_node("", "LSTM", {ts(FLOAT, {5, 2, 8}), ts(FLOAT, {1, 64, 8})}, {attr("hidden_size", 16)}, 14)
                .report.errors(),
            1u);
}
TEST(Gru, TwoOutputs) {
  EXPECT_EQ(run_shape_inference("", "GRU", {ts(FLOAT, {"S", "B", 16}), ts(FLOAT, {2, 96, 16}), ts(FLOAT, {2, 96, 32})},
                                {attr("hidden_size", 32), attr("direction", "bidirectional")}, 14, 2),
            (Types{ts(FLOAT, {"S", 2, "B", 32}), ts(FLOAT, {2, "B", 32})}));
  EXPECT_EQ(run_shape_inference("", "GRU", {ts(FLOAT, {"S", "B", 16}), ts(FLOAT, {1, 96, 16}), ts(FLOAT)}, {}, 3, 2),
            (Types{ts(FLOAT, {"S", 1, "B", 32}), ts(FLOAT, {1, "B", 32})}));
}
TEST(Rnn, ReverseAndBadDirection) {
  EXPECT_EQ(run_shape_inference("", "RNN", {ts(FLOAT, {"B", "S", 4}), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})},
                                {attr("hidden_size", 8), attr("direction", "reverse"), attr("layout", 1)}, 14, 2),
            (Types{ts(FLOAT, {"B", "S", 1, 8}), ts(FLOAT, {"B", 1, 8})}));
  EXPECT_EQ(run_node("", "RNN", {ts(FLOAT, {5, 2, 4}), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})},
                     {attr("direction", "sideways")}, 14)
                .report.errors(),
            1u);
}
TEST(Rnn, UnknownXKeepsRank) {
  EXPECT_EQ(run_shape_inference("", "RNN", {ts(FLOAT), ts(FLOAT, {1, 8, 4}), ts(FLOAT, {1, 8, 8})}, {}, 7, 2),
            (Types{ts(FLOAT, {"_d0", 1, "_d1", 8}), ts(FLOAT, {1, "_d1", 8})}));
}
