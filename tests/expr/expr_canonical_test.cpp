// The canonical forms that make equal expressions print the same: nested
// floor divisions merged, quotient and remainder folded, the pad to a multiple,
// max+min, common parts out of max/min, the printed form of (H-1)//2, and the
// "SAME" padding of EfficientNet-style exports. Each identity has a same-form test (two
// spellings, one Expr, one text) and a property test: random instances built
// from random parts, evaluated against the same arithmetic done directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"

namespace symshape {
namespace {

using test::P;
using test::S;

void expect_same_form(const char* a, const char* b, const char* printed) {
  EXPECT_EQ(P(a), P(b)) << a << " vs " << b;
  EXPECT_EQ(S(a), printed) << a;
  EXPECT_EQ(S(b), printed) << b;
  EXPECT_EQ(P(printed), P(a)) << "the printed form parses back: " << printed;
}

TEST(Canonical, NestedFloorDivisionsMerge) {
  expect_same_form("((H+1)//2+1)//2", "(H+3)//4", "(H+3)//4");
  expect_same_form("32*((((((H+1)//2+1)//2+1)//2+1)//2+1)//2)", "32*((H+31)//32)", "32*((H+31)//32)");
  expect_same_form("(x//3 + y)//2", "(x + 3*y)//6", "(x+3*y)//6");
  EXPECT_TRUE(prove_eq(P("((H+1)//2+1)//2"), P("(H+3)//4")));
  // A second floor division in the numerator keeps the form (each merge must take one away).
  EXPECT_EQ(S("(x//2 + y//3)//5"), "(x//2+y//3)//5");
}

TEST(Canonical, QuotientAndRemainderFold) {
  expect_same_form("2*(x//2)+x%2", "x", "x");
  expect_same_form("3*((H+1)//3) + (H+1)%3 + y", "H+y+1", "H+y+1");
  expect_same_form("x - x%4", "4*(x//4)", "4*(x//4)");
  expect_same_form("2*x - 2*(x%4)", "8*(x//4)", "8*(x//4)");
  expect_same_form("x - 2*(x//2)", "x%2", "x%2");  // the fold that was there before
}

// A remainder by a multiple of k changes nothing modulo k, and b + (-b)%m is
// b rounded up to a multiple of m: the pad of a window partition (Swin's
// `(4 - h%4) % 4`) and the windows of the padded h.
TEST(Canonical, PadToAMultiple) {
  expect_same_form("3*(h%4)%4", "(-h)%4", "3*h%4");
  expect_same_form("(4-h%4)%4", "(3*h)%4", "3*h%4");
  expect_same_form("(x%8+y)%4", "(x+y)%4", "(x+y)%4");
  expect_same_form("2*(h%4)%4", "2*(h%2)", "2*(h%2)");
  expect_same_form("(h+(4-h%4)%4)//4", "(h+3)//4", "(h+3)//4");
  expect_same_form("(h+3*h%4+4*w)//4", "(h+3)//4+w", "w+(h+3)//4");
  expect_same_form("(h+3*h%4+2)//4", "(h+3)//4", "(h+3)//4");
  expect_same_form("(a+b+(3*a+3*b+1)%4)//4", "(a+b+2)//4", "(a+b+2)//4");
  // A remainder by a number k does not divide stays, and so does a sum that
  // is not exactly b + (-b)%m.
  EXPECT_EQ(S("(x%6)%4"), "x%6%4");
  EXPECT_EQ(S("(h+2*h%4)//4"), "(h+2*(h%2))//4");
  EXPECT_EQ(S("(h+3*h%4+w)//4"), "(h+w+3*h%4)//4");
}

TEST(Canonical, MaxPlusMin) {
  expect_same_form("max(a,b)+min(a,b)", "a+b", "a+b");
  expect_same_form("2*max(a,b+1)+2*min(b+1,a)+c", "2*a+2*b+c+2", "2*a+2*b+c+2");
  EXPECT_EQ(S("max(a,b)+min(a,c)"), "max(a,b)+min(a,c)");
  // Folded in the remainder of a numerator (min(a,3) - max(a,3) leaves
  // min(a,3) + max(a,3) after its multiples of 2), the constant it brings is
  // taken out too.
  expect_same_form("(c+min(a,3)-max(a,3))//2", "(a+c+1)//2-max(3,a)+1", "(a+c+1)//2-max(3,a)+1");
  expect_same_form("(c+min(a,3)-max(a,3))%2", "(a+c+1)%2", "(a+c+1)%2");
  expect_same_form("(b*b*b+min(a,3)-max(a,3))//-2", "-b*b*b+(a+b*b*b+1)//2-min(3,a)+1",
                   "-b*b*b+(a+b*b*b+1)//2-min(3,a)+1");
}

TEST(Canonical, CommonPartsComeOutOfMaxMin) {
  expect_same_form("max(m+1,n+1)", "max(m,n)+1", "max(m,n)+1");
  expect_same_form("max(2*a,2*b)", "2*max(a,b)", "2*max(a,b)");
  expect_same_form("min(x+3,y+5)", "min(x,y+2)+3", "min(x,y+2)+3");
  expect_same_form("max(a+b+1,a+c+1)", "a+max(b,c)+1", "a+max(b,c)+1");
  expect_same_form("min(4*p+4,4*q)", "4*min(q,p+1)", "4*min(q,p+1)");
  // An integer argument stays: max(0, ...) is a clamp people read as such.
  EXPECT_EQ(S("max(4, 6*a)"), "max(4,6*a)");
  EXPECT_EQ(S("min(64, past+seq)"), "min(64,past+seq)");
}

TEST(Canonical, OnePrintedFormForMinusOneOverK) {
  EXPECT_EQ(S("(H-1)//2"), "(H-1)//2");
  EXPECT_EQ(S("(H+1)//2-1"), "(H-1)//2");
  EXPECT_EQ(P("(H-1)//2"), P("(H+1)//2-1"));
  EXPECT_EQ(S("(H-3)//4"), "(H-3)//4");
  EXPECT_EQ(S("W+(H-1)//2"), "W+(H-1)//2");
  // Only a constant the division can absorb moves: H//2-1 reads well as it is.
  EXPECT_EQ(S("H//2-1"), "H//2-1");
  EXPECT_EQ(S("(H+1)//2-2"), "(H+1)//2-2");
  for (const char* text : {"(H-1)//2", "(H-3)//4", "W+(H-1)//2", "2*W-(H-1)//3"})
    EXPECT_EQ(P(S(text)), P(text)) << text;
}

TEST(Canonical, SamePaddingIsCeilHalf) {
  // e = (H + (H+1)%2 + 1)//2 - (H+1)%2, from the pads of a "SAME" convolution.
  expect_same_form("(H+(H+1)%2+1)//2-(H+1)%2", "(H+1)//2", "(H+1)//2");
  EXPECT_TRUE(prove_ge(P("(H+(H+1)%2+1)//2-(H+1)%2"), Expr(0)));
}

// ---- property tests ----

struct Random {
  std::mt19937_64 rng{20261204};
  int64_t below(int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); }
  // A random small expression over a, b, c (text), sometimes negative.
  std::string part(int depth = 2) {
    if (depth == 0 || below(3) == 0) {
      switch (below(4)) {
        case 0:
          return std::to_string(below(9) - 3);
        default:
          return std::string(1, static_cast<char>('a' + below(3)));
      }
    }
    const std::string x = part(depth - 1), y = part(depth - 1);
    switch (below(6)) {
      case 0:
        return "(" + x + "+" + y + ")";
      case 1:
        return "(" + x + "-" + y + ")";
      case 2:
        return "(" + x + ")//" + std::to_string(below(4) + 1);
      case 3:
        return "(" + x + ")%" + std::to_string(below(4) + 2);
      case 4:
        return "max(" + x + "," + y + ")";
      default:
        return "(" + x + "*" + y + ")";
    }
  }
};

// Each template instantiated with random parts X, Y and constants m, n, k, e;
// the simplified form must evaluate as the parse of the same text with the
// engine's own checked evaluation of each part (the parts are evaluated
// separately, so no rewrite across them can hide a mistake).
TEST(CanonicalProperty, IdentitiesHoldAtRandomBindings) {
  Random r;
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::string X = r.part(), Y = r.part();
    const int64_t m = r.below(5) + 1, n = r.below(5) + 1, k = r.below(4) + 2, e = r.below(5) - 2;
    const std::string ms = std::to_string(m), ns = std::to_string(n), ks = std::to_string(k), es = std::to_string(e);
    // (text, direct value from the values of X and Y)
    struct Case {
      std::string text;
      std::function<int64_t(int64_t, int64_t)> direct;
    };
    auto fdiv = [](int64_t a, int64_t b) {
      int64_t q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      return q;
    };
    auto fmod = [&](int64_t a, int64_t b) { return a - b * fdiv(a, b); };
    const std::vector<Case> cases = {
        {"((" + X + ")//" + ms + "+" + Y + ")//" + ns, [&](int64_t x, int64_t y) { return fdiv(fdiv(x, m) + y, n); }},
        {es + "*" + ks + "*((" + X + ")//" + ks + ")+" + es + "*((" + X + ")%" + ks + ")+" + Y,
         [&](int64_t x, int64_t y) { return e * k * fdiv(x, k) + e * fmod(x, k) + y; }},
        {es + "*(" + X + ")-" + es + "*((" + X + ")%" + ks + ")",
         [&](int64_t x, int64_t) { return e * x - e * fmod(x, k); }},
        {"max(" + X + "," + Y + ")+min(" + X + "," + Y + ")", [&](int64_t x, int64_t y) { return x + y; }},
        {"max(" + ms + "*(" + X + ")+" + es + "," + ms + "*(" + Y + ")+" + es + ")",
         [&](int64_t x, int64_t y) { return std::max(m * x + e, m * y + e); }},
        {"min(" + ms + "*(" + X + ")+" + ks + "," + ms + "*(" + Y + ")+" + es + ")",
         [&](int64_t x, int64_t y) { return std::min(m * x + k, m * y + e); }},
        {"(" + X + "+(" + X + "+1)%2+1)//2-(" + X + "+1)%2",
         [&](int64_t x, int64_t) { return fdiv(x + fmod(x + 1, 2) + 1, 2) - fmod(x + 1, 2); }},
        {"(" + X + ")//" + ks + "-" + ms, [&](int64_t x, int64_t) { return fdiv(x, k) - m; }},
        {"(" + X + "+(" + ks + "-(" + X + ")%" + ks + ")%" + ks + ")//" + ks,
         [&](int64_t x, int64_t) { return fdiv(x + fmod(k - fmod(x, k), k), k); }},
        {"(" + ms + "*((" + X + ")%" + std::to_string(2 * k) + ")+" + Y + ")%" + ks,
         [&](int64_t x, int64_t y) { return fmod(m * fmod(x, 2 * k) + y, k); }},
    };
    const Expr x = P(X), y = P(Y);
    for (const Case& c : cases) {
      const Expr simplified = P(c.text);
      ASSERT_EQ(P(to_string(simplified)), simplified) << c.text << " prints " << to_string(simplified);
      for (int s = 0; s < 8; ++s) {
        const Bindings b{{"a", r.below(12)}, {"b", r.below(12)}, {"c", r.below(12)}};
        Result<int64_t> vx = evaluate(x, b), vy = evaluate(y, b), got = evaluate(simplified, b);
        if (!vx.ok() || !vy.ok()) continue;
        ASSERT_TRUE(got.ok()) << c.text << " -> " << to_string(simplified) << ": " << got.error();
        ASSERT_EQ(*got, c.direct(*vx, *vy)) << c.text << " -> " << to_string(simplified) << " at a=" << b.at("a")
                                            << " b=" << b.at("b") << " c=" << b.at("c");
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace symshape
