// Evaluation at integer bindings with checked int64 arithmetic: overflow,
// division or modulo by zero and unbound symbols are reported errors. `//`
// and `%` follow Python's floor semantics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "symshape/expr/expr.hpp"
#include "symshape/support/checked_int.hpp"
#include "symshape/support/result.hpp"

namespace symshape {

using Bindings = std::unordered_map<std::string, int64_t>;

Result<int64_t> evaluate(const Expr& e, const Bindings& bindings);

namespace detail {

class Evaluator {
 public:
  explicit Evaluator(const Bindings& b) : bindings_(b) {}
  std::string error;

  // The value of e, or nothing after recording the error.
  std::optional<int64_t> eval(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::Integer:
        return e.as_int();
      case ExprKind::Symbol: {
        auto it = bindings_.find(e.name());
        if (it == bindings_.end()) return fail("unbound symbol '" + e.name() + "'");
        return it->second;
      }
      case ExprKind::Error:
        return fail(e.name());
      case ExprKind::Add: {
        int64_t acc = e.add_constant();
        for (const auto& [t, c] : e.terms()) {
          std::optional<int64_t> v = eval(t);
          if (!v) return v;
          if (!checked::mul(*v, c, *v) || !checked::add(acc, *v, acc)) return fail("integer overflow");
        }
        return acc;
      }
      case ExprKind::Mul: {
        int64_t acc = 1;
        for (const auto& [f, exponent] : e.terms()) {
          std::optional<int64_t> v = eval(f);
          if (!v) return v;
          for (int64_t i = 0; i < exponent; ++i)
            if (!checked::mul(acc, *v, acc)) return fail("integer overflow");
        }
        return acc;
      }
      case ExprKind::FloorDiv:
      case ExprKind::Mod: {
        std::optional<int64_t> n = eval(e.args()[0]);
        if (!n) return n;
        std::optional<int64_t> d = eval(e.args()[1]);
        if (!d) return d;
        const bool is_div = e.kind() == ExprKind::FloorDiv;
        if (*d == 0) return fail(is_div ? "division by zero" : "modulo by zero");
        int64_t out = 0;
        if (!(is_div ? checked::floordiv(*n, *d, out) : checked::mod(*n, *d, out))) return fail("integer overflow");
        return out;
      }
      case ExprKind::Max:
      case ExprKind::Min: {
        const bool is_max = e.kind() == ExprKind::Max;
        int64_t out = 0;
        for (std::size_t i = 0; i < e.args().size(); ++i) {
          std::optional<int64_t> v = eval(e.args()[i]);
          if (!v) return v;
          if (i == 0 || (is_max ? *v > out : *v < out)) out = *v;
        }
        return out;
      }
    }
    return fail("unknown expression kind");
  }

 private:
  const Bindings& bindings_;
  std::nullopt_t fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return std::nullopt;
  }
};

}  // namespace detail

inline Result<int64_t> evaluate(const Expr& e, const Bindings& bindings) {
  detail::Evaluator ev(bindings);
  std::optional<int64_t> v = ev.eval(e);
  if (!v) return Result<int64_t>::failure(ev.error);
  return *v;
}

// Whether e divides by the constant 0 somewhere: the engine keeps such a
// division unevaluated, so only evaluation would report it (`symshape
// simplify` and the Python package's dims refuse it up front).
inline bool divides_by_zero(const Expr& e) {
  if ((e.kind() == ExprKind::FloorDiv || e.kind() == ExprKind::Mod) && e.args()[1].is_int(0)) return true;
  for (const auto& term : e.terms())
    if (divides_by_zero(term.first)) return true;
  for (const auto& a : e.args())
    if (divides_by_zero(a)) return true;
  return false;
}

}  // namespace symshape
