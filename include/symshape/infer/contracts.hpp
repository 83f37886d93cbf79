// Assuming a model's contracts (`symshape infer --assume-contracts`): the
// relations a run records (Report::contracts) turned into substitutions of
// input symbols, so that a second run gives the shapes every run that
// satisfies them has. Without this, shapes stay exact for every valid run and
// the contracts are only reported.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "symshape/expr.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape {

// One assumption made because of the contract `from`: a substitution
// (`symbol` is taken to be `value`), or a fact (`fact`, the contract's
// condition, such as `past+seq <= 64`) when `symbol` is empty.
struct Assumption {
  std::string symbol;
  SymbolicDim value;
  Contract from;
  std::string fact;

  // "total = past+seq" or "past+seq <= 64"
  std::string what() const { return symbol.empty() ? fact : symbol + " = " + value.to_string(); }
  // "assume total = past+seq (from: node 'add' (Add): total == past+seq ...)"
  std::string to_string() const { return "assume " + what() + " (" + from.to_string() + ")"; }
};

// The symbols that the model's author wrote as dim_params of the main graph's
// inputs and outputs: the names kept as representatives.
inline std::set<std::string> declared_symbols(const Model& model) {
  std::set<std::string> out;
  for (const auto* list : {&model.graph->inputs, &model.graph->outputs})
    for (const Value* v : *list)
      if (v && v->type.is_tensor_like()) out.merge(v->type.shape().free_symbols());
  return out;
}

namespace contracts_detail {

// The symbol of `lhs == rhs` to replace, and by what: a symbol side that does
// not occur in the other side; between two symbols the one the author did not
// declare (else the later name), so that the declared name stays. Nothing when
// neither side is a symbol.
inline std::optional<std::pair<std::string, Expr>> pick_substitution(const Expr& lhs, const Expr& rhs,
                                                                     const std::set<std::string>& declared) {
  auto occurs = [](const std::string& s, const Expr& e) {
    for (const auto& name : free_symbols(e))
      if (name == s) return true;
    return false;
  };
  const bool l = lhs.is_symbol() && !occurs(lhs.name(), rhs), r = rhs.is_symbol() && !occurs(rhs.name(), lhs);
  if (l && r) {
    const bool keep_lhs = declared.count(lhs.name()) > declared.count(rhs.name()) ||
                          (declared.count(lhs.name()) == declared.count(rhs.name()) && lhs.name() < rhs.name());
    return keep_lhs ? std::make_pair(rhs.name(), lhs) : std::make_pair(lhs.name(), rhs);
  }
  if (l) return std::make_pair(lhs.name(), rhs);
  if (r) return std::make_pair(rhs.name(), lhs);
  return std::nullopt;
}

}  // namespace contracts_detail

// Extends `assumed` (symbol -> expression, kept fully substituted) with the
// contracts of one run; returns the assumptions added. A broadcast contract is
// assumed with neither side 1 (the two dims equal), as onnxruntime's symbolic
// shape inference merges them.
inline std::vector<Assumption> choose_assumptions(const std::vector<Contract>& contracts,
                                                  const std::set<std::string>& declared, Substitution& assumed) {
  std::vector<Assumption> added;
  for (const Contract& c : contracts) {
    if (c.lhs.is_unknown() || c.rhs.is_unknown() || !c.condition.empty()) continue;
    const Expr lhs = substitute(c.lhs.expr(), assumed), rhs = substitute(c.rhs.expr(), assumed);
    if (lhs == rhs) continue;
    const auto pick = contracts_detail::pick_substitution(lhs, rhs, declared);
    if (!pick) continue;
    const Substitution one{{pick->first, pick->second}};
    for (auto& [name, value] : assumed) value = substitute(value, one);
    assumed.emplace(pick->first, pick->second);
    added.push_back(Assumption{pick->first, SymbolicDim(pick->second), c, std::string()});
  }
  return added;
}

// The conditions of `contracts` not yet in `facts`, added to them (each once).
inline std::vector<Assumption> choose_conditions(const std::vector<Contract>& contracts,
                                                 std::vector<std::string>& facts) {
  std::vector<Assumption> added;
  for (const Contract& c : contracts) {
    if (c.condition.empty() || std::find(facts.begin(), facts.end(), c.condition) != facts.end()) continue;
    facts.push_back(c.condition);
    Assumption a;
    a.from = c;
    a.fact = c.condition;
    added.push_back(std::move(a));
  }
  return added;
}

// Rewrites the dims of the main graph's inputs under `assumed`.
inline void assume_in_inputs(Model& model, const Substitution& assumed) {
  for (Value* v : model.graph->inputs)
    if (v && v->type.is_tensor_like() && v->type.shape().has_rank())
      for (auto& d : v->type.shape().dims())
        if (d.is_symbolic()) d = SymbolicDim(substitute(d.expr(), assumed));
}

}  // namespace symshape
