// Proving d >= 0 from linear facts (`past+seq <= 64`) and from what the
// structure of d's terms says of them, by Fourier-Motzkin elimination.
//
// Each non-constant term of d is an atom (a symbol, a product, a floor
// division, ...), treated as an unknown integer. The rows are linear
// inequalities `c + sum(a_i * atom_i) >= 0`:
//   - the facts in force (FactContext::nonnegative);
//   - each atom's interval (a symbol's from the facts, the others' cached);
//   - for q = x//m (m > 0 constant): x - m*q >= 0 and m*q - x + m - 1 >= 0;
//   - for r = x%m with x >= 0: x - r >= 0;
//   - for max(x, ...): max - x >= 0; for min(x, ...): x - min >= 0;
//   - the negated goal -d - 1 >= 0 (d is an integer, so d < 0 is d <= -1).
// If eliminating every atom leaves a row `c >= 0` with c < 0, the rows
// cannot all hold, so d >= 0 wherever the facts hold. Elimination over the
// rationals is sound for integers; dividing a row by the gcd of its
// coefficients and flooring its constant (valid for integer atoms) makes it
// prove a little more. Anything too large (atoms, rows, coefficients) gives up:
// "not proven" is always a sound answer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "symshape/expr/expr.hpp"
#include "symshape/expr/interval.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::detail {

inline constexpr std::size_t kMaxLinearAtoms = 24;
inline constexpr std::size_t kMaxLinearRows = 400;

class LinearSystem {
 public:
  explicit LinearSystem(const FactContext& facts) : facts_(facts) {}

  // Whether d >= 0 follows from the facts and the atoms' structure.
  bool proves_nonnegative(const Expr& d) {
    if (d.is_error()) return false;
    Row goal;
    if (!add_linear(d, -1, goal) || !checked::sub(goal.constant, 1, goal.constant)) return false;
    rows_.push_back(std::move(goal));
    for (const Expr& g : facts_.nonnegative) {
      Row r;
      if (add_linear(g, 1, r)) rows_.push_back(std::move(r));
    }
    // Atoms found while adding rows get their own rows (to a fixed count).
    for (std::size_t i = 0; i < atoms_.size(); ++i)
      if (!add_atom_rows(i)) return false;
    return eliminate();
  }

 private:
  struct Row {
    int64_t constant = 0;
    std::vector<int64_t> coeffs;  // by atom index; shorter means zero
  };
  const FactContext& facts_;
  std::vector<Expr> atoms_;
  std::vector<Row> rows_;

  std::size_t atom_index(const Expr& e) {
    for (std::size_t i = 0; i < atoms_.size(); ++i)
      if (atoms_[i] == e) return i;
    atoms_.push_back(e);
    return atoms_.size() - 1;
  }

  static int64_t coeff(const Row& r, std::size_t i) { return i < r.coeffs.size() ? r.coeffs[i] : 0; }

  // row += sign * e; false when too large.
  bool add_linear(const Expr& e, int64_t sign, Row& row) {
    auto add_term = [&](const Expr& t, int64_t c) {
      if (atoms_.size() >= kMaxLinearAtoms && std::find(atoms_.begin(), atoms_.end(), t) == atoms_.end()) return false;
      const std::size_t i = atom_index(t);
      if (row.coeffs.size() <= i) row.coeffs.resize(i + 1, 0);
      int64_t sc = 0;
      return checked::mul(c, sign, sc) && checked::add(row.coeffs[i], sc, row.coeffs[i]);
    };
    int64_t constant = 0;
    if (e.is_int()) {
      constant = e.as_int();
    } else if (e.kind() == ExprKind::Add) {
      constant = e.add_constant();
      for (const auto& [t, c] : e.terms())
        if (!add_term(t, c)) return false;
    } else if (!add_term(e, 1)) {
      return false;
    }
    int64_t sc = 0;
    return checked::mul(constant, sign, sc) && checked::add(row.constant, sc, row.constant);
  }

  // The row `x - y >= 0` (either side may be an atom index or an expression).
  void add_difference(const Expr& x, const Expr& y, int64_t constant = 0) {
    Row r;
    r.constant = constant;
    if (add_linear(x, 1, r) && add_linear(y, -1, r)) rows_.push_back(std::move(r));
  }

  bool add_atom_rows(std::size_t i) {
    if (rows_.size() > kMaxLinearRows) return false;
    const Expr a = atoms_[i];
    Interval b = a.bounds();
    if (a.is_symbol())
      if (const FactContext::SymbolFact* f = facts_.find(a.name())) b = f->bounds;
    if (b.has_lo) add_difference(a, Expr(b.lo));
    if (b.has_hi) add_difference(Expr(b.hi), a);
    const ExprKind k = a.kind();
    if ((k == ExprKind::FloorDiv || k == ExprKind::Mod) && a.args()[1].is_int() && a.args()[1].as_int() > 0) {
      const Expr& x = a.args()[0];
      const int64_t m = a.args()[1].as_int();
      if (k == ExprKind::FloorDiv) {
        // x - m + 1 <= m*(x//m) <= x
        Row lo, hi;
        if (add_linear(x, 1, lo) && add_linear(a, -m, lo)) rows_.push_back(std::move(lo));
        if (add_linear(a, m, hi) && add_linear(x, -1, hi) && checked::add(hi.constant, m - 1, hi.constant))
          rows_.push_back(std::move(hi));
      } else if (interval::nonnegative(x.bounds())) {
        add_difference(x, a);  // x%m <= x for x >= 0
      }
    } else if (k == ExprKind::Max || k == ExprKind::Min) {
      for (const Expr& arg : a.args()) k == ExprKind::Max ? add_difference(a, arg) : add_difference(arg, a);
    }
    return true;
  }

  // Divides by a common divisor of the coefficients (their gcd), flooring
  // the constant (atoms are integers). False when the row says `c >= 0` with
  // c < 0.
  static bool normalise(Row& r, bool& empty) {
    int64_t g = 0;
    for (int64_t c : r.coeffs) g = checked::common_divisor(g, c);
    empty = g == 0;
    if (empty) return r.constant >= 0;
    if (g > 1) {
      for (int64_t& c : r.coeffs) c /= g;
      int64_t q = 0;
      checked::floordiv(r.constant, g, q);
      r.constant = q;
    }
    return true;
  }

  // True when the rows are infeasible.
  bool eliminate() {
    std::vector<Row> rows;
    for (Row& r : rows_) {
      bool empty = false;
      if (!normalise(r, empty)) return true;
      if (!empty) rows.push_back(std::move(r));
    }
    std::vector<bool> done(atoms_.size(), false);
    for (std::size_t step = 0; step < atoms_.size(); ++step) {
      // The atom whose elimination makes the fewest new rows.
      std::size_t best = atoms_.size(), best_cost = SIZE_MAX;
      for (std::size_t i = 0; i < atoms_.size(); ++i) {
        if (done[i]) continue;
        std::size_t pos = 0, neg = 0;
        for (const Row& r : rows) pos += coeff(r, i) > 0, neg += coeff(r, i) < 0;
        if (pos * neg < best_cost) best = i, best_cost = pos * neg;
      }
      if (best == atoms_.size()) break;
      done[best] = true;
      std::vector<Row> next, pos, neg;
      for (Row& r : rows) {
        const int64_t c = coeff(r, best);
        (c > 0 ? pos : c < 0 ? neg : next).push_back(std::move(r));
      }
      for (const Row& p : pos)
        for (const Row& n : neg) {
          Row r;
          if (!combine(p, n, best, r)) continue;  // too large: dropping a row is sound
          bool empty = false;
          if (!normalise(r, empty)) return true;
          if (!empty) next.push_back(std::move(r));
          if (next.size() > kMaxLinearRows) return false;
        }
      rows = std::move(next);
    }
    return false;
  }

  // |n_i| * p + p_i * n: the combination without atom i.
  static bool combine(const Row& p, const Row& n, std::size_t i, Row& out) {
    int64_t a = 0;
    if (!checked::neg(coeff(n, i), a)) return false;
    const int64_t b = coeff(p, i);
    const std::size_t size = std::max(p.coeffs.size(), n.coeffs.size());
    out.coeffs.assign(size, 0);
    int64_t x = 0, y = 0;
    for (std::size_t j = 0; j < size; ++j) {
      if (!checked::mul(coeff(p, j), a, x) || !checked::mul(coeff(n, j), b, y) || !checked::add(x, y, out.coeffs[j]))
        return false;
    }
    out.coeffs[i] = 0;
    return checked::mul(p.constant, a, x) && checked::mul(n.constant, b, y) && checked::add(x, y, out.constant);
  }
};

SYMSHAPE_RARELY_USED inline bool linear_facts_prove_nonnegative(const FactContext& facts, const Expr& d) {
  return LinearSystem(facts).proves_nonnegative(d);
}

// d >= 0 under the facts in force on this thread (false when there are none).
inline bool facts_prove_nonnegative(const Expr& d) {
  const FactContext* facts = active_facts();
  if (!facts || d.is_error() || d.is_int()) return false;
  return linear_facts_prove_nonnegative(*facts, d);
}

}  // namespace symshape::detail
