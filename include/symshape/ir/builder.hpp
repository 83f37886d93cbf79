// Builders for tests and users: graphs by value names, as in an ONNX file.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"

namespace symshape {

class GraphBuilder {
 public:
  explicit GraphBuilder(Graph& g) : g_(g) {}

  Value* input(const std::string& name, Type type) {
    Value* v = g_.create_value(name);
    v->type = std::move(type);
    v->is_graph_input = true;
    g_.inputs.push_back(v);
    return v;
  }

  // A constant initializer named `name` (t.name is overwritten).
  Value* initializer(const std::string& name, Tensor t) {
    t.name = name;
    Tensor* stored = g_.initializers.add();
    *stored = std::move(t);
    Value* v = g_.find(name);
    if (!v || v->name != name || !g_.by_name.contains(name)) v = g_.create_value(name);
    v->initializer = stored;
    v->type = stored->type();
    return v;
  }

  // A node; an empty name in `inputs` or `outputs` is an omitted optional one.
  Node* node(const std::string& op_type, const std::vector<std::string>& inputs,
             const std::vector<std::string>& outputs, std::vector<Attribute> attributes = {},
             const std::string& domain = "", const std::string& name = "") {
    Node* n = g_.create_node();
    n->op_type = op_type;
    n->domain = std::string(canonical_domain(domain));
    n->name = name;
    n->attributes = std::move(attributes);
    for (const auto& in : inputs) n->inputs.push_back(in.empty() ? nullptr : g_.value(in));
    for (const auto& out : outputs) {
      Value* v = nullptr;
      if (!out.empty()) {
        v = g_.by_name.find(out);
        if (!v) v = g_.create_value(out);
        v->producer = n;
      }
      n->outputs.push_back(v);
    }
    return n;
  }

  Value* output(const std::string& name) {
    Value* v = g_.value(name);
    v->is_graph_output = true;
    g_.outputs.push_back(v);
    return v;
  }

 private:
  Graph& g_;
};

}  // namespace symshape
