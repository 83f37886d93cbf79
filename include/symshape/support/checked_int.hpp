// Checked int64 arithmetic with Python's floor semantics. Every dimension
// computation goes through these: overflow and division by zero are reported
// (return false), never undefined behaviour.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>

namespace symshape::checked {

inline bool add(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }
inline bool sub(int64_t a, int64_t b, int64_t& out) { return !__builtin_sub_overflow(a, b, &out); }
inline bool mul(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
inline bool neg(int64_t a, int64_t& out) { return sub(0, a, out); }

// floor(a / b), as Python's a // b.
inline bool floordiv(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  if (a == std::numeric_limits<int64_t>::min() && b == -1) return false;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  out = q;
  return true;
}

// a - b * floor(a / b): the result has the sign of b, as Python's a % b.
inline bool mod(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  if (b == -1) {
    out = 0;
    return true;
  }
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  out = r;
  return true;
}

inline int64_t gcd(int64_t a, int64_t b) {
  // Magnitudes as unsigned so that INT64_MIN does not overflow.
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  // The usual cases without a division (a 64-bit one costs tens of cycles):
  // the gcd with 0, and with a unit coefficient.
  if (x == 0) std::swap(x, y);
  if (x == 1 || y == 1) return 1;
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
             ? 0  // only gcd(INT64_MIN, 0 or INT64_MIN): callers treat 0 as "no common factor"
             : static_cast<int64_t>(x);
}

// A positive common divisor of a and b (their gcd), or 0 when both are 0.
// gcd answers 0 also when the gcd is 2^63 (a, b in {0, INT64_MIN}), which
// would then act as the neutral 0: a later step divided INT64_MIN by a factor
// it does not have (INT64_MIN//(9*b) became -1024819115206086200//b), and a
// row of the linear reasoning with coefficients 0 and INT64_MIN was read as
// having none. 2^62 divides both and keeps every caller exact.
inline int64_t common_divisor(int64_t a, int64_t b) {
  const int64_t g = gcd(a, b);
  return g == 0 && (a != 0 || b != 0) ? (int64_t{1} << 62) : g;
}

}  // namespace symshape::checked
