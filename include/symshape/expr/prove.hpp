// Proofs about dimensions: prove_ge(a, b) and prove_eq(a, b) answer true only
// when the relation holds for every binding with each symbol >= its lower
// bound (0 unless the Assumptions say more). `false` means "not proven".
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "symshape/expr/build.hpp"
#include "symshape/expr/expr.hpp"
#include "symshape/expr/interval.hpp"
#include "symshape/expr/transform.hpp"

namespace symshape {

struct Assumptions {
  // Per-symbol lower bounds; symbols not listed are >= 0.
  std::map<std::string, int64_t, std::less<>> lower_bounds;

  int64_t lower_bound(const std::string& name) const {
    auto it = lower_bounds.find(name);
    return it == lower_bounds.end() ? 0 : it->second;
  }
  bool empty() const { return lower_bounds.empty(); }
};

namespace detail {

// Bounds of e when symbols have the given lower bounds.
inline Interval bounds_under(const Expr& e, const Assumptions& assume) {
  if (assume.empty()) return e.bounds();
  switch (e.kind()) {
    case ExprKind::Integer:
      return Interval::point(e.as_int());
    case ExprKind::Symbol:
      return Interval::at_least(assume.lower_bound(e.name()));
    case ExprKind::Error:
      return Interval::unbounded();
    case ExprKind::Add: {
      Interval r = Interval::point(e.add_constant());
      for (const auto& [t, c] : e.terms()) r = interval::add(r, interval::scale(bounds_under(t, assume), c));
      return r;
    }
    case ExprKind::Mul: {
      Interval r = Interval::point(1);
      for (const auto& [f, x] : e.terms()) r = interval::multiply(r, interval::power(bounds_under(f, assume), x));
      return r;
    }
    case ExprKind::FloorDiv:
    case ExprKind::Mod: {
      const Interval n = bounds_under(e.args()[0], assume);
      const Expr& d = e.args()[1];
      const bool div = e.kind() == ExprKind::FloorDiv;
      if (d.is_int() && d.as_int() > 0)
        return div ? interval::floordiv_positive(n, d.as_int()) : interval::mod_positive(n, d.as_int());
      const Interval db = bounds_under(d, assume);
      if (!interval::nonnegative(db)) return Interval::unbounded();
      if (!div) return interval::mod_by_nonnegative(n, db);
      if (db.lo >= 1 && n.has_lo && n.lo >= 0) return {0, n.hi / db.lo, true, n.has_hi};
      return interval::floordiv_by_nonnegative(n);
    }
    case ExprKind::Max:
    case ExprKind::Min: {
      Interval r = bounds_under(e.args()[0], assume);
      for (std::size_t i = 1; i < e.args().size(); ++i)
        r = e.kind() == ExprKind::Max ? interval::max(r, bounds_under(e.args()[i], assume))
                                      : interval::min(r, bounds_under(e.args()[i], assume));
      return r;
    }
  }
  return Interval::unbounded();
}

// d >= 0 by the linear reasoning of expr/linear_facts.hpp (over floor, modulo,
// max and min bounds) even when no facts are in force: a proof may take the
// time that building expressions does not.
inline bool nonnegative_by_elimination(const Expr& d) {
  if (active_facts()) return false;  // provably_nonnegative_quick has tried it
  static const FactContext no_facts;
  return !d.is_int() && LinearSystem(no_facts).proves_nonnegative(d);
}

inline bool nonnegative_under(const Expr& d, const Assumptions& assume) {
  if (d.is_error()) return false;
  if (interval::nonnegative(bounds_under(d, assume))) return true;
  if (assume.empty()) return provably_nonnegative_quick(d) || nonnegative_by_elimination(d);
  // Shift each symbol with a lower bound L to s' + L (s' >= 0): products such
  // as x*y - x become visibly non-negative (x*y') when y >= 1.
  Substitution shift;
  for (const auto& name : free_symbols(d)) {
    int64_t lb = assume.lower_bound(name);
    if (lb != 0) shift.emplace(name, Expr::symbol(name) + Expr(lb));
  }
  if (shift.empty()) return provably_nonnegative_quick(d);
  return provably_nonnegative_quick(substitute(d, shift));
}

inline bool prove_ge_impl(const Expr& a, const Expr& b, const Assumptions& assume, int budget) {
  if (a.is_error() || b.is_error()) return false;
  if (a == b) return true;
  if (nonnegative_under(a - b, assume)) return true;
  if (budget <= 0) return false;
  // max(x, ...) >= b if any x >= b; a >= min(y, ...) if a >= any y;
  // min(x, ...) >= b if every x >= b; a >= max(y, ...) if a >= every y.
  if (a.kind() == ExprKind::Max)
    for (const auto& x : a.args())
      if (prove_ge_impl(x, b, assume, budget - 1)) return true;
  if (b.kind() == ExprKind::Min)
    for (const auto& y : b.args())
      if (prove_ge_impl(a, y, assume, budget - 1)) return true;
  auto all = [&](const Expr& e, bool left) {
    for (const auto& x : e.args())
      if (!(left ? prove_ge_impl(x, b, assume, budget - 1) : prove_ge_impl(a, x, assume, budget - 1))) return false;
    return true;
  };
  if (a.kind() == ExprKind::Min && all(a, true)) return true;
  if (b.kind() == ExprKind::Max && all(b, false)) return true;
  return false;
}

}  // namespace detail

// a >= b for every binding allowed by `assume` (where both are defined).
inline bool prove_ge(const Expr& a, const Expr& b, const Assumptions& assume = {}) {
  return detail::prove_ge_impl(a, b, assume, 4);
}

// a == b for every binding allowed by `assume`.
inline bool prove_eq(const Expr& a, const Expr& b, const Assumptions& assume = {}) {
  if (a.is_error() || b.is_error()) return false;
  return a == b || (prove_ge(a, b, assume) && prove_ge(b, a, assume));
}

// a != 1 for every binding allowed by `assume`: a >= 2, a <= 0, or every
// coefficient of a is a multiple of some g >= 2 while its constant is not 1
// modulo g (2*((h+31)//32) is even). A broadcast dim that is never 1 is the
// result whatever the other dim is.
inline bool prove_not_one(const Expr& a, const Assumptions& assume = {}) {
  if (a.is_error()) return false;
  if (a.is_int()) return a.as_int() != 1;
  int64_t g = 0;
  const int64_t c =
      detail::for_each_term(a, [&](const Expr&, int64_t coeff) { g = checked::common_divisor(g, coeff); });
  if (g >= 2) {
    const int64_t r = c % g;  // in (-g, g): adding g to a negative one cannot overflow
    if ((r < 0 ? r + g : r) != 1) return true;
  }
  return prove_ge(a, Expr(2), assume) || prove_ge(Expr(0), a, assume);
}

namespace detail {

inline bool contains_extremum(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Max:
    case ExprKind::Min:
      return true;
    case ExprKind::Add:
    case ExprKind::Mul:
      for (const auto& t : e.terms())
        if (contains_extremum(t.first)) return true;
      return false;
    case ExprKind::FloorDiv:
    case ExprKind::Mod:
      return contains_extremum(e.args()[0]) || contains_extremum(e.args()[1]);
    default:
      return false;
  }
}

// Whether every divisor in e is at least 1 by its bounds: e is then defined at
// every binding (builders fold 0*(x%y) to 0, so a comparison at a point does
// not show a divisor that may be 0).
inline bool divisors_positive(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Add:
    case ExprKind::Mul:
      for (const auto& t : e.terms())
        if (!divisors_positive(t.first)) return false;
      return true;
    case ExprKind::FloorDiv:
    case ExprKind::Mod: {
      const Interval d = e.args()[1].bounds();
      return d.has_lo && d.lo >= 1 && divisors_positive(e.args()[0]) && divisors_positive(e.args()[1]);
    }
    case ExprKind::Max:
    case ExprKind::Min:
      for (const auto& a : e.args())
        if (!divisors_positive(a)) return false;
      return true;
    default:
      return true;
  }
}

// At most this many symbols of an expression are split on, each below 1 and
// then below 2: a few substitutions per symbol, however large the expression.
inline constexpr std::size_t kMaxCaseSymbols = 4;
inline constexpr int64_t kMaxCaseSplit = 2;

}  // namespace detail

// e in a shorter form found by taking a symbol's smallest values apart, when
// the builder's bounds alone keep a max or min: min(max(0,2*s-1),
// max(0,2*s-1)//2+1) is s. For s >= k, e equals F(s-k) where F = e[s := s+k]
// is built knowing that s+k >= k (max(0,2*s+1) is 2*s+1), so the candidate
// F[s := s-k] is e there; it is e at s = 0..k-1 too when both give the same
// expression there and the candidate is defined everywhere (every divisor
// >= 1). Symbols are taken >= 0 (the default assumption); under facts
// (expr/facts.hpp) e is returned as it is, since a shifted symbol would take
// the original's facts. e itself when nothing shorter is proven.
inline Expr simplified_by_cases(const Expr& e) {
  if (e.is_int() || e.is_error() || detail::active_facts() || !detail::contains_extremum(e)) return e;
  Expr best = e;
  std::vector<std::string> symbols = free_symbols(e);
  if (symbols.size() > detail::kMaxCaseSymbols) symbols.resize(detail::kMaxCaseSymbols);
  for (const std::string& s : symbols) {
    const Expr symbol = Expr::symbol(s);
    for (int64_t k = 1; k <= detail::kMaxCaseSplit; ++k) {
      const Expr shifted = substitute(best, {{s, symbol + Expr(k)}});
      if (shifted.is_error()) break;
      const Expr candidate = substitute(shifted, {{s, symbol - Expr(k)}});
      if (candidate.is_error() || candidate.size() >= best.size() || !detail::divisors_positive(candidate)) continue;
      bool agrees = true;
      for (int64_t j = 0; j < k && agrees; ++j) {
        const Expr before = substitute(best, {{s, Expr(j)}});
        const Expr after = substitute(candidate, {{s, Expr(j)}});
        agrees = !before.is_error() && !after.is_error() && before == after;
      }
      if (agrees) {
        best = candidate;
        break;
      }
    }
  }
  return best;
}

}  // namespace symshape
