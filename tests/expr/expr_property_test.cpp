// Soundness property test of the expression engine.
//
// Random well-formed expressions are built as a raw tree owned by this test,
// evaluated directly with an independent oracle (128-bit arithmetic with
// Python's floor semantics; a value outside int64 or a division or modulo by
// zero makes the tree undefined at that binding), printed to text with the
// grammar's precedences, and parsed by symshape::parse_expr (which simplifies
// while building). For each expression the test checks:
//   - wherever the raw tree is defined, the simplified form evaluates to the
//     same value, and that value lies within the cached bounds();
//   - printing round-trips: parse(to_string(e)) == e with an equal hash, and
//     printing again gives the same text (simplifying twice changes nothing);
//   - prove_ge(e, f) (default assumptions and a lower bound on one symbol) is
//     never claimed when some binding contradicts it, nor prove_not_one(e)
//     when e is 1 at one;
//   - substitute(e, {a: f}) agrees with evaluating e at a := value of f;
//   - simplified_by_cases(e), when it differs from e, agrees with the raw
//     tree wherever the raw tree is defined.
// The seed is fixed: runs are reproducible. The first counter-example fails the
// test with the original text, the simplified text, the bindings and values.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "expr_test_util.hpp"
#include "symshape/expr.hpp"

namespace {

using symshape::Bindings;
using symshape::Expr;

constexpr const char* kSymbols[] = {"a", "b", "c", "x", "y"};
constexpr int kNumSymbols = 5;

enum class Op { Const, Sym, Add, Sub, Mul, Div, Mod, Neg, Max, Min, Ceil };

struct RawNode {
  Op op = Op::Const;
  int64_t value = 0;  // Const
  int sym = 0;        // Sym
  int lhs = -1, rhs = -1;
  // Spelling choices for the printer.
  int spelling = 0;  // Max: 0 '^', 1 max(), 2 Max(); Min: 0 '&', 1 min(), 2 Min()
  bool extra_parens = false;
  bool unary_plus = false;
};

using i128 = __int128;
constexpr i128 kMin64 = std::numeric_limits<int64_t>::min();
constexpr i128 kMax64 = std::numeric_limits<int64_t>::max();

i128 floor_div(i128 a, i128 b) {
  i128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

class RawTree {
 public:
  std::vector<RawNode> nodes;
  int root = -1;

  // The value at `env`, or nullopt where undefined (overflow or zero divisor).
  std::optional<int64_t> eval(int i, const int64_t* env) const {
    const RawNode& n = nodes[static_cast<std::size_t>(i)];
    switch (n.op) {
      case Op::Const:
        return n.value;
      case Op::Sym:
        return env[n.sym];
      case Op::Neg: {
        auto a = eval(n.lhs, env);
        if (!a) return std::nullopt;
        return fit(-static_cast<i128>(*a));
      }
      default:
        break;
    }
    auto a = eval(n.lhs, env);
    auto b = eval(n.rhs, env);
    if (!a || !b) return std::nullopt;
    const i128 x = *a, y = *b;
    switch (n.op) {
      case Op::Add:
        return fit(x + y);
      case Op::Sub:
        return fit(x - y);
      case Op::Mul:
        return fit(x * y);
      case Op::Div:
        if (y == 0) return std::nullopt;
        return fit(floor_div(x, y));
      case Op::Mod:
        if (y == 0) return std::nullopt;
        return fit(x - y * floor_div(x, y));
      case Op::Ceil:  // ceil(x / y) == -floor(-x / y)
        if (y == 0) return std::nullopt;
        return fit(-floor_div(-x, y));
      case Op::Max:
        return x > y ? *a : *b;
      case Op::Min:
        return x < y ? *a : *b;
      default:
        return std::nullopt;
    }
  }

  std::string print() const {
    std::string out;
    print(root, out);
    return out;
  }

 private:
  static std::optional<int64_t> fit(i128 v) {
    if (v < kMin64 || v > kMax64) return std::nullopt;
    return static_cast<int64_t>(v);
  }

  // Binding strength of the printed node (as the grammar's levels).
  int prec(int i) const {
    const RawNode& n = nodes[static_cast<std::size_t>(i)];
    if (n.extra_parens) return 6;
    switch (n.op) {
      case Op::Const:
        return n.value < 0 ? 5 : 6;
      case Op::Sym:
      case Op::Ceil:
        return n.unary_plus ? 5 : 6;
      case Op::Max:
        return n.spelling == 0 ? 1 : (n.unary_plus ? 5 : 6);
      case Op::Min:
        return n.spelling == 0 ? 2 : (n.unary_plus ? 5 : 6);
      case Op::Add:
      case Op::Sub:
        return 3;
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
        return 4;
      case Op::Neg:
        return 5;
    }
    return 6;
  }

  void child(int i, int min_prec, std::string& out) const {
    if (prec(i) < min_prec) {
      out += '(';
      print(i, out);
      out += ')';
    } else {
      print(i, out);
    }
  }

  void print(int i, std::string& out) const {
    const RawNode& n = nodes[static_cast<std::size_t>(i)];
    if (n.extra_parens) {
      out += '(';
      RawNode copy = n;
      copy.extra_parens = false;
      print_plain(copy, out);
      out += ')';
      return;
    }
    print_plain(n, out);
  }

  void print_plain(const RawNode& n, std::string& out) const {
    auto infix = [&](int level, const char* op) {
      child(n.lhs, level, out);  // left-associative: the left side may be the same level
      out += op;
      child(n.rhs, level + 1, out);
    };
    auto call = [&](const char* name) {
      if (n.unary_plus) out += '+';
      out += name;
      out += '(';
      print(n.lhs, out);
      out += ", ";
      print(n.rhs, out);
      out += ')';
    };
    switch (n.op) {
      case Op::Const:
        if (n.value == std::numeric_limits<int64_t>::min()) {
          out += "(-9223372036854775807-1)";
        } else {
          out += std::to_string(n.value);
        }
        return;
      case Op::Sym:
        if (n.unary_plus) out += '+';
        out += kSymbols[n.sym];
        return;
      case Op::Add:
        return infix(3, " + ");
      case Op::Sub:
        return infix(3, " - ");
      case Op::Mul:
        return infix(4, "*");
      case Op::Div:
        return infix(4, "//");
      case Op::Mod:
        return infix(4, " % ");
      case Op::Neg:
        out += '-';
        child(n.lhs, 5, out);
        return;
      case Op::Max:
        if (n.spelling == 0) return infix(1, " ^ ");
        return call(n.spelling == 1 ? "max" : "Max");
      case Op::Min:
        if (n.spelling == 0) return infix(2, " & ");
        return call(n.spelling == 1 ? "min" : "Min");
      case Op::Ceil:
        return call("CeilToInt");
    }
  }
};

// Two styles alternate: "wide" uses every operator alike, all five symbols
// and constants of every size (rare large ones exercise checked arithmetic);
// "shape" draws like shape formulas do: two symbols, small mostly positive
// constants, more + * // so that rules such as (k*q + r)//k, common factors
// and nested floors meet matching operands often.
class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  RawTree tree(int max_depth, bool shape_style) {
    shape_ = shape_style;
    sym_lo_ = 0;
    sym_hi_ = kNumSymbols - 1;
    if (shape_) {
      sym_lo_ = uniform(0, kNumSymbols - 2);
      sym_hi_ = sym_lo_ + 1;
    }
    RawTree t;
    t.root = node(t, max_depth, true);
    return t;
  }

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

 private:
  std::mt19937_64 rng_;
  bool shape_ = false;
  int sym_lo_ = 0, sym_hi_ = kNumSymbols - 1;

  int64_t constant() {
    const int r = uniform(0, 99);
    if (shape_) {
      if (r < 5) return 0;
      if (r < 85) return uniform(1, 8);
      return -uniform(1, 4);
    }
    if (r < 10) return 0;
    if (r < 55) return uniform(1, 12);
    if (r < 80) return -uniform(1, 12);
    if (r < 93) return uniform(-1000, 1000);
    // Large magnitudes, to exercise checked arithmetic.
    static constexpr int64_t kBig[] = {int64_t{1} << 31,
                                       int64_t{1} << 32,
                                       int64_t{1} << 62,
                                       std::numeric_limits<int64_t>::max(),
                                       -std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min(),
                                       3037000499,  // floor(sqrt(INT64_MAX))
                                       4611686018427387903};
    return kBig[uniform(0, 7)];
  }

  Op pick_op() {
    static constexpr Op kOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Mod, Op::Neg, Op::Max, Op::Min, Op::Ceil};
    if (!shape_) return kOps[uniform(0, 8)];
    // Weights in the order above.
    static constexpr int kWeights[] = {20, 10, 20, 20, 8, 2, 8, 8, 4};
    int r = uniform(0, 99);
    for (int i = 0; i < 9; ++i) {
      if (r < kWeights[i]) return kOps[i];
      r -= kWeights[i];
    }
    return Op::Add;
  }

  int node(RawTree& t, int depth, bool root) {
    RawNode n;
    if (depth == 0 || (!root && chance(0.3))) {
      if (chance(0.6)) {
        n.op = Op::Sym;
        n.sym = uniform(sym_lo_, sym_hi_);
      } else {
        n.op = Op::Const;
        n.value = constant();
      }
    } else {
      n.op = pick_op();
      n.lhs = node(t, depth - 1, false);
      if (n.op != Op::Neg) n.rhs = node(t, depth - 1, false);
      n.spelling = uniform(0, 2);
    }
    n.extra_parens = chance(0.05);
    n.unary_plus = chance(0.05);
    t.nodes.push_back(n);
    return static_cast<int>(t.nodes.size()) - 1;
  }
};

std::string describe(const int64_t* env) {
  std::string s;
  for (int i = 0; i < kNumSymbols; ++i) {
    if (i) s += ", ";
    s += std::string(kSymbols[i]) + "=" + std::to_string(env[i]);
  }
  return s;
}

Bindings to_bindings(const int64_t* env) {
  Bindings b;
  for (int i = 0; i < kNumSymbols; ++i) b[kSymbols[i]] = env[i];
  return b;
}

bool within(const symshape::Interval& iv, int64_t v) {
  return (!iv.has_lo || iv.lo <= v) && (!iv.has_hi || v <= iv.hi);
}

struct Stats {
  long expressions = 0;
  long compared = 0;        // (expression, binding) pairs where the raw tree is defined
  long undefined = 0;       // pairs where it is not
  long refused = 0;         // expressions the engine refused with an overflow Error
  long eval_overflow = 0;   // pairs where the simplified form overflows but the raw tree does not
  long proofs = 0;          // prove_ge claims checked
  long not_one_proofs = 0;  // prove_not_one claims checked
  long substitutions = 0;   // substitute checks done
  long case_splits = 0;     // expressions that simplified_by_cases shortened
};

// Large constants make overflow refusals legitimate: the canonical form's
// coefficients or intermediate sums may leave int64 where the raw evaluation
// order does not. Small-constant expressions get no such allowance.
bool has_large_constant(const RawTree& t) {
  for (const auto& n : t.nodes)
    if (n.op == Op::Const && (n.value > 1000 || n.value < -1000)) return true;
  return false;
}

// How many random expressions the property tests take when SYMSHAPE_PROPERTY_COUNT
// is not set (tests/expr/CMakeLists.txt lowers it in the sanitizer build).
#ifndef SYMSHAPE_PROPERTY_DEFAULT_COUNT
#define SYMSHAPE_PROPERTY_DEFAULT_COUNT 100000
#endif

TEST(ExprProperty, SimplifiedFormAgreesWithRawTree) {
  // Fixed by default; SYMSHAPE_PROPERTY_SEED and SYMSHAPE_PROPERTY_COUNT
  // explore further (a failure prints everything needed to reproduce it).
  const uint64_t seed = symshape::test::env_number("SYMSHAPE_PROPERTY_SEED", 20240601);
  const long kExpressions =
      static_cast<long>(symshape::test::env_number("SYMSHAPE_PROPERTY_COUNT", SYMSHAPE_PROPERTY_DEFAULT_COUNT));
  constexpr int kBindingsPerExpression = 4;
  constexpr int kMaxDepth = 8;
  Generator gen(seed);
  Stats st;
  const auto start = std::chrono::steady_clock::now();

  // Non-negative substitutes for symbol `a` (the engine assumes symbols >= 0).
  const std::vector<std::string> substitutes = {"b + 1", "c*x", "y//2", "a + b", "3", "max(b, c) - c", "x % 4"};
  std::vector<Expr> substitute_exprs;
  for (const auto& s : substitutes) {
    auto p = symshape::parse_expr(s);
    ASSERT_TRUE(p.ok()) << s << ": " << p.error();
    substitute_exprs.push_back(*p);
  }

  const Expr zero = 0;
  RawTree zero_tree;
  zero_tree.nodes.push_back(RawNode{});  // the constant 0
  zero_tree.root = 0;
  Expr previous = zero;  // the other side of prove_ge checks: the previous expression
  RawTree previous_tree = zero_tree;

  for (long iter = 0; iter < kExpressions; ++iter) {
    const RawTree tree = gen.tree(gen.uniform(1, kMaxDepth), iter % 2 == 1);
    const std::string text = tree.print();
    ++st.expressions;

    auto parsed = symshape::parse_expr(text);
    if (!parsed.ok()) {
      // Only an overflow while building the canonical form may refuse a
      // well-formed text, and only when it holds a large constant.
      const bool overflow = parsed.error().find("integer overflow") != std::string::npos;
      ASSERT_TRUE(overflow && has_large_constant(tree))
          << "well-formed text refused\n  text: " << text << "\n  error: " << parsed.error();
      ++st.refused;
      continue;
    }
    const Expr e = *parsed;
    const std::string printed = symshape::to_string(e);

    // Round trip, and stability of a second simplification.
    auto reparsed = symshape::parse_expr(printed);
    ASSERT_TRUE(reparsed.ok()) << "printed form does not parse\n  text: " << text << "\n  simplified: " << printed
                               << "\n  error: " << reparsed.error();
    ASSERT_TRUE(*reparsed == e && reparsed->hash() == e.hash())
        << "round trip changed the expression\n  text: " << text << "\n  simplified: " << printed
        << "\n  reparsed: " << symshape::to_string(*reparsed);
    ASSERT_EQ(symshape::to_string(*reparsed), printed) << "text: " << text;

    // Values at random non-negative bindings.
    const bool allow_eval_overflow = has_large_constant(tree);
    int64_t envs[kBindingsPerExpression][kNumSymbols];
    std::optional<int64_t> raw_values[kBindingsPerExpression];
    for (int k = 0; k < kBindingsPerExpression; ++k) {
      int64_t* env = envs[k];
      for (int s = 0; s < kNumSymbols; ++s) env[s] = k == 0 && gen.chance(0.5) ? 0 : gen.uniform(0, 12);
      raw_values[k] = tree.eval(tree.root, env);
      auto got = symshape::evaluate(e, to_bindings(env));
      if (!raw_values[k]) {
        ++st.undefined;
        continue;
      }
      ++st.compared;
      if (!got.ok() && allow_eval_overflow && got.error() == "integer overflow") {
        ++st.eval_overflow;
        continue;
      }
      ASSERT_TRUE(got.ok() && *got == *raw_values[k])
          << "value mismatch\n  text: " << text << "\n  simplified: " << printed << "\n  bindings: " << describe(env)
          << "\n  raw value: " << *raw_values[k]
          << "\n  simplified value: " << (got.ok() ? std::to_string(*got) : "error: " + got.error());
      ASSERT_TRUE(within(e.bounds(), *got))
          << "value outside the cached bounds\n  text: " << text << "\n  simplified: " << printed
          << "\n  bindings: " << describe(env) << "\n  value: " << *got << "\n  bounds: ["
          << (e.bounds().has_lo ? std::to_string(e.bounds().lo) : "-inf") << ", "
          << (e.bounds().has_hi ? std::to_string(e.bounds().hi) : "inf") << "]";
    }

    // prove_ge is never contradicted by a binding (both sides evaluated by the oracle).
    auto check_proof = [&](const Expr& lhs, const RawTree& lt, const Expr& rhs, const RawTree& rt,
                           const symshape::Assumptions& assume, const char* what) {
      if (!symshape::prove_ge(lhs, rhs, assume)) return true;
      ++st.proofs;
      for (int k = 0; k < kBindingsPerExpression; ++k) {
        int64_t env[kNumSymbols];
        std::copy(envs[k], envs[k] + kNumSymbols, env);
        for (const auto& [name, lb] : assume.lower_bounds)
          for (int s = 0; s < kNumSymbols; ++s)
            if (name == kSymbols[s] && env[s] < lb) env[s] = lb;
        auto l = lt.eval(lt.root, env);
        auto r = rt.eval(rt.root, env);
        if (l && r && *l < *r) {
          ADD_FAILURE() << "prove_ge(" << symshape::to_string(lhs) << ", " << symshape::to_string(rhs) << ") " << what
                        << " but at " << describe(env) << " the left is " << *l << " and the right " << *r;
          return false;
        }
      }
      return true;
    };
    symshape::Assumptions lb;
    lb.lower_bounds["x"] = gen.uniform(1, 3);
    if (!check_proof(e, tree, zero, zero_tree, {}, "holds") || !check_proof(zero, zero_tree, e, tree, {}, "holds") ||
        !check_proof(e, tree, previous, previous_tree, {}, "holds") ||
        !check_proof(previous, previous_tree, e, tree, {}, "holds") ||
        !check_proof(e, tree, previous, previous_tree, lb, "holds for x >= lower bound") ||
        !check_proof(previous, previous_tree, e, tree, lb, "holds for x >= lower bound")) {
      FAIL() << "  text: " << text << "\n  previous: " << previous_tree.print();
    }
    // prove_not_one is never contradicted by a binding either.
    if (symshape::prove_not_one(e)) {
      ++st.not_one_proofs;
      for (int k = 0; k < kBindingsPerExpression; ++k)
        ASSERT_FALSE(raw_values[k] && *raw_values[k] == 1)
            << "prove_not_one(" << printed << ") but it is 1 at " << describe(envs[k]) << "\n  text: " << text;
    }
    previous = e;
    previous_tree = tree;

    // simplified_by_cases gives the raw tree's values too.
    if (iter % 2 == 0) {
      const Expr shorter = symshape::simplified_by_cases(e);
      if (shorter != e) {
        ++st.case_splits;
        ASSERT_LT(shorter.size(), e.size()) << "text: " << text;
        for (int k = 0; k < kBindingsPerExpression; ++k) {
          if (!raw_values[k]) continue;
          auto got = symshape::evaluate(shorter, to_bindings(envs[k]));
          if (!got.ok() && allow_eval_overflow && got.error() == "integer overflow") continue;
          ASSERT_TRUE(got.ok() && *got == *raw_values[k])
              << "simplified_by_cases mismatch\n  text: " << text << "\n  simplified: " << printed
              << "\n  by cases: " << symshape::to_string(shorter) << "\n  bindings: " << describe(envs[k])
              << "\n  raw value: " << *raw_values[k]
              << "\n  by-cases value: " << (got.ok() ? std::to_string(*got) : "error: " + got.error());
        }
      }
    }

    // substitute(e, {a: f}) == e evaluated at a := f's value.
    if (iter % 4 == 0) {
      const std::size_t which = static_cast<std::size_t>(iter / 4) % substitutes.size();
      const Expr& f = substitute_exprs[which];
      const Expr se = symshape::substitute(e, {{"a", f}});
      if (se.is_error()) {
        ASSERT_TRUE(allow_eval_overflow) << "substitute refused\n  text: " << text << "\n  a := " << substitutes[which]
                                         << "\n  error: " << se.name();
      } else {
        ++st.substitutions;
        for (int k = 0; k < kBindingsPerExpression; ++k) {
          auto fv = symshape::evaluate(f, to_bindings(envs[k]));
          ASSERT_TRUE(fv.ok() && *fv >= 0) << substitutes[which];
          int64_t env[kNumSymbols];
          std::copy(envs[k], envs[k] + kNumSymbols, env);
          env[0] = *fv;
          auto expected = tree.eval(tree.root, env);
          if (!expected) continue;
          auto got = symshape::evaluate(se, to_bindings(envs[k]));
          if (!got.ok() && allow_eval_overflow && got.error() == "integer overflow") continue;
          ASSERT_TRUE(got.ok() && *got == *expected)
              << "substitute mismatch\n  text: " << text << "\n  simplified: " << printed
              << "\n  a := " << substitutes[which] << "\n  substituted: " << symshape::to_string(se)
              << "\n  bindings: " << describe(envs[k]) << "\n  expected: " << *expected
              << "\n  got: " << (got.ok() ? std::to_string(*got) : "error: " + got.error());
        }
      }
    }
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "seed %llu, expressions %ld, compared values %ld, undefined %ld, refused (overflow, large constants) %ld, "
      "simplified-form overflows (large constants) %ld, proofs checked %ld, not-one proofs checked %ld, "
      "substitutions %ld, shortened by cases %ld, %.2f s\n",
      static_cast<unsigned long long>(seed), st.expressions, st.compared, st.undefined, st.refused, st.eval_overflow,
      st.proofs, st.not_one_proofs, st.substitutions, st.case_splits, seconds);
  EXPECT_EQ(st.expressions, kExpressions);
  // The comparison must not be vacuous: most pairs are defined.
  EXPECT_GT(st.compared, kExpressions * kBindingsPerExpression / 2);
  EXPECT_LT(st.refused, kExpressions / 20);
  EXPECT_LT(st.eval_overflow, st.compared / 100);
  EXPECT_GT(st.proofs, 1000);
  EXPECT_GT(st.not_one_proofs, 1000);
  EXPECT_GT(st.case_splits, kExpressions / 1000);  // about 1.5 per 1,000 expressions
}

// Appends the nodes of `from` to `to`; returns the index of its root in `to`.
int graft(RawTree& to, const RawTree& from) {
  const int offset = static_cast<int>(to.nodes.size());
  for (RawNode n : from.nodes) {
    if (n.lhs >= 0) n.lhs += offset;
    if (n.rhs >= 0) n.rhs += offset;
    to.nodes.push_back(n);
  }
  return from.root + offset;
}

int add_node(RawTree& t, Op op, int lhs, int rhs, int64_t value = 0) {
  RawNode n;
  n.op = op;
  n.lhs = lhs;
  n.rhs = rhs;
  n.value = value;
  t.nodes.push_back(n);
  return static_cast<int>(t.nodes.size()) - 1;
}

// The rule a - k*(a//k) -> a%k: random a, rest b, divisor k (either sign) and
// multiple m, written as `b + m*a - (m*k)*(a//k)` (terms in a random order).
// Wherever the raw tree is defined the canonical form has its value, and it
// round-trips; most of them must fold to the form of b + m*(a%k).
TEST(ExprProperty, QuotientMultipleFoldsSoundly) {
  const uint64_t seed = symshape::test::env_number("SYMSHAPE_PROPERTY_SEED", 20240601) + 13;
  const long kExpressions =
      static_cast<long>(symshape::test::env_number("SYMSHAPE_PROPERTY_COUNT", SYMSHAPE_PROPERTY_DEFAULT_COUNT)) / 5;
  Generator gen(seed);
  long compared = 0, folded = 0, refused = 0;
  for (long iter = 0; iter < kExpressions; ++iter) {
    const RawTree a = gen.tree(gen.uniform(1, 4), true);
    const RawTree b = gen.tree(gen.uniform(1, 3), iter % 2 == 1);
    const int64_t k = gen.uniform(1, 7) * (gen.chance(0.2) ? -1 : 1);
    const int64_t m = gen.uniform(1, 3) * (gen.chance(0.3) ? -1 : 1);
    RawTree t;
    const int ra = graft(t, a), rb = graft(t, b);
    const int ma = add_node(t, Op::Mul, add_node(t, Op::Const, -1, -1, m), ra);
    const int q = add_node(t, Op::Div, ra, add_node(t, Op::Const, -1, -1, k));
    const int mkq = add_node(t, Op::Mul, add_node(t, Op::Const, -1, -1, m * k), q);
    t.root = gen.chance(0.5) ? add_node(t, Op::Sub, add_node(t, Op::Add, rb, ma), mkq)
                             : add_node(t, Op::Add, add_node(t, Op::Sub, ma, mkq), rb);
    RawTree folded_tree;  // b + m*(a % k)
    const int fa = graft(folded_tree, a), fb = graft(folded_tree, b);
    const int fm = add_node(folded_tree, Op::Mod, fa, add_node(folded_tree, Op::Const, -1, -1, k));
    folded_tree.root = add_node(folded_tree, Op::Add, fb,
                                add_node(folded_tree, Op::Mul, add_node(folded_tree, Op::Const, -1, -1, m), fm));

    const std::string text = t.print();
    auto parsed = symshape::parse_expr(text);
    auto expected_form = symshape::parse_expr(folded_tree.print());
    if (!parsed.ok() || !expected_form.ok()) {
      ASSERT_TRUE(has_large_constant(b)) << "refused\n  text: " << text;
      ++refused;
      continue;
    }
    const std::string printed = symshape::to_string(*parsed);
    auto reparsed = symshape::parse_expr(printed);
    ASSERT_TRUE(reparsed.ok() && *reparsed == *parsed) << "round trip\n  text: " << text << "\n  printed: " << printed;
    if (*parsed == *expected_form) ++folded;
    for (int n = 0; n < 4; ++n) {
      int64_t env[kNumSymbols];
      for (int s = 0; s < kNumSymbols; ++s) env[s] = n == 0 && gen.chance(0.5) ? 0 : gen.uniform(0, 12);
      const auto raw = t.eval(t.root, env);
      if (!raw) continue;
      const auto got = symshape::evaluate(*parsed, to_bindings(env));
      if (!got.ok() && has_large_constant(b) && got.error() == "integer overflow") continue;
      ++compared;
      ASSERT_TRUE(got.ok() && *got == *raw) << "value mismatch\n  text: " << text << "\n  simplified: " << printed
                                            << "\n  bindings: " << describe(env) << "\n  raw value: " << *raw;
    }
  }
  std::printf("a - k*(a//k): expressions %ld, folded to b + m*(a%%k) %ld, compared values %ld, refused %ld\n",
              kExpressions, folded, compared, refused);
  EXPECT_GT(compared, kExpressions * 2);
  EXPECT_GT(folded, kExpressions / 2);
}

}  // namespace
