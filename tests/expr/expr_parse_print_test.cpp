// The parser (grammar, precedence, errors, limits) and the printer (minimal
// parentheses, round trip).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "expr_test_util.hpp"
#include "symshape/dim.hpp"
#include "symshape/expr.hpp"

namespace symshape {
namespace {

using test::P;
using test::parse_error;
using test::S;
using test::sym;

const Expr a = Expr::symbol("a");
const Expr b = Expr::symbol("b");
const Expr c = Expr::symbol("c");

// ---------------------------------------------------------------------------
// Precedence: '^' (max) < '&' (min) < '+ -' < '* // %' < unary < atoms.

TEST(Parse, PrecedenceBuildsTheRightTree) {
  EXPECT_EQ(P("a ^ b & c"), max(a, min(b, c)));
  EXPECT_EQ(P("a & b ^ c"), max(min(a, b), c));
  EXPECT_EQ(P("a & b + c"), min(a, b + c));
  EXPECT_EQ(P("a ^ b + c"), max(a, b + c));
  EXPECT_EQ(P("a + b * c"), a + b * c);
  EXPECT_EQ(P("a * b // c"), floordiv(a * b, c));
  EXPECT_EQ(P("a // b * c"), floordiv(a, b) * c);
  EXPECT_EQ(P("a % b * c"), mod(a, b) * c);
  EXPECT_EQ(P("-a // 2"), floordiv(-a, Expr(2)));
  EXPECT_EQ(P("a - b - c"), (a - b) - c);
  EXPECT_EQ(P("(a ^ b) & c"), min(max(a, b), c));
}

TEST(Parse, PrecedenceGivesTheRightValues) {
  struct Case {
    const char* text;
    int64_t value;
  };
  // Each value differs from the one another grouping would give.
  const Case cases[] = {
      {"2 + 3 * 4", 14},
      {"(2 + 3) * 4", 20},
      {"7 - 2 - 1", 4},
      {"100 // 10 // 5", 2},
      {"3 * 7 // 2", 10},
      {"7 // 2 * 3", 9},
      {"-7 // 2", -4},
      {"-(7 // 2)", -3},
      {"2 * 3 % 4", 2},
      {"-2 % 3", 1},
      {"5 ^ 1 & 3", 5},
      {"1 & 2 + 3", 1},
      {"4 ^ 2 + 3", 5},
      {"10 - 2 ^ 3", 8},
      {"--3", 3},
      {"-+-3", 3},
      {"- 3", -3},
      {"2*-3", -6},
      {"7//-2", -4},
      {"7 % -2", -1},
      {"Max(1, 7, 3)", 7},
      {"min(4, 2, 9)", 2},
      {"Min(5, 6)", 5},
      {"max(-1, -2)", -1},
      {"CeilToInt(7, 2)", 4},
      {"CeilToInt(-7, 2)", -3},
      {"CeilToInt(7, -2)", -3},
      {"  1 +\t2\n* 3 ", 7},
  };
  for (const Case& k : cases) {
    const Expr e = P(k.text);
    EXPECT_TRUE(e.is_int(k.value)) << k.text << " gave " << to_string(e);
  }
}

TEST(Parse, CallsAndNames) {
  EXPECT_EQ(P("Max(a, b)"), max(a, b));
  EXPECT_EQ(P("max(a, b)"), max(a, b));
  EXPECT_EQ(P("Min(a, b, c)"), min_of({a, b, c}));
  EXPECT_EQ(P("min(a)"), a);
  EXPECT_EQ(P("CeilToInt(a, 4)"), ceil_to_int(a, Expr(4)));
  EXPECT_EQ(P("batch_size_2"), sym("batch_size_2"));
  EXPECT_EQ(P("_x"), sym("_x"));
  EXPECT_EQ(P("max_len"), sym("max_len"));  // a name that starts like a call
}

// ---------------------------------------------------------------------------
// Errors name the position and what was expected.

TEST(Parse, ErrorsNamePositionAndExpectation) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "position 0: expected a number, a name or '(' but the text ended"},
      {"a +", "position 3: expected a number, a name or '(' but the text ended"},
      {"a + * b", "position 4: unexpected '*', expected a number, a name or '('"},
      {"(a", "position 2: expected ')'"},
      {"a)", "position 1: unexpected ')', expected an operator or the end"},
      {"a b", "position 2: unexpected 'b', expected an operator or the end"},
      {"3 / 2", "position 2: '/' is not supported, use '//' for floor division"},
      {"a /", "position 2: '/' is not supported, use '//' for floor division"},
      {"a / / b", "position 2: '/' is not supported, use '//' for floor division"},
      {"a //", "position 4: expected a number, a name or '(' but the text ended"},
      {"a %% b", "position 3: unexpected '%', expected a number, a name or '('"},
      {" \t ", "position 3: expected a number, a name or '(' but the text ended"},
      {"max (a", "position 6: expected ',' or ')' in call of max"},
      {"foo(a)", "position 0: unknown function 'foo'"},
      {"CeilToInt(a)", "position 0: CeilToInt takes 2 arguments, got 1"},
      {"max(a b)", "position 6: expected ',' or ')' in call of max"},
      {"Max(a,)", "position 6: unexpected ')'"},
      {"a $ b", "position 2: unexpected '$'"},
      // After spaces, the position is the next token's (or the end's),
      // whichever level of the grammar finds the error.
      {"a & ", "position 4: expected a number, a name or '(' but the text ended"},
      {"- - ", "position 4: expected a number, a name or '(' but the text ended"},
      {"a ^ b &  ", "position 9: expected a number, a name or '(' but the text ended"},
      {"`a`  b", "position 5: unexpected 'b', expected an operator or the end"},
      {"12  )", "position 4: unexpected ')', expected an operator or the end"},
      {"99999999999999999999", "position 0: integer does not fit in int64"},
      {"x + 9223372036854775808", "position 4: integer does not fit in int64"},
  };
  for (const Case& k : cases) {
    const std::string error = parse_error(k.text);
    EXPECT_EQ(error.rfind(k.error, 0), 0u) << "'" << k.text << "' gave: " << error;
  }
}

// A NUL character is text like any other, not the end: the parser looks at
// the next character and reads '\0' at the end of the text.
TEST(Parse, NulCharacterIsUnexpectedNotTheEnd) {
  EXPECT_EQ(parse_error(std::string("a\0b", 3)).rfind("position 1: unexpected '", 0), 0u);
  EXPECT_EQ(parse_error(std::string("\0", 1)).rfind("position 0: unexpected '", 0), 0u);
}

TEST(Parse, SignsAndSpacesBetweenTokens) {
  const Expr a = sym("a"), b = sym("b");
  EXPECT_EQ(P("- -a"), a);
  EXPECT_EQ(P("+-+a"), -a);
  EXPECT_EQ(P("a - -b"), a + b);
  EXPECT_EQ(P(" a\t//\n2 "), floordiv(a, 2));
  EXPECT_EQ(P("max ( a , b )"), max(a, b));
  EXPECT_EQ(P("2 * a % 3"), mod(2 * a, 3));
  // Spaces after every kind of token: a quoted name, a number, '&' and '^',
  // and a sign before an operand of each level.
  EXPECT_EQ(P(" `b` \t& a\n^ 3 "), max(min(a, b), Expr(3)));
  EXPECT_EQ(P("( a &b ) ^ - -b"), max(min(a, b), b));
  EXPECT_EQ(P("-(a) & +b"), min(-a, b));
  EXPECT_EQ(P("a & b & - 2"), min_of({a, b, Expr(-2)}));
}

TEST(Parse, OverflowWhileFoldingIsAnError) {
  EXPECT_NE(parse_error("9223372036854775807 + 1").find("integer overflow"), std::string::npos);
  EXPECT_NE(parse_error("-9223372036854775807 - 2").find("integer overflow"), std::string::npos);
  EXPECT_TRUE(P("9223372036854775807").is_int(std::numeric_limits<int64_t>::max()));
}

// ---------------------------------------------------------------------------
// Limits: nesting depth, long inputs.

std::string nested(const std::string& open, int depth, const std::string& inner, const std::string& close) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  s += inner;
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

TEST(ParseLimits, NestingUpToTheLimitParses) {
  EXPECT_EQ(P(nested("(", kMaxParseDepth, "x", ")")), sym("x"));
  EXPECT_EQ(P(nested("max(1, ", kMaxParseDepth, "x", ")")), max(Expr(1), sym("x")));
}

TEST(ParseLimits, DeeperNestingIsAnErrorNotACrash) {
  for (const int depth : {kMaxParseDepth + 1, 10000}) {
    const std::string error = parse_error(nested("(", depth, "x", ")"));
    EXPECT_NE(error.find("nesting deeper than " + std::to_string(kMaxParseDepth)), std::string::npos) << error;
    EXPECT_EQ(error.rfind("position " + std::to_string(kMaxParseDepth), 0), 0u) << error;
  }
  EXPECT_NE(parse_error(nested("max(x, ", 10000, "y", ")")).find("nesting deeper"), std::string::npos);
  EXPECT_NE(parse_error(nested("CeilToInt(", 10000, "y", ", 2)")).find("nesting deeper"), std::string::npos);
  EXPECT_NE(parse_error(nested("-(", 10000, "y", ")")).find("nesting deeper"), std::string::npos);
  EXPECT_NE(parse_error(nested("(", 10000, "y", "")).find("nesting deeper"), std::string::npos);
}

TEST(ParseLimits, ManyUnaryMinusesDoNotRecurse) {
  EXPECT_EQ(P(std::string(10000, '-') + "x"), sym("x"));
  EXPECT_EQ(P(std::string(10001, '-') + "x"), -sym("x"));
  EXPECT_TRUE(P(std::string(1000000, '-') + "7").is_int(7));
}

TEST(ParseLimits, DeepExpressionsWithoutBracketsAreAnError) {
  // Each // adds a level: past kMaxExprDepth the expression is refused.
  std::string s = "x0";
  for (int i = 1; i < 1000; ++i) s += "//x" + std::to_string(i);
  EXPECT_NE(parse_error(s).find("nested deeper than " + std::to_string(kMaxExprDepth)), std::string::npos);
}

TEST(ParseLimits, ExponentiallyLargeExpressionsAreAnError) {
  // Found by fuzz_parse (tests/fuzz/regressions/parse/): each factor multiplies
  // the expanded product, 248 characters gave 2.8 million nodes, and printing
  // and parsing back the 6.6 MB text did not finish within the fuzzer's 10 s.
  const std::string finding =
      "-(x//2)//2 * (x365%27//3)//2 * (xMiJ3277+365327+-ex//0)//2 * (H-ex//0)//2 *(em%H +365327+-ex//0)//2 * "
      "(H+365327+-ex//0)//2 * (H-ex//0)//2 *(em%H +365327+-ex3277+365327+-ex//0)//2 * (H-ex//0)//2 *(em%H "
      "+365327+-e//0)//2 * (H-ex//0)//2 * (Hme%meqf*W)";
  EXPECT_NE(parse_error(finding).find("expression larger than " + std::to_string(kMaxExprSize) + " nodes"),
            std::string::npos);
  // The same shape with fewer factors stays below the cap and round-trips.
  const std::string smaller = "(x//2)//2 * (x365%27//3)//2 * (xMiJ3277+365327+-ex//0)//2 * (H-ex//0)//2";
  const Expr e = P(smaller);
  EXPECT_LE(e.size(), kMaxExprSize);
  EXPECT_EQ(P(to_string(e)), e);
}

// Long n-ary inputs are flattened: linear-ish time, no recursion.
double seconds_to_parse(const std::string& text, Expr& out) {
  const auto start = std::chrono::steady_clock::now();
  out = P(text);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string chain(int n, const std::string& op) {
  std::string s;
  for (int i = 1; i <= n; ++i) {
    if (i > 1) s += op;
    s += "a" + std::to_string(i);
  }
  return s;
}

TEST(ParseLimits, LongSumParsesQuickly) {
  Expr e;
  EXPECT_LT(seconds_to_parse(chain(100000, "+"), e), 10.0);
  ASSERT_EQ(e.kind(), ExprKind::Add);
  EXPECT_EQ(e.terms().size(), 100000u);
  EXPECT_EQ(free_symbols(e).size(), 100000u);
  Bindings bind;
  for (int i = 1; i <= 100000; ++i) bind["a" + std::to_string(i)] = i;
  ASSERT_TRUE(evaluate(e, bind).ok());
  EXPECT_EQ(*evaluate(e, bind), int64_t{100000} * 100001 / 2);
  // Printing and parsing again gives the same sum.
  EXPECT_EQ(P(to_string(e)), e);
}

TEST(ParseLimits, LongDifferenceParsesQuickly) {
  Expr e;
  EXPECT_LT(seconds_to_parse("a - " + chain(100000, " - "), e), 10.0);
  ASSERT_EQ(e.kind(), ExprKind::Add);
  EXPECT_EQ(e.terms().size(), 100001u);  // a - a1 - ... - a100000
}

TEST(ParseLimits, LongProductParsesQuickly) {
  // Was quadratic: 10,000 factors took 20 s.
  Expr e;
  EXPECT_LT(seconds_to_parse(chain(100000, "*"), e), 10.0);
  ASSERT_EQ(e.kind(), ExprKind::Mul);
  EXPECT_EQ(e.terms().size(), 100000u);
  std::string power = "x";
  for (int i = 1; i < 50000; ++i) power += "*x";
  Expr x;
  EXPECT_LT(seconds_to_parse(power, x), 10.0);
  ASSERT_EQ(x.kind(), ExprKind::Mul);
  EXPECT_EQ(x.terms()[0].second, 50000);  // x to the power 50000
}

TEST(ParseLimits, LongMaxAndMinChainsParseQuickly) {
  // Were quadratic: 3,000 arguments took 3 s.
  Expr e;
  EXPECT_LT(seconds_to_parse(chain(100000, "^"), e), 10.0);
  ASSERT_EQ(e.kind(), ExprKind::Max);
  EXPECT_EQ(e.args().size(), 100000u);
  EXPECT_LT(seconds_to_parse(chain(100000, " & "), e), 10.0);
  ASSERT_EQ(e.kind(), ExprKind::Min);
  EXPECT_EQ(e.args().size(), 100000u);
  // Short lists still drop dominated arguments.
  EXPECT_EQ(P("max(a, a + 1, 0)"), a + Expr(1));
}

// ---------------------------------------------------------------------------
// The printer.

TEST(Print, MinimalParentheses) {
  EXPECT_EQ(S("(h - 1)//2 + 1"), "(h+1)//2");
  EXPECT_EQ(S("seq + past"), "past+seq");
  EXPECT_EQ(S("3 + a - b"), "a-b+3");
  EXPECT_EQ(S("Max(a, b)"), "max(a,b)");
  EXPECT_EQ(S("Min(b, a)"), "min(a,b)");
  EXPECT_EQ(S("2*a"), "2*a");
  EXPECT_EQ(S("b*a"), "a*b");
  EXPECT_EQ(S("-(a*b)"), "-a*b");
  EXPECT_EQ(S("a*b//c"), "a*b//c");
  EXPECT_EQ(S("c*(a//b)"), "c*(a//b)");
  EXPECT_EQ(S("(a + b)*(a//b) - (a//b)*b"), "a*(a//b)");
  EXPECT_EQ(S("a//(b + 1)"), "a//(b+1)");
  EXPECT_EQ(S("a//(b*c)"), "a//(b*c)");
  EXPECT_EQ(S("(a - b)//c"), "(a-b)//c");
  EXPECT_EQ(S("2*(a % 3) + 1"), "2*(a%3)+1");
  EXPECT_EQ(S("x + y//2"), "x+y//2");
  EXPECT_EQ(S("-7"), "-7");
  EXPECT_EQ(S("a*a*a"), "a*a*a");
  EXPECT_EQ(S("3*x*y"), "3*x*y");
  EXPECT_EQ(S("c - 2*b*a"), "c-2*a*b");
  EXPECT_EQ(S("3*x*(y//2)"), "3*x*(y//2)");
  EXPECT_EQ(S("4*(a + 1)*(b + 1) - 4*a*b - 4"), "4*a+4*b");
}

// A leading -(x//2) printed as `-x//2`, which reads as (-x)//2. Property
// test: max(+CeilToInt(...), a*(CeilToInt(-(-1//c), ...) + -954)) printed
// `--1//c-1` inside, which parsed as 1//c-1.
TEST(Print, LeadingNegatedFloorDivisionKeepsItsBrackets) {
  EXPECT_EQ(S("5 - x//2"), "-(x//2)+5");
  EXPECT_EQ(S("2 - x%3"), "-(x%3)+2");
  EXPECT_EQ(S("-(x//y)"), "-(x//y)");
  EXPECT_EQ(S("y - x//2"), "y-x//2");  // a binary minus needs none
  for (int64_t x = 0; x <= 9; ++x) {
    auto v = evaluate(P(S("5 - x//2")), {{"x", x}});
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, 5 - x / 2);
  }
  const Expr e =
      P("max(+CeilToInt(12 & x + (8)//-10 % (a//-7), -280), a*(CeilToInt(-(-1//c), (x*min(x, 12))) + -954))");
  EXPECT_EQ(P(to_string(e)), e) << to_string(e);
}

// A negative numerator printed bare: `b-(-a)//c` read `b--a//c`. It parsed back
// the same, since unary '-' binds tighter than '//', but read badly.
TEST(Print, NegativeNumeratorIsBracketed) {
  EXPECT_EQ(S("b - (-a)//c"), "b-(-a)//c");
  EXPECT_EQ(S("(-2*a)%c"), "(-2*a)%c");
  EXPECT_EQ(S("(-3)//c"), "(-3)//c");
  EXPECT_EQ(S("-a//c"), "(-a)//c");  // what the text meant
  EXPECT_EQ(S("(a-b)//c"), "(a-b)//c");
  EXPECT_EQ(S("(-9223372036854775807-1)//c"), "(-9223372036854775807-1)//c");
  for (const char* text : {"b - (-a)//c", "(-2*a)%c", "x - (-3)//(y+1)"}) EXPECT_EQ(P(S(text)), P(text)) << text;
}

// INT64_MIN has no literal: it printed as -9223372036854775808, which does
// not parse. Property test: a sum with constant INT64_MIN failed to reparse.
TEST(Print, Int64MinRoundTrips) {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const Expr x = sym("x");
  for (const Expr& e : {Expr(kMin), x + Expr(kMin), Expr(kMin) * x, floordiv(x, Expr(kMin)), mod(x, Expr(kMin)),
                        max(x, Expr(kMin) + Expr(1)) + Expr(kMin), x * sym("y") * Expr(kMin) + x}) {
    const std::string text = to_string(e);
    EXPECT_EQ(text.find("9223372036854775808"), std::string::npos) << text;
    Result<Expr> back = parse_expr(text);
    ASSERT_TRUE(back.ok()) << text << ": " << back.error();
    EXPECT_EQ(*back, e) << text;
  }
  EXPECT_EQ(to_string(Expr(kMin)), "(-9223372036854775807-1)");
}

// A symbol whose name is not a plain name (an ONNX dim_param such as "H/2"
// or Paddle2ONNX's "p2o.DynamicDimension.0") is quoted with backticks inside
// an expression, so that the text reads back as the same expression.
TEST(Print, OtherNamesAreQuoted) {
  EXPECT_EQ(to_string(sym("H/2") * Expr(2)), "2*`H/2`");
  EXPECT_EQ(to_string(sym("p2o.DynamicDimension.0") + Expr(31)), "`p2o.DynamicDimension.0`+31");
  EXPECT_EQ(to_string(sym("a+b")), "`a+b`");
  EXPECT_EQ(to_string(sym("seq_len2")), "seq_len2");
  EXPECT_EQ(P("2*`H/2`"), sym("H/2") * Expr(2));
  EXPECT_EQ(P("(`batch size` + 1)//2"), dim_div(sym("batch size") + Expr(1), Expr(2)));
  for (const Expr& e : {sym("H/2") * Expr(2), sym("a+b") + sym("x"), dim_div(sym("p2o.D.0") + Expr(31), Expr(32))})
    EXPECT_EQ(P(to_string(e)), e) << to_string(e);
  EXPECT_EQ(parse_error("2*`H/2"), "position 2: a quoted name has no closing '`'");
  EXPECT_EQ(parse_error("``"), "position 0: empty quoted name");
}

// A dim that is one such symbol prints as its name as written (the dim_param
// it came from), and reads back as the same dim; inside an expression it is
// quoted.
TEST(Print, DimOfOneOtherNameIsItsName) {
  const SymbolicDim h("H/2");
  EXPECT_EQ(h.to_string(), "H/2");
  EXPECT_EQ((h * SymbolicDim(2)).to_string(), "2*`H/2`");
  EXPECT_EQ(SymbolicDim((h * SymbolicDim(2)).to_string()), h * SymbolicDim(2));
  EXPECT_EQ(SymbolicDim("batch size").to_string(), "batch size");
  // A name that would read as an expression is quoted even alone.
  const SymbolicDim ab(Expr::symbol("a+b"));
  EXPECT_EQ(ab.to_string(), "`a+b`");
  EXPECT_EQ(SymbolicDim(ab.to_string()), ab);
}

TEST(Print, RoundTrips) {
  const char* texts[] = {
      "a + b - a",
      "(x//2)//3",
      "CeilToInt(n, 8)",
      "(h - 1)//2 + 1",
      "max(seq + past, seq) - min(x, 3)",
      "-(a*b)//c",
      "-(a//b)//c",
      "-a*b//c",
      "(a % 3)*(b // 4) - (a + 1)*(b - 2)",
      "x//-2 + y % -3",
      "CeilToInt(x, -3) + CeilToInt(x, y - z)",
      "max(-1, x - 3) ^ min(2, -y) & 4",
      "-max(a, b) - min(a, b)",
      "(a + 1)*(b + 1)*(c + 1)",
      "a*a*b - 2*a*b*b + 3",
      "x//y//z",
      "(x % y) % z",
      "-(x % 5)",
      "-(-x % 5)",
      "5//0 + x % 0",
      "9223372036854775807 - x",
      "-9223372036854775807 + x*y",
      "(-9223372036854775807-1)//(9*b)",
  };
  for (const char* text : texts) {
    const Expr e = P(text);
    const std::string printed = to_string(e);
    const Expr back = P(printed);
    EXPECT_EQ(back, e) << text << " printed as " << printed;
    EXPECT_EQ(back.hash(), e.hash()) << text;
    EXPECT_EQ(to_string(back), printed) << text;
  }
}

}  // namespace
}  // namespace symshape
