// The light IR: Model, Graph, Node, Value, Attribute and model-local
// Functions, independent of protobuf. Graphs own their values and nodes (in
// chunked pools, so pointers stay valid); nodes refer to values by pointer. A
// subgraph (If/Loop/Scan body) has a parent graph whose values it may use
// (outer scope).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/ir/tensor.hpp"
#include "symshape/support/boxed.hpp"
#include "symshape/support/name_index.hpp"
#include "symshape/support/small_vector.hpp"
#include "symshape/support/stable_pool.hpp"
#include "symshape/types.hpp"

namespace symshape {

struct Graph;
struct Node;

// Known element values as fractions with one common positive denominator:
// element i is num[i] / den.
struct Rationals {
  std::vector<SymbolicDim> num;
  int64_t den = 1;
};

struct Attribute {
  enum class Kind : uint8_t {
    Undefined,
    Float,
    Int,
    String,
    Tensor,
    Graph,
    SparseTensor,
    TypeProto,
    Floats,
    Ints,
    Strings,
    Tensors,
    Graphs,
    SparseTensors,
    TypeProtos
  };
  std::string name;
  Kind kind = Kind::Undefined;
  double f = 0;
  int64_t i = 0;
  // The fields below other than ints are empty for almost every attribute:
  // boxed, each costs one pointer until it is set.
  BoxedString s;
  BoxedVector<double> floats;
  SmallVector<int64_t, 4> ints;  // inline up to 4 (kernel_shape, strides, pads of 2-D ops): no allocation
  BoxedVector<std::string> strings;
  BoxedVector<symshape::Tensor> tensors;                 // one for Tensor/SparseTensor, many for Tensors
  BoxedVector<std::shared_ptr<symshape::Graph>> graphs;  // one for Graph, many for Graphs
  BoxedVector<Type> types;                               // one for TypeProto, many for TypeProtos
  BoxedString ref_attr_name;                             // inside a function body: refers to the caller's attribute

  static Attribute make_int(std::string n, int64_t v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Int;
    a.i = v;
    return a;
  }
  static Attribute make_float(std::string n, double v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Float;
    a.f = v;
    return a;
  }
  static Attribute make_string(std::string n, std::string v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::String;
    a.s = std::move(v);
    return a;
  }
  static Attribute make_ints(std::string n, std::vector<int64_t> v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Ints;
    a.ints.assign(v.begin(), v.end());
    return a;
  }
  static Attribute make_floats(std::string n, std::vector<double> v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Floats;
    a.floats = std::move(v);
    return a;
  }
  static Attribute make_strings(std::string n, std::vector<std::string> v) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Strings;
    a.strings = std::move(v);
    return a;
  }
  static Attribute make_tensor(std::string n, symshape::Tensor t) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Tensor;
    a.tensors.push_back(std::move(t));
    return a;
  }
  static Attribute make_graph(std::string n, std::shared_ptr<symshape::Graph> g) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::Graph;
    a.graphs.push_back(std::move(g));
    return a;
  }
  static Attribute make_type(std::string n, Type t) {
    Attribute a;
    a.name = std::move(n);
    a.kind = Kind::TypeProto;
    a.types.push_back(std::move(t));
    return a;
  }
};

struct Value {
  std::string name;
  Type type;
  Node* producer = nullptr;
  const Tensor* initializer = nullptr;  // constant data, when the value is an initializer
  // Partial data propagation: the known element values of a small integer
  // tensor (a shape, a size, indices), symbolic where they come from dims;
  // also of a float tensor whose values are whole numbers (window sizes,
  // Range bounds), and for a sequence its one-element length. Boxed (one
  // pointer), as most values have none.
  BoxedOptional<std::vector<SymbolicDim>> symbolic_value;
  // A float value that is not whole: its elements as fractions with a
  // denominator > 1 (Context::rational_value), symbolic_value then holding as
  // many unknown elements (so that code reading it directly learns nothing,
  // and its reset drops the fraction too); empty for every other value.
  BoxedOptional<Rationals> fraction;
  bool is_graph_input = false;
  bool is_graph_output = false;
};

inline const char* to_string(Attribute::Kind k) {
  static const char* const names[] = {"UNDEFINED", "FLOAT",         "INT",        "STRING",         "TENSOR",
                                      "GRAPH",     "SPARSE_TENSOR", "TYPE_PROTO", "FLOATS",         "INTS",
                                      "STRINGS",   "TENSORS",       "GRAPHS",     "SPARSE_TENSORS", "TYPE_PROTOS"};
  return names[static_cast<std::size_t>(k)];
}

// ONNX's default domain has two spellings, "" and "ai.onnx"; symshape keeps
// "" everywhere (nodes, opset maps, rule and schema tables), so every domain
// read from outside goes through canonical_domain once.
constexpr std::string_view canonical_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}
// The domain as messages write it ("ai.onnx" for "").
constexpr std::string_view domain_title(std::string_view domain) {
  return domain.empty() ? std::string_view("ai.onnx") : domain;
}

// An operator or function as messages and tables name it: "MatMul" in
// ai.onnx, "com.microsoft::Attention" in another domain.
inline std::string qualified_op(std::string_view domain, std::string_view op_type) {
  domain = canonical_domain(domain);
  std::string s;
  if (!domain.empty()) s.append(domain).append("::");
  return s.append(op_type);
}

struct Node {
  std::string name;
  std::string op_type;
  BoxedString domain;              // "" is ai.onnx, as almost every node has it: one pointer
  SmallVector<Value*, 4> inputs;   // nullptr for an omitted optional input
  SmallVector<Value*, 2> outputs;  // nullptr for an omitted optional output
  std::vector<Attribute> attributes;

  const Attribute* attr(std::string_view n) const {
    for (const auto& a : attributes)
      if (a.name == n) return &a;
    return nullptr;
  }
  // The attribute `n` if it has kind k; else nullptr. These accessors read
  // an attribute of another kind as absent, silently: rules read attributes
  // through Context (ctx.attr_int(n, ...)), which reports such a node.
  const Attribute* attr_of_kind(std::string_view n, Attribute::Kind k) const {
    const Attribute* a = attr(n);
    return a && a->kind == k ? a : nullptr;
  }
  int64_t attr_int(std::string_view n, int64_t fallback) const {
    const Attribute* a = attr_of_kind(n, Attribute::Kind::Int);
    return a ? a->i : fallback;
  }
  double attr_float(std::string_view n, double fallback) const {
    const Attribute* a = attr_of_kind(n, Attribute::Kind::Float);
    return a ? a->f : fallback;
  }
  std::string attr_string(std::string_view n, std::string fallback = {}) const {
    const Attribute* a = attr_of_kind(n, Attribute::Kind::String);
    return a ? std::string(a->s.get()) : fallback;
  }
  std::optional<std::vector<int64_t>> attr_ints(std::string_view n) const {
    const Attribute* a = attr_of_kind(n, Attribute::Kind::Ints);
    if (!a) return std::nullopt;
    return std::vector<int64_t>(a->ints.begin(), a->ints.end());
  }
  // The i-th input, or nullptr when absent or omitted.
  Value* input(std::size_t i) const { return i < inputs.size() ? inputs[i] : nullptr; }
  Value* output(std::size_t i) const { return i < outputs.size() ? outputs[i] : nullptr; }
  // Name for messages: the node name, else its op_type.
  std::string display_name() const { return name.empty() ? op_type : name; }
};

struct Graph {
  std::string name;
  Graph* parent = nullptr;          // outer scope of a subgraph
  StablePool<Value> values;         // iterate as Value*
  StablePool<Node> nodes;           // in file order; iterate as Node*
  StablePool<Tensor> initializers;  // iterate as Tensor*
  std::vector<Value*> inputs;
  std::vector<Value*> outputs;
  NameIndex<Value> by_name;  // this graph's named values (keyed on Value::name, which never changes)

  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // The value of that name in this graph or an enclosing one, or nullptr.
  Value* find(std::string_view n) const {
    for (const Graph* g = this; g; g = g->parent)
      if (Value* v = g->by_name.find(n)) return v;
    return nullptr;
  }
  // The value of that name in this graph's scope, created here if new.
  Value* value(std::string_view n) {
    if (Value* v = find(n)) return v;
    return create_value(n);
  }
  // A new value of this graph; it takes over the name from any value of
  // this graph that had it.
  Value* create_value(std::string_view n) {
    Value* v = values.add();
    v->name = n;
    if (!n.empty()) by_name.assign(v);
    return v;
  }
  Node* create_node() { return nodes.add(); }
};

// A model-local function: a body graph whose inputs and outputs are the
// function's formal parameters, in order.
struct Function {
  std::string domain;
  std::string name;
  std::vector<std::string> attribute_names;
  std::vector<Attribute> attribute_defaults;
  std::map<std::string, int64_t> opset_imports;
  std::shared_ptr<Graph> body = std::make_shared<Graph>();
};

struct Model {
  int64_t ir_version = 8;
  std::map<std::string, int64_t> opset_imports;  // domain ("" for ai.onnx) -> version
  std::unique_ptr<Graph> graph = std::make_unique<Graph>();
  std::vector<Function> functions;

  const Function* function(std::string_view domain, std::string_view name) const {
    for (const auto& f : functions)
      if (f.domain == domain && f.name == name) return &f;
    return nullptr;
  }

  int64_t opset(const std::string& domain) const {
    auto it = opset_imports.find(std::string(canonical_domain(domain)));
    return it == opset_imports.end() ? 0 : it->second;
  }
};

}  // namespace symshape
