// Facts about symbols (expr/facts.hpp): parsing and errors, what the
// simplifier and the prover make of bounds, linear relations, divisibility and
// equalities, the scope that makes them active, and a property test: random
// facts and random expressions, the form built under the facts checked against
// the exact form at random bindings that satisfy them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"
#include "symshape/expr/facts.hpp"

namespace symshape {
namespace {

Facts facts_of(std::initializer_list<const char*> texts) {
  Facts f;
  for (const char* t : texts) {
    Result<bool> r = f.add(t);
    EXPECT_TRUE(r.ok()) << t << ": " << r.error();
  }
  return f;
}

std::string binding_text(const Bindings& b) {
  std::string out;
  for (const char* name : {"a", "b", "c", "d"})
    if (auto it = b.find(name); it != b.end()) out += std::string(name) + "=" + std::to_string(it->second) + " ";
  return out;
}

// The canonical text of `text` built under `facts`.
std::string under(const Facts& facts, const char* text) {
  const FactScope scope(facts);
  return to_string(facts.apply(test::P(text)));
}

TEST(Facts, ParseErrorsNameThePosition) {
  Facts f;
  Result<bool> r = f.add("a <= b+(");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("position 8"), std::string::npos) << r.error();
  r = f.add("a + b");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("expected a relation"), std::string::npos) << r.error();
  r = f.add("a <= $");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("position 5"), std::string::npos) << r.error();
  EXPECT_TRUE(f.empty());
}

TEST(Facts, ContradictionsAreRefusedAndLeaveFactsUnchanged) {
  Facts f = facts_of({"a <= 3"});
  EXPECT_FALSE(f.add("a >= 5").ok());
  EXPECT_FALSE(f.add("3 < 2").ok());
  Facts g = facts_of({"a+b <= 3"});
  EXPECT_FALSE(g.add("a+b >= 5").ok());
  EXPECT_EQ(g.list().size(), 1u);
  // A chain adds all of its relations or none.
  EXPECT_FALSE(f.add("1 <= a <= 0").ok());
  EXPECT_EQ(f.list().size(), 1u);
}

TEST(Facts, ListedWithTheirSource) {
  Facts f;
  ASSERT_TRUE(f.add("32<=H<=1024", "--assume").ok());
  ASSERT_TRUE(f.add(Expr::symbol("seq"), Relation::GreaterEqual, Expr(1), "--assume-nonempty").ok());
  ASSERT_EQ(f.list().size(), 3u);
  EXPECT_EQ(f.list()[0].text, "32 <= H");
  EXPECT_EQ(f.list()[1].text, "H <= 1024");
  EXPECT_EQ(f.list()[2].text, "seq >= 1");
  EXPECT_EQ(f.list()[2].source, "--assume-nonempty");
}

TEST(Facts, BoundsDropDominatedArguments) {
  const Facts f = facts_of({"seq <= 2048", "H >= 32"});
  EXPECT_EQ(under(f, "min(seq, 4096)"), "seq");
  EXPECT_EQ(under(f, "max(H, 16)"), "H");
  EXPECT_EQ(under(f, "max(H-32, 0)"), "H-32");
  // Without facts the same text keeps its Min, and the scope's end restores that.
  EXPECT_EQ(test::S("min(seq, 4096)"), "min(4096,seq)");
}

TEST(Facts, LinearRelationsDropDominatedArguments) {
  const Facts f = facts_of({"past+seq <= 64"});
  EXPECT_EQ(under(f, "min(64, past+seq)"), "past+seq");
  EXPECT_EQ(under(f, "max(0, -past+min(64, past+seq))"), "seq");
  // The GPT-2 KV-cache sequence dim of layer 1 (exact for every run) is past+seq.
  EXPECT_EQ(under(f,
                  "past+max(seq,seq*min(1,seq,max(0,-past+min(64,past+seq))))*"
                  "min(1,seq,seq*min(1,seq,max(0,-past+min(64,past+seq))))"),
            "past+seq");
}

TEST(Facts, DivisibilityFoldsQuotientsAndRemainders) {
  const Facts f = facts_of({"H%32==0"});
  EXPECT_EQ(under(f, "H%32"), "0");
  EXPECT_EQ(under(f, "32*(H//32)"), "H");
  EXPECT_EQ(under(f, "(H+31)//32"), "H//32");
  EXPECT_EQ(under(f, "32*((H+31)//32)"), "H");
  EXPECT_EQ(under(f, "(2*H+5)%64"), "5");
  EXPECT_EQ(under(f, "H%64"), "H%64");  // a multiple of 32 need not be one of 64
  // Bounds round to the modulus: H >= 1 and H%32==0 give H >= 32.
  Facts g = facts_of({"H%32==0", "H>=1"});
  EXPECT_EQ(under(g, "max(H, 32)"), "H");
}

TEST(Facts, EqualitiesDefineSymbols) {
  const Facts f = facts_of({"total == past+seq"});
  EXPECT_EQ(under(f, "total - seq"), "past");
  EXPECT_EQ(f.definitions().count("total"), 1u);
  Bindings b{{"past", 3}, {"seq", 4}, {"total", 7}};
  EXPECT_TRUE(f.holds_at(b));
  b["total"] = 8;
  EXPECT_FALSE(f.holds_at(b));
}

TEST(Facts, SymbolsNamesEveryOne) {
  const Facts f = facts_of({"total == past+seq", "H%32==0", "a+b <= 64", "seq <= 2048"});
  EXPECT_EQ(f.symbols(), (std::set<std::string>{"H", "a", "b", "past", "seq", "total"}));
  EXPECT_TRUE(Facts().symbols().empty());
  // A counterexample binds the defined symbol through its definition.
  Result<ParsedRelation> r = parse_relation("total <= 3");
  ASSERT_TRUE(r.ok());
  const ProofOutcome no = prove_relation(r->lhs, r->rel, r->rhs, facts_of({"total == past+seq", "seq <= 2048"}));
  ASSERT_EQ(no.verdict, ProofOutcome::Verdict::False);
  EXPECT_EQ(no.counterexample.at("total"), no.counterexample.at("past") + no.counterexample.at("seq"));
}

TEST(Facts, ProveRelation) {
  using V = ProofOutcome::Verdict;
  auto verdict = [](const char* rel, std::initializer_list<const char*> texts) {
    Result<ParsedRelation> r = parse_relation(rel);
    EXPECT_TRUE(r.ok()) << r.error();
    return prove_relation(r->lhs, r->rel, r->rhs, facts_of(texts));
  };
  EXPECT_EQ(verdict("H >= (H+1)//2", {}).verdict, V::True);
  EXPECT_EQ(verdict("((H+1)//2+1)//2 == (H+3)//4", {}).verdict, V::True);
  EXPECT_EQ(verdict("min(64, past+seq) >= past+seq", {"past+seq<=64"}).verdict, V::True);
  EXPECT_EQ(verdict("H >= 32", {"H%32==0", "H>=1"}).verdict, V::True);
  const ProofOutcome no = verdict("(H+1)//2 >= H", {});
  ASSERT_EQ(no.verdict, V::False);
  EXPECT_EQ(no.counterexample.at("H"), 2);
  // The counterexample satisfies the facts.
  const ProofOutcome no2 = verdict("seq <= 16", {"seq >= 8", "seq%8==0"});
  ASSERT_EQ(no2.verdict, V::False);
  EXPECT_GT(no2.counterexample.at("seq"), 16);
  EXPECT_EQ(no2.counterexample.at("seq") % 8, 0);
  EXPECT_EQ(verdict("a*b >= a", {"b >= 1"}).verdict, V::True);
  EXPECT_FALSE(parse_relation("a <= b <= c").ok());
}

// Random facts of each kind (bounds, strict and chained relations, linear
// relations with coefficients, products, divisibility, equalities that define
// a symbol, constants near int64's limits), random expressions over them
// (division and modulo by expressions, negation, Max, Min, large constants):
//   - wherever a binding satisfies the facts and the exact form is defined, the
//     form built under them has its value (or refuses with an overflow, when
//     the text or the binding holds a large number);
//   - a relation proven under the facts holds there;
//   - a counterexample satisfies the facts and breaks the relation wherever
//     both sides are defined.
// Bindings take small values or values at the facts' bounds. The seed is
// fixed; SYMSHAPE_PROPERTY_SEED and SYMSHAPE_FACTS_ROUNDS explore further (as
// in expr_property_test).
TEST(FactsProperty, SimplifiedUnderFactsAgreesWithExactForm) {
  const uint64_t seed = test::env_number("SYMSHAPE_PROPERTY_SEED", 20261204);
  const int rounds = static_cast<int>(test::env_number("SYMSHAPE_FACTS_ROUNDS", 400));
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto small = [&](int n, int shift = 0) { return std::to_string(pick(n) + shift); };
  const char* names[] = {"a", "b", "c", "d"};
  auto name = [&] { return std::string(names[pick(4)]); };
  bool large_used = false;  // by the expression being generated
  auto large = [&]() -> std::string {
    large_used = true;
    const char* limits[] = {"9223372036854775807", "4611686018427387904", "4611686018427387903", "3037000499"};
    return limits[pick(4)];
  };
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    if (depth == 0 || pick(4) == 0) return pick(3) != 0 ? name() : pick(10) == 0 ? large() : small(70, -5);
    const std::string x = gen(depth - 1), y = gen(depth - 1);
    switch (pick(11)) {
      case 0:
        return "(" + x + "+" + y + ")";
      case 1:
        return "(" + x + "-" + y + ")";
      case 2:
        return "(" + x + "*" + small(7, -2) + ")";
      case 3:
        return "(" + x + ")//" + small(9, 1);
      case 4:
        return "(" + x + ")%" + small(9, 1);
      case 5:
        return "max(" + x + "," + y + ")";
      case 6:
        return "min(" + x + "," + y + ")";
      case 7:
        return "(" + x + ")//(" + y + ")";
      case 8:
        return "(" + x + ")%(" + y + ")";
      case 9:
        return "-(" + x + ")";
      default:
        return "(" + x + "*" + y + ")";
    }
  };
  auto random_fact = [&]() -> std::string {
    const std::string s = name(), t = name(), u = name();
    switch (pick(18)) {
      case 0:
        return s + "<=" + small(40);
      case 1:
        return s + ">=" + small(12);
      case 2:
        return s + "+" + t + "<=" + small(50, 1);
      case 3:
        return s + "%" + small(6, 2) + "==0";
      case 4:
        return s + "<=" + t + "+" + small(5);
      case 5:
        return s + "<" + t;
      case 6:
        return small(5) + "<=" + s + "<=" + small(30, 5);
      case 7:
        return s + "==" + t + "+" + u;
      case 8:
        return s + "==" + small(3, 1) + "*" + t + "+" + small(4);
      case 9:
        return small(3, 1) + "*" + s + "<=" + small(3, 1) + "*" + t + "+" + small(7);
      case 10:
        return s + "-" + t + ">=" + small(9, -4);
      case 11:
        return s + "*" + t + "<=" + small(60);
      case 12:
        return s + "<=" + large();
      case 13:
        return s + ">=" + large();
      case 14:
        return s + "+" + t + ">=" + large();
      case 15:
        return s + "<=" + t + "+" + large();
      case 16:
        return s + "-" + t + ">=" + large();
      default:
        return s + "+" + t + "+" + u + ">=" + small(20);
    }
  };
  auto holds = [](int64_t x, Relation rel, int64_t y) {
    switch (rel) {
      case Relation::LessEqual:
        return x <= y;
      case Relation::GreaterEqual:
        return x >= y;
      case Relation::Less:
        return x < y;
      case Relation::Greater:
        return x > y;
      case Relation::Equal:
        return x == y;
    }
    return false;
  };
  constexpr Relation kRelations[] = {Relation::LessEqual, Relation::GreaterEqual, Relation::Less, Relation::Greater,
                                     Relation::Equal};
  int checked_bindings = 0, overflows = 0, proofs = 0, counterexamples = 0;
  for (int round = 0; round < rounds; ++round) {
    Facts facts;
    std::string facts_text;
    for (int k = pick(4) + 1; k > 0; --k) {
      const std::string fact = random_fact();
      if (facts.add(fact).ok()) facts_text += fact + "; ";  // a contradiction is refused, fine
    }
    for (int j = 0; j < 10; ++j) {
      large_used = false;
      const std::string text = gen(pick(4) + 1);
      const bool large_constant = large_used;
      const std::string other_text = gen(pick(3) + 1);
      const Result<Expr> exact = parse_expr(text), other = parse_expr(other_text);
      if (!exact.ok() || !other.ok()) continue;  // an overflow while building (a large constant)
      Expr assumed;
      {
        const FactScope scope(facts);
        assumed = facts.apply(*exact);
      }
      const Relation rel = kRelations[pick(5)];
      const ProofOutcome outcome = prove_relation(*exact, rel, *other, facts);
      const std::string claim = text + " " + detail::relation_text(rel) + " " + other_text + " under " + facts_text;
      proofs += outcome.verdict == ProofOutcome::Verdict::True;
      if (outcome.verdict == ProofOutcome::Verdict::False) {  // a real counterexample
        ++counterexamples;
        const Bindings& at = outcome.counterexample;
        ASSERT_TRUE(facts.holds_at(at)) << claim << ": " << binding_text(at);
        Result<int64_t> x = evaluate(*exact, at), y = evaluate(*other, at);
        ASSERT_FALSE(x.ok() && y.ok() && holds(*x, rel, *y)) << claim << " at " << binding_text(at);
      }
      for (int s = 0; s < 40; ++s) {
        Bindings b{{"a", pick(4) == 0 ? 0 : pick(70)}, {"b", pick(70)}, {"c", pick(70)}, {"d", pick(70)}};
        for (const char* n : names) {  // half the symbols with bounds take a value at one of them
          const auto* f = facts.context().find(n);
          if (!f || pick(2) == 0) continue;
          if (f->bounds.has_lo && (pick(2) == 0 || !f->bounds.has_hi))  // (a bound may be INT64_MAX)
            b[n] = f->bounds.lo + std::min<int64_t>(pick(3), std::numeric_limits<int64_t>::max() - f->bounds.lo);
          else if (f->bounds.has_hi)
            b[n] = std::max<int64_t>(0, f->bounds.hi - pick(3));
        }
        for (const auto& [defined, value] : facts.definitions())
          if (Result<int64_t> v = evaluate(value, b); v.ok()) b[defined] = *v;
        if (!facts.holds_at(b)) continue;
        Result<int64_t> want = evaluate(*exact, b), got = evaluate(assumed, b);
        if (!want.ok()) continue;
        ++checked_bindings;
        // The built form may take other steps than the text (2*(31-c) is 62-2*c): with
        // large numbers about, it may overflow where the text does not; an
        // overflow is reported, never a wrong value.
        const bool large_value =
            std::any_of(b.begin(), b.end(), [](const auto& binding) { return binding.second > (int64_t{1} << 31); });
        if (!got.ok() && (large_constant || large_value) && got.error() == kOverflowMessage) {
          ++overflows;
          continue;
        }
        ASSERT_TRUE(got.ok()) << text << " under " << facts_text << "gives " << to_string(assumed) << ": "
                              << got.error();
        ASSERT_EQ(*want, *got) << text << " -> " << to_string(assumed) << " under " << facts_text << "at "
                               << binding_text(b);
        if (outcome.verdict == ProofOutcome::Verdict::True) {
          Result<int64_t> y = evaluate(*other, b);
          ASSERT_TRUE(!y.ok() || holds(*want, rel, *y)) << claim << " was proven, but not at " << binding_text(b);
        }
      }
    }
  }
  std::printf("seed %llu, rounds %d, bindings checked %d (overflows %d), proofs %d, counterexamples %d\n",
              static_cast<unsigned long long>(seed), rounds, checked_bindings, overflows, proofs, counterexamples);
  // The test must exercise something: many bindings, proofs and counterexamples.
  EXPECT_GT(checked_bindings, rounds * 50);
  EXPECT_LT(overflows, checked_bindings / 100);
  EXPECT_GT(proofs, rounds / 2);
  EXPECT_GT(counterexamples, rounds);
}

}  // namespace
}  // namespace symshape
