// Helpers for tests that build whole models: subgraphs with an outer scope,
// looking up value types, and searching the report.
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

// All diagnostics, one per line, for failure messages.
inline std::string diagnostics_text(const Report& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.to_string() + "\n";
  return out;
}

// Number of diagnostics of that severity whose message contains `text`.
inline std::size_t count_messages(const Report& r, Severity s, const std::string& text) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics) n += d.severity == s && d.message.find(text) != std::string::npos;
  return n;
}

}  // namespace symshape::testing
