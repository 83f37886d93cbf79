// `symshape simplify` and `symshape eval`.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
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
  const char* cmd = "simplify";
  std::vector<std::string> exprs;
  const ArgSpec spec{cmd, {}, [&exprs](const std::string& arg) {
                       exprs.push_back(arg);
                       return true;
                     }, /*dash_args_are_positional=*/true};
  if (const int code = parse_args(spec, args)) return code;
  if (exprs.empty()) return fatal(cmd, "expected at least one expression", 2);
  for (const std::string& text : exprs) {
    Result<Expr> e = parse_expr(text);
    if (!e) return fatal(cmd, "'" + text + "': " + e.error());
    if (divides_by_zero(*e)) return fatal(cmd, "'" + text + "': division by zero");
    std::printf("%s\n", to_string(*e).c_str());
  }
  return 0;
}

inline int run_eval(const std::vector<std::string>& args) {
  const char* cmd = "eval";
  std::string expr_text;
  bool have_expr = false;
  Bindings bindings;
  auto bind = [&bindings](const std::string& value, std::string& error) {
    return parse_bindings(value, bindings, error);
  };
  // Unlike a model path, an empty expression takes the place (and fails to parse).
  auto expression = [&](const std::string& arg) {
    if (have_expr) return false;
    expr_text = arg;
    have_expr = true;
    return true;
  };
  const ArgSpec spec{cmd, {{{"--bind"}, "NAME=INT,...", bind}}, expression, /*dash_args_are_positional=*/true};
  if (const int code = parse_args(spec, args)) return code;
  if (!have_expr) return fatal(cmd, "expected an expression", 2);
  Result<Expr> e = parse_expr(expr_text);
  if (!e) return fatal(cmd, "'" + expr_text + "': " + e.error());
  Result<int64_t> v = evaluate(*e, bindings);
  if (!v) return fatal(cmd, "'" + expr_text + "': " + v.error());
  std::printf("%lld\n", static_cast<long long>(*v));
  return 0;
}

}  // namespace symshape::cli
