// Rewrites that rebuild an expression through the canonical constructors:
// substitute (symbol -> expression), rename (symbol -> symbol), free symbols.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "symshape/expr/build.hpp"
#include "symshape/expr/expr.hpp"

namespace symshape {

using Substitution = std::map<std::string, Expr, std::less<>>;

// Replaces every symbol found in `mapping`, then re-simplifies.
inline Expr substitute(const Expr& e, const Substitution& mapping) {
  switch (e.kind()) {
    case ExprKind::Integer:
    case ExprKind::Error:
      return e;
    case ExprKind::Symbol: {
      auto it = mapping.find(e.name());
      return it == mapping.end() ? e : it->second;
    }
    case ExprKind::Add: {
      std::vector<Expr> parts{Expr(e.add_constant())};
      for (const auto& [t, c] : e.terms()) parts.push_back(substitute(t, mapping) * Expr(c));
      return sum_of(parts);
    }
    case ExprKind::Mul: {
      // product_of, as the parser does: a product that keeps sums as factors
      // is rebuilt as it was when nothing in it changes.
      std::vector<Expr> factors;
      for (const auto& [f, exponent] : e.terms()) {
        Expr s = substitute(f, mapping);
        for (int64_t i = 0; i < exponent; ++i) factors.push_back(s);
      }
      return product_of(factors);
    }
    case ExprKind::FloorDiv:
      return floordiv(substitute(e.args()[0], mapping), substitute(e.args()[1], mapping));
    case ExprKind::Mod:
      return mod(substitute(e.args()[0], mapping), substitute(e.args()[1], mapping));
    case ExprKind::Max:
    case ExprKind::Min: {
      std::vector<Expr> args;
      args.reserve(e.args().size());
      for (const auto& a : e.args()) args.push_back(substitute(a, mapping));
      return e.kind() == ExprKind::Max ? max_of(std::move(args)) : min_of(std::move(args));
    }
  }
  return e;
}

inline Expr rename(const Expr& e, const std::map<std::string, std::string, std::less<>>& names) {
  Substitution mapping;
  for (const auto& [from, to] : names) mapping.emplace(from, Expr::symbol(to));
  return substitute(e, mapping);
}

namespace detail {
inline void collect_symbols(const Expr& e, std::set<std::string>& out) {
  if (e.kind() == ExprKind::Symbol) {
    out.insert(e.name());
    return;
  }
  for (const auto& [t, c] : e.terms()) collect_symbols(t, out);
  for (const auto& a : e.args()) collect_symbols(a, out);
}
}  // namespace detail

// The names of the symbols in e, sorted.
inline std::vector<std::string> free_symbols(const Expr& e) {
  std::set<std::string> names;
  detail::collect_symbols(e, names);
  return {names.begin(), names.end()};
}

// Given classes of names known to be equal and the names a user sees (model
// inputs), maps every name to its class's representative: a preferred name
// if the class has one, else the smallest name; never a name starting with
// `banned_prefix` (a class of banned names only is left as it is). Names that keep their own
// spelling are not in the result.
inline std::map<std::string, std::string> rename_dynamic_dimensions(
    const std::vector<std::set<std::string>>& equivalence_classes, const std::set<std::string>& preferred,
    const std::string& banned_prefix = "DYN") {
  std::map<std::string, std::string> mapping;
  auto banned = [&](const std::string& n) { return !banned_prefix.empty() && n.rfind(banned_prefix, 0) == 0; };
  for (const auto& cls : equivalence_classes) {
    const std::string* best = nullptr;
    int best_rank = 3;
    for (const auto& n : cls) {  // sets iterate in order: the first of a rank is the smallest
      int rank = banned(n) ? 2 : preferred.count(n) ? 0 : 1;
      if (rank < best_rank) {
        best_rank = rank;
        best = &n;
      }
    }
    if (!best || best_rank == 2) continue;  // only banned names: no representative
    for (const auto& n : cls)
      if (n != *best) mapping[n] = *best;
  }
  return mapping;
}

}  // namespace symshape
