// Checks of bindings given to evaluate a report (`symshape show --bind`,
// `symshape profile --bind`, the Python package's profile): a symbol the
// model does not have (most likely a typo), and bindings that break a fact
// the inference ran under, or that make inference fail (a shape that holds
// for the symbols but not at those values).
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "symshape/expr/evaluate.hpp"
#include "symshape/expr/fact.hpp"
#include "symshape/expr/facts.hpp"
#include "symshape/expr/transform.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape::report {

// The facts a report lists, to evaluate or profile under them.
inline Facts facts_in(const std::vector<Fact>& listed) {
  Facts facts;
  for (const Fact& f : listed) facts.add(f.text, f.source);
  return facts;
}

// The problem with bindings that break a fact (all of whose symbols they
// bind), or "" when there is none.
inline std::string bindings_break_facts(const std::vector<Fact>& listed, const Bindings& bindings) {
  for (const Fact& f : listed) {
    Facts one;
    if (!one.add(f.text, f.source)) continue;
    const std::set<std::string> names = one.symbols();
    bool all_bound = true;
    for (const auto& n : names) all_bound = all_bound && bindings.count(n);
    if (all_bound && !one.holds_at(bindings)) return "the bindings break the fact '" + f.text + "' (" + f.source + ")";
  }
  return std::string();
}

// The problem with symbols given to `option` that none of `symbols` (the
// model's) is, naming the model's symbols; "" when there is none. `model` is
// the model as messages name it.
inline std::string bound_symbols_problem(const std::string& option, const std::string& model, const Bindings& bindings,
                                         const std::set<std::string>& symbols) {
  std::vector<std::string> unknown;
  for (const auto& [name, value] : bindings)
    if (!symbols.count(name)) unknown.push_back(name);
  if (unknown.empty()) return std::string();
  std::sort(unknown.begin(), unknown.end());
  std::string list, known;
  for (const std::string& u : unknown) list += (list.empty() ? "'" : ", '") + u + "'";
  for (const std::string& s : symbols) known += (known.empty() ? "" : ", ") + s;
  return option + ": " + model + " has no symbol " + list +
         " (its symbols: " + (known.empty() ? std::string("none") : known) + ")";
}

// Puts the bindings into the model's input dims (symbols they do not bind
// stay), so that inferring it again gives the shapes at those values, as
// `symshape infer --input-shape` with those dims would.
inline void bind_input_dims(Model& model, const Bindings& bindings) {
  Substitution values;
  for (const auto& [name, value] : bindings) values.emplace(name, Expr(value));
  for (Value* v : model.graph->inputs)
    if (v && v->type.is_tensor_like() && v->type.shape().has_rank())
      for (SymbolicDim& d : v->type.shape().dims())
        if (d.is_symbolic()) d = SymbolicDim(substitute(d.expr(), values));
}

// The errors of the inference at the bindings (`bound`) that the symbolic
// inference did not report: a run at those input dims would fail there.
inline std::vector<Diagnostic> errors_only_at_bindings(const Report& symbolic, const Report& bound) {
  std::set<std::pair<std::string, std::string>> known;
  for (const Diagnostic& d : symbolic.diagnostics)
    if (d.severity == Severity::Error) known.emplace(d.where, d.message);
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : bound.diagnostics)
    if (d.severity == Severity::Error && !known.count({d.where, d.message})) out.push_back(d);
  return out;
}

}  // namespace symshape::report
