// The ONNX adapter, writing side: inferred types go back into the ModelProto
// the model was loaded from, as value_info (every intermediate value, in the
// main graph and in subgraphs) and as the types of graph outputs. Dims are
// written as dim_value when they are integers and as dim_param holding the
// canonical expression text otherwise ("past+seq", "(H+1)//2"); a dim that is
// still unknown gets a fresh name (`_dN`, unused elsewhere in the model), so
// that every dim of the output file is named.
//
//   Result<::onnx::ModelProto> proto = onnx::read_model_proto(path);
//   Result<Model> model = onnx::load_model_proto(*proto);
//   infer_shapes(model.value());
//   onnx::write_inferred_types(*model, proto.value());
//   onnx::save_model_file(*proto, out_path);
//
// Files are written safely (symshape::PendingFile, output_file.hpp). External
// data of initializers is never read or rewritten, but its relative
// locations can be re-expressed from another folder (relocate_external_data).
#pragma once

// clang-format off
#include "symshape/onnx/proto.hpp"  // first: ONNX_ML / ONNX_NAMESPACE defaults
// clang-format on

#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/external_data_paths.hpp"
#include "symshape/onnx/written_types.hpp"
#include "symshape/support/output_file.hpp"
#include "symshape/support/result.hpp"

namespace symshape::onnx {

namespace detail {

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
  if (depth > kMaxSubgraphNesting) return;
  // Intermediate values of this graph, in node order.
  std::vector<const Value*> values;
  std::unordered_set<std::string> names;
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v && writes_value_info(*v) && names.insert(v->name).second) values.push_back(v);
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
      if (ap.has_g() && a->graphs.size() == 1 && a->graphs[0])
        write_graph(*a->graphs[0], *ap.mutable_g(), fresh, depth + 1);
      if (ap.graphs_size() > 0 && static_cast<std::size_t>(ap.graphs_size()) == a->graphs.size())
        for (int k = 0; k < ap.graphs_size(); ++k)
          if (a->graphs[static_cast<std::size_t>(k)])
            write_graph(*a->graphs[static_cast<std::size_t>(k)], *ap.mutable_graphs(k), fresh, depth + 1);
    }
  }
}

inline void strip_graph(::onnx::GraphProto& p, int depth) {
  if (depth > kMaxSubgraphNesting) return;
  p.clear_value_info();
  for (auto& out : *p.mutable_output()) out.clear_type();
  for (auto& n : *p.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) strip_graph(*a.mutable_g(), depth + 1);
      for (auto& sub : *a.mutable_graphs()) strip_graph(sub, depth + 1);
    }
}

inline void collect_proto_graph_symbols(const ::onnx::GraphProto& p, std::set<std::string>& out, int depth) {
  if (depth > kMaxSubgraphNesting) return;
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
// untouched. Graph inputs keep their declared types, except those named in
// `inputs_too` (e.g. inputs whose shape the caller replaced), which are
// written from the model as well.
inline void write_inferred_types(const Model& model, ::onnx::ModelProto& proto,
                                 const std::vector<std::string>& inputs_too = {}) {
  std::set<std::string> used;
  detail::collect_graph_symbols(*model.graph, used);
  detail::collect_proto_graph_symbols(proto.graph(), used, 0);
  detail::FreshDims fresh(std::move(used));
  for (const std::string& name : inputs_too)
    for (auto& in : *proto.mutable_graph()->mutable_input())
      if (in.name() == name) {
        const Value* v = model.graph->find(name);
        if (v && detail::writable(v->type)) detail::write_type(v->type, *in.mutable_type(), fresh);
      }
  detail::write_graph(*model.graph, *proto.mutable_graph(), fresh, 0);
}

// Removes value_info and the types of graph outputs, in the main graph and
// in subgraphs (for running inference from the inputs alone).
inline void strip_inferred_types(::onnx::ModelProto& proto) { detail::strip_graph(*proto.mutable_graph(), 0); }

// ---- external data ----

namespace detail {

template <class Fn>
void for_each_tensor_in_graph(::onnx::GraphProto& g, Fn& fn, int depth);

template <class Fn>
void for_each_tensor_in_nodes(google::protobuf::RepeatedPtrField<::onnx::NodeProto>& nodes, Fn& fn, int depth) {
  for (auto& n : nodes)
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_t()) fn(*a.mutable_t());
      for (auto& t : *a.mutable_tensors()) fn(t);
      if (a.has_sparse_tensor()) {
        fn(*a.mutable_sparse_tensor()->mutable_values());
        fn(*a.mutable_sparse_tensor()->mutable_indices());
      }
      for (auto& st : *a.mutable_sparse_tensors()) {
        fn(*st.mutable_values());
        fn(*st.mutable_indices());
      }
      if (a.has_g()) for_each_tensor_in_graph(*a.mutable_g(), fn, depth + 1);
      for (auto& sub : *a.mutable_graphs()) for_each_tensor_in_graph(sub, fn, depth + 1);
    }
}

template <class Fn>
void for_each_tensor_in_graph(::onnx::GraphProto& g, Fn& fn, int depth) {
  if (depth > kMaxSubgraphNesting) return;
  for (auto& t : *g.mutable_initializer()) fn(t);
  for (auto& st : *g.mutable_sparse_initializer()) {
    fn(*st.mutable_values());
    fn(*st.mutable_indices());
  }
  for_each_tensor_in_nodes(*g.mutable_node(), fn, depth);
}

// Calls fn(TensorProto&) for every tensor of the model: initializers, sparse
// initializers, tensor attributes, in subgraphs and model-local functions.
template <class Fn>
void for_each_tensor(::onnx::ModelProto& proto, Fn fn) {
  for_each_tensor_in_graph(*proto.mutable_graph(), fn, 0);
  for (auto& f : *proto.mutable_functions()) for_each_tensor_in_nodes(*f.mutable_node(), fn, 0);
}

inline bool is_external(const ::onnx::TensorProto& t) {
  return t.has_data_location() && t.data_location() == ::onnx::TensorProto_DataLocation_EXTERNAL;
}

// The `location` entry of an external tensor; nullptr when it has none.
inline ::onnx::StringStringEntryProto* location_entry(::onnx::TensorProto& t) {
  for (auto& e : *t.mutable_external_data())
    if (e.key() == "location") return &e;
  return nullptr;
}

}  // namespace detail

// The data files named by the model's external tensors (relative locations
// seen from `model_dir`, the folder of the model file), each once. The files
// are not opened.
inline std::vector<std::string> external_data_files(::onnx::ModelProto& proto, const std::string& model_dir) {
  std::vector<std::string> out;
  detail::for_each_tensor(proto, [&](::onnx::TensorProto& t) {
    if (!detail::is_external(t)) return;
    const ::onnx::StringStringEntryProto* e = detail::location_entry(t);
    if (!e || e->value().empty()) return;
    const std::string f = detail::external_file(model_dir, e->value()).string();
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  });
  return out;
}

// Re-expresses the relative `location` of every external tensor so that it
// names the same data file from `to_dir` (the folder the model is written to)
// as it did from `from_dir` (the folder it was read from). Absolute locations
// stay. The data files are neither read nor written. Failure (nothing
// changed) when a tensor has no usable location, or when its data file is not
// inside `to_dir`: ONNX locations are relative paths without '..' (ONNX's
// ExternalData.md; the ONNX loaders strip or refuse it), so such a file
// cannot be named from there. The message names the tensor.
inline Result<bool> relocate_external_data(::onnx::ModelProto& proto, const std::string& from_dir,
                                           const std::string& to_dir) {
  const std::filesystem::path to = detail::canonical_dir(to_dir);
  if (detail::canonical_dir(from_dir) == to) return true;
  std::string error;
  std::vector<std::pair<::onnx::StringStringEntryProto*, std::string>> changes;
  detail::for_each_tensor(proto, [&](::onnx::TensorProto& t) {
    if (!error.empty() || !detail::is_external(t)) return;
    ::onnx::StringStringEntryProto* e = detail::location_entry(t);
    Result<std::optional<std::string>> moved =
        detail::relocated_location(t.name(), e ? &e->value() : nullptr, from_dir, to);
    if (!moved)
      error = moved.error();
    else if (*moved)
      changes.emplace_back(e, **moved);
  });
  if (!error.empty()) return Result<bool>::failure(error);
  for (auto& [entry, location] : changes) entry->set_value(location);
  return true;
}

// ---- writing files ----

// A Writer of a model; `proto` must outlive the PendingFile.
inline Result<PendingFile::Writer> model_writer(const ::onnx::ModelProto& proto, const std::string& path) {
  if (proto.ByteSizeLong() > static_cast<std::size_t>(INT_MAX))
    return Result<PendingFile::Writer>::failure("file " + path +
                                                ": the model is larger than 2 GB and cannot be serialized");
  return Result<PendingFile::Writer>(PendingFile::Writer([&proto](int fd) {
    google::protobuf::io::FileOutputStream out(fd);
    const bool ok = proto.SerializeToZeroCopyStream(&out);
    return out.Flush() && ok;
  }));
}

// Writes `proto` to `path` safely (PendingFile): on any failure PATH is left
// as it was. Relative external-data locations are written as they are (see
// relocate_external_data).
inline Result<bool> save_model_file(const ::onnx::ModelProto& proto, const std::string& path) {
  Result<PendingFile::Writer> w = model_writer(proto, path);
  if (!w) return Result<bool>::failure(w.error());
  Result<PendingFile> f = PendingFile::prepare(path, std::move(w.value()));
  if (!f) return Result<bool>::failure(f.error());
  return f.value().commit();
}

}  // namespace symshape::onnx
