// Helpers for tests that build whole models: subgraphs with an outer scope,
// looking up value types. Report helpers (diagnostics_text, EXPECT_ERROR)
// are in op_test_util.hpp.
#pragma once

#include <memory>
#include <string>

#include "../ops/op_test_util.hpp"

namespace symshape::testing {

inline Model make_model(int64_t opset = 18) {
  Model m;
  m.opset_imports[""] = opset;
  return m;
}

// A subgraph (If branch, Loop/Scan body) whose outer scope is `parent`.
inline std::shared_ptr<Graph> make_subgraph(Graph& parent, const std::string& name = "body") {
  auto g = std::make_shared<Graph>();
  g->parent = &parent;
  g->name = name;
  return g;
}

inline Attribute graph_attr(const std::string& name, std::shared_ptr<Graph> g) {
  return Attribute::make_graph(name, std::move(g));
}

// The type of the value of that name (in g or its outer scopes); unknown if absent.
inline Type type_of(const Graph& g, const std::string& name) {
  const Value* v = g.find(name);
  return v ? v->type : Type();
}

}  // namespace symshape::testing
