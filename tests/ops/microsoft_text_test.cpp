#include "op_test_util.hpp"

namespace {
std::vector<Attribute> tokenizer_attrs() {
  return {attr("mark", 0), attr("mincharnum", 1), attr("pad_value", "#"), Attribute::make_strings("separators", {" "})};
}
std::vector<Attribute> hash_attrs(int64_t max_n, int64_t heads) {
  return {attr("max_ngram_size", max_n), attr("n_head_per_ngram", heads), attr("pad_id", 0)};
}
}  // namespace

// ContribOperators.md Tokenizer: [C] -> [C, D], [N, C] -> [N, C, D]; an empty input stays as it is.
TEST(MicrosoftText, Tokenizer) {
  EXPECT_EQ(Op(kMs, "Tokenizer").infer({ts(STRING, {"N", "C"})}, tokenizer_attrs()),
            (Types{ts(STRING, {"N", "C", "_d0"})}));
  EXPECT_EQ(Op(kMs, "Tokenizer").infer({ts(STRING, {"N", 0})}, tokenizer_attrs()), (Types{ts(STRING, {"N", 0})}));
  EXPECT_ERROR(Op(kMs, "Tokenizer").run({ts(STRING, {2, 3, 4})}, tokenizer_attrs()).report,
               "input must be [C] or [N, C]");
  EXPECT_ERROR(Op(kMs, "Tokenizer")
                   .run({ts(STRING, {"C"})}, {attr("mark", 0), attr("mincharnum", 1), attr("pad_value", "#")})
                   .report,
               "exactly one of 'separators' and 'tokenexp'");
}
TEST(MicrosoftText, WordConvEmbedding) {
  EXPECT_EQ(Op(kMs, "WordConvEmbedding")
                .infer({ts(INT32, {"S", "L"}), ts(FLOAT, {100, 1, 3, 16}), ts(FLOAT, {100}), ts(FLOAT, {300, 16})}),
            (Types{ts(FLOAT, {"S", 100})}));
  EXPECT_ERROR(Op(kMs, "WordConvEmbedding")
                   .run({ts(INT32, {"S", "L"}), ts(FLOAT, {100, 1, 3, 16}), ts(FLOAT, {100}), ts(FLOAT, {300, 16})},
                        {attr("embedding_size", 64)})
                   .report,
               "embedding_size 64 differs from W's filters 100");
}
TEST(MicrosoftText, NGramRepeatBlock) {
  EXPECT_EQ(
      Op(kMs, "NGramRepeatBlock").infer({ts(INT64, {"B", "S"}), ts(FLOAT, {"B", 50257})}, {attr("ngram_size", 3)}),
      (Types{ts(FLOAT, {"B", 50257})}));
  EXPECT_ERROR(Op(kMs, "NGramRepeatBlock").run({ts(INT64, {"B", "S"}), ts(FLOAT, {"B", 50257})}).report,
               "missing required attribute 'ngram_size'");
  EXPECT_ERROR(
      Op(kMs, "NGramRepeatBlock").run({ts(INT64, {2, "S"}), ts(FLOAT, {3, 10})}, {attr("ngram_size", 3)}).report,
      "differ in batch size");
}
// ContribOperators.md NGramHashMapping: hash_ids (B, S, (max_ngram_size - 1) * n_head_per_ngram), present_ids
// (B, max_ngram_size - 1).
TEST(MicrosoftText, NGramHashMapping) {
  EXPECT_EQ(Op(kMs, "NGramHashMapping")
                .outputs(2)
                .infer({ts(INT64, {"B", "S"}), ts(INT64, {4}), ts(INT64, {12})}, hash_attrs(4, 4)),
            (Types{ts(INT64, {"B", "S", 12}), ts(INT64, {"B", 3})}));
  EXPECT_ERROR(Op(kMs, "NGramHashMapping")
                   .run({ts(INT64, {"B", "S"}), ts(INT64, {4}), ts(INT64, {12})}, hash_attrs(1, 4))
                   .report,
               "max_ngram_size must be at least 2");
}
TEST(MicrosoftText, VarlenNGramHashMapping) {
  EXPECT_EQ(Op(kMs, "VarlenNGramHashMapping")
                .outputs(3)
                .infer({ts(INT32, {"T"}), ts(INT32, {3}), ts(INT32, {4}), ts(INT32, {"B+1"})}, hash_attrs(3, 2)),
            (Types{ts(INT32, {"T", 4}), ts(INT32, {"B", 2}), ts(INT32, {"B", 2})}));
  EXPECT_ERROR(Op(kMs, "VarlenNGramHashMapping")
                   .run({ts(INT32, {"B", "T"}), ts(INT32, {3}), ts(INT32, {4}), ts(INT32, {"B+1"})}, hash_attrs(3, 2))
                   .report,
               "input_ids has unexpected rank");
}
TEST(MicrosoftText, BifurcationDetector) {
  EXPECT_EQ(Op(kMs, "BifurcationDetector")
                .outputs(2)
                .infer({ts(INT64, {"S"}), ts(INT64, {"C"}), ts(INT64, {}), ts(INT64, {"P"})}),
            (Types{ts(INT64, {"_d0"}), ts(INT64, {})}));
  EXPECT_ERROR(Op(kMs, "BifurcationDetector")
                   .outputs(2)
                   .run({ts(INT64, {"S"}), ts(INT64, {"C"}), ts(INT64, {})},
                        {attr("min_ngram_size", 4), attr("max_ngram_size", 2)})
                   .report,
               "need 1 <= min_ngram_size <= max_ngram_size");
}
