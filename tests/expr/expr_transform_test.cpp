// substitute, rename, free_symbols, rename_dynamic_dimensions, the dim_*
// operations and simplify_expression.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"

namespace symshape {
namespace {

using test::P;
using test::sym;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(Substitute, ReplacesAndResimplifies) {
  EXPECT_EQ(substitute(P("a*b + a"), {{"a", P("c + 1")}}), P("(c + 1)*b + c + 1"));
  EXPECT_EQ(substitute(P("x//y"), {{"y", Expr(1)}}), sym("x"));
  EXPECT_EQ(substitute(P("(x + y)//2"), {{"y", sym("x")}}), sym("x"));
  EXPECT_EQ(substitute(P("max(a, b)"), {{"b", P("a + 1")}}), P("a + 1"));
  EXPECT_TRUE(substitute(P("x*y - 3"), {{"x", Expr(2)}, {"y", Expr(5)}}).is_int(7));
  EXPECT_EQ(substitute(P("x % 4 + y"), {{"x", P("4*z + 1")}}), P("1 + y"));
}

TEST(Substitute, IsSimultaneous) {
  EXPECT_EQ(substitute(P("a - 2*b"), {{"a", sym("b")}, {"b", sym("a")}}), P("b - 2*a"));
}

TEST(Substitute, LeavesOtherExpressionsAlone) {
  const Expr e = P("max(a, b//3) + a*b % 5");
  EXPECT_EQ(substitute(e, {{"z", Expr(1)}}), e);
  EXPECT_EQ(substitute(e, {}), e);
  EXPECT_TRUE(substitute(Expr(5), {{"a", Expr(1)}}).is_int(5));
}

TEST(Substitute, ErrorsPropagate) {
  EXPECT_TRUE(substitute(P("a + 1"), {{"a", Expr::error("boom")}}).is_error());
  EXPECT_TRUE(substitute(P("a*b"), {{"a", Expr(kMax)}, {"b", Expr(2)}}).is_error());
}

TEST(Substitute, AgreesWithEvaluation) {
  const Expr e = P("CeilToInt(a*b, 4) + max(a, c - b) - (a + 2*c)//3");
  const Expr f = P("b + c");
  const Expr s = substitute(e, {{"a", f}});
  for (int64_t b = 0; b <= 6; ++b)
    for (int64_t c = 0; c <= 6; ++c) {
      auto expected = evaluate(e, {{"a", b + c}, {"b", b}, {"c", c}});
      auto got = evaluate(s, {{"b", b}, {"c", c}});
      ASSERT_TRUE(expected.ok() && got.ok());
      EXPECT_EQ(*got, *expected) << "b=" << b << " c=" << c;
    }
}

TEST(Rename, RenamesAndResimplifies) {
  EXPECT_EQ(rename(P("a + 2*b"), {{"a", "x"}, {"b", "y"}}), P("x + 2*y"));
  EXPECT_TRUE(rename(P("a - b"), {{"b", "a"}}).is_int(0));
  EXPECT_EQ(rename(P("a - 2*b"), {{"a", "b"}, {"b", "a"}}), P("b - 2*a"));
  EXPECT_EQ(rename(P("max(a, b)"), {{"b", "a"}}), sym("a"));
}

TEST(FreeSymbols, SortedAndUnique) {
  EXPECT_EQ(free_symbols(P("max(b, a*c) + c//d - b % a")), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_TRUE(free_symbols(Expr(3)).empty());
  EXPECT_TRUE(free_symbols(P("x - x + 1")).empty());
  EXPECT_TRUE(free_symbols(Expr::error("boom")).empty());
  EXPECT_EQ(free_symbols(P("(z + 1)*(y + 1)*(x + 1)")), (std::vector<std::string>{"x", "y", "z"}));
}

TEST(RenameDynamicDimensions, PrefersUserNamesAndAvoidsTheBannedPrefix) {
  const std::vector<std::set<std::string>> classes = {
      {"DYN_0", "batch", "N"},  // N is preferred
      {"DYN_1", "DYN_2"},       // only banned names: left alone
      {"DYN_3", "seq"},         // seq, the only allowed name
      {"b", "a"},               // no preferred name: the smallest
      {"DYN_9", "x"},           // a preferred name with the banned prefix still loses
      {"lonely"},
  };
  const auto m = rename_dynamic_dimensions(classes, {"N", "DYN_9"});
  const std::map<std::string, std::string> expected = {
      {"DYN_0", "N"}, {"batch", "N"}, {"DYN_3", "seq"}, {"b", "a"}, {"DYN_9", "x"}};
  EXPECT_EQ(m, expected);
  for (const auto& [from, to] : m) EXPECT_NE(to.rfind("DYN", 0), 0u) << from << " -> " << to;
}

TEST(RenameDynamicDimensions, CustomAndEmptyBannedPrefix) {
  const auto m = rename_dynamic_dimensions({{"unk__0", "unk__1", "len"}}, {}, "unk__");
  EXPECT_EQ(m, (std::map<std::string, std::string>{{"unk__0", "len"}, {"unk__1", "len"}}));
  // With no banned prefix, the smallest name wins ('D' < 'a').
  const auto n = rename_dynamic_dimensions({{"DYN_1", "a"}}, {}, "");
  EXPECT_EQ(n, (std::map<std::string, std::string>{{"a", "DYN_1"}}));
}

TEST(DimOps, ReduceToIntegers) {
  const Expr x = sym("x"), y = sym("y");
  EXPECT_TRUE(dim_add(Expr(2), Expr(3)).is_int(5));
  EXPECT_TRUE(dim_sub(x + Expr(3), x).is_int(3));
  EXPECT_TRUE(dim_mul(Expr(4), Expr(5)).is_int(20));
  EXPECT_TRUE(dim_div(Expr(10), Expr(3)).is_int(3));
  EXPECT_TRUE(dim_div(Expr(-7), Expr(2)).is_int(-4));
  EXPECT_TRUE(dim_mod(Expr(-7), Expr(2)).is_int(1));
  EXPECT_TRUE(dim_div(Expr(2) * x, x).is_int(2));
  EXPECT_TRUE(dim_mod(Expr(6) * x + Expr(5), Expr(3)).is_int(2));
  EXPECT_TRUE(dim_max(Expr(3), Expr(8)).is_int(8));
  EXPECT_TRUE(dim_min(x, Expr(0)).is_int(0));
  EXPECT_TRUE(dim_multi_mul({Expr(2), Expr(3), Expr(4)}).is_int(24));
  EXPECT_TRUE(dim_multi_mul({}).is_int(1));
  EXPECT_TRUE(dim_multi_mul({x, Expr(0), y}).is_int(0));
}

TEST(DimOps, StaySymbolicWhenTheyMust) {
  const Expr x = sym("x"), y = sym("y");
  EXPECT_FALSE(dim_add(x, Expr(1)).is_int());
  EXPECT_EQ(dim_max(Expr(3), x).kind(), ExprKind::Max);
  EXPECT_EQ(dim_max(x, x + Expr(1)), x + Expr(1));
  EXPECT_EQ(dim_multi_mul({x, Expr(2), y}), Expr(2) * x * y);
  EXPECT_EQ(dim_div(x, Expr(2)).kind(), ExprKind::FloorDiv);
}

TEST(DimOps, ErrorsForZeroDivisorsAndOverflow) {
  const Expr x = sym("x");
  ASSERT_TRUE(dim_div(x, Expr(0)).is_error());
  EXPECT_EQ(dim_div(x, Expr(0)).name(), "division by zero");
  ASSERT_TRUE(dim_mod(Expr(7), Expr(0)).is_error());
  EXPECT_EQ(dim_mod(Expr(7), Expr(0)).name(), "modulo by zero");
  EXPECT_TRUE(dim_mul(Expr(kMax), Expr(2)).is_error());
  EXPECT_TRUE(dim_add(Expr(kMax), Expr(1)).is_error());
  EXPECT_TRUE(dim_multi_mul({Expr(kMax), x, Expr(2)}).is_error());
  EXPECT_TRUE(dim_add(dim_div(x, Expr(0)), Expr(1)).is_error());  // errors propagate
}

TEST(SimplifyExpression, TextInCanonicalTextOut) {
  auto r = simplify_expression("2*batch//batch");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "2");
  r = simplify_expression("(H - 1)//2 + 1");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "(H+1)//2");
  r = simplify_expression("a +");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("position 3", 0), 0u) << r.error();
}

}  // namespace
}  // namespace symshape
