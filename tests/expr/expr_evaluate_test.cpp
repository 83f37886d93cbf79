// Evaluation: checked int64 arithmetic, Python floor semantics, and errors
// for overflow, division or modulo by zero and unbound symbols.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"

namespace symshape {
namespace {

using test::P;
using test::sym;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

int64_t py_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The error of an evaluation that must fail ("" if it succeeded).
std::string eval_error(const Expr& e, const Bindings& b) {
  Result<int64_t> r = evaluate(e, b);
  if (r.ok()) {
    ADD_FAILURE() << to_string(e) << " unexpectedly evaluated to " << *r;
    return "";
  }
  return r.error();
}

TEST(Evaluate, Values) {
  const Bindings b{{"a", 5}, {"b", 10}, {"c", 7}};
  auto v = evaluate(P("2*a + b//3 - c % 4"), b);
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(*v, 10 + 3 - 3);
  v = evaluate(P("max(a, b, c) - min(a, b, c) + CeilToInt(c, 2)"), b);
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(*v, 10 - 5 + 4);
  v = evaluate(P("a*a*b"), b);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 250);
  v = evaluate(Expr(42), {});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 42);
}

TEST(Evaluate, FloorSemanticsForNegativeIntermediates) {
  // (x - 10)//3 and (x - 10) % 3 for x < 10 divide a negative numerator.
  const Expr div = P("(x - 10)//3");
  const Expr rem = P("(x - 10) % 3");
  const Expr neg_div = P("x // (y - 5)");
  const Expr neg_mod = P("x % (y - 5)");
  for (int64_t x = 0; x <= 20; ++x) {
    auto d = evaluate(div, {{"x", x}});
    auto r = evaluate(rem, {{"x", x}});
    ASSERT_TRUE(d.ok() && r.ok());
    EXPECT_EQ(*d, py_div(x - 10, 3)) << x;
    EXPECT_EQ(*r, (x - 10) - 3 * py_div(x - 10, 3)) << x;
    EXPECT_GE(*r, 0);
    for (int64_t y = 0; y <= 4; ++y) {  // divisor y - 5 < 0
      auto nd = evaluate(neg_div, {{"x", x}, {"y", y}});
      auto nm = evaluate(neg_mod, {{"x", x}, {"y", y}});
      ASSERT_TRUE(nd.ok() && nm.ok());
      EXPECT_EQ(*nd, py_div(x, y - 5));
      EXPECT_EQ(*nm, x - (y - 5) * py_div(x, y - 5));
      EXPECT_LE(*nm, 0);  // the sign of the divisor
    }
  }
  // Bindings may be negative too; the evaluator does not assume otherwise.
  auto v = evaluate(P("x // y"), {{"x", -7}, {"y", 2}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, -4);
  v = evaluate(P("x % y"), {{"x", -7}, {"y", 2}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 1);
}

TEST(Evaluate, OverflowIsAnError) {
  EXPECT_EQ(eval_error(P("x*y"), {{"x", int64_t{1} << 62}, {"y", 4}}), "integer overflow");
  EXPECT_EQ(eval_error(P("x + 9223372036854775807"), {{"x", 1}}), "integer overflow");
  EXPECT_EQ(eval_error(P("x*x*x"), {{"x", 3000000}}), "integer overflow");
  EXPECT_EQ(eval_error(P("-x"), {{"x", kMin}}), "integer overflow");
  EXPECT_EQ(eval_error(P("x//y"), {{"x", kMin}, {"y", -1}}), "integer overflow");
  EXPECT_EQ(eval_error(P("x - y"), {{"x", kMin}, {"y", 1}}), "integer overflow");
  // Just inside the range is fine.
  auto v = evaluate(P("x + 9223372036854775806"), {{"x", 1}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, kMax);
  v = evaluate(P("x % y"), {{"x", kMin}, {"y", -1}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 0);
}

TEST(Evaluate, DivisionAndModuloByZeroAreErrors) {
  EXPECT_EQ(eval_error(P("x//y"), {{"x", 5}, {"y", 0}}), "division by zero");
  EXPECT_EQ(eval_error(P("x % y"), {{"x", 5}, {"y", 0}}), "modulo by zero");
  EXPECT_EQ(eval_error(P("5//0"), {}), "division by zero");
  EXPECT_EQ(eval_error(P("x % 0"), {{"x", 1}}), "modulo by zero");
  EXPECT_EQ(eval_error(P("CeilToInt(x, y - 3)"), {{"x", 1}, {"y", 3}}), "division by zero");
  // Where the divisor is not zero the same expressions evaluate.
  auto v = evaluate(P("x//y"), {{"x", 5}, {"y", 2}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 2);
}

TEST(Evaluate, UnboundSymbolsAreErrors) {
  EXPECT_EQ(eval_error(P("x + y"), {{"x", 1}}), "unbound symbol 'y'");
  EXPECT_EQ(eval_error(sym("n"), {}), "unbound symbol 'n'");
  // A symbol that simplified away is not needed.
  auto v = evaluate(P("x + y - y"), {{"x", 3}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 3);
}

TEST(Evaluate, ErrorExpressionsReportTheirMessage) {
  EXPECT_EQ(eval_error(Expr::error("boom"), {}), "boom");
  EXPECT_EQ(eval_error(Expr(kMax) + Expr(1), {}), "integer overflow");
  EXPECT_EQ(eval_error(sym("x") + Expr::error("boom"), {{"x", 1}}), "boom");
}

}  // namespace
}  // namespace symshape
