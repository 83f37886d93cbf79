// The ONNX adapter, writing side: inferred types go back into the ModelProto
// the model was loaded from, as value_info (every intermediate value, in the
// main graph and in subgraphs) and as the types of graph outputs. Dims are
// written as dim_value when they are integers and as dim_param holding the
// canonical expression text otherwise ("past+seq", "(H+1)//2"); a dim that is
// still unknown gets a fresh name (`_dN`, unused elsewhere in the model), so
// that every dim of the output file is named.
//
//   Result<onnx::ModelProto> proto = io::read_model_proto(path);
//   Result<Model> model = io::load_model_proto(*proto);
//   infer_shapes(model.value());
//   io::write_inferred_types(*model, proto.value());
//   io::save_model_file(*proto, out_path);
#pragma once

#include "symshape/onnx/load.hpp"  // first: ONNX_ML / ONNX_NAMESPACE defaults

#include <onnx/onnx_pb.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "symshape/ir/graph.hpp"
#include "symshape/support/result.hpp"

namespace symshape::io {

namespace detail {

// Fresh names for unknown dims, avoiding every symbol used in the model.
class FreshDims {
 public:
  explicit FreshDims(std::set<std::string> used) : used_(std::move(used)) {}
  std::string next() {
    for (;;) {
      std::string name = "_d" + std::to_string(next_++);
      if (used_.insert(name).second) return name;
    }
  }

 private:
  std::set<std::string> used_;
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
  if (depth > kMaxNesting) return;
  for (const auto& v : g.values) collect_type_symbols(v->type, out);
  for (const auto& n : g.nodes)
    for (const auto& a : n->attributes)
      for (const auto& sub : a.graphs)
        if (sub) collect_graph_symbols(*sub, out, depth + 1);
}

inline void collect_proto_symbols(const ::onnx::TypeProto& t, std::set<std::string>& out, int depth = 0) {
  if (depth > kMaxNesting) return;
  const ::onnx::TensorShapeProto* shape = nullptr;
  if (t.has_tensor_type() && t.tensor_type().has_shape()) shape = &t.tensor_type().shape();
  if (t.has_sparse_tensor_type() && t.sparse_tensor_type().has_shape()) shape = &t.sparse_tensor_type().shape();
  if (shape)
    for (const auto& d : shape->dim())
      if (d.has_dim_param()) out.insert(d.dim_param());
  if (t.has_sequence_type()) collect_proto_symbols(t.sequence_type().elem_type(), out, depth + 1);
  if (t.has_optional_type()) collect_proto_symbols(t.optional_type().elem_type(), out, depth + 1);
  if (t.has_map_type()) collect_proto_symbols(t.map_type().value_type(), out, depth + 1);
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

inline void write_shape(const Shape& s, ::onnx::TensorShapeProto& p, FreshDims& fresh) {
  p.Clear();
  for (const auto& d : s.dims()) {
    auto* dim = p.add_dim();
    if (d.is_int() && d.value() >= 0)
      dim->set_dim_value(d.value());
    else if (d.is_known())
      dim->set_dim_param(d.to_string());
    else
      dim->set_dim_param(fresh.next());
  }
}

inline void write_type(const Type& t, ::onnx::TypeProto& p, FreshDims& fresh) {
  p.Clear();
  switch (t.kind()) {
    case Type::Kind::Tensor: {
      auto* tt = p.mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem_type()));
      if (t.shape().has_rank()) write_shape(t.shape(), *tt->mutable_shape(), fresh);
      break;
    }
    case Type::Kind::SparseTensor: {
      auto* tt = p.mutable_sparse_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem_type()));
      if (t.shape().has_rank()) write_shape(t.shape(), *tt->mutable_shape(), fresh);
      break;
    }
    case Type::Kind::Sequence:
      write_type(*t.inner(), *p.mutable_sequence_type()->mutable_elem_type(), fresh);
      break;
    case Type::Kind::Optional:
      write_type(*t.inner(), *p.mutable_optional_type()->mutable_elem_type(), fresh);
      break;
    case Type::Kind::Map:
      p.mutable_map_type()->set_key_type(static_cast<int32_t>(t.elem_type()));
      write_type(*t.inner(), *p.mutable_map_type()->mutable_value_type(), fresh);
      break;
    default:
      break;
  }
}

inline void write_graph(const Graph& g, ::onnx::GraphProto& p, FreshDims& fresh, int depth) {
  if (depth > kMaxNesting) return;
  // Intermediate values of this graph, in node order.
  std::vector<const Value*> values;
  std::unordered_set<std::string> names;
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v && !v->name.empty() && !v->is_graph_output && !v->is_graph_input && writable(v->type) &&
          names.insert(v->name).second)
        values.push_back(v);
  // Keep value_info entries of other values, replace those of ours.
  google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> kept;
  for (auto& vi : *p.mutable_value_info())
    if (!names.count(vi.name())) *kept.Add() = std::move(vi);
  p.mutable_value_info()->Swap(&kept);
  for (const Value* v : values) {
    auto* vi = p.add_value_info();
    vi->set_name(v->name);
    write_type(v->type, *vi->mutable_type(), fresh);
  }
  // Graph outputs.
  for (auto& out : *p.mutable_output()) {
    const Value* v = g.find(out.name());
    if (v && writable(v->type)) write_type(v->type, *out.mutable_type(), fresh);
  }
  // Subgraphs: the IR keeps the proto's node and attribute order.
  if (static_cast<std::size_t>(p.node_size()) != g.nodes.size()) return;
  for (int i = 0; i < p.node_size(); ++i) {
    const Node& n = *g.nodes[static_cast<std::size_t>(i)];
    auto& np = *p.mutable_node(i);
    if (np.op_type() != n.op_type) continue;
    for (auto& ap : *np.mutable_attribute()) {
      const Attribute* a = n.attr(ap.name());
      if (!a) continue;
      if (ap.has_g() && a->graphs.size() == 1 && a->graphs[0]) write_graph(*a->graphs[0], *ap.mutable_g(), fresh, depth + 1);
      if (ap.graphs_size() > 0 && static_cast<std::size_t>(ap.graphs_size()) == a->graphs.size())
        for (int k = 0; k < ap.graphs_size(); ++k)
          if (a->graphs[static_cast<std::size_t>(k)])
            write_graph(*a->graphs[static_cast<std::size_t>(k)], *ap.mutable_graphs(k), fresh, depth + 1);
    }
  }
}

inline void strip_graph(::onnx::GraphProto& p, int depth) {
  if (depth > kMaxNesting) return;
  p.clear_value_info();
  for (auto& out : *p.mutable_output()) out.clear_type();
  for (auto& n : *p.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) strip_graph(*a.mutable_g(), depth + 1);
      for (auto& sub : *a.mutable_graphs()) strip_graph(sub, depth + 1);
    }
}

inline void collect_proto_graph_symbols(const ::onnx::GraphProto& p, std::set<std::string>& out, int depth) {
  if (depth > kMaxNesting) return;
  for (const auto& v : p.input()) collect_proto_symbols(v.type(), out);
  for (const auto& v : p.output()) collect_proto_symbols(v.type(), out);
  for (const auto& v : p.value_info()) collect_proto_symbols(v.type(), out);
  for (const auto& n : p.node())
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_proto_graph_symbols(a.g(), out, depth + 1);
      for (const auto& sub : a.graphs()) collect_proto_graph_symbols(sub, out, depth + 1);
    }
}

}  // namespace detail

// Writes the types of `model` (inferred from `proto`) into `proto`: value_info
// for every intermediate value of the main graph and of subgraphs, and the
// types of graph outputs. Values whose type is unknown (or a tensor without
// element type) are left as they were; everything else in the proto is
// untouched.
inline void write_inferred_types(const Model& model, ::onnx::ModelProto& proto) {
  std::set<std::string> used;
  detail::collect_graph_symbols(*model.graph, used);
  detail::collect_proto_graph_symbols(proto.graph(), used, 0);
  detail::FreshDims fresh(std::move(used));
  detail::write_graph(*model.graph, *proto.mutable_graph(), fresh, 0);
}

// Removes value_info and the types of graph outputs, in the main graph and
// in subgraphs (for running inference from the inputs alone).
inline void strip_inferred_types(::onnx::ModelProto& proto) { detail::strip_graph(*proto.mutable_graph(), 0); }

// Writes `proto` to `path` atomically: to PATH.tmp, then renamed over PATH.
// On any failure the temporary file is removed and PATH is left as it was.
inline Result<bool> save_model_file(const ::onnx::ModelProto& proto, const std::string& path) {
  const std::size_t size = proto.ByteSizeLong();
  if (size > static_cast<std::size_t>(INT_MAX))
    return Result<bool>::failure("file " + path + ": the model is larger than 2 GB and cannot be serialized");
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      const int err = errno;
      return Result<bool>::failure("file " + path + ": cannot write " + tmp + " (" + std::strerror(err) + ")");
    }
    const bool ok = proto.SerializeToOstream(&out);
    out.flush();
    const bool good = ok && out.good();
    out.close();
    if (!good || out.fail()) {
      std::remove(tmp.c_str());
      return Result<bool>::failure("file " + path + ": writing " + tmp + " failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return Result<bool>::failure("file " + path + ": cannot rename " + tmp + " (" + std::strerror(err) + ")");
  }
  return true;
}

}  // namespace symshape::io
