// Canonical constructors: every arithmetic operation on Expr returns the
// canonical form, so simplification happens as expressions are built.
//
// Rules (k a positive constant, every symbol assumed >= 0, and divisors
// assumed non-zero wherever a division is defined):
//   like terms collected              a + b - a -> b, 3*x + 2*x -> 5*x
//   multiples leave a floor division  (k*q + r)//k -> q + r//k, coefficients
//                                     and constant reduced into [0, k)
//   common factors cancel             (6*x + 4)//4 -> (3*x + 2)//2, 2*b//b -> 2
//   nested divisions merge            (x//a)//b -> x//(a*b) for constants a, b > 0
//   modulo keeps the remainder only   (c*q + r) % c -> r % c
//   a multiple of a quotient folds    a - k*(a//k) -> a % k, also inside a
//                                     sum and scaled: y + 2*x - 6*(x//3) -> y + 2*(x%3)
//   Max/Min flatten, de-duplicate, fold constants and drop provably dominated
//   arguments: Max(x, 0) -> x, Min(x + 1, x) -> x.
// Never done (each is false for some small values): (a+b)//k -> a//k + b//k,
// x*(y//x) -> y, (a//k)*k -> a.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/expr/expr.hpp"
#include "symshape/expr/interval.hpp"
#include "symshape/expr/linear_facts.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape {

Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
Expr operator*(const Expr& a, const Expr& b);
Expr floordiv(const Expr& n, const Expr& d);
Expr mod(const Expr& n, const Expr& d);
Expr max(const Expr& a, const Expr& b);
Expr min(const Expr& a, const Expr& b);
Expr max_of(std::vector<Expr> args);
Expr min_of(std::vector<Expr> args);
Expr sum_of(const std::vector<Expr>& terms);
// items[0] * items[1] * ..., in O(n log n) for long runs of monomials. The
// same expression as the left fold with `*` unless the expanded product would
// exceed kMaxExpandedTerms terms: then no sum among the items is expanded.
Expr product_of(const std::vector<Expr>& items);
Expr product_of(const Expr* items, std::size_t n);
// ceil(n / d), written as (n + d - 1)//d for a positive divisor and as
// -((-n)//d) otherwise.
Expr ceil_to_int(const Expr& n, const Expr& d);

inline Expr& operator+=(Expr& a, const Expr& b) { return a = a + b; }
inline Expr& operator-=(Expr& a, const Expr& b) { return a = a - b; }
inline Expr& operator*=(Expr& a, const Expr& b) { return a = a * b; }

namespace detail {

using Terms = TermList;

// Products of sums are expanded only while the result stays this small;
// larger ones keep the sums as factors (still correct, less canonical).
inline constexpr std::size_t kMaxExpandedTerms = 256;

// Max/Min with more arguments than this skip the pairwise dominance test.
inline constexpr std::size_t kMaxDominanceArgs = 64;

inline Expr overflow_error() { return Expr::error(kOverflowMessage); }

inline const Expr* first_error(std::initializer_list<const Expr*> exprs) {
  for (const Expr* e : exprs)
    if (e->is_error()) return e;
  return nullptr;
}

// Calls f(term, coefficient) for each term of e seen as a linear form, and
// returns its constant.
template <class F>
int64_t for_each_term(const Expr& e, F&& f) {
  switch (e.kind()) {
    case ExprKind::Integer:
      return e.as_int();
    case ExprKind::Add:
      for (const auto& [t, c] : e.terms()) f(t, c);
      return e.add_constant();
    default:
      f(e, int64_t{1});
      return 0;
  }
}

inline Interval mul_bounds(const Terms& factors) {
  Interval r = Interval::point(1);
  for (const auto& [f, e] : factors) r = interval::multiply(r, interval::power(f.bounds(), e));
  return r;
}

// Adds up equal terms of a long list through a hash table on the cached
// hashes (each term into the first equal one, the others get coefficient 0),
// so that the sort below sees what is left: the long sums that cancel keep
// few terms, and sorting all of them compared equal subtrees node by node.
inline bool merge_equal_terms(Terms& terms) {
  const std::size_t n = terms.size();
  std::size_t size = 16;
  while (size < 2 * n) size *= 2;
  std::vector<uint32_t> slots(size, UINT32_MAX);
  for (std::size_t i = 0; i < n; ++i) {
    const Expr& t = terms[i].first;
    for (std::size_t s = t.hash() & (size - 1);; s = (s + 1) & (size - 1)) {
      if (slots[s] == UINT32_MAX) {
        slots[s] = static_cast<uint32_t>(i);
        break;
      }
      auto& first = terms[slots[s]];
      if (first.first == t) {
        if (!checked::add(first.second, terms[i].second, first.second)) return false;
        terms[i].second = 0;
        break;
      }
    }
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (terms[i].second != 0) {
      if (out != i) terms[out] = std::move(terms[i]);
      ++out;
    }
  terms.resize(out);
  return true;
}

// Sorts terms, adds up equal ones and drops zero coefficients.
inline bool normalise_terms(Terms& terms) {
  if (terms.size() > 16 && terms.size() < UINT32_MAX && !merge_equal_terms(terms)) return false;
  std::sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < terms.size();) {
    Expr t = terms[i].first;
    int64_t c = 0;
    for (; i < terms.size() && terms[i].first == t; ++i)
      if (!checked::add(c, terms[i].second, c)) return false;
    if (c != 0) terms[out++] = {std::move(t), c};
  }
  terms.resize(out);
  return true;
}

inline std::optional<Expr> fold_remainder(int64_t constant, const Terms& terms);

// Divisibility facts (`H%32==0`, expr/facts.hpp) put a modulus in a symbol's
// node. Whether the term coeff*t is known to be a multiple of k > 0: its
// coefficient times the moduli of its symbols is.
inline bool known_multiple(const Expr& t, int64_t coeff, int64_t k) {
  int64_t m = coeff;
  if (t.is_symbol()) {
    if (!checked::mul(m, symbol_multiple(t), m)) return false;
  } else if (t.kind() == ExprKind::Mul) {
    for (const auto& [f, e] : t.terms())
      for (int64_t i = 0; i < e && f.is_symbol() && symbol_multiple(f) > 1; ++i)
        if (!checked::mul(m, symbol_multiple(f), m)) return false;
  }
  return m % k == 0;
}

// Whether every non-constant term of e is known to be a multiple of k.
inline bool terms_known_multiples(const Expr& e, int64_t k) {
  if (e.is_int()) return false;
  if (e.kind() != ExprKind::Add) return known_multiple(e, 1, k);
  for (const auto& [t, c] : e.terms())
    if (!known_multiple(t, c, k)) return false;
  return true;
}

inline std::optional<Expr> fold_exact_quotient(int64_t constant, const Terms& terms);
inline std::optional<Expr> fold_quotient_and_remainder(int64_t constant, const Terms& terms);
inline Expr scale(const Expr& a, int64_t k);
inline std::optional<Expr> fold_max_plus_min(int64_t constant, const Terms& terms);

// Builds the canonical expression of `constant + sum(terms)`; terms must be
// normalised.
inline Expr make_sum(int64_t constant, Terms terms) {
  if (terms.empty()) return constant;
  if (terms.size() == 1 && constant == 0 && terms[0].second == 1) return terms[0].first;
  // One scan for the bounds and the kinds: most sums hold no FloorDiv, Mod or
  // Max term, and then none of the folds below applies.
  bool has_floordiv = false, has_mod = false, has_max = false;
  Interval bounds = Interval::point(constant);
  for (const auto& [t, c] : terms) {
    const ExprKind k = t.kind();
    has_floordiv = has_floordiv || k == ExprKind::FloorDiv;
    has_mod = has_mod || k == ExprKind::Mod;
    has_max = has_max || k == ExprKind::Max;
    bounds = interval::add(bounds, interval::scale(t.bounds(), c));
  }
  if (has_floordiv)
    if (std::optional<Expr> folded = fold_remainder(constant, terms)) return std::move(*folded);
  if (has_mod)
    if (std::optional<Expr> folded = fold_quotient_and_remainder(constant, terms)) return std::move(*folded);
  if (has_max)
    if (std::optional<Expr> folded = fold_max_plus_min(constant, terms)) return std::move(*folded);
  if (has_floordiv && active_facts())
    if (std::optional<Expr> folded = fold_exact_quotient(constant, terms)) return std::move(*folded);
  std::unique_ptr<Node> n(new Node);
  n->kind = ExprKind::Add;
  n->constant = constant;
  n->bounds = bounds;
  n->terms = std::move(terms);
  return NodeFactory::make(std::move(n));
}

// The index of term t in the normalised (sorted) `terms`, or terms.size().
inline std::size_t find_term(const Terms& terms, const Expr& t) {
  auto it = std::lower_bound(terms.begin(), terms.end(), t, [](const auto& p, const Expr& x) { return p.first < x; });
  return it != terms.end() && it->first == t ? static_cast<std::size_t>(it - terms.begin()) : terms.size();
}

// Whether the normalised sum `terms` holds m*a term for term: each term of a,
// scaled by m, has a coefficient in the sum of the same sign and at least its
// magnitude (so taking m*a out of the sum removes or shrinks terms, never adds).
inline bool holds_multiple(const Terms& terms, const Expr& a, int64_t m) {
  bool ok = true;
  for_each_term(a, [&](const Expr& t, int64_t c) {
    int64_t mc = 0;
    if (!ok || !checked::mul(c, m, mc)) {
      ok = false;
      return;
    }
    const std::size_t at = find_term(terms, t);
    ok = at < terms.size() && (terms[at].second > 0) == (mc > 0) &&
         (mc > 0 ? terms[at].second >= mc : terms[at].second <= mc);
  });
  return ok;
}

// The sum without term i and without m*a (every term of m*a is in it:
// holds_multiple), or nothing on overflow.
SYMSHAPE_RARELY_USED inline std::optional<Expr> sum_without(int64_t constant, const Terms& terms, std::size_t i,
                                                            const Expr& a, int64_t m) {
  Terms rest;
  rest.reserve(terms.size());
  for (std::size_t j = 0; j < terms.size(); ++j)
    if (j != i) rest.push_back(terms[j]);
  bool ok = true;
  const int64_t ca = for_each_term(a, [&](const Expr& t, int64_t c) {
    int64_t mc = 0;
    ok = ok && checked::mul(c, m, mc) && checked::neg(mc, mc);
    rest.emplace_back(t, mc);
  });
  int64_t mca = 0;
  ok = ok && checked::mul(ca, m, mca) && checked::sub(constant, mca, constant);
  if (!ok || !normalise_terms(rest)) return std::nullopt;
  return make_sum(constant, std::move(rest));
}

// a - k*(a//k) is a%k for every integer a and k > 0 (floor division and floor
// modulo: a == k*(a//k) + a%k). A sum holding m*a and -m*k*(a//k) becomes
// rest + m*(a%k): `x - 2*(x//2)` -> `x%2`, `y + x - 3*(x//3)` -> `y+x%3`,
// `2*x - 6*(x//3)` -> `2*(x%3)`. A negative divisor needs no case of its own:
// a//(-k) is canonically (-a)//k. Nothing when no floor division matches.
inline std::optional<Expr> fold_remainder(int64_t constant, const Terms& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& q = terms[i].first;
    if (q.kind() != ExprKind::FloorDiv || !q.args()[1].is_int()) continue;
    const int64_t k = q.args()[1].as_int();
    const int64_t e = terms[i].second;
    if (k < 2 || e % k != 0) continue;
    const int64_t m = -(e / k);  // k >= 2: no overflow
    const Expr& a = q.args()[0];
    if (!holds_multiple(terms, a, m)) continue;
    // rest = sum - m*a - e*(a//k): every term of m*a is in the sum.
    const std::optional<Expr> rest = sum_without(constant, terms, i, a, m);
    if (!rest) return std::nullopt;
    return *rest + Expr(m) * mod(a, Expr(k));
  }
  return std::nullopt;
}

// The index of the term `kind(a, k)` of a sum (FloorDiv or Mod), if any.
inline std::optional<std::size_t> find_binary_term(const Terms& terms, ExprKind kind, const Expr& a, int64_t k) {
  for (std::size_t j = 0; j < terms.size(); ++j) {
    const Expr& t = terms[j].first;
    if (t.kind() == kind && t.args()[1].is_int(k) && t.args()[0] == a) return j;
  }
  return std::nullopt;
}

// The other two folds of a == k*(a//k) + a%k (k > 1), beside fold_remainder's
// a - k*(a//k) -> a%k, so that a sum names at most one of a, a//k and a%k
// where two of them would do:
//   e*k*(a//k) + e*(a%k) -> e*a      (`2*(x//2)+x%2` is `x`)
//   e*a - e*(a%k) -> e*k*(a//k)      (`x - x%2` is `2*(x//2)`: the one form
//                                     of a rounded down to a multiple of k)
// They cannot loop with fold_remainder: each fold lowers the number of floor
// division and modulo terms, or keeps it and lowers the sum of the other
// terms' coefficient magnitudes (the terms of e*a are taken out).
SYMSHAPE_RARELY_USED inline std::optional<Expr> fold_quotient_and_remainder(int64_t constant, const Terms& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& r = terms[i].first;
    if (r.kind() != ExprKind::Mod || !r.args()[1].is_int() || r.args()[1].as_int() < 2) continue;
    const int64_t k = r.args()[1].as_int();
    const int64_t e = terms[i].second;
    const Expr& a = r.args()[0];
    int64_t ek = 0;
    if (!checked::mul(e, k, ek)) continue;
    if (const std::optional<std::size_t> j = find_binary_term(terms, ExprKind::FloorDiv, a, k);
        j && terms[*j].second == ek) {
      Terms rest;
      for (std::size_t x = 0; x < terms.size(); ++x)
        if (x != i && x != *j) rest.push_back(terms[x]);
      return make_sum(constant, std::move(rest)) + scale(a, e);
    }
    int64_t minus_e = 0;
    if (!checked::neg(e, minus_e) || !holds_multiple(terms, a, minus_e)) continue;
    int64_t qk = 0;
    if (!checked::neg(ek, qk)) continue;
    if (std::optional<Expr> rest = sum_without(constant, terms, i, a, minus_e))
      return *rest + scale(floordiv(a, Expr(k)), qk);
  }
  return std::nullopt;
}

// c*max(a,b) + c*min(a,b) is c*(a+b): the two arguments, the larger once and
// the smaller once.
SYMSHAPE_RARELY_USED inline std::optional<Expr> fold_max_plus_min(int64_t constant, const Terms& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& x = terms[i].first;
    if (x.kind() != ExprKind::Max || x.args().size() != 2) continue;
    for (std::size_t j = 0; j < terms.size(); ++j) {
      const Expr& y = terms[j].first;
      if (y.kind() != ExprKind::Min || terms[j].second != terms[i].second || y.args() != x.args()) continue;
      Terms rest;
      for (std::size_t t = 0; t < terms.size(); ++t)
        if (t != i && t != j) rest.push_back(terms[t]);
      const int64_t c = terms[i].second;
      return make_sum(constant, std::move(rest)) + scale(x.args()[0] + x.args()[1], c);
    }
  }
  return std::nullopt;
}

// The sorted terms of e seen as a linear form: a sum's own list, or e itself
// (coefficient 1) held in `single`; none for an integer.
inline std::pair<const std::pair<Expr, int64_t>*, std::size_t> linear_terms(const Expr& e,
                                                                            std::pair<Expr, int64_t>& single) {
  if (e.kind() == ExprKind::Add) return {e.terms().data(), e.terms().size()};
  if (e.is_int()) return {nullptr, 0};
  single = {e, 1};
  return {&single, 1};
}

// The normalised terms and the constant of sa*a + sb*b; false on overflow.
// The terms of a and of b are each sorted and distinct (canonical), so they
// are merged in one pass, not sorted again.
inline bool merge_scaled(const Expr& a, int64_t sa, const Expr& b, int64_t sb, int64_t& constant, Terms& terms) {
  std::pair<Expr, int64_t> single_a, single_b;
  const auto [pa, na] = linear_terms(a, single_a);
  const auto [pb, nb] = linear_terms(b, single_b);
  terms.reserve(na + nb);
  bool ok = true;
  std::size_t i = 0, j = 0;
  while (ok && (i < na || j < nb)) {
    const int order = i == na ? 1 : j == nb ? -1 : compare(pa[i].first, pb[j].first);
    int64_t x = 0, y = 0, c = 0;
    if (order <= 0) ok = ok && checked::mul(pa[i].second, sa, x);
    if (order >= 0) ok = ok && checked::mul(pb[j].second, sb, y);
    ok = ok && checked::add(x, y, c);
    if (c != 0) terms.emplace_back(order <= 0 ? pa[i].first : pb[j].first, c);
    if (order <= 0) ++i;
    if (order >= 0) ++j;
  }
  int64_t x = 0, y = 0;
  return ok && checked::mul(a.add_constant(), sa, x) && checked::mul(b.add_constant(), sb, y) &&
         checked::add(x, y, constant);
}

// Linear combination sa*a + sb*b.
inline Expr combine(const Expr& a, int64_t sa, const Expr& b, int64_t sb) {
  if (const Expr* e = first_error({&a, &b})) return *e;
  int64_t constant = 0;
  Terms terms;
  if (!merge_scaled(a, sa, b, sb, constant, terms)) return overflow_error();
  return make_sum(constant, std::move(terms));
}

inline Expr scale(const Expr& a, int64_t k) {
  if (a.is_error()) return a;
  if (k == 1) return a;
  if (a.is_int()) {  // what combine gives, without building a sum
    int64_t product = 0;
    return checked::mul(a.as_int(), k, product) ? Expr(product) : overflow_error();
  }
  return combine(a, k, Expr(0), 0);
}

// e*(a//k) is (e/k)*a when a is known to be a multiple of k and k divides e
// (`32*(H//32)` is `H` when `H%32==0`); the first such term of a sum, or nothing.
SYMSHAPE_RARELY_USED inline std::optional<Expr> fold_exact_quotient(int64_t constant, const Terms& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& q = terms[i].first;
    if (q.kind() != ExprKind::FloorDiv || !q.args()[1].is_int() || q.args()[1].as_int() < 2) continue;
    const int64_t k = q.args()[1].as_int();
    const Expr& a = q.args()[0];
    if (terms[i].second % k != 0 || a.add_constant() != 0 || !terms_known_multiples(a, k)) continue;
    Terms rest(terms);
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
    return make_sum(constant, std::move(rest)) + scale(a, terms[i].second / k);
  }
  return std::nullopt;
}

// The (factor, exponent) list of a monomial term.
inline Terms factors_of(const Expr& term) {
  if (term.kind() == ExprKind::Mul) return term.terms();
  return {{term, 1}};
}

inline bool provably_nonnegative_quick(const Expr& d);

inline Expr extremum(ExprKind kind, Expr* input, std::size_t n);

// Whether m is a Min with 1 among its arguments.
inline bool is_indicator_min(const Expr& m) {
  if (m.kind() != ExprKind::Min) return false;
  const ExprList& args = m.args();
  return std::any_of(args.begin(), args.end(), [](const Expr& a) { return a.is_int(1); });
}

// Whether factor g makes the product 0 wherever x <= 0: g is x itself
// (x >= 0) or max(0, x).
inline bool zero_unless_positive(const Expr& g, const Expr& x) {
  if (g == x) return provably_nonnegative_quick(x);
  if (g.kind() != ExprKind::Max || g.args().size() != 2) return false;
  const ExprList& args = g.args();
  return (args[0].is_int(0) && args[1] == x) || (args[1].is_int(0) && args[0] == x);
}

// The indicator m = min(1, x, ...) without every x for which absorbed(x)
// holds, when that leaves a factor of the same kind (a Min, or 1); nothing
// when no argument goes or the rest would not be one. The 1 itself always
// stays: the rule is min(1, x, ...) == min(1, ...) where x >= 1, so 1*min(1,y)
// is min(1,y), not min(y).
template <class Absorbed>
std::optional<Expr> indicator_without(const Expr& m, Absorbed absorbed) {
  ExprList kept;
  for (const Expr& a : m.args())
    if (a.is_int(1) || !absorbed(a)) kept.push_back(a);
  if (kept.size() == m.args().size()) return std::nullopt;
  Expr rebuilt = extremum(ExprKind::Min, kept.data(), kept.size());
  if (!rebuilt.is_int(1) && rebuilt.kind() != ExprKind::Min) return std::nullopt;
  return rebuilt;
}

// Drops from each factor min(1, x, ...) every x that another factor makes
// redundant: where x <= 0 that factor is 0 (zero_unless_positive), and where
// x >= 1, min(1, x, ...) is min(1, ...). So x*min(1,x) is x, max(0,x)*min(1,x)
// is max(0,x) and seq*min(1,seq,p) is seq*min(1,p). The exact broadcast of two
// dims is max(x,y)*min(1,x,y), which becomes x once x == y is known.
inline void drop_absorbed_indicators(Terms& factors) {
  if (factors.size() < 2 || std::none_of(factors.begin(), factors.end(),
                                         [](const auto& f) { return f.second > 0 && is_indicator_min(f.first); }))
    return;
  auto absorbed = [&factors](const Expr& x) {
    return std::any_of(factors.begin(), factors.end(),
                       [&x](const auto& g) { return g.second > 0 && zero_unless_positive(g.first, x); });
  };
  std::optional<Terms> out;  // copied at the first change
  for (std::size_t i = 0; i < factors.size(); ++i) {
    const auto& [m, power] = factors[i];
    if (power <= 0 || !is_indicator_min(m)) continue;
    std::optional<Expr> rebuilt = indicator_without(m, absorbed);
    if (!rebuilt) continue;
    if (!out) out = factors;
    auto& f = (*out)[i];
    if (rebuilt->is_int(1)) {
      f.second = 0;  // goes away
    } else {
      f.first = std::move(*rebuilt);
    }
  }
  if (!out) return;
  out->erase(std::remove_if(out->begin(), out->end(), [](const auto& f) { return f.second == 0; }), out->end());
  if (normalise_terms(*out)) factors = std::move(*out);
}

inline Expr make_product(Terms factors) {
  drop_absorbed_indicators(factors);
  if (factors.empty()) return 1;
  if (factors.size() == 1 && factors[0].second == 1) return factors[0].first;
  std::unique_ptr<Node> n(new Node);
  n->kind = ExprKind::Mul;
  n->bounds = mul_bounds(factors);
  n->terms = std::move(factors);
  return NodeFactory::make(std::move(n));
}

inline Expr multiply_monomials(const Expr& x, const Expr& y) {
  Terms f = factors_of(x);
  Terms g = factors_of(y);
  f.insert(f.end(), g.begin(), g.end());
  if (!normalise_terms(f)) return overflow_error();
  return make_product(std::move(f));
}

// If monomial m is divisible by monomial d, the quotient; else nothing.
inline std::optional<Expr> divide_monomial(const Expr& m, const Expr& d) {
  Terms mf = factors_of(m);
  for (const auto& factor : factors_of(d)) {
    // Not a structured binding: C++17 lambdas cannot capture those (clang rejects it).
    const Expr& f = factor.first;
    const int64_t e = factor.second;
    auto it = std::find_if(mf.begin(), mf.end(), [&](const auto& p) { return p.first == f; });
    if (it == mf.end() || it->second < e) return std::nullopt;
    it->second -= e;
    if (it->second == 0) mf.erase(it);
  }
  return make_product(std::move(mf));
}

inline Expr make_binary(ExprKind kind, const Expr& n, const Expr& d) {
  std::unique_ptr<Node> node(new Node);
  node->kind = kind;
  const Interval nb = n.bounds();
  if (d.is_int() && d.as_int() > 0) {
    node->bounds = kind == ExprKind::FloorDiv ? interval::floordiv_positive(nb, d.as_int())
                                              : interval::mod_positive(nb, d.as_int());
  } else if (interval::nonnegative(d.bounds())) {
    node->bounds = kind == ExprKind::FloorDiv ? interval::floordiv_by_nonnegative(nb)
                                              : interval::mod_by_nonnegative(nb, d.bounds());
  }
  node->args = {n, d};
  return NodeFactory::make(std::move(node));
}

struct ScaledMonomial {
  int64_t coeff;
  Expr monomial;
};

// e as `coeff * monomial` (no constant), if it is one.
inline std::optional<ScaledMonomial> as_scaled_monomial(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Integer:
    case ExprKind::Error:
      return std::nullopt;
    case ExprKind::Add:
      if (e.add_constant() != 0 || e.terms().size() != 1) return std::nullopt;
      return ScaledMonomial{e.terms()[0].second, e.terms()[0].first};
    default:
      return ScaledMonomial{1, e};
  }
}

struct QuotientRemainder {
  Expr quotient;
  Expr remainder;
};

// Splits n = d*quotient + remainder, moving to the quotient every term that is
// an exact multiple of d (a constant or a scaled monomial); nothing on
// overflow or, for a symbolic d, when no term is a multiple.
inline std::optional<QuotientRemainder> split_multiples(const Expr& n, const Expr& d) {
  Terms q, r;
  bool ok = true;
  int64_t constant = 0;
  Expr quotient;
  if (d.is_int()) {
    const int64_t k = d.as_int();
    // Already reduced (every coefficient and the constant in [0, k)): n is its
    // own remainder, and is not built again.
    bool reduced = k > 0;
    const int64_t nc =
        for_each_term(n, [&](const Expr&, int64_t coeff) { reduced = reduced && coeff >= 0 && coeff < k; });
    if (reduced && nc >= 0 && nc < k) return QuotientRemainder{Expr(0), n};
    int64_t qc = 0;
    int64_t c = for_each_term(n, [&](const Expr& t, int64_t coeff) {
      int64_t qq = 0, rr = 0;
      ok = ok && checked::floordiv(coeff, k, qq) && checked::mod(coeff, k, rr);
      if (qq != 0) q.emplace_back(t, qq);
      if (rr != 0) r.emplace_back(t, rr);
    });
    ok = ok && checked::floordiv(c, k, qc) && checked::mod(c, k, constant);
    if (!ok) return std::nullopt;
    quotient = make_sum(qc, std::move(q));
  } else {
    const std::optional<ScaledMonomial> sd = as_scaled_monomial(d);
    if (!sd || sd->coeff <= 0) return std::nullopt;
    const int64_t dc = sd->coeff;
    int64_t qc = 0;
    constant = for_each_term(n, [&](const Expr& t, int64_t coeff) {
      std::optional<Expr> qm = coeff % dc == 0 ? divide_monomial(t, sd->monomial) : std::nullopt;
      if (qm) {
        if (qm->is_int()) {
          ok = ok && checked::add(qc, coeff / dc, qc);  // t is d's monomial
        } else {
          q.emplace_back(std::move(*qm), coeff / dc);
        }
      } else {
        r.emplace_back(t, coeff);
      }
    });
    if (!ok || (q.empty() && qc == 0)) return std::nullopt;
    if (!normalise_terms(q)) return std::nullopt;
    quotient = make_sum(qc, std::move(q));
  }
  return QuotientRemainder{std::move(quotient), make_sum(constant, std::move(r))};
}

// split_multiples by a constant k > 0 until the remainder is reduced (every
// coefficient and the constant in [0, k)): building the remainder may fold
// its terms into ones that are not, as max(a,3) + min(a,3) becomes a + 3,
// and (a + 3)//2 would not be canonical. Each round takes the multiples out.
inline std::optional<QuotientRemainder> split_remainder(const Expr& n, int64_t k) {
  const Expr d(k);
  std::optional<QuotientRemainder> qr = split_multiples(n, d);
  for (int round = 0; qr && round < 4; ++round) {
    std::optional<QuotientRemainder> again = split_multiples(qr->remainder, d);
    if (!again) return std::nullopt;
    if (again->quotient.is_int(0)) return qr;
    qr->quotient = qr->quotient + again->quotient;
    if (qr->quotient.is_error()) return std::nullopt;
    qr->remainder = std::move(again->remainder);
  }
  return qr;
}

// (x//m + b)//k is (x + b*m)//(m*k) for constants m, k > 0 and an integer b:
// floor((floor(x/m) + b)/k) = floor(floor((x + b*m)/m)/k) = floor((x + b*m)/(m*k)).
// So a chain of stride-2 convolutions, ((((H+1)//2+1)//2+1)//2, is (H+7)//8.
// r is the reduced numerator; the rewrite applies when it is x//m itself or
// a sum with one such term of coefficient 1 and no other floor division (so
// each step takes one division away). Nothing when it does not apply.
inline std::optional<Expr> merge_nested_floordiv(const Expr& r, int64_t k) {
  auto is_floor_by_constant = [](const Expr& t) {
    return t.kind() == ExprKind::FloorDiv && t.args()[1].is_int() && t.args()[1].as_int() > 0;
  };
  const Expr* inner = nullptr;
  if (is_floor_by_constant(r)) {
    inner = &r;
  } else if (r.kind() == ExprKind::Add) {
    for (const auto& [t, c] : r.terms()) {
      if (t.kind() != ExprKind::FloorDiv) continue;
      if (inner || c != 1 || !is_floor_by_constant(t)) return std::nullopt;
      inner = &t;
    }
  }
  if (!inner) return std::nullopt;
  const int64_t m = inner->args()[1].as_int();
  int64_t mk = 0;
  if (!checked::mul(m, k, mk)) return std::nullopt;
  // The numerator x + m*(r - x//m), in one merge: x + m*r holds m*(x//m)
  // (x cannot hold x//m), which is then taken out.
  int64_t constant = 0;
  Terms terms;
  if (!merge_scaled(inner->args()[0], 1, r, m, constant, terms)) return std::nullopt;
  const std::size_t at = find_term(terms, *inner);
  if (at == terms.size() || terms[at].second != m) return std::nullopt;
  terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(at));
  const Expr numerator = make_sum(constant, std::move(terms));
  if (numerator.is_error()) return std::nullopt;
  return floordiv(numerator, Expr(mk));
}

// For a reduced numerator a of a % k (every coefficient and the constant in
// [0, k)), the reduced b with b == -a modulo k: each coefficient c becomes
// k - c. Nothing when a is not reduced.
inline std::optional<Expr> negated_residue(const Expr& a, int64_t k) {
  Terms terms;
  bool reduced = true;
  const int64_t c = for_each_term(a, [&](const Expr& t, int64_t coeff) {
    reduced = reduced && coeff > 0 && coeff < k;
    terms.emplace_back(t, k - coeff);
  });
  if (!reduced || c < 0 || c >= k) return std::nullopt;
  return make_sum((k - c) % k, std::move(terms));
}

// rest//k when rest is k*q plus a constant (split_multiples leaves it in
// [0, k)): q. Nothing when rest has a term that is not a multiple of k.
inline std::optional<Expr> quotient_of_multiple(const Expr& rest, int64_t k) {
  std::optional<QuotientRemainder> qr = split_multiples(rest, Expr(k));
  if (!qr || !qr->remainder.is_int() || qr->quotient.is_error()) return std::nullopt;
  return std::move(qr->quotient);
}

// A numerator holding a%m and a (times alpha) may divide exactly once a is
// written m*(a//m) + a%m: `(H + (H+1)%2 + 1)//2` is `(2*((H+1)//2) +
// 2*((H+1)%2))//2`, that is `(H+1)//2 + (H+1)%2` (the EfficientNet "SAME"
// padding). Tried for alpha in [1, k) with k | alpha*m and k | gamma+alpha
// (gamma the coefficient of a%m); kept only when the division is then exact.
SYMSHAPE_RARELY_USED inline std::optional<Expr> exact_through_remainder(const Expr& r, int64_t k) {
  if (r.kind() != ExprKind::Add) return std::nullopt;
  const Terms& terms = r.terms();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& rem = terms[i].first;
    if (rem.kind() != ExprKind::Mod || !rem.args()[1].is_int() || rem.args()[1].as_int() < 2) continue;
    const Expr& a = rem.args()[0];
    const int64_t m = rem.args()[1].as_int(), gamma = terms[i].second;
    for (int64_t alpha = 1; alpha < k && alpha <= 64; ++alpha) {
      int64_t am = 0, ga = 0;
      if (!checked::mul(alpha, m, am) || am % k != 0 || !checked::add(gamma, alpha, ga) || ga % k != 0) continue;
      if (!holds_multiple(terms, a, alpha)) continue;
      // r = rest + alpha*a + gamma*(a%m) = rest + am*(a//m) + (gamma+alpha)*(a%m),
      // the last two multiples of k: exact when rest is (not built as one sum,
      // which would fold back into r).
      const std::optional<Expr> q = quotient_of_multiple(r - scale(a, alpha) - scale(rem, gamma), k);
      if (!q) continue;
      return *q + scale(floordiv(a, Expr(m)), am / k) + scale(rem, ga / k);
    }
    // With b == -a modulo m, b + a%m is m*((b+m-1)//m), b rounded up to a
    // multiple of m: `(h + 3*h%4)//4` is `(h+3)//4` (3*h%4 is the pad of h to
    // a multiple of 4: the windows of the padded h). Tried when k | gamma*m.
    int64_t gm = 0;
    if (!checked::mul(gamma, m, gm) || gm % k != 0) continue;
    const std::optional<Expr> b = negated_residue(a, m);
    if (!b || !holds_multiple(terms, *b, gamma)) continue;
    const std::optional<Expr> q = quotient_of_multiple(r - scale(*b, gamma) - scale(rem, gamma), k);
    if (!q) continue;
    return *q + scale(floordiv(*b + Expr(m - 1), Expr(m)), gm / k);
  }
  return std::nullopt;
}

// A common divisor of all coefficients and the constant of e, and of k (their
// gcd unless all of them are 0 or INT64_MIN).
inline int64_t content_gcd(const Expr& e, int64_t k) {
  int64_t g = k;
  int64_t c = for_each_term(e, [&](const Expr&, int64_t coeff) {
    if (g != 1) g = checked::common_divisor(g, coeff);
  });
  return g == 1 ? 1 : checked::common_divisor(g, c);
}

inline Expr divide_exactly(const Expr& e, int64_t g) {
  Terms t;
  int64_t c = for_each_term(e, [&](const Expr& term, int64_t coeff) { t.emplace_back(term, coeff / g); });
  return make_sum(c / g, std::move(t));
}

// Whether e's leading coefficient is negative (to normalise divisor signs).
inline bool leading_negative(const Expr& e) {
  if (e.is_int()) return e.as_int() < 0;
  if (e.kind() == ExprKind::Add) return e.terms().empty() ? e.add_constant() < 0 : e.terms()[0].second < 0;
  return false;
}

// A sum that is not just c * monomial: multiplying by it spreads over its terms.
inline bool is_sum(const Expr& e) {
  return e.kind() == ExprKind::Add && (e.terms().size() > 1 || e.add_constant() != 0);
}

// How many terms a product with e may spread into: terms + 1 for a sum, and
// for an integer or a (scaled) monomial the product of that over the sums it
// keeps as unexpanded factors (1 when there are none). Saturates above
// kMaxExpandedTerms.
inline std::size_t expansion_size(const Expr& e) {
  if (is_sum(e)) return e.terms().size() + 1;
  const Expr& m = e.kind() == ExprKind::Add ? e.terms()[0].first : e;
  std::size_t size = 1;
  if (m.kind() != ExprKind::Mul) return size;
  for (const auto& [f, x] : m.terms())
    for (int64_t i = 0; f.kind() == ExprKind::Add && i < x && size <= kMaxExpandedTerms; ++i)
      size *= f.terms().size() + 1;
  return size;
}

// Products that involve a sum are expanded only when the product of the
// operands' expansion sizes stays within kMaxExpandedTerms. The decision is
// taken on all operands at once (product_of) so that it does not depend on
// the order of multiplication: a Mul that keeps sums as factors then prints
// as a product whose parse takes the same decision, whatever the factor order.
inline bool keeps_factors(const Expr* const* items, std::size_t n) {
  std::size_t total = 1;
  bool any_sum = false;
  for (std::size_t i = 0; i < n; ++i) {
    any_sum = any_sum || is_sum(*items[i]);
    total *= expansion_size(*items[i]);
    if (total > kMaxExpandedTerms) total = kMaxExpandedTerms + 1;
  }
  return any_sum && total > kMaxExpandedTerms;
}

// The product of operands too large to expand, as scalar * Mul{factors}.
// Each operand gives up its content (the gcd of its coefficients and constant,
// signed so that its leading coefficient turns positive) and a monomial
// operand is flattened into its factors, so that -(A*B), (-A)*B, A*(-B) and
// (3*x)*B, 3*(x*B) each share one form. Keeping Mul{-A, B} as built made
// `-(A)*(B)` print and parse back as a different expression.
inline Expr unexpanded_product(const Expr* const* items, std::size_t n) {
  int64_t scalar = 1;
  Terms factors;
  for (std::size_t i = 0; i < n; ++i) {
    const Expr& x = *items[i];
    if (x.is_error()) return x;
    if (x.is_int()) {
      if (!checked::mul(scalar, x.as_int(), scalar)) return overflow_error();
      continue;
    }
    int64_t g = content_gcd(x, 0);
    if (leading_negative(x)) g = -g;
    Terms t;
    bool ok = checked::mul(scalar, g, scalar);
    // g divides every coefficient: floordiv is exact, and checked for INT64_MIN / -1.
    int64_t c = for_each_term(x, [&](const Expr& term, int64_t coeff) {
      int64_t q = 0;
      ok = ok && checked::floordiv(coeff, g, q);
      t.emplace_back(term, q);
    });
    ok = ok && checked::floordiv(c, g, c);
    if (!ok) return overflow_error();
    Terms f = factors_of(make_sum(c, std::move(t)));
    factors.insert(factors.end(), f.begin(), f.end());
  }
  if (scalar == 0) return 0;
  if (!normalise_terms(factors)) return overflow_error();
  return scale(make_product(std::move(factors)), scalar);
}

// provably_nonnegative_quick(a - b) without building a - b, when a and b are
// distinct single terms that are no sum, Max or Min: a - b is then the sum of
// the two terms, whose bounds make_sum computes (in the sum's term order),
// and its Max/Min cases cannot apply. Nothing in every other case.
inline std::optional<bool> nonnegative_difference_of_atoms(const Expr& a, const Expr& b) {
  auto atom = [](const Expr& e) {
    const ExprKind k = e.kind();
    return k == ExprKind::Symbol || k == ExprKind::Mul || k == ExprKind::FloorDiv || k == ExprKind::Mod;
  };
  if (!atom(a) || !atom(b) || a == b) return std::nullopt;
  const Interval ia = interval::scale(a.bounds(), 1), ib = interval::scale(b.bounds(), -1);
  const Interval d = a < b ? interval::add(interval::add(Interval::point(0), ia), ib)
                           : interval::add(interval::add(Interval::point(0), ib), ia);
  return interval::nonnegative(d);
}

// Whether a + s*b (a's term `skip` left out, if any) is provably >= 0 by the
// bounds of its terms, read as the sorted terms of a and b are merged: the
// sum is not built. Nothing when it has to be: facts are in force, or a term
// is one that a fold of make_sum may rewrite (Mod, Max, a floor division whose
// coefficient is a multiple of its divisor) or that gives
// provably_nonnegative_quick its structural case (Max, Min).
inline std::optional<bool> combination_bounded_below_by_zero(const Expr& a, const Expr& b, int64_t s,
                                                             std::size_t skip = SIZE_MAX) {
  if (active_facts()) return std::nullopt;
  std::pair<Expr, int64_t> single_a, single_b;
  const auto [pa, na] = linear_terms(a, single_a);
  const auto [pb, nb] = linear_terms(b, single_b);
  int64_t lo = 0;
  bool bounded = checked::mul(b.add_constant(), s, lo) && checked::add(lo, a.add_constant(), lo);
  for (std::size_t i = 0, j = 0; i < na || j < nb;) {
    if (i == skip) {
      ++i;
      continue;
    }
    const int order = i == na ? 1 : j == nb ? -1 : compare(pa[i].first, pb[j].first);
    const Expr& t = order <= 0 ? pa[i].first : pb[j].first;
    int64_t c = order <= 0 ? pa[i].second : 0, sc = 0;
    if (order >= 0 && !(checked::mul(pb[j].second, s, sc) && checked::add(c, sc, c))) return std::nullopt;
    if (order <= 0) ++i;
    if (order >= 0) ++j;
    if (c == 0) continue;
    const ExprKind k = t.kind();
    if (k == ExprKind::Mod || k == ExprKind::Max || k == ExprKind::Min) return std::nullopt;
    if (k == ExprKind::FloorDiv && t.args()[1].is_int() && t.args()[1].as_int() > 1 && c % t.args()[1].as_int() == 0)
      return std::nullopt;
    if (!bounded) continue;
    const Interval tb = t.bounds();
    int64_t part = 0;
    bounded = (c > 0 ? tb.has_lo && checked::mul(tb.lo, c, part) : tb.has_hi && checked::mul(tb.hi, c, part)) &&
              checked::add(lo, part, lo);
  }
  return bounded && lo >= 0;
}

// Drops each argument that another remaining one provably dominates. The
// test is quadratic (a 3000-argument a1^a2^... took 3 s), so long argument
// lists keep all their arguments: still sound, and as stable when printed
// and parsed again, since the same list makes the same choice.
inline void drop_dominated(bool is_max, ExprList& args) {
  const bool test_dominance = args.size() <= kMaxDominanceArgs;
  for (std::size_t i = 0; test_dominance && i < args.size() && args.size() > 1;) {
    bool dominated = false;
    for (std::size_t j = 0; j < args.size() && !dominated; ++j) {
      if (j == i) continue;
      const Expr& hi = is_max ? args[j] : args[i];
      const Expr& lo = is_max ? args[i] : args[j];
      if (std::optional<bool> quick = nonnegative_difference_of_atoms(hi, lo)) {
        dominated = *quick;
        continue;
      }
      // Most differences need not be built: their terms' bounds decide.
      if (std::optional<bool> unbuilt = combination_bounded_below_by_zero(hi, lo, -1)) {
        dominated = *unbuilt;
        continue;
      }
      dominated = provably_nonnegative_quick(hi - lo);
    }
    if (dominated) {
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

// Max and Min commute with adding the same thing to every argument and with
// scaling every argument by the same positive factor, so a common part comes
// out: max(m+1, n+1) is max(m,n)+1 (as max(m,n)+1 is built), max(2*a, 2*b)
// is 2*max(a,b), min(x+3, y+5) is min(x, y+2)+3. Common terms are those in
// every argument with the same coefficient; the common constant is the
// smallest constant when no argument is an integer (max(0, x+1) keeps its
// 0); the factor is the gcd of every coefficient and constant, when no
// argument is an integer (max(4,6*a) reads better as it is). Nothing when
// there is no common part (or on overflow).
inline std::optional<Expr> factor_common_part(ExprKind kind, const ExprList& args) {
  // An integer argument has no term, and then neither constant nor factor moves.
  for (const Expr& a : args)
    if (a.is_int()) return std::nullopt;
  // Whether the linear form e holds the term c*t.
  auto holds_term = [](const Expr& e, const Expr& t, int64_t c) {
    if (e.kind() != ExprKind::Add) return c == 1 && e == t;
    const Terms& terms = e.terms();
    const std::size_t at = find_term(terms, t);
    return at < terms.size() && terms[at].second == c;
  };
  Terms common;
  for_each_term(args[0], [&](const Expr& t, int64_t c) {
    bool everywhere = true;
    for (std::size_t j = 1; j < args.size() && everywhere; ++j) everywhere = holds_term(args[j], t, c);
    if (everywhere) common.emplace_back(t, c);
  });
  int64_t constant = INT64_MAX;
  for (const Expr& a : args) constant = std::min(constant, a.add_constant());
  if (common.empty() && constant == 0) {
    // The usual case, nothing to shift: look for a common factor without
    // building anything, stopping at the first coefficient it does not divide.
    int64_t g = 0;
    for (std::size_t i = 0; i < args.size() && g != 1; ++i) g = content_gcd(args[i], g);
    if (g <= 1) return std::nullopt;
  }
  Expr shift = make_sum(constant, Terms(common));
  if (shift.is_error()) return std::nullopt;
  std::vector<Expr> reduced;
  reduced.reserve(args.size());
  int64_t g = 0;
  for (const Expr& a : args) {
    reduced.push_back(shift.is_int(0) ? a : a - shift);
    // extremum takes an argument INT64_MAX for the largest int64 (a Max of it
    // is it, a Min drops it), but the other arguments, shifted by the part
    // moved out, may not be int64 values any more: nothing moves then
    // (max(b, b + y + max(c - 9223372036854775807, -b)) became b). The
    // shifted constants are >= 0, so no argument becomes INT64_MIN.
    if (reduced.back().is_error() || reduced.back().is_int(INT64_MAX)) return std::nullopt;
    g = content_gcd(reduced.back(), g);
  }
  if (g <= 1 && shift.is_int(0)) return std::nullopt;
  if (g > 1)
    for (Expr& r : reduced) r = divide_exactly(r, g);
  return shift + extremum(kind, reduced.data(), reduced.size()) * Expr(g > 1 ? g : 1);
}

// The Max/Min node of at least two canonical arguments.
inline Expr make_extremum(ExprKind kind, ExprList args) {
  const bool is_max = kind == ExprKind::Max;
  std::unique_ptr<Node> n(new Node);
  n->kind = kind;
  n->bounds = args[0].bounds();
  for (std::size_t i = 1; i < args.size(); ++i)
    n->bounds = is_max ? interval::max(n->bounds, args[i].bounds()) : interval::min(n->bounds, args[i].bounds());
  n->args = std::move(args);
  return NodeFactory::make(std::move(n));
}

// Max or Min (kind) of the n operands at input (which it may move from):
// flattened, constants folded into one, sorted, de-duplicated, dominated
// arguments dropped.
inline Expr extremum(ExprKind kind, Expr* input, std::size_t n) {
  const bool is_max = kind == ExprKind::Max;
  ExprList args;
  args.reserve(n);
  bool has_constant = false;
  int64_t constant = 0;
  auto fold = [&](int64_t v) {
    constant = !has_constant ? v : is_max ? std::max(constant, v) : std::min(constant, v);
    has_constant = true;
  };
  for (std::size_t k = 0; k < n; ++k) {
    Expr& a = input[k];
    if (a.is_error()) return a;
    if (a.is_int()) {
      fold(a.as_int());
    } else if (a.kind() == kind) {
      // Flattened arguments are folded too: the constant of a nested
      // min(y, -9223372036854775807-1) must meet the outer constants, or the
      // result holds two integers and changes when printed and parsed again.
      for (const Expr& inner : a.args()) {
        if (inner.is_int()) {
          fold(inner.as_int());
        } else {
          args.push_back(inner);
        }
      }
    } else {
      args.push_back(std::move(a));
    }
  }
  // Every int64 value is >= INT64_MIN and <= INT64_MAX: a Max holding
  // INT64_MAX (a Min holding INT64_MIN) is that constant, whose difference with
  // the other arguments would overflow in the dominance test below.
  if (has_constant && constant == (is_max ? INT64_MAX : INT64_MIN)) return constant;
  // Every int64 value is <= INT64_MAX: the Slice "to the end" sentinel never wins a Min.
  const int64_t neutral = is_max ? INT64_MIN : INT64_MAX;
  if (has_constant && !(constant == neutral && !args.empty())) args.emplace_back(constant);
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  drop_dominated(is_max, args);
  if (args.empty()) return 0;  // unreachable: input is never empty
  if (args.size() == 1) return args[0];
  if (std::optional<Expr> factored = factor_common_part(kind, args)) return std::move(*factored);
  return make_extremum(kind, std::move(args));
}

// Whether d with its term i (c*max(...) or c*min(...), c = +-1) replaced by
// c*arg is provably >= 0 by its bounds; built only when
// combination_bounded_below_by_zero cannot tell from the terms.
inline bool rest_with_argument_nonnegative(const Expr& d, std::size_t i, const Expr& arg) {
  const Terms& terms = d.terms();
  const int64_t c = terms[i].second;
  if (std::optional<bool> unbuilt = combination_bounded_below_by_zero(d, arg, c, i)) return *unbuilt;
  // d + c*arg holds term i unchanged (arg, an argument of it, cannot hold
  // it), which is then taken out.
  int64_t constant = 0;
  Terms rest;
  if (!merge_scaled(d, 1, arg, c, constant, rest)) return false;
  const std::size_t at = find_term(rest, terms[i].first);
  if (at == rest.size() || rest[at].second != c) return false;
  rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(at));
  return interval::nonnegative(make_sum(constant, std::move(rest)).bounds());
}

// d >= 0 under the default assumptions, from cached bounds and the structure
// of Max/Min (Max(a, ...) - a >= 0).
inline bool provably_nonnegative_quick(const Expr& d) {
  if (d.is_error()) return false;
  if (interval::nonnegative(d.bounds())) return true;
  // max(..., t, ...) - t + rest >= 0 when rest >= 0 (and the mirror for -min).
  if (d.kind() != ExprKind::Add) return facts_prove_nonnegative(d);
  const Terms& terms = d.terms();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto& [t, c] = terms[i];
    if (!(c == 1 && t.kind() == ExprKind::Max) && !(c == -1 && t.kind() == ExprKind::Min)) continue;
    for (const auto& arg : t.args()) {
      if (rest_with_argument_nonnegative(d, i, arg)) return true;
    }
  }
  return facts_prove_nonnegative(d);
}

}  // namespace detail

inline Expr operator+(const Expr& a, const Expr& b) {
  if (a.is_int() && b.is_int()) {
    int64_t r = 0;
    return checked::add(a.as_int(), b.as_int(), r) ? Expr(r) : detail::overflow_error();
  }
  if (a.is_int(0)) return b;
  if (b.is_int(0)) return a;
  return detail::combine(a, 1, b, 1);
}

inline Expr operator-(const Expr& a, const Expr& b) {
  if (a.is_int() && b.is_int()) {
    int64_t r = 0;
    return checked::sub(a.as_int(), b.as_int(), r) ? Expr(r) : detail::overflow_error();
  }
  if (b.is_int(0)) return a;
  return detail::combine(a, 1, b, -1);
}

inline Expr operator-(const Expr& a) { return Expr(0) - a; }

inline Expr sum_of(const std::vector<Expr>& items) {
  detail::Terms terms;
  int64_t constant = 0;
  bool ok = true;
  for (const Expr& e : items) {
    if (e.is_error()) return e;
    int64_t c = detail::for_each_term(e, [&](const Expr& t, int64_t coeff) { terms.emplace_back(t, coeff); });
    ok = ok && checked::add(constant, c, constant);
  }
  if (!ok || !detail::normalise_terms(terms)) return detail::overflow_error();
  return detail::make_sum(constant, std::move(terms));
}

namespace detail {

// g * min(1, x, ...) as a whole, before a sum g would be expanded: the rule of
// drop_absorbed_indicators (for the factors of one monomial) with g as the
// other factor, so (p+s)*min(1,p+s) is p+s and (p+s)*min(1,p+s,q) is
// (p+s)*min(1,q).
inline std::optional<Expr> absorbed_indicator(const Expr& a, const Expr& b) {
  if (a.kind() != ExprKind::Min && b.kind() != ExprKind::Min) return std::nullopt;  // most products: no list below
  for (const auto& [g, m] : {std::pair<const Expr*, const Expr*>{&a, &b}, {&b, &a}}) {
    if (!is_indicator_min(*m)) continue;
    std::optional<Expr> rest = indicator_without(*m, [g = g](const Expr& x) { return zero_unless_positive(*g, x); });
    if (rest) return rest->is_int(1) ? *g : *g * *rest;
  }
  return std::nullopt;
}

}  // namespace detail

inline Expr operator*(const Expr& a, const Expr& b) {
  if (const Expr* e = detail::first_error({&a, &b})) return *e;
  if (std::optional<Expr> x = detail::absorbed_indicator(a, b)) return std::move(*x);
  if (a.is_int() && b.is_int()) {
    int64_t r = 0;
    return checked::mul(a.as_int(), b.as_int(), r) ? Expr(r) : detail::overflow_error();
  }
  if (a.is_int()) return a.as_int() == 0 ? Expr(0) : detail::scale(b, a.as_int());
  if (b.is_int()) return b.as_int() == 0 ? Expr(0) : detail::scale(a, b.as_int());
  const Expr* operands[] = {&a, &b};
  if (detail::keeps_factors(operands, 2)) return detail::unexpanded_product(operands, 2);
  const std::size_t na = a.kind() == ExprKind::Add ? a.terms().size() + 1 : 1;
  const std::size_t nb = b.kind() == ExprKind::Add ? b.terms().size() + 1 : 1;
  // Expand (ca + sum a_i) * (cb + sum b_j).
  detail::Terms ta, tb;
  int64_t ca = detail::for_each_term(a, [&](const Expr& t, int64_t c) { ta.emplace_back(t, c); });
  int64_t cb = detail::for_each_term(b, [&](const Expr& t, int64_t c) { tb.emplace_back(t, c); });
  detail::Terms out;
  out.reserve(na * nb);
  bool ok = true;
  int64_t constant = 0;
  ok = checked::mul(ca, cb, constant);
  for (const auto& [x, cx] : ta) {
    int64_t c = 0;
    if (cb != 0) {
      ok = ok && checked::mul(cx, cb, c);
      out.emplace_back(x, c);
    }
    for (const auto& [y, cy] : tb) {
      Expr m = detail::multiply_monomials(x, y);
      if (m.is_error()) return m;
      ok = ok && checked::mul(cx, cy, c);
      out.emplace_back(std::move(m), c);
    }
  }
  if (ca != 0) {
    for (const auto& [y, cy] : tb) {
      int64_t c = 0;
      ok = ok && checked::mul(ca, cy, c);
      out.emplace_back(y, c);
    }
  }
  if (!ok || !detail::normalise_terms(out)) return detail::overflow_error();
  return detail::make_sum(constant, std::move(out));
}

namespace detail {

// Multiplying monomials one at a time copies and sorts the growing factor
// list at every step: a1*a2*...*a10000 took 20 s to parse. While the running
// product is c * monomial (or an integer), the operands' factors are gathered
// and normalised once; an operand that is a sum goes through operator*.
// Whether sums are expanded is decided on all operands together (see
// keeps_factors), so the result does not depend on the operands' order.
// This is product_of on the n operands at items (the parser's runs are ExprLists).
inline Expr product_of_items(const Expr* items, std::size_t n) {
  // Pointers to the operands: on the stack for short runs (most of them).
  const Expr* small[8] = {};
  std::vector<const Expr*> large;
  if (n > 8) large.resize(n);
  const Expr** operands = n > 8 ? large.data() : small;
  bool all_integers = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (items[i].is_error()) return items[i];
    operands[i] = &items[i];
    all_integers = all_integers && items[i].is_int();
  }
  if (all_integers) {  // what the fold below gives for them, without its lists
    int64_t scalar = 1;
    for (std::size_t i = 0; i < n; ++i)
      if (!checked::mul(scalar, items[i].as_int(), scalar)) return detail::overflow_error();
    return scalar;
  }
  if (n == 2)
    if (std::optional<Expr> x = detail::absorbed_indicator(items[0], items[1])) return std::move(*x);
  if (detail::keeps_factors(operands, n)) return detail::unexpanded_product(operands, n);
  // Otherwise no step of the fold below reaches the limit, so operator*
  // expands at every step, as the left fold does.
  Expr acc = 1;
  int64_t scalar = 1;
  detail::Terms factors;
  bool pending = true;  // acc == scalar * product(factors), not yet built
  auto build = [&]() -> Expr {
    if (scalar == 0) return 0;
    if (!detail::normalise_terms(factors)) return detail::overflow_error();
    return detail::scale(detail::make_product(std::move(factors)), scalar);
  };
  for (std::size_t k = 0; k < n; ++k) {
    const Expr& x = items[k];
    if (pending) {
      if (x.is_int()) {
        if (!checked::mul(scalar, x.as_int(), scalar)) return detail::overflow_error();
        continue;
      }
      if (x.kind() != ExprKind::Add && !x.is_error()) {
        if (x.kind() == ExprKind::Mul) {
          factors.insert(factors.end(), x.terms().begin(), x.terms().end());
        } else {
          factors.emplace_back(x, 1);
        }
        continue;
      }
      acc = build();
      factors.clear();
      pending = false;
    }
    acc = acc * x;
    if (acc.is_error()) return acc;
    if (acc.is_int()) {
      scalar = acc.as_int();
      pending = true;
    } else if (const std::optional<detail::ScaledMonomial> sm = detail::as_scaled_monomial(acc)) {
      scalar = sm->coeff;
      factors = detail::factors_of(sm->monomial);
      pending = true;
    }
  }
  return pending ? build() : acc;
}

}  // namespace detail

inline Expr product_of(const Expr* items, std::size_t n) { return detail::product_of_items(items, n); }
inline Expr product_of(const std::vector<Expr>& items) { return detail::product_of_items(items.data(), items.size()); }

inline Expr floordiv(const Expr& n, const Expr& d) {
  if (const Expr* e = detail::first_error({&n, &d})) return *e;
  if (d.is_int()) {
    int64_t k = d.as_int();
    if (k == 1) return n;
    if (n.is_int()) {
      int64_t r = 0;
      if (checked::floordiv(n.as_int(), k, r)) return r;
      return k == 0 ? detail::make_binary(ExprKind::FloorDiv, n, d) : detail::overflow_error();
    }
    if (k == 0) return detail::make_binary(ExprKind::FloorDiv, n, d);
    if (k < 0) {
      // floor(n / k) == floor(-n / -k)
      if (k == INT64_MIN) return detail::make_binary(ExprKind::FloorDiv, n, d);
      return floordiv(-n, Expr(-k));
    }
    std::optional<detail::QuotientRemainder> qr = detail::split_remainder(n, k);
    if (!qr) return detail::overflow_error();
    Expr q = std::move(qr->quotient);
    Expr r = std::move(qr->remainder);
    if (r.is_int()) return q;  // remainder constant in [0, k): contributes 0
    // (M + c)//k is M//k when M is known to be a multiple of k (0 <= c < k).
    if (detail::active_facts() && r.add_constant() != 0 && detail::terms_known_multiples(r, k))
      return q + floordiv(r - Expr(r.add_constant()), d);
    const int64_t g = detail::content_gcd(r, k);
    if (g > 1) {
      r = detail::divide_exactly(r, g);
      k /= g;
    }
    if (k == 1) return q + r;
    const Interval rb = r.bounds();
    if (interval::nonnegative(rb) && rb.has_hi && rb.hi < k) return q;
    if (std::optional<Expr> merged = detail::merge_nested_floordiv(r, k)) return q + *merged;
    if (std::optional<Expr> exact = detail::exact_through_remainder(r, k)) return q + *exact;
    return q + detail::make_binary(ExprKind::FloorDiv, r, Expr(k));
  }
  // Symbolic divisor.
  if (n.is_int(0)) return 0;
  if (n == d) return 1;
  if (detail::leading_negative(d)) return floordiv(-n, -d);
  int64_t g = detail::content_gcd(d, detail::content_gcd(n, 0));
  if (g > 1) return floordiv(detail::divide_exactly(n, g), detail::divide_exactly(d, g));
  if (std::optional<detail::QuotientRemainder> qr = detail::split_multiples(n, d)) {
    if (qr->quotient.is_error() || qr->remainder.is_error()) return detail::overflow_error();
    return qr->quotient + floordiv(qr->remainder, d);
  }
  return detail::make_binary(ExprKind::FloorDiv, n, d);
}

namespace detail {

// A term c*(x % a) of a numerator, with k dividing a, is c*x less a multiple
// of k, so it changes nothing modulo k: (3*(h%4)) % 4 is (3*h) % 4 and
// (x%8 + y) % 4 is (x + y) % 4. The numerator with every such term replaced,
// or nothing when there is none.
inline std::optional<Expr> without_inner_remainders(const Expr& r, int64_t k) {
  auto inner = [k](const Expr& t) {
    return t.kind() == ExprKind::Mod && t.args()[1].is_int() && t.args()[1].as_int() != 0 &&
           t.args()[1].as_int() % k == 0;
  };
  bool any = false;
  const int64_t constant = for_each_term(r, [&](const Expr& t, int64_t) { any = any || inner(t); });
  if (!any) return std::nullopt;
  Expr out(constant);
  for_each_term(r, [&](const Expr& t, int64_t c) { out = out + scale(inner(t) ? t.args()[0] : t, c); });
  if (out.is_error()) return std::nullopt;  // overflow: the numerator stays as it is
  return out;
}

}  // namespace detail

inline Expr mod(const Expr& n, const Expr& d) {
  if (const Expr* e = detail::first_error({&n, &d})) return *e;
  if (d.is_int()) {
    int64_t k = d.as_int();
    if (k == 1 || k == -1) return 0;
    if (n.is_int()) {
      int64_t r = 0;
      if (checked::mod(n.as_int(), k, r)) return r;
      return detail::make_binary(ExprKind::Mod, n, d);
    }
    if (k == 0 || k == INT64_MIN) return detail::make_binary(ExprKind::Mod, n, d);
    if (k < 0) return -mod(-n, Expr(-k));  // n % k == -((-n) % -k)
    std::optional<detail::QuotientRemainder> qr = detail::split_remainder(n, k);
    if (!qr) return detail::overflow_error();
    Expr r = std::move(qr->remainder);
    if (r.is_int()) return r;
    // (M + c) % k is c when M is known to be a multiple of k (0 <= c < k).
    if (detail::active_facts() && detail::terms_known_multiples(r, k)) return r.add_constant();
    const int64_t g = detail::content_gcd(r, k);
    if (g > 1) return Expr(g) * mod(detail::divide_exactly(r, g), Expr(k / g));
    const Interval rb = r.bounds();
    if (interval::nonnegative(rb) && rb.has_hi && rb.hi < k) return r;
    if (std::optional<Expr> plain = detail::without_inner_remainders(r, k)) return mod(*plain, d);
    return detail::make_binary(ExprKind::Mod, r, d);
  }
  if (n.is_int(0) || n == d) return 0;
  if (detail::leading_negative(d)) return -mod(-n, -d);
  int64_t g = detail::content_gcd(d, detail::content_gcd(n, 0));
  if (g > 1) return Expr(g) * mod(detail::divide_exactly(n, g), detail::divide_exactly(d, g));
  if (std::optional<detail::QuotientRemainder> qr = detail::split_multiples(n, d)) {
    if (qr->remainder.is_error()) return qr->remainder;
    return mod(qr->remainder, d);
  }
  return detail::make_binary(ExprKind::Mod, n, d);
}

inline Expr max_of(std::vector<Expr> args) { return detail::extremum(ExprKind::Max, args.data(), args.size()); }
inline Expr min_of(std::vector<Expr> args) { return detail::extremum(ExprKind::Min, args.data(), args.size()); }

inline Expr max(const Expr& a, const Expr& b) {
  if (a.is_int() && b.is_int()) return a.as_int() >= b.as_int() ? a : b;
  return max_of({a, b});
}

inline Expr min(const Expr& a, const Expr& b) {
  if (a.is_int() && b.is_int()) return a.as_int() <= b.as_int() ? a : b;
  return min_of({a, b});
}

// (n + d - 1)//d is ceil(n / d) only for d > 0 (for n = 0, d = -2 it gives 1):
// it is used when d is a positive constant or a non-negative expression (so
// >= 1 wherever the division is defined); any other divisor gets the identity
// ceil(n / d) == -((-n)//d), which holds for every d != 0.
// When n + d - 1 overflows (CeilToInt(5, 9223372036854775807)) the identity
// is tried as well before the overflow is reported.
inline Expr ceil_to_int(const Expr& n, const Expr& d) {
  const bool positive = d.is_int() ? d.as_int() > 0 : interval::nonnegative(d.bounds());
  if (positive) {
    // n + (d-1) as one sum when d is an integer (> 0: no overflow).
    Expr e = floordiv(d.is_int() ? n + Expr(d.as_int() - 1) : n + d - Expr(1), d);
    if (!e.is_error() || n.is_error() || d.is_error()) return e;
  }
  return -floordiv(-n, d);
}

}  // namespace symshape
