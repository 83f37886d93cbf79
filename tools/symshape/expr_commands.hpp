// `symshape simplify` and `symshape eval`.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "symshape/expr.hpp"

namespace symshape::cli {

// Parses "a=1,b=2" into bindings; false with a message on bad input.
inline bool parse_bindings(const std::string& text, Bindings& out, std::string& error) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    if (!item.empty()) {
      const std::size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        error = "bad binding '" + item + "', expected NAME=INT";
        return false;
      }
      Result<Expr> value = parse_expr(item.substr(eq + 1));
      if (!value || !value->is_int()) {
        error = "bad value in binding '" + item + "', expected an integer";
        return false;
      }
      out[item.substr(0, eq)] = value->as_int();
    }
    start = end + 1;
  }
  return true;
}

// Whether e divides by the constant 0 somewhere (the expression engine keeps
// such a division unevaluated; only evaluation would report it).
inline bool divides_by_zero(const Expr& e) {
  if ((e.kind() == ExprKind::FloorDiv || e.kind() == ExprKind::Mod) && e.args()[1].is_int(0)) return true;
  for (const auto& term : e.terms())
    if (divides_by_zero(term.first)) return true;
  for (const auto& a : e.args())
    if (divides_by_zero(a)) return true;
  return false;
}

inline int run_simplify(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs("symshape simplify: expected at least one expression\n", stderr);
    return 2;
  }
  for (const std::string& text : args) {
    Result<Expr> e = parse_expr(text);
    if (!e) {
      std::fprintf(stderr, "symshape simplify: '%s': %s\n", text.c_str(), e.error().c_str());
      return 1;
    }
    if (divides_by_zero(*e)) {
      std::fprintf(stderr, "symshape simplify: '%s': division by zero\n", text.c_str());
      return 1;
    }
    std::printf("%s\n", to_string(*e).c_str());
  }
  return 0;
}

inline int run_eval(const std::vector<std::string>& args) {
  std::string expr_text;
  Bindings bindings;
  bool have_expr = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string error;
    if (args[i] == "--bind") {
      if (i + 1 >= args.size()) {
        std::fputs("symshape eval: --bind needs NAME=INT,...\n", stderr);
        return 2;
      }
      if (!parse_bindings(args[++i], bindings, error)) {
        std::fprintf(stderr, "symshape eval: %s\n", error.c_str());
        return 2;
      }
    } else if (args[i].rfind("--bind=", 0) == 0) {
      if (!parse_bindings(args[i].substr(7), bindings, error)) {
        std::fprintf(stderr, "symshape eval: %s\n", error.c_str());
        return 2;
      }
    } else if (!have_expr) {
      expr_text = args[i];
      have_expr = true;
    } else {
      std::fprintf(stderr, "symshape eval: unexpected argument '%s'\n", args[i].c_str());
      return 2;
    }
  }
  if (!have_expr) {
    std::fputs("symshape eval: expected an expression\n", stderr);
    return 2;
  }
  Result<Expr> e = parse_expr(expr_text);
  if (!e) {
    std::fprintf(stderr, "symshape eval: '%s': %s\n", expr_text.c_str(), e.error().c_str());
    return 1;
  }
  Result<int64_t> v = evaluate(*e, bindings);
  if (!v) {
    std::fprintf(stderr, "symshape eval: '%s': %s\n", expr_text.c_str(), v.error().c_str());
    return 1;
  }
  std::printf("%lld\n", static_cast<long long>(*v));
  return 0;
}

}  // namespace symshape::cli
