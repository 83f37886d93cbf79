// SymbolicDim: one tensor dimension, known as an integer, as a symbolic
// expression (`batch`, `past+seq`), or unknown. Arithmetic keeps the canonical
// form; anything combined with an unknown dim is unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "symshape/expr/dim_ops.hpp"  // arithmetic, parse and print; not the whole engine (symshape/expr.hpp)

namespace symshape {

class SymbolicDim {
 public:
  SymbolicDim() = default;                           // unknown
  SymbolicDim(int64_t value) : expr_(value) {}       // NOLINT
  SymbolicDim(int value) : expr_(int64_t{value}) {}  // NOLINT
  // An Error expression gives an unknown dim. An overflow stays marked in it
  // (overflowed()), through the arithmetic that follows, so that the engine
  // finds it in the rule's outputs and reports it naming the node.
  SymbolicDim(Expr e) {  // NOLINT
    if (!e.is_error() || e.name() == kOverflowMessage) expr_ = std::move(e);
  }
  // A name, or text that parses as an expression ("past+seq"); text that is
  // not an expression (e.g. "batch size") is kept as one opaque symbol.
  SymbolicDim(std::string_view text) : expr_(from_text(text)) {}          // NOLINT
  SymbolicDim(const char* text) : SymbolicDim(std::string_view(text)) {}  // NOLINT

  static Expr from_text(std::string_view text) {
    Result<Expr> e = parse_expr(text);
    return e ? *e : Expr::symbol(text);
  }

  bool is_known() const { return !expr_.is_none() && !expr_.is_error(); }
  bool is_unknown() const { return !is_known(); }
  // Unknown because int64 arithmetic overflowed on the way to it.
  bool overflowed() const { return expr_.is_error(); }
  bool is_int() const { return is_known() && expr_.is_int(); }
  bool is_int(int64_t v) const { return is_known() && expr_.is_int(v); }
  bool is_symbolic() const { return is_known() && !expr_.is_int(); }
  int64_t value() const { return is_known() ? expr_.as_int() : -1; }  // when is_int()
  const Expr& expr() const { return expr_; }                          // when is_known() (else it reads as 0)

  // "?" for unknown, else the canonical expression text. A dim that is one
  // symbol whose name is not an expression (a dim_param such as "H/2" or
  // "batch size") is its name as written; inside an expression such a name
  // is quoted ("2*`H/2`"), so that either text reads back as the same dim.
  std::string to_string() const {
    if (is_unknown()) return "?";
    if (expr_.is_symbol() && !is_plain_name(expr_.name()) && !parse_expr(expr_.name())) return expr_.name();
    return symshape::to_string(expr_);
  }

  friend bool operator==(const SymbolicDim& a, const SymbolicDim& b) {
    return a.is_known() == b.is_known() && (a.is_unknown() || a.expr_ == b.expr_);
  }
  friend bool operator!=(const SymbolicDim& a, const SymbolicDim& b) { return !(a == b); }

  template <class F>
  static SymbolicDim combine(const SymbolicDim& a, const SymbolicDim& b, F&& f) {
    if (a.is_unknown() || b.is_unknown()) return a.overflowed() ? a : b.overflowed() ? b : SymbolicDim();
    return SymbolicDim(f(a.expr_, b.expr_));
  }

 private:
  // Unknown is the expression's empty state (Expr::none()), or the overflow
  // error, so that a dim is one word, like an Expr: shapes are the bulk of a
  // large model's memory.
  Expr expr_ = Expr::none();
};

inline SymbolicDim operator+(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return x + y; });
}
inline SymbolicDim operator-(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return x - y; });
}
inline SymbolicDim operator*(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return x * y; });
}
// Floor division, as Python's //.
inline SymbolicDim operator/(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return dim_div(x, y); });
}
inline SymbolicDim operator%(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return dim_mod(x, y); });
}
inline SymbolicDim dim_max(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return max(x, y); });
}
inline SymbolicDim dim_min(const SymbolicDim& a, const SymbolicDim& b) {
  return SymbolicDim::combine(a, b, [](const Expr& x, const Expr& y) { return min(x, y); });
}

}  // namespace symshape
