// StringNormalizer, RegexFullMatch, StringConcat, StringSplit.
#include "op_test_util.hpp"

TEST(StringOps, RegexFullMatchIsBool) {
  EXPECT_EQ(Op("RegexFullMatch").opset(20).infer({ts(STRING, {"N", 3})}, {attr("pattern", "www\\.[\\w.-]+")}),
            (Types{ts(BOOL, {"N", 3})}));
}
TEST(StringOps, RegexFullMatchOfNumbersIsError) {
  EXPECT_ERROR(Op("RegexFullMatch").opset(20).run({ts(FLOAT, {3})}, {attr("pattern", "a")}).report,
               "input 0 must be a string tensor, got float");
}
TEST(StringOps, StringConcatBroadcasts) {
  EXPECT_EQ(Op("StringConcat").opset(20).infer({ts(STRING, {2}), ts(STRING, {2})}), (Types{ts(STRING, {2})}));
  EXPECT_EQ(Op("StringConcat").opset(20).infer({ts(STRING, {"N", 3}), ts(STRING, {})}), (Types{ts(STRING, {"N", 3})}));
}
TEST(StringOps, StringConcatIncompatibleIsError) {
  EXPECT_ERROR(Op("StringConcat").opset(20).run({ts(STRING, {2}), ts(STRING, {3})}).report,
               "cannot broadcast [2] with [3]");
}
TEST(StringOps, StringSplitAddsSubstringDim) {
  EXPECT_EQ(Op("StringSplit").opset(20).outputs(2).infer({ts(STRING, {2, 2})}, {attr("delimiter", "-")}),
            (Types{ts(STRING, {2, 2, "_d0"}), ts(INT64, {2, 2})}));
  EXPECT_EQ(Op("StringSplit").opset(20).outputs(2).infer({ts(STRING, {"N"})}, {attr("maxsplit", 2)}),
            (Types{ts(STRING, {"N", "_d0"}), ts(INT64, {"N"})}));
  EXPECT_EQ(Op("StringSplit").opset(20).outputs(2).infer({ts(STRING)}), (Types{ts(STRING), ts(INT64)}));
}
TEST(StringOps, StringSplitBadMaxsplitIsError) {
  EXPECT_ERROR(Op("StringSplit").opset(20).outputs(2).run({ts(STRING, {2})}, {attr("maxsplit", 0)}).report,
               "maxsplit must be a positive integer");
}
TEST(StringOps, StringNormalizer) {
  EXPECT_EQ(Op("StringNormalizer").opset(10).infer({ts(STRING, {4})}, {attr("case_change_action", "LOWER")}),
            (Types{ts(STRING, {4})}));
  EXPECT_EQ(
      Op("StringNormalizer").opset(10).infer({ts(STRING, {1, 6})}, {Attribute::make_strings("stopwords", {"monday"})}),
      (Types{ts(STRING, {1, "_d0"})}));
}
TEST(StringOps, StringNormalizerBadShapeIsError) {
  EXPECT_ERROR(Op("StringNormalizer").opset(10).run({ts(STRING, {2, 3})}).report,
               "X must be [C] or [1, C], got shape [2,3]");
}

namespace {
// TfIdfVectorizer's required attributes other than ngram_indexes.
std::vector<Attribute> tfidf_attrs(std::vector<int64_t> ngram_indexes) {
  return {attr("max_gram_length", 2),
          attr("min_gram_length", 1),
          attr("max_skip_count", 0),
          attr("mode", "TF"),
          attr("ngram_counts", std::vector<int64_t>{0, 2}),
          attr("ngram_indexes", std::move(ngram_indexes))};
}
}  // namespace

TEST(TfIdfVectorizer, NgramCounts) {
  EXPECT_EQ(Op("TfIdfVectorizer").opset(9).infer({ts(INT64, {"N", "C"})}, tfidf_attrs({0, 4, 2})),
            (Types{ts(FLOAT, {"N", 5})}));
  EXPECT_EQ(Op("TfIdfVectorizer").opset(9).infer({ts(STRING, {"C"})}, tfidf_attrs({0, 1})), (Types{ts(FLOAT, {2})}));
  std::vector<Attribute> no_indexes = tfidf_attrs({});
  no_indexes.pop_back();
  EXPECT_ERROR(Op("TfIdfVectorizer").opset(9).run({ts(INT64, {"C"})}, no_indexes).report,
               "missing required attribute 'ngram_indexes'");
  EXPECT_ERROR(Op("TfIdfVectorizer").opset(9).run({ts(INT64, {1, 2, 3})}, tfidf_attrs({0})).report,
               "input must be [C] or [N, C]");
}
