#include "op_test_util.hpp"

namespace {
// The attributes every generation op requires: the decoder subgraph and the eos / pad ids.
std::vector<Attribute> gen_attrs(std::vector<Attribute> more = {}) {
  std::vector<Attribute> a{Attribute::make_graph("decoder", std::make_shared<Graph>()), attr("eos_token_id", 2),
                           attr("pad_token_id", 0)};
  for (auto& m : more) a.push_back(std::move(m));
  return a;
}
In i32(int64_t v) { return constant(Tensor::ints({v}, {1}, DataType::INT32)); }
}  // namespace

// ContribOperators.md GreedySearch: sequences (batch_size, max_sequence_length).
TEST(MicrosoftGeneration, GreedySearch) {
  EXPECT_EQ(Op(kMs, "GreedySearch").infer({ts(INT32, {"B", "S"}), i32(64)}, gen_attrs()),
            (Types{ts(INT32, {"B", 64})}));
  EXPECT_EQ(Op(kMs, "GreedySearch").infer({ts(INT32, {"B", "S"}), ts(INT32, {1})}, gen_attrs()),
            (Types{ts(INT32, {"B", "_d0"})}));
  EXPECT_ERROR(Op(kMs, "GreedySearch").run({ts(INT32, {"B", "S"}), i32(64)}).report,
               "missing required attribute 'decoder'");
  EXPECT_ERROR(Op(kMs, "GreedySearch").run({ts(INT32, {"S"}), i32(64)}, gen_attrs()).report,
               "input_ids must be [batch_size, sequence_length]");
  EXPECT_ERROR(Op(kMs, "GreedySearch").run({ts(INT32, {"B", "S"}), i32(0)}, gen_attrs()).report,
               "max_length must be at least 1");
}
TEST(MicrosoftGeneration, Sampling) {
  EXPECT_EQ(
      Op(kMs, "Sampling").outputs(2).infer({ts(INT32, {"B", "S"}), i32(32)}, gen_attrs({attr("vocab_size", 1000)})),
      (Types{ts(INT32, {"B", 32}), ts(FLOAT, {"B", 1000})}));
  EXPECT_ERROR(Op(kMs, "Sampling").run({ts(INT32, {"B", "S"}), ts(INT32, {2, 2})}, gen_attrs()).report,
               "max_length must have shape [1]");
}
// ContribOperators.md BeamSearch: sequences (B, num_return_sequences, max_length), sequences_scores
// (B, num_return_sequences), scores (max_length - sequence_length, B, num_beams, vocab_size).
TEST(MicrosoftGeneration, BeamSearch) {
  EXPECT_EQ(
      Op(kMs, "BeamSearch")
          .outputs(3)
          .infer({ts(INT32, {"B", "S"}), i32(20), omitted(), i32(4), i32(2)}, gen_attrs({attr("vocab_size", 50)})),
      (Types{ts(INT32, {"B", 2, 20}), ts(FLOAT, {"B", 2}), ts(FLOAT, {"20-S", "B", 4, 50})}));
  EXPECT_ERROR(
      Op(kMs, "BeamSearch").run({ts(INT32, {"B", "S"}), i32(20), omitted(), i32(2), i32(4)}, gen_attrs()).report,
      "num_return_sequences 4 exceeds num_beams 2");
  EXPECT_ERROR(
      Op(kMs, "BeamSearch").run({ts(INT32, {"B", "S"}), i32(20), omitted(), omitted(), i32(4)}, gen_attrs()).report,
      "missing required input 3");
}
TEST(MicrosoftGeneration, WhisperBeamSearch) {
  EXPECT_EQ(
      Op(kMs, "WhisperBeamSearch")
          .outputs(2)
          .infer({ts(FLOAT, {"B", 80, 3000}), i32(448), omitted(), i32(4), i32(1)}, gen_attrs({attr("model_type", 2)})),
      (Types{ts(INT32, {"B", 1, 448}), ts(FLOAT, {"B", 1})}));
  EXPECT_ERROR(Op(kMs, "WhisperBeamSearch")
                   .outputs(2)
                   .run({ts(FLOAT, {"B", 80, 3000}), i32(448), omitted(), i32(0), i32(1)}, gen_attrs())
                   .report,
               "num_beams must be at least 1");
}
