// Facts about symbols (expr/facts.hpp): parsing and errors, what the
// simplifier and the prover make of bounds, linear relations, divisibility and
// equalities, the scope that makes them active, and a property test: random
// facts and random expressions, the form built under the facts checked against
// the exact form at random bindings that satisfy them.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
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
  for (const char* name : {"a", "b", "c"})
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

// Random facts of each kind, random expressions: wherever a binding
// satisfies the facts, the form built under them evaluates as the exact one;
// a relation proven under them holds there.
TEST(FactsProperty, SimplifiedUnderFactsAgreesWithExactForm) {
  std::mt19937_64 rng(20261204);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const char* names[] = {"a", "b", "c"};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    if (depth == 0 || pick(4) == 0) return pick(3) == 0 ? std::to_string(pick(70) - 5) : std::string(names[pick(3)]);
    const std::string x = gen(depth - 1), y = gen(depth - 1);
    switch (pick(8)) {
      case 0:
        return "(" + x + "+" + y + ")";
      case 1:
        return "(" + x + "-" + y + ")";
      case 2:
        return "(" + x + "*" + std::to_string(pick(5) + 1) + ")";
      case 3:
        return "(" + x + ")//" + std::to_string(pick(8) + 1);
      case 4:
        return "(" + x + ")%" + std::to_string(pick(8) + 1);
      case 5:
        return "max(" + x + "," + y + ")";
      case 6:
        return "min(" + x + "," + y + ")";
      default:
        return "(" + x + "*" + y + ")";
    }
  };
  auto random_fact = [&]() -> std::string {
    const std::string s = names[pick(3)], t = names[pick(3)];
    switch (pick(5)) {
      case 0:
        return s + "<=" + std::to_string(pick(40));
      case 1:
        return s + ">=" + std::to_string(pick(12));
      case 2:
        return s + "+" + t + "<=" + std::to_string(pick(50) + 1);
      case 3:
        return s + "%" + std::to_string(pick(6) + 2) + "==0";
      default:
        return s + "<=" + t + "+" + std::to_string(pick(5));
    }
  };
  int checked_bindings = 0, proofs = 0;
  for (int round = 0; round < 400; ++round) {
    Facts facts;
    for (int k = pick(3) + 1; k > 0; --k) facts.add(random_fact());  // a contradiction is refused, fine
    for (int j = 0; j < 10; ++j) {
      const std::string text = gen(3);
      const Expr exact = test::P(text);
      Expr assumed, lower;
      {
        const FactScope scope(facts);
        assumed = facts.apply(test::P(text));
        lower = facts.apply(test::P(gen(2)));
      }
      const ProofOutcome ge = prove_relation(exact, Relation::GreaterEqual, lower, facts);
      proofs += ge.verdict == ProofOutcome::Verdict::True;
      if (ge.verdict == ProofOutcome::Verdict::False) {  // a real counterexample
        ASSERT_TRUE(facts.holds_at(ge.counterexample));
        Result<int64_t> x = evaluate(exact, ge.counterexample), y = evaluate(lower, ge.counterexample);
        ASSERT_TRUE(x.ok() && y.ok() && *x < *y)
            << text << " >= " << to_string(lower) << " at " << binding_text(ge.counterexample) << ": "
            << (x.ok() ? *x : -1) << " " << (y.ok() ? *y : -1);
      }
      for (int s = 0; s < 30; ++s) {
        Bindings b{{"a", pick(70)}, {"b", pick(70)}, {"c", pick(70)}};
        if (!facts.holds_at(b)) continue;
        Result<int64_t> want = evaluate(exact, b), got = evaluate(assumed, b);
        if (!want.ok()) continue;
        ++checked_bindings;
        ASSERT_TRUE(got.ok()) << text << " under facts gives " << to_string(assumed) << ": " << got.error();
        ASSERT_EQ(*want, *got) << text << " -> " << to_string(assumed) << " at a=" << b["a"] << " b=" << b["b"]
                               << " c=" << b["c"] << " facts: " << facts.list().size();
        if (ge.verdict == ProofOutcome::Verdict::True) {
          Result<int64_t> low = evaluate(lower, b);
          if (low.ok()) {
            ASSERT_GE(*want, *low) << text << " >= " << to_string(lower) << " claimed";
          }
        }
      }
    }
  }
  // The test must exercise something: many bindings and some proofs.
  EXPECT_GT(checked_bindings, 10000);
  EXPECT_GT(proofs, 50);
}

}  // namespace
}  // namespace symshape
