// prove_ge / prove_eq: true only when the relation holds for every binding
// with each symbol >= its lower bound (0 by default).
#include <gtest/gtest.h>

#include <cstdint>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"
#include "symshape/expr/facts.hpp"

namespace symshape {
namespace {

using test::P;
using test::sym;

Assumptions at_least(std::initializer_list<std::pair<const char*, int64_t>> bounds) {
  Assumptions a;
  for (const auto& [name, lb] : bounds) a.lower_bounds[name] = lb;
  return a;
}

TEST(Prove, ConstantsAndSymbolsUnderDefaultAssumptions) {
  EXPECT_TRUE(prove_ge(Expr(3), Expr(2)));
  EXPECT_FALSE(prove_ge(Expr(2), Expr(3)));
  EXPECT_TRUE(prove_ge(sym("x"), Expr(0)));  // dimensions are >= 0
  EXPECT_FALSE(prove_ge(sym("x"), Expr(1)));
  EXPECT_FALSE(prove_ge(P("x - 1"), Expr(0)));
  EXPECT_TRUE(prove_ge(P("a + 1"), sym("a")));
  EXPECT_FALSE(prove_ge(sym("a"), P("a + 1")));
  EXPECT_TRUE(prove_ge(P("seq + past"), sym("seq")));
  EXPECT_FALSE(prove_ge(sym("seq"), P("seq + past")));
  EXPECT_FALSE(prove_ge(sym("a"), sym("b")));
  EXPECT_FALSE(prove_ge(sym("b"), sym("a")));
  EXPECT_TRUE(prove_ge(P("2*x + 3"), P("x + 1")));
}

TEST(Prove, FloorDivisionAndModuloBounds) {
  EXPECT_TRUE(prove_ge(Expr(4), P("x % 5")));
  EXPECT_FALSE(prove_ge(Expr(3), P("x % 5")));
  EXPECT_TRUE(prove_ge(P("x // 2"), Expr(0)));
  EXPECT_TRUE(prove_ge(P("(x + 1)//2"), Expr(0)));
  EXPECT_FALSE(prove_ge(P("(x - 3)//2"), Expr(0)));
}

TEST(Prove, MaxAndMin) {
  const Expr a = sym("a"), b = sym("b");
  EXPECT_TRUE(prove_ge(max(a, b), a));
  EXPECT_TRUE(prove_ge(max(a, b), b));
  EXPECT_TRUE(prove_ge(a, min(a, b)));
  EXPECT_TRUE(prove_ge(max(a, b), min(a, b)));
  EXPECT_FALSE(prove_ge(min(a, b), max(a, b)));
  EXPECT_FALSE(prove_ge(a, max(a, b)));
  EXPECT_TRUE(prove_ge(P("max(seq, 1)"), Expr(1)));
  EXPECT_TRUE(prove_ge(P("max(a, b) + 1"), b));
}

// The linear reasoning behind prove_ge (expr/linear_facts.hpp) eliminates b
// from -b - m - 1 >= 0 and 9223372036854775807*b - 1 - m >= 0 (m the Min)
// into a row whose coefficients are 0 and INT64_MIN; their gcd, 2^63, does
// not fit int64 and was taken for "no coefficient", so the row read as
// INT64_MIN >= 0 and the goal as proven (property test, seed 43). At b = 0
// the Min is -1.
TEST(Prove, ARowWithCoefficientInt64MinIsNoConstant) {
  EXPECT_FALSE(prove_ge(Expr(0), P("-b - min(6, b, 9223372036854775807*b - 1)")));
  EXPECT_FALSE(prove_ge(Expr(0), P("min(a, -b - min(6, b, 9223372036854775807*b - 1))")));
  EXPECT_TRUE(prove_ge(P("b + min(6, b, 9223372036854775807*b - 1)"), Expr(-1)));
}

// prove_not_one: >= 2, <= 0 (so 0), or a residue other than 1 modulo the
// coefficients' gcd.
TEST(Prove, NotOne) {
  EXPECT_TRUE(prove_not_one(Expr(0)));
  EXPECT_TRUE(prove_not_one(Expr(-1)));
  EXPECT_FALSE(prove_not_one(Expr(1)));
  EXPECT_TRUE(prove_not_one(P("n + 2")));
  EXPECT_TRUE(prove_not_one(P("2*((h + 31)//32)")));  // even: 0, 2, 4, ...
  EXPECT_TRUE(prove_not_one(P("4*k + 2")));
  EXPECT_TRUE(prove_not_one(P("6*a + 9*b + 3")));  // a multiple of 3
  EXPECT_TRUE(prove_not_one(P("4*k - 1")));        // 3 modulo 4
  EXPECT_TRUE(prove_not_one(P("-x")));             // x >= 0: at most 0
  EXPECT_FALSE(prove_not_one(sym("x")));
  EXPECT_FALSE(prove_not_one(P("2*k + 1")));  // 1 at k = 0
  EXPECT_FALSE(prove_not_one(P("4*k - 3")));  // 1 at k = 1
  EXPECT_FALSE(prove_not_one(P("(h + 15)//16")));
  EXPECT_TRUE(prove_not_one(P("x - 1"), at_least({{"x", 3}})));
  // Residues of large constants modulo large coefficients do not overflow.
  EXPECT_TRUE(prove_not_one(P("9223372036854775807*k + 9223372036854775806")));
  EXPECT_TRUE(prove_not_one(P("4611686018427387904*k - 8")));
}

TEST(Prove, LowerBoundsFromAssumptions) {
  const Expr x = sym("x"), y = sym("y");
  // x*y >= x needs y >= 1.
  EXPECT_FALSE(prove_ge(x * y, x));
  EXPECT_TRUE(prove_ge(x * y, x, at_least({{"y", 1}})));
  EXPECT_FALSE(prove_ge(x * y, x, at_least({{"x", 1}})));  // y = 0 breaks it
  EXPECT_TRUE(prove_ge(x, Expr(3), at_least({{"x", 3}})));
  EXPECT_FALSE(prove_ge(x, Expr(4), at_least({{"x", 3}})));
  EXPECT_TRUE(prove_ge(P("x // 2"), Expr(1), at_least({{"x", 2}})));
  EXPECT_FALSE(prove_ge(P("x // 2"), Expr(1)));
  EXPECT_TRUE(prove_ge(P("x*y - 2*x"), Expr(0), at_least({{"y", 2}})));
  EXPECT_FALSE(prove_ge(P("x*y - 2*x"), Expr(0), at_least({{"y", 1}})));
  EXPECT_TRUE(prove_ge(P("x - 1"), Expr(0), at_least({{"x", 1}})));
}

TEST(Prove, Equality) {
  EXPECT_TRUE(prove_eq(P("a + b"), P("b + a")));
  EXPECT_TRUE(prove_eq(P("(x + 1)//2"), P("CeilToInt(x, 2)")));
  EXPECT_TRUE(prove_eq(P("max(a, b)"), P("max(b, a)")));
  EXPECT_TRUE(prove_eq(P("max(a, 0)"), sym("a")));
  EXPECT_FALSE(prove_eq(P("x//2*2"), sym("x")));
  EXPECT_FALSE(prove_eq(sym("a"), sym("b")));
  EXPECT_FALSE(prove_eq(P("max(a, b)"), sym("a")));
  // min(x, 1) == 1 once x >= 1.
  EXPECT_FALSE(prove_eq(P("min(x, 1)"), Expr(1)));
  EXPECT_TRUE(prove_eq(P("min(x, 1)"), Expr(1), at_least({{"x", 1}})));
}

TEST(Prove, ErrorsAreNeverProven) {
  const Expr err = Expr::error("boom");
  EXPECT_FALSE(prove_ge(err, Expr(0)));
  EXPECT_FALSE(prove_ge(Expr(0), err));
  EXPECT_FALSE(prove_eq(err, err));
  EXPECT_FALSE(prove_not_one(err));
}

// simplified_by_cases: a shorter form only when it is e at every binding.
TEST(Prove, SimplifiedByCases) {
  const auto simplified = [](const char* text) { return to_string(simplified_by_cases(P(text))); };
  // PyTorch's relative position shift: 0 at seq = 0, seq from seq = 1 on.
  EXPECT_EQ(simplified("min(max(0, 2*seq - 1), max(0, 2*seq - 1)//2 + 1)"), "seq");
  EXPECT_EQ(simplified("max(seq, min(max(0,2*seq-1), max(0,2*seq-1)//2+1)) * min(1, seq, max(0,2*seq-1))"), "seq");
  EXPECT_EQ(simplified("max(0, x - 1) + min(1, x)"), "x");
  EXPECT_EQ(simplified("max(0, x - 2) + min(2, x)"), "x");  // the values below 2 taken apart
  EXPECT_EQ(simplified("max(0, a - 1) + min(1, a) + max(0, b - 1) + min(1, b)"), "a+b");
  // Left alone: a real clamp, a threshold beyond the split, no max or min,
  // a form that differs at x = 0 (max(0,x-1)+1 is 1 there, x is 0).
  EXPECT_EQ(simplified("max(0, x - 1)"), "max(0,x-1)");
  EXPECT_EQ(simplified("min(seq, 5)"), "min(5,seq)");
  EXPECT_EQ(simplified("max(0, x - 3) + min(3, x)"), "max(0,x-3)+min(3,x)");
  EXPECT_EQ(simplified("x//y"), "x//y");
  EXPECT_EQ(simplified("max(0, x - 1) + 1"), "max(0,x-1)+1");
  EXPECT_EQ(simplified("max(x, y) - min(x, y)"), "max(x,y)-min(x,y)");
  // y*(x%y) agrees at y = 0 as an expression (0), but is undefined there.
  EXPECT_EQ(simplified("y*(max(x, y) % max(1, y))"), "y*(max(x,y)%max(1,y))");
  const Expr err = Expr::error("integer overflow");
  EXPECT_EQ(simplified_by_cases(err), err);
}

// Under facts a symbol's node carries them, and a shifted copy would claim
// them of other values: the expression is returned as it is.
TEST(Prove, SimplifiedByCasesLeavesFactsAlone) {
  Facts facts;
  ASSERT_TRUE(facts.add("y >= 3").ok());
  const Expr e = P("max(0, x - 1) + min(1, x)");
  const FactScope scope(facts);
  EXPECT_EQ(simplified_by_cases(e), e);
}

}  // namespace
}  // namespace symshape
