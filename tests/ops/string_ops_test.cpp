// StringNormalizer, RegexFullMatch, StringConcat, StringSplit.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

TEST(StringOps, RegexFullMatchIsBool) {
  EXPECT_EQ(run_shape_inference("", "RegexFullMatch", {ts(STRING, {"N", 3})}, {attr("pattern", "www\\.[\\w.-]+")}, 20),
            (Types{ts(BOOL, {"N", 3})}));
}
TEST(StringOps, RegexFullMatchOfNumbersIsError) {
  EXPECT_EQ(run_node("", "RegexFullMatch", {ts(FLOAT, {3})}, {attr("pattern", "a")}, 20).report.errors(), 1u);
}
TEST(StringOps, StringConcatBroadcasts) {
  EXPECT_EQ(run_shape_inference("", "StringConcat", {ts(STRING, {2}), ts(STRING, {2})}, {}, 20),
            (Types{ts(STRING, {2})}));
  EXPECT_EQ(run_shape_inference("", "StringConcat", {ts(STRING, {"N", 3}), ts(STRING, {})}, {}, 20),
            (Types{ts(STRING, {"N", 3})}));
}
TEST(StringOps, StringConcatIncompatibleIsError) {
  EXPECT_EQ(run_node("", "StringConcat", {ts(STRING, {2}), ts(STRING, {3})}, {}, 20).report.errors(), 1u);
}
TEST(StringOps, StringSplitAddsSubstringDim) {
  EXPECT_EQ(run_shape_inference("", "StringSplit", {ts(STRING, {2, 2})}, {attr("delimiter", "-")}, 20, 2),
            (Types{ts(STRING, {2, 2, "_d0"}), ts(INT64, {2, 2})}));
  EXPECT_EQ(run_shape_inference("", "StringSplit", {ts(STRING, {"N"})}, {attr("maxsplit", 2)}, 20, 2),
            (Types{ts(STRING, {"N", "_d0"}), ts(INT64, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "StringSplit", {ts(STRING)}, {}, 20, 2), (Types{ts(STRING), ts(INT64)}));
}
TEST(StringOps, StringSplitBadMaxsplitIsError) {
  EXPECT_EQ(run_node("", "StringSplit", {ts(STRING, {2})}, {attr("maxsplit", 0)}, 20, 2).report.errors(), 1u);
}
TEST(StringOps, StringNormalizer) {
  EXPECT_EQ(run_shape_inference("", "StringNormalizer", {ts(STRING, {4})}, {attr("case_change_action", "LOWER")}, 10),
            (Types{ts(STRING, {4})}));
  EXPECT_EQ(run_shape_inference("", "StringNormalizer", {ts(STRING, {1, 6})},
                                {Attribute::make_strings("stopwords", {"monday"})}, 10),
            (Types{ts(STRING, {1, "_d0"})}));
}
TEST(StringOps, StringNormalizerBadShapeIsError) {
  EXPECT_EQ(run_node("", "StringNormalizer", {ts(STRING, {2, 3})}, {}, 10).report.errors(), 1u);
}
