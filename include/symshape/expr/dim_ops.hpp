// Dimension arithmetic as shape rules use it: each operation returns the
// canonical result, an integer (is_int()) whenever it reduces to one, and an
// Error expression for a constant division or modulo by zero or an overflow.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "symshape/expr/build.hpp"
#include "symshape/expr/parse.hpp"
#include "symshape/expr/print.hpp"
#include "symshape/support/result.hpp"

namespace symshape {

inline Expr dim_add(const Expr& a, const Expr& b) { return a + b; }
inline Expr dim_sub(const Expr& a, const Expr& b) { return a - b; }
inline Expr dim_mul(const Expr& a, const Expr& b) { return a * b; }
inline Expr dim_div(const Expr& a, const Expr& b) {
  return b.is_int(0) ? Expr::error("division by zero") : floordiv(a, b);
}
inline Expr dim_mod(const Expr& a, const Expr& b) { return b.is_int(0) ? Expr::error("modulo by zero") : mod(a, b); }
inline Expr dim_max(const Expr& a, const Expr& b) { return max(a, b); }
inline Expr dim_min(const Expr& a, const Expr& b) { return min(a, b); }
inline Expr dim_multi_mul(const std::vector<Expr>& factors) {
  Expr acc = 1;
  for (const Expr& f : factors) acc = acc * f;
  return acc;
}

// Text in, canonical text out: simplify_expression("2*batch//batch") == "2".
inline Result<std::string> simplify_expression(std::string_view text) {
  Result<Expr> e = parse_expr(text);
  if (!e) return Result<std::string>::failure(e.error());
  return to_string(*e);
}

}  // namespace symshape
