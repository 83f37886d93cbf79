// The ONNX adapter, shared by the two writers (save.hpp writes a ModelProto,
// splice.hpp splices the file's bytes): which types are written, and the
// fresh names of unknown dims (`_dN`, unused elsewhere in the model).
// No protobuf here.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/load.hpp"  // kMaxSubgraphNesting

namespace symshape::onnx::detail {

// Fresh names for unknown dims, avoiding every symbol used in the model.
class FreshDims {
 public:
  explicit FreshDims(std::set<std::string> used) : used_(std::move(used)), collected_(true) {}
  // The used symbols are collected by `collect` on the first next(): most
  // models need no fresh name, and the collection walks the whole model.
  explicit FreshDims(std::function<std::set<std::string>()> collect) : collect_(std::move(collect)) {}
  std::string next() {
    if (!collected_) {
      used_ = collect_();
      collected_ = true;
    }
    for (;;) {
      std::string name = "_d" + std::to_string(next_++);
      if (used_.insert(name).second) return name;
    }
  }

 private:
  std::set<std::string> used_;
  std::function<std::set<std::string>()> collect_;
  bool collected_ = false;
  int64_t next_ = 0;
};

inline void collect_type_symbols(const Type& t, std::set<std::string>& out) {
  if (t.is_tensor_like()) {
    for (auto& s : t.shape().free_symbols()) out.insert(s);
  } else if (t.inner()) {
    collect_type_symbols(*t.inner(), out);
  }
}

inline void collect_graph_symbols(const Graph& g, std::set<std::string>& out, int depth = 0) {
  if (depth > kMaxSubgraphNesting) return;
  for (const auto& v : g.values) collect_type_symbols(v->type, out);
  for (const auto& n : g.nodes)
    for (const auto& a : n->attributes)
      for (const auto& sub : a.graphs)
        if (sub) collect_graph_symbols(*sub, out, depth + 1);
}

// Whether a type can be written as a valid TypeProto (tensors need an element type).
inline bool writable(const Type& t) {
  switch (t.kind()) {
    case Type::Kind::Tensor:
    case Type::Kind::SparseTensor:
      return t.elem_type() != DataType::UNDEFINED;
    case Type::Kind::Sequence:
    case Type::Kind::Optional:
    case Type::Kind::Map:
      return t.inner() && writable(*t.inner());
    default:
      return false;
  }
}

// Whether writing t takes fresh names: an unknown dim in its shape, or in
// the shape of a type inside it.
inline bool takes_fresh_names(const Type& t) {
  if (t.is_tensor_like()) {
    if (!t.shape().has_rank()) return false;
    for (const SymbolicDim& d : t.shape().dims())
      if (!d.is_known()) return true;
    return false;
  }
  return t.inner() && takes_fresh_names(*t.inner());
}

}  // namespace symshape::onnx::detail

namespace symshape::onnx {

// Whether the writers write a value_info of their own for the value v of a
// graph, with v's type as the IR has it: v is a named node output, neither a
// graph input nor a graph output, and its type is writable. The file's
// value_info of that name is dropped, so no other written entry shares it.
inline bool writes_value_info(const Value& v) {
  return v.producer && !v.name.empty() && !v.is_graph_output && !v.is_graph_input && detail::writable(v.type);
}

}  // namespace symshape::onnx
