// The printer: canonical text with parentheses only where the grammar needs
// them, so that parse(to_string(e)) == e. Max and Min print as max(...) and
// min(...); sums put the constant last: `past+seq`, `(H+1)//2`, `a-b+3`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "symshape/expr/expr.hpp"
#include "symshape/support/checked_int.hpp"

namespace symshape {

std::string to_string(const Expr& e);
// Appends the canonical text of e to out (to_string without a new string).
void print_to(const Expr& e, std::string& out);

// Whether a symbol name is written bare in expressions: [A-Za-z_][A-Za-z0-9_]*.
inline bool is_plain_name(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

namespace detail {

enum Precedence : int { kPrecAdd = 3, kPrecMul = 4, kPrecUnary = 5, kPrecAtom = 6 };

// INT64_MIN has no literal (9223372036854775808 does not fit in int64), so it
// prints as a bracketed difference that parses back to the same integer.
inline constexpr const char* kInt64MinText = "(-9223372036854775807-1)";

inline void append_unsigned(std::string& out, uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) out += digits[--n];
}

inline uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

inline int print_expr(const Expr& e, std::string& out);

// The precedence of what print_expr prints for e (without printing it).
inline int precedence(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Integer:
      return e.as_int() < 0 && e.as_int() != INT64_MIN ? kPrecUnary : kPrecAtom;
    case ExprKind::Mul:
    case ExprKind::FloorDiv:
    case ExprKind::Mod:
      return kPrecMul;
    case ExprKind::Add:
      return e.terms().size() == 1 && e.add_constant() == 0 ? kPrecMul : kPrecAdd;
    default:
      return kPrecAtom;
  }
}

// Prints e so that it binds at least as tightly as `min_prec`.
inline void print_at(const Expr& e, int min_prec, std::string& out) {
  if (precedence(e) < min_prec) {
    out += '(';
    print_expr(e, out);
    out += ')';
  } else {
    print_expr(e, out);
  }
}

// Whether e prints with a leading '-' and no brackets: -3, -x, -2*x.
inline bool prints_negative(const Expr& e) {
  if (e.kind() == ExprKind::Integer) return e.as_int() < 0 && e.as_int() != INT64_MIN;
  return e.kind() == ExprKind::Add && e.terms().size() == 1 && e.add_constant() == 0 && e.terms()[0].second < 0;
}

// A factor inside a product: floor divisions, modulos and sums need brackets,
// since `3*x//2` would read as `(3*x)//2`.
inline void print_factor(const Expr& f, std::string& out) {
  const ExprKind k = f.kind();
  if (k == ExprKind::FloorDiv || k == ExprKind::Mod || k == ExprKind::Add) {
    out += '(';
    print_expr(f, out);
    out += ')';
  } else {
    print_at(f, kPrecUnary, out);
  }
}

inline void print_monomial(const Expr& m, std::string& out) {
  if (m.kind() != ExprKind::Mul) {
    print_factor(m, out);
    return;
  }
  bool first = true;
  for (const auto& [f, e] : m.terms()) {
    for (int64_t i = 0; i < e; ++i) {
      if (!first) out += '*';
      first = false;
      print_factor(f, out);
    }
  }
}

// |coeff| * monomial, without sign.
inline void print_scaled(uint64_t coeff, const Expr& m, std::string& out) {
  if (coeff != 1) {
    append_unsigned(out, coeff);
    out += '*';
    // `3*x*y` reads as (3*x)*y: a product needs no brackets after its coefficient.
    if (m.kind() == ExprKind::Mul) {
      print_monomial(m, out);
    } else {
      print_factor(m, out);
    }
    return;
  }
  if (m.kind() == ExprKind::Mul) {
    print_monomial(m, out);
  } else {
    // A lone floor division or modulo needs no brackets in a sum.
    print_at(m, kPrecMul, out);
  }
}

// max(a,b,...) or min(a,b,...).
inline void print_extremum(const Expr& e, std::string& out) {
  out += e.kind() == ExprKind::Max ? "max(" : "min(";
  bool first = true;
  for (const auto& a : e.args()) {
    if (!first) out += ',';
    first = false;
    print_expr(a, out);
  }
  out += ')';
}

// One term c*t of a sum, with its sign ('+' omitted on the first term).
inline void print_sum_term(const Expr& t, int64_t c, bool first, std::string& out) {
  // A leading '-' is unary and binds tighter than '//' and '%': `-x//2`
  // reads as `(-x)//2`, so -(x//2) and -(x%2) keep their brackets.
  if (first && c == -1 && (t.kind() == ExprKind::FloorDiv || t.kind() == ExprKind::Mod)) {
    out += "-(";
    print_expr(t, out);
    out += ')';
    return;
  }
  if (c == INT64_MIN) {  // no literal for its magnitude
    if (!first) out += '+';
    out += kInt64MinText;
    out += '*';
    print_monomial(t, out);
    return;
  }
  if (c < 0) {
    out += '-';
  } else if (!first) {
    out += '+';
  }
  print_scaled(magnitude(c), t, out);
}

// The terms of a sum, then `constant`.
inline void print_terms_and_constant(const TermList& terms, int64_t constant, std::string& out) {
  bool first = true;
  for (const auto& [t, c] : terms) {
    print_sum_term(t, c, first, out);
    first = false;
  }
  if (constant == INT64_MIN) {
    out += "-9223372036854775807-1";
  } else if (constant != 0) {
    out += constant < 0 ? '-' : '+';
    append_unsigned(out, magnitude(constant));
  }
}

// The canonical form keeps a floor division's numerator constant in [0, k),
// so (H-1)//2 is built as (H+1)//2-1. Printed, a negative constant c of a
// sum goes back into its first term (x+r)//k of coefficient 1 when -k <
// r + c*k < 0: `(H-1)//2`, `W+(H-3)//4`; H//2-1 stays. The index of that
// term, or the number of terms when none.
inline std::size_t absorbing_quotient(const Expr& sum, int64_t& numerator_constant) {
  const int64_t c = sum.add_constant();
  const TermList& terms = sum.terms();
  if (c >= 0) return terms.size();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Expr& q = terms[i].first;
    if (terms[i].second != 1 || q.kind() != ExprKind::FloorDiv || !q.args()[1].is_int()) continue;
    const int64_t k = q.args()[1].as_int();
    const Expr& x = q.args()[0];
    if (k < 2 || x.kind() != ExprKind::Add || c <= -k) continue;
    int64_t ck = 0, folded = 0;  // checked: k may be as large as INT64_MAX
    if (!checked::mul(c, k, ck) || !checked::add(x.add_constant(), ck, folded)) continue;
    if (folded > -k && folded < 0) {
      numerator_constant = folded;
      return i;
    }
  }
  return terms.size();
}

// A sum: its terms, then its constant; returns its precedence.
inline int print_sum(const Expr& e, std::string& out) {
  int64_t numerator_constant = 0;
  const std::size_t absorbing = absorbing_quotient(e, numerator_constant);
  if (absorbing == e.terms().size()) {
    print_terms_and_constant(e.terms(), e.add_constant(), out);
    return e.terms().size() == 1 && e.add_constant() == 0 ? kPrecMul : kPrecAdd;
  }
  bool first = true;
  for (std::size_t i = 0; i < e.terms().size(); ++i) {
    const auto& [t, c] = e.terms()[i];
    if (i != absorbing) {
      print_sum_term(t, c, first, out);
    } else {
      if (!first) out += '+';
      out += '(';
      print_terms_and_constant(t.args()[0].terms(), numerator_constant, out);
      out += ")//";
      print_at(t.args()[1], kPrecUnary, out);
    }
    first = false;
  }
  return e.terms().size() == 1 ? kPrecMul : kPrecAdd;
}

// Appends a symbol's name: bare when it is a plain name
// ([A-Za-z_][A-Za-z0-9_]*), else between backticks ("2*`H/2`"), so that the
// text reads back as the same expression (parse.hpp).
inline void print_symbol(const std::string& name, std::string& out) {
  if (is_plain_name(name) || name.find('`') != std::string::npos) {  // (a backtick cannot be quoted)
    out += name;
    return;
  }
  out += '`';
  out += name;
  out += '`';
}

// Appends e to out; returns the precedence of what it printed.
inline int print_expr(const Expr& e, std::string& out) {
  switch (e.kind()) {
    case ExprKind::Integer:
      if (e.as_int() == INT64_MIN) {
        out += kInt64MinText;
        return kPrecAtom;
      }
      if (e.as_int() < 0) out += '-';
      append_unsigned(out, magnitude(e.as_int()));
      return e.as_int() < 0 ? kPrecUnary : kPrecAtom;
    case ExprKind::Symbol:
      print_symbol(e.name(), out);
      return kPrecAtom;
    case ExprKind::Error:
      out += "<error: " + e.name() + ">";
      return kPrecAtom;
    case ExprKind::Mul:
      print_monomial(e, out);
      return kPrecMul;
    case ExprKind::FloorDiv:
    case ExprKind::Mod:
      // A negative numerator is bracketed although '-' binds tighter: `b-(-a)//c`
      // rather than `b--a//c`.
      if (prints_negative(e.args()[0])) {
        out += '(';
        print_expr(e.args()[0], out);
        out += ')';
      } else {
        print_at(e.args()[0], kPrecMul, out);
      }
      out += e.kind() == ExprKind::FloorDiv ? "//" : "%";
      print_at(e.args()[1], kPrecUnary, out);
      return kPrecMul;
    case ExprKind::Max:
    case ExprKind::Min:
      print_extremum(e, out);
      return kPrecAtom;
    case ExprKind::Add:
      return print_sum(e, out);
  }
  return kPrecAtom;
}

}  // namespace detail

inline void print_to(const Expr& e, std::string& out) { detail::print_expr(e, out); }

inline std::string to_string(const Expr& e) {
  std::string out;
  detail::print_expr(e, out);
  return out;
}

}  // namespace symshape
