// The values of the main graph a report lists (`symshape infer --json`,
// `symshape show`, the Python package's values), and the symbols of their
// inferred types (what bindings may name).
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "symshape/ir/graph.hpp"

namespace symshape::report {

// Graph inputs, then node outputs in file order; initializers too with
// `with_initializers` (after the inputs).
inline std::vector<const Value*> listed_values(const Model& m, bool with_initializers) {
  std::vector<const Value*> out;
  const Graph& g = *m.graph;
  for (const Value* v : g.inputs)
    if (v && (!v->initializer || with_initializers)) out.push_back(v);
  if (with_initializers)
    for (const auto& t : g.initializers) {
      const Value* v = g.find(t->name);
      if (v && !v->is_graph_input && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v && !v->name.empty()) out.push_back(v);
  return out;
}

// The symbols of a type's shape, or of the type inside it (sequence, optional, map).
inline void collect_symbols(const Type& t, std::set<std::string>& out) {
  if (t.is_tensor_like()) {
    for (const std::string& s : t.shape().free_symbols()) out.insert(s);
  } else if (t.inner()) {
    collect_symbols(*t.inner(), out);
  }
}

// The symbols of every listed value's inferred type, initializers included.
inline std::set<std::string> inferred_symbols(const Model& model) {
  std::set<std::string> symbols;
  for (const Value* v : listed_values(model, true)) collect_symbols(v->type, symbols);
  return symbols;
}

}  // namespace symshape::report
