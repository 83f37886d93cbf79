// Interval arithmetic over int64 with unbounded sides. An overflow widens the
// interval (drops that side), so every result is a sound over-approximation.
#pragma once

#include <algorithm>
#include <cstdint>

#include "symshape/expr/expr.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape::interval {

inline bool nonnegative(const Interval& a) { return a.has_lo && a.lo >= 0; }

inline Interval add(const Interval& a, const Interval& b) {
  Interval r;
  r.has_lo = a.has_lo && b.has_lo && checked::add(a.lo, b.lo, r.lo);
  r.has_hi = a.has_hi && b.has_hi && checked::add(a.hi, b.hi, r.hi);
  return r;
}

inline Interval scale(const Interval& a, int64_t k) {
  if (k == 0) return Interval::point(0);
  Interval r;
  if (k > 0) {
    r.has_lo = a.has_lo && checked::mul(a.lo, k, r.lo);
    r.has_hi = a.has_hi && checked::mul(a.hi, k, r.hi);
  } else {
    r.has_lo = a.has_hi && checked::mul(a.hi, k, r.lo);
    r.has_hi = a.has_lo && checked::mul(a.lo, k, r.hi);
  }
  return r;
}

inline Interval multiply(const Interval& a, const Interval& b) {
  if (nonnegative(a) && nonnegative(b)) {
    Interval r;
    r.has_lo = checked::mul(a.lo, b.lo, r.lo);
    if (!r.has_lo) {  // huge but still non-negative
      r.has_lo = true;
      r.lo = 0;
    }
    r.has_hi = a.has_hi && b.has_hi && checked::mul(a.hi, b.hi, r.hi);
    return r;
  }
  if (!(a.has_lo && a.has_hi && b.has_lo && b.has_hi)) return Interval::unbounded();
  int64_t p[4];
  if (!checked::mul(a.lo, b.lo, p[0]) || !checked::mul(a.lo, b.hi, p[1]) || !checked::mul(a.hi, b.lo, p[2]) ||
      !checked::mul(a.hi, b.hi, p[3]))
    return Interval::unbounded();
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4), true, true};
}

inline Interval power(const Interval& a, int64_t exponent) {
  Interval r = Interval::point(1);
  for (int64_t i = 0; i < exponent; ++i) r = multiply(r, a);
  if (exponent % 2 == 0 && !nonnegative(r)) r = Interval::at_least(0);
  return r;
}

// floor(n / d) where d is known to be positive.
inline Interval floordiv_positive(const Interval& n, int64_t d) {
  Interval r;
  r.has_lo = n.has_lo && checked::floordiv(n.lo, d, r.lo);
  r.has_hi = n.has_hi && checked::floordiv(n.hi, d, r.hi);
  return r;
}

// floor(n / d) for a divisor that is >= 0 (so >= 1 wherever the division is defined).
inline Interval floordiv_by_nonnegative(const Interval& n) {
  if (nonnegative(n)) return {0, n.hi, true, n.has_hi};
  if (n.has_hi && n.hi <= 0) return {n.lo, 0, n.has_lo, true};
  return Interval::unbounded();
}

inline Interval mod_positive(const Interval& n, int64_t d) {
  if (nonnegative(n) && n.has_hi && n.hi < d) return n;
  return {0, d - 1, true, true};
}

inline Interval mod_by_nonnegative(const Interval& n, const Interval& d) {
  Interval r = Interval::at_least(0);
  if (d.has_hi && d.hi >= 1) {
    r.has_hi = true;
    r.hi = d.hi - 1;
  }
  if (nonnegative(n) && n.has_hi && (!r.has_hi || n.hi < r.hi)) {
    r.has_hi = true;
    r.hi = n.hi;
  }
  return r;
}

inline Interval max(const Interval& a, const Interval& b) {
  Interval r;
  r.has_lo = a.has_lo || b.has_lo;
  r.lo = !a.has_lo ? b.lo : !b.has_lo ? a.lo : std::max(a.lo, b.lo);
  r.has_hi = a.has_hi && b.has_hi;
  r.hi = r.has_hi ? std::max(a.hi, b.hi) : 0;
  return r;
}

inline Interval min(const Interval& a, const Interval& b) {
  Interval r;
  r.has_hi = a.has_hi || b.has_hi;
  r.hi = !a.has_hi ? b.hi : !b.has_hi ? a.hi : std::min(a.hi, b.hi);
  r.has_lo = a.has_lo && b.has_lo;
  r.lo = r.has_lo ? std::min(a.lo, b.lo) : 0;
  return r;
}

}  // namespace symshape::interval
