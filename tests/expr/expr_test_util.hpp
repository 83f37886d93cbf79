// Small helpers shared by the expression-engine tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <string_view>

#include "symshape/expr.hpp"

namespace symshape {

// gtest prints expressions as their text in failure messages.
inline void PrintTo(const Expr& e, std::ostream* os) { *os << to_string(e); }

}  // namespace symshape

namespace symshape::test {

// Parses text that must parse; a failure is reported and yields an Error
// expression, which no expectation on a value accepts.
inline Expr P(std::string_view text) {
  Result<Expr> r = parse_expr(text);
  if (!r) {
    ADD_FAILURE() << "parse_expr(\"" << text << "\") failed: " << r.error();
    return Expr::error("parse failed: " + r.error());
  }
  return *r;
}

// A number from the environment (SYMSHAPE_PROPERTY_SEED and the like, which
// let the property tests explore further), or `fallback` when it is unset.
inline uint64_t env_number(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// The canonical text of parsed text.
inline std::string S(std::string_view text) { return to_string(P(text)); }

inline Expr sym(std::string_view name) { return Expr::symbol(name); }

// The error message of a parse that must fail ("" if it parsed).
inline std::string parse_error(std::string_view text) {
  Result<Expr> r = parse_expr(text);
  if (r) {
    ADD_FAILURE() << "parse_expr(\"" << text << "\") unexpectedly gave " << to_string(*r);
    return "";
  }
  return r.error();
}

}  // namespace symshape::test
