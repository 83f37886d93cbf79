// Cutting expressions to fit a screen (tools/symshape/fit.hpp): the width in
// code points, the cut at a term boundary, UTF-8 sequences kept whole, and
// the shares of a table's expression columns.
#include "fit.hpp"

#include <gtest/gtest.h>

using namespace symshape::cli;

namespace {

const std::string kDots = "\xe2\x80\xa6";

TEST(CutExpression, ShortEnoughStaysWhole) {
  EXPECT_EQ(cut_expression("a+b", 3), "a+b");
  EXPECT_EQ(cut_expression("", 0), "");
}

TEST(CutExpression, EndsAfterTheLastTermBoundaryThatFits) {
  // 20 columns: 19 of the expression, then "…".
  EXPECT_EQ(cut_expression("8*past+16*seq+256*batch*seq+2072", 20), "8*past+16*seq+" + kDots);
  // A ',' at the same depth beats a later '+'.
  EXPECT_EQ(cut_expression("max(8*past+16*seq,24*seq+256*batch+2072)", 30), "max(8*past+16*seq," + kDots);
  // Shallower beats deeper: the top-level '+' rather than the one inside.
  EXPECT_EQ(cut_expression("seq*seq+past*seq+2*(past+seq*batch+1)", 30), "seq*seq+past*seq+" + kDots);
}

TEST(CutExpression, NoBoundaryInTheSecondHalfCutsAtTheWidth) {
  EXPECT_EQ(cut_expression("a+bbbbbbbbbbbbbbbbbbbbbbbb", 10), "a+bbbbbbb" + kDots);
  EXPECT_EQ(display_width(cut_expression("a+bbbbbbbbbbbbbbbbbbbbbbbb", 10)), 10u);
}

TEST(CutExpression, NeverSplitsAUtf8Sequence) {
  // "é" is two bytes, one column: 9 columns of it, then "…".
  const std::string e = "\xc3\xa9";
  std::string text;
  for (int i = 0; i < 12; ++i) text += e;
  const std::string cut = cut_expression(text, 10);
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += e;
  EXPECT_EQ(cut, nine + kDots);
  EXPECT_EQ(display_width(cut), 10u);
}

TEST(ExprFit, FullAndPipeWidths) {
  EXPECT_EQ(ExprFit::whole().cut(std::string(500, 'x')), std::string(500, 'x'));
  EXPECT_FALSE(ExprFit::whole().cuts());
  // A file is not a terminal: 60 columns per expression.
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  const ExprFit pipe = ExprFit::for_output(f, false);
  EXPECT_EQ(pipe.width(), kPipeExprWidth);
  EXPECT_EQ(display_width(pipe.cut(std::string(500, 'x'))), kPipeExprWidth);
  std::vector<std::vector<std::string>> rows{{"name", "expression"}, {"a", std::string(100, 'y')}};
  pipe.fit_table(rows, {1});
  EXPECT_EQ(rows[1][1], std::string(59, 'y') + kDots);
  EXPECT_EQ(ExprFit::width_beside(rows, {1}), 4u + 2u);
  std::fclose(f);
}

}  // namespace
