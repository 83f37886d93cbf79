// Evaluation at integer bindings with checked int64 arithmetic: overflow,
// division or modulo by zero and unbound symbols are reported errors. `//`
// and `%` follow Python's floor semantics.
#pragma once

#include <cstdint>
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

  bool eval(const Expr& e, int64_t& out) {
    switch (e.kind()) {
      case ExprKind::Integer:
        out = e.as_int();
        return true;
      case ExprKind::Symbol: {
        auto it = bindings_.find(e.name());
        if (it == bindings_.end()) return fail("unbound symbol '" + e.name() + "'");
        out = it->second;
        return true;
      }
      case ExprKind::Error:
        return fail(e.name());
      case ExprKind::Add: {
        int64_t acc = e.add_constant();
        for (const auto& [t, c] : e.terms()) {
          int64_t v = 0;
          if (!eval(t, v)) return false;
          if (!checked::mul(v, c, v) || !checked::add(acc, v, acc)) return fail("integer overflow");
        }
        out = acc;
        return true;
      }
      case ExprKind::Mul: {
        int64_t acc = 1;
        for (const auto& [f, exponent] : e.terms()) {
          int64_t v = 0;
          if (!eval(f, v)) return false;
          for (int64_t i = 0; i < exponent; ++i)
            if (!checked::mul(acc, v, acc)) return fail("integer overflow");
        }
        out = acc;
        return true;
      }
      case ExprKind::FloorDiv:
      case ExprKind::Mod: {
        int64_t n = 0, d = 0;
        if (!eval(e.args()[0], n) || !eval(e.args()[1], d)) return false;
        const bool is_div = e.kind() == ExprKind::FloorDiv;
        if (d == 0) return fail(is_div ? "division by zero" : "modulo by zero");
        if (!(is_div ? checked::floordiv(n, d, out) : checked::mod(n, d, out))) return fail("integer overflow");
        return true;
      }
      case ExprKind::Max:
      case ExprKind::Min: {
        const bool is_max = e.kind() == ExprKind::Max;
        for (std::size_t i = 0; i < e.args().size(); ++i) {
          int64_t v = 0;
          if (!eval(e.args()[i], v)) return false;
          if (i == 0 || (is_max ? v > out : v < out)) out = v;
        }
        return true;
      }
    }
    return fail("unknown expression kind");
  }

 private:
  const Bindings& bindings_;
  bool fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
};

}  // namespace detail

inline Result<int64_t> evaluate(const Expr& e, const Bindings& bindings) {
  detail::Evaluator ev(bindings);
  int64_t out = 0;
  if (!ev.eval(e, out)) return Result<int64_t>::failure(ev.error);
  return out;
}

}  // namespace symshape
