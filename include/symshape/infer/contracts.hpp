// Assuming a model's contracts (`symshape infer --assume-contracts`): the
// relations a run records (Report::contracts) turned into substitutions of
// input symbols, so that a second run gives the shapes every run that
// satisfies them has. Without this, shapes stay exact for every valid run and
// the contracts are only reported.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "symshape/expr.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape {

// One substitution made: `symbol` is taken to be `value`, because of `from`.
struct Assumption {
  std::string symbol;
  SymbolicDim value;
  Contract from;

  // "assume total = past+seq (from: node 'add' (Add): total == past+seq ...)"
  std::string to_string() const {
    return "assume " + symbol + " = " + value.to_string() + " (" + from.to_string() + ")";
  }
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
    if (c.lhs.is_unknown() || c.rhs.is_unknown()) continue;
    const Expr lhs = substitute(c.lhs.expr(), assumed), rhs = substitute(c.rhs.expr(), assumed);
    if (lhs == rhs) continue;
    const auto pick = contracts_detail::pick_substitution(lhs, rhs, declared);
    if (!pick) continue;
    const Substitution one{{pick->first, pick->second}};
    for (auto& [name, value] : assumed) value = substitute(value, one);
    assumed.emplace(pick->first, pick->second);
    added.push_back(Assumption{pick->first, SymbolicDim(pick->second), c});
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
