// A short condition for a contract. The exact relation a model needs of its
// inputs can be long: a broadcast of `seq` with the length of a slice of a
// 64-row table, `max(0,min(64,past+seq)-past)`, needs "seq == that, or one
// of them is 1". The clamps in such a dim (each argument of a Min or Max
// against a constant) name the runs where they do nothing: `past+seq <= 64`.
// When one such fact makes the two sides provably equal, it is the condition
// people read (and what --assume-contracts assumes): valid runs that satisfy
// it satisfy the contract, and the runs the clamp is there for are the ones
// that overrun the table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "symshape/expr/facts.hpp"
#include "symshape/expr/prove.hpp"

namespace symshape {

namespace conditions_detail {

inline constexpr std::size_t kMaxCandidates = 8;

// The facts under which a Min or Max of e stops clamping: for min(c, t, ...)
// with a constant c, `t <= c`; for max(c, t, ...), `t >= c`.
inline void collect_candidates(const Expr& e, std::vector<std::pair<Expr, Relation>>& out, int depth = 0) {
  if (depth > 8 || out.size() >= kMaxCandidates) return;
  const ExprKind k = e.kind();
  if (k == ExprKind::Min || k == ExprKind::Max) {
    const Expr* constant = nullptr;
    for (const Expr& a : e.args())
      if (a.is_int()) constant = &a;
    if (constant)
      for (const Expr& a : e.args())
        if (!a.is_int() && out.size() < kMaxCandidates)
          out.emplace_back(k == ExprKind::Min ? *constant - a : a - *constant, Relation::GreaterEqual);
  }
  for (const auto& [t, c] : e.terms()) collect_candidates(t, out, depth + 1);
  for (const Expr& a : e.args()) collect_candidates(a, out, depth + 1);
}

// `g >= 0` written the way people write a bound: `past+seq <= 64`, `seq >= 1`.
// g = L - R + c with L (R) its terms of positive (negative) coefficient, so
// g >= 0 is R <= L + c; the constant joins the side where it is positive.
inline std::string condition_text(const Expr& g) {
  Expr left(0), right(0);
  const int64_t c = g.add_constant();
  if (g.kind() == ExprKind::Add) {
    for (const auto& [t, k] : g.terms()) {
      if (k > 0)
        left = left + t * Expr(k);
      else
        right = right - t * Expr(k);
    }
  } else {
    left = g - Expr(c);
  }
  if (c > 0) left = left + Expr(c);
  if (c < 0) right = right - Expr(c);
  if (right.is_int()) return to_string(left) + " >= " + to_string(right);
  return to_string(right) + " <= " + to_string(left);
}

}  // namespace conditions_detail

// What the clamps of a contract's sides say about it: the fact, as text,
// under which a == b holds (Broadcast: it also holds when the fact does, since
// equal dims broadcast), or that the relation holds on both sides of such a
// fact (x - min(1,x) broadcast: equal for x <= 1, and 1 against x otherwise),
// so that no run can break it.
struct ClampReading {
  bool always_holds = false;
  std::string condition;  // empty: none found
};
inline ClampReading read_clamps(const Expr& a, const Expr& b, bool broadcast) {
  std::vector<std::pair<Expr, Relation>> candidates;
  conditions_detail::collect_candidates(a, candidates);
  conditions_detail::collect_candidates(b, candidates);
  const auto holds_under = [&](const Expr& g) {
    Facts facts;
    if (!facts.add(g, Relation::GreaterEqual, Expr(0), "contract")) return false;
    const FactScope scope(facts);
    const Expr x = facts.apply(a), y = facts.apply(b);
    return x == y || (broadcast && (x.is_int(1) || y.is_int(1))) || prove_eq(x, y);
  };
  for (const auto& [g, rel] : candidates) {
    if (!holds_under(g)) continue;
    // Where the clamp acts (g <= -1), the relation may hold as well.
    if (holds_under(Expr(-1) - g)) return {true, {}};
    return {false, conditions_detail::condition_text(g)};
  }
  return {};
}

}  // namespace symshape
