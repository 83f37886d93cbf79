// The ONNX adapter, loading side: an ONNX file's bytes become a
// symshape::Model. The file is mapped (mapped_file.hpp) and its protobuf wire
// format read in place (wire.hpp, views.hpp): weights are never copied nor
// decoded (only small tensors' values), external data is never opened. The
// header needs neither libprotobuf nor onnx_proto; proto.hpp bridges the
// generated ModelProto for users who hold one in memory (load_model_proto,
// read_model_proto).
//
//   Result<Model> m = symshape::onnx::load_model_file("model.onnx");
//   if (!m) { puts(m.error().c_str()); return 1; }
//
// Nothing here throws or crashes on a bad model: every problem becomes the
// error of the returned Result (naming the file, node and value).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/views.hpp"
#include "symshape/onnx/wire.hpp"
#include "symshape/support/checked_int.hpp"
#include "symshape/support/mapped_file.hpp"
#include "symshape/support/read_progress.hpp"
#include "symshape/support/result.hpp"
#include "symshape/types.hpp"

namespace symshape::onnx {

// Small tensors whose values are kept (shapes, axes, pads, Resize scales).
inline constexpr int64_t kMaxKeptElements = 64;
// Nesting limit of types (sequence of optional of ...).
inline constexpr int kMaxNesting = 64;
// Nesting limit of subgraphs (If inside If ...), the same as the engine's
// kMaxSubgraphDepth. Half of it in WebAssembly, whose calls run on the
// JavaScript engine's stack (about 1 MB in V8): If nested 1000 deep
// exhausted it there (web/wasm, docs/wasm.md).
#ifdef __EMSCRIPTEN__
inline constexpr int kMaxSubgraphNesting = 512;
#else
inline constexpr int kMaxSubgraphNesting = 1024;
#endif
// Protobuf's message nesting limit when reading a file (its default is 100):
// each subgraph level takes three messages (GraphProto, NodeProto,
// AttributeProto), so kMaxSubgraphNesting levels fit, with their types;
// deeper files fail to parse.
inline constexpr int kProtobufRecursionLimit = 10000;

namespace detail {

template <class T>
Result<T> fail(std::string message) {
  return Result<T>::failure(std::move(message));
}

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

// Reads `n` little-endian elements of `size` bytes from raw_data; nothing when
// the data does not hold exactly n of them.
template <class Out, class Convert>
std::optional<std::vector<Out>> read_raw(std::string_view raw, int64_t n, std::size_t size, Convert convert) {
  if (n < 0 || raw.size() != static_cast<std::size_t>(n) * size) return std::nullopt;
  std::optional<std::vector<Out>> out(std::in_place);
  out->reserve(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = 0;
    for (std::size_t b = 0; b < size; ++b)
      bits |= static_cast<uint64_t>(static_cast<unsigned char>(raw[static_cast<std::size_t>(i) * size + b])) << (8 * b);
    out->push_back(convert(bits));
  }
  return out;
}

inline int64_t sign_extend(uint64_t bits, std::size_t size) {
  if (size >= 8) {
    int64_t v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  const uint64_t sign = uint64_t{1} << (8 * size - 1);
  if (bits & sign) bits |= ~((sign << 1) - 1);
  int64_t v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// Width in bytes of an integer (or bool) element type and whether it is
// signed; width 0 for every other type.
struct IntLayout {
  std::size_t size = 0;
  bool is_signed = true;
};

inline IntLayout int_layout(DataType dtype) {
  switch (dtype) {
    case DataType::INT64:
      return {8, true};
    case DataType::UINT64:
      return {8, false};
    case DataType::INT32:
      return {4, true};
    case DataType::UINT32:
      return {4, false};
    case DataType::INT16:
      return {2, true};
    case DataType::UINT16:
      return {2, false};
    case DataType::INT8:
      return {1, true};
    case DataType::UINT8:
    case DataType::BOOL:
      return {1, false};
    default:
      return {};
  }
}

// The n values of a typed field (`number`, read as `elem`) converted, or
// nothing when it does not hold exactly n of them.
template <class Out, class Convert>
std::optional<std::vector<Out>> read_typed(const view::TensorView& p, uint32_t number, view::Elem elem, int64_t have,
                                           int64_t n, Convert convert) {
  if (have != n) return std::nullopt;
  std::optional<std::vector<Out>> out(std::in_place);
  out->reserve(static_cast<std::size_t>(n));
  p.values(number, elem, [&](uint64_t bits) { out->push_back(convert(bits)); });
  return out;
}

// The n values of an integer or bool tensor, from raw_data or the typed
// field; nothing when the count does not match or a value is beyond int64.
inline std::optional<std::vector<int64_t>> read_int_data(const view::TensorView& p, DataType dtype, int64_t n,
                                                         IntLayout layout) {
  using view::Elem;
  std::optional<std::vector<int64_t>> v;
  if (p.has_raw_data) {
    v = read_raw<int64_t>(p.raw_data.view(), n, layout.size, [&](uint64_t bits) {
      return layout.is_signed ? sign_extend(bits, layout.size) : static_cast<int64_t>(bits);
    });
  } else if (dtype == DataType::INT64) {
    v = read_typed<int64_t>(p, fields::TensorProto::kInt64Data, Elem::kVarint, p.int64_n, n, view::as_i64);
  } else if (dtype == DataType::UINT64 || dtype == DataType::UINT32) {
    v = read_typed<int64_t>(p, fields::TensorProto::kUint64Data, Elem::kVarint, p.uint64_n, n, view::as_i64);
    if (v)
      for (int64_t x : *v)
        if (x < 0) return std::nullopt;  // beyond int64
  } else {
    v = read_typed<int64_t>(p, fields::TensorProto::kInt32Data, Elem::kVarint, p.int32_n, n,
                            [](uint64_t u) { return int64_t{view::as_i32(u)}; });
  }
  if (v && dtype == DataType::UINT64)
    for (int64_t x : *v)
      if (x < 0) return std::nullopt;  // beyond int64
  return v;
}

// The n values of a FLOAT or DOUBLE tensor, from raw_data or the typed field;
// nothing when the count does not match.
inline std::optional<std::vector<double>> read_float_data(const view::TensorView& p, DataType dtype, int64_t n) {
  using view::Elem;
  const bool is_float = dtype == DataType::FLOAT;
  if (p.has_raw_data && is_float)
    return read_raw<double>(p.raw_data.view(), n, 4, [](uint64_t bits) { return double{view::as_float(bits)}; });
  if (p.has_raw_data) return read_raw<double>(p.raw_data.view(), n, 8, view::as_double);
  if (is_float)
    return read_typed<double>(p, fields::TensorProto::kFloatData, Elem::kFixed32, p.float_n, n,
                              [](uint64_t u) { return double{view::as_float(u)}; });
  return read_typed<double>(p, fields::TensorProto::kDoubleData, Elem::kFixed64, p.double_n, n, view::as_double);
}

// Reads the values of a small tensor into t (leaves has_data false when the
// stored data does not match the dims or the type is not kept).
inline void read_small_data(const view::TensorView& p, Tensor& t, int64_t n) {
  if (const IntLayout layout = int_layout(t.dtype); layout.size) {  // integers and bool
    std::optional<std::vector<int64_t>> v = read_int_data(p, t.dtype, n, layout);
    if (!v) return;
    t.int_data = std::move(*v);
    t.has_data = true;
  } else if (t.dtype == DataType::FLOAT || t.dtype == DataType::DOUBLE) {
    std::optional<std::vector<double>> v = read_float_data(p, t.dtype, n);
    if (!v) return;
    t.float_data = std::move(*v);
    t.has_data = true;
  } else if (t.dtype == DataType::STRING && p.string_n == n) {
    t.string_data = p.strings();
    t.has_data = true;
  }
}

// Bytes of raw_data that n elements of `bits` bits need (sub-byte types
// packed); nullopt past int64.
inline std::optional<int64_t> raw_bytes(int64_t n, int bits) {
  int64_t whole = 0;
  if (!checked::mul(n / 8, bits, whole)) return std::nullopt;
  int64_t out = 0;
  if (!checked::add(whole, ((n % 8) * bits + 7) / 8, out)) return std::nullopt;
  return out;
}

// The typed field that holds a dtype's values, its name, and how many values
// n elements take in it (sub-byte types packed into int32_data; complex
// numbers as two values).
struct TypedField {
  const char* name = nullptr;
  int64_t count = 0;
  int64_t expected = 0;
};

inline TypedField typed_field(const view::TensorView& p, DataType dtype, int64_t n) {
  switch (dtype) {
    case DataType::FLOAT:
      return {"float_data", p.float_n, n};
    case DataType::COMPLEX64:
      return {"float_data", p.float_n, n > INT64_MAX / 2 ? -1 : 2 * n};
    case DataType::DOUBLE:
      return {"double_data", p.double_n, n};
    case DataType::COMPLEX128:
      return {"double_data", p.double_n, n > INT64_MAX / 2 ? -1 : 2 * n};
    case DataType::INT64:
      return {"int64_data", p.int64_n, n};
    case DataType::UINT32:
    case DataType::UINT64:
      return {"uint64_data", p.uint64_n, n};
    case DataType::STRING:
      return {"string_data", p.string_n, n};
    case DataType::UNDEFINED:
      return {};
    default:  // one element per value, or one byte of packed sub-byte elements
      return {"int32_data", p.int32_n, element_bits(dtype) >= 8 ? n : raw_bytes(n, element_bits(dtype)).value_or(-1)};
  }
}

// Whether the stored data holds exactly n elements of the tensor's type: an
// error message naming the mismatch, or an empty string. A tensor without
// any data field is dims only (as symshape's own Tensor may be).
inline std::string check_data_size(const view::TensorView& p, DataType dtype, int64_t n) {
  // Built only for a message: most tensors pass.
  const auto elements = [&] { return std::to_string(n) + " element(s) of type " + to_string(dtype); };
  if (p.has_raw_data) {
    if (dtype == DataType::STRING) return "a string tensor cannot have raw_data";
    const std::optional<int64_t> need = raw_bytes(n, element_bits(dtype));
    if (element_bits(dtype) > 0 && (!need || static_cast<uint64_t>(*need) != p.raw_data.size()))
      return "raw_data has " + std::to_string(p.raw_data.size()) + " bytes, " + elements() + " need " +
             (need ? std::to_string(*need) : std::string("more than 2^63"));
    return {};
  }
  const int64_t total = p.float_n + p.int32_n + p.string_n + p.int64_n + p.double_n + p.uint64_n;
  if (total == 0) return {};
  const TypedField f = typed_field(p, dtype, n);
  if (!f.name) return {};
  if (f.count != total)
    return std::string("has values in a field other than ") + f.name + " (the field of type " + to_string(dtype) + ")";
  if (f.count != f.expected)
    return std::string(f.name) + " has " + std::to_string(f.count) + " value(s), " + elements() + " need " +
           std::to_string(f.expected);
  return {};
}

// The external_data fields as ONNX's ExternalData.md defines them (the data
// file itself is never opened): a relative `location` without "..", decimal
// `offset` and `length`, no key twice, no raw_data beside them. An error
// message, or an empty string.
inline std::string check_external_data(const view::TensorView& p) {
  if (p.has_raw_data) return "external data with raw_data in the model as well";
  std::map<std::string, std::string> fields;
  for (const wire::Span& s : p.external_data) {
    const auto kv = view::decode<view::StringPairView>(s);
    if (!fields.emplace(std::string(kv.key), std::string(kv.value)).second)
      return "external_data key '" + std::string(kv.key) + "' given twice";
  }
  const auto location = fields.find("location");
  if (location == fields.end() || location->second.empty()) return "external data without a 'location'";
  const std::filesystem::path path(location->second);
  if (path.is_absolute()) return "external data location '" + location->second + "' is not a relative path";
  for (const auto& part : path)
    if (part == "..") return "external data location '" + location->second + "' leaves the model's folder ('..')";
  for (const char* key : {"offset", "length"}) {
    const auto it = fields.find(key);
    if (it == fields.end()) continue;
    const std::string& v = it->second;
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
      return std::string("external data ") + key + " '" + v + "' is not a non-negative integer";
  }
  return {};
}

}  // namespace detail

namespace detail {

// Reads a TensorProto into t (a fresh Tensor, filled in place: tensors are
// large to move); an error message, built by `what()` only when needed, or
// an empty string.
template <class What>
std::string read_tensor(const view::Msg& m, What&& what, Tensor& t) {
  const view::TensorView p = view::decode_tensor(m);
  t.name.assign(p.name);
  if (!is_valid_data_type(p.data_type)) return what() + ": invalid data type code " + std::to_string(p.data_type);
  t.dtype = static_cast<DataType>(p.data_type);
  t.dims = p.dims;
  for (int64_t d : t.dims)
    if (d < 0) return what() + ": negative dim " + std::to_string(d);
  const std::optional<int64_t> n = t.element_count();
  if (!n) return what() + ": element count overflows int64";
  if (p.has_data_location && p.data_location == static_cast<int>(view::DataLocation::EXTERNAL)) {
    t.external = true;
    if (std::string e = check_external_data(p); !e.empty()) return what() + ": " + e;
    return {};
  }
  if (std::string e = check_data_size(p, t.dtype, *n); !e.empty()) return what() + ": " + e;
  if (*n <= kMaxKeptElements) read_small_data(p, t, *n);
  return {};
}

template <class What>
Result<Tensor> tensor_from_view_named(const view::Msg& m, What&& what) {
  Tensor t;
  std::string error = read_tensor(m, what, t);
  if (!error.empty()) return fail<Tensor>(std::move(error));
  return Result<Tensor>(std::move(t));
}

// A SparseTensorProto as a Tensor: the name and dtype of its values with the
// dense dims (no values kept). `what()` names it in errors.
template <class What>
Result<Tensor> sparse_tensor_from_view_named(const view::SparseTensorView& sp, const What& what) {
  Result<Tensor> values = tensor_from_view_named(sp.values, what);
  if (!values) return values;
  Tensor t;
  t.name = values->name;
  t.dtype = values->dtype;
  for (int64_t d : sp.dims) {
    if (d < 0) return fail<Tensor>(what() + ": negative dim " + std::to_string(d));
    t.dims.push_back(d);
  }
  return Result<Tensor>(std::move(t));
}

// The deepest nesting of '(' in text: a dim_param nested deeper than the
// expression parser takes is refused rather than kept as an opaque name.
inline int bracket_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  for (char c : text) {
    if (c == '(') deepest = std::max(deepest, ++depth);
    if (c == ')' && depth > 0) --depth;
  }
  return deepest;
}

// The dims of a TensorShapeProto.
template <class What>
Result<Shape> shape_from_view(const view::Msg& shape, const What& what) {
  std::vector<SymbolicDim> dims;
  std::string error;
  shape.for_each([&](const wire::Field& f) {
    if (f.number != fields::TensorShapeProto::kDim || f.wire != wire::kLen || !error.empty()) return;
    const auto d = view::decode<view::DimView>(f.bytes);
    if (d.which == fields::TensorShapeProto::Dimension::kDimValue) {
      if (d.value < 0) error = what() + ": negative dim_value " + std::to_string(d.value);
      dims.emplace_back(d.value);
    } else if (d.which == fields::TensorShapeProto::Dimension::kDimParam && !d.param.empty()) {
      if (bracket_depth(d.param) > kMaxParseDepth)
        error = what() + ": dim_param nests brackets deeper than " + std::to_string(kMaxParseDepth) +
                " levels (an expression symshape does not take)";
      else
        dims.emplace_back(d.param);
    } else {
      dims.emplace_back();
    }
  });
  if (!error.empty()) return fail<Shape>(std::move(error));
  return Shape(std::move(dims));
}

// type_from_proto over a view, with `what()` called only to build an error
// message.
template <class What>
Result<Type> type_from_view_named(const view::Msg& m, const What& what, int depth = 0) {
  if (depth > kMaxNesting) return fail<Type>(what() + ": types nested too deeply");
  const auto p = view::decode<view::TypeView>(m);
  auto tensor_like = [&](bool sparse) -> Result<Type> {
    const auto t = view::decode<view::TensorTypeView>(p.value);
    if (!is_valid_data_type(t.elem_type))
      return fail<Type>(what() + ": invalid element type code " + std::to_string(t.elem_type));
    Shape s;
    if (t.shape.present) {
      Result<Shape> shape = shape_from_view(t.shape, what);
      if (!shape) return fail<Type>(shape.error());
      s = std::move(shape.value());
    }
    const auto dt = static_cast<DataType>(t.elem_type);
    return sparse ? Type::sparse_tensor(dt, std::move(s)) : Type::tensor(dt, std::move(s));
  };
  namespace TP = fields::TypeProto;
  switch (p.member) {
    case TP::kTensorType:
      return tensor_like(false);
    case TP::kSparseTensorType:
      return tensor_like(true);
    case TP::kSequenceType:
    case TP::kOptionalType: {
      Result<Type> inner = type_from_view_named(view::decode<view::ElemTypeView>(p.value).elem_type, what, depth + 1);
      if (!inner) return inner;
      return p.member == TP::kSequenceType ? Type::sequence(std::move(inner.value()))
                                           : Type::optional(std::move(inner.value()));
    }
    case TP::kMapType: {
      const auto map = view::decode<view::MapTypeView>(p.value);
      if (!is_valid_data_type(map.key_type))
        return fail<Type>(what() + ": invalid map key type code " + std::to_string(map.key_type));
      Result<Type> inner = type_from_view_named(map.value_type, what, depth + 1);
      if (!inner) return inner;
      return Type::map(static_cast<DataType>(map.key_type), std::move(inner.value()));
    }
    default:
      return Type();
  }
}

}  // namespace detail

namespace detail {

class Loader {
 public:
  std::string error;
  // Told how far the last walk over the main graph's nodes has got (that of
  // create_nodes, then link_nodes' from the first node it could not link),
  // as offsets from `file_begin` (the file's start).
  const char* file_begin = nullptr;
  ReadProgress progress;
  // The budget of nested messages an attribute default (FunctionProto field
  // 11) parses with: libprotobuf's default, as ParseFromString had it.
  static constexpr int kAttributeDefaultBudget = 100;

  bool load_model(const view::ModelView& p, Model& m) {
    m.ir_version = p.ir_version;
    // ONNX's checker refuses a model without an IR version ("does not have an
    // ir_version set properly"); it says which version of the format the file is.
    if (p.ir_version < 1)
      return set_error("ir_version " + std::to_string(p.ir_version) + ": the model does not set its IR version");
    if (!load_opset_imports(p.opset_import, m.opset_imports, "the model")) return false;
    if (!p.graph.present) return set_error("the model has no graph");
    // Functions first: their bodies are independent of the main graph.
    for (const wire::Span& f : p.functions)
      if (!load_function(view::decode<view::FunctionView>(f), m)) return false;
    return load_graph(view::decode<view::GraphView>(p.graph), *m.graph, nullptr, 0, "");
  }

 private:
  std::unordered_map<std::string_view, Type> input_types_;  // (input_type)

  bool set_error(std::string e) {
    if (error.empty()) error = std::move(e);
    return false;
  }

  // Opset imports by domain ("ai.onnx" is ""); a domain listed twice, even
  // as "" and "ai.onnx", or a version below 1 is an error.
  bool load_opset_imports(const std::vector<wire::Span>& imports, std::map<std::string, int64_t>& out,
                          const std::string& owner) {
    for (const wire::Span& s : imports) {
      const auto o = view::decode<view::OpsetView>(s);
      const std::string domain(canonical_domain(o.domain));
      const std::string shown(domain_title(domain));
      if (o.version < 1)
        return set_error(owner + " imports " + shown + " at version " + std::to_string(o.version) +
                         " (opset versions start at 1)");
      if (const auto it = out.find(domain); it != out.end())
        return set_error(owner + " has " + shown + " imported twice in opset_import (versions " +
                         std::to_string(it->second) + " and " + std::to_string(o.version) + ")");
      out[domain] = o.version;
    }
    return true;
  }

  // "node #3 'conv1' (Conv)", as the command names nodes (the index within its graph).
  static std::string node_label(std::size_t index, std::string_view name, std::string_view op_type) {
    return "node #" + std::to_string(index) + (name.empty() ? std::string() : " " + quote(std::string(name))) + " (" +
           std::string(op_type) + ")";
  }
  static std::string node_label(const view::NodeView& n, std::size_t index) {
    return node_label(index, n.name, n.op_type);
  }

  // A deep subgraph's scope (outermost ... innermost), so that its length,
  // and the loader's memory, stay linear in the depth.
  static std::string shorten(std::string scope) {
    constexpr std::size_t kKeep = 200;
    if (scope.size() <= 2 * kKeep + 5) return scope;
    return scope.substr(0, kKeep) + " ... " + scope.substr(scope.size() - kKeep);
  }

  static std::string graph_prefix(const std::string& scope) { return scope.empty() ? std::string() : scope + ": "; }

  // Defines a new value in g: the value, or null (with an error) if g already
  // has one of that name. `by()` names the definer; it is only called to
  // build an error message.
  template <class By>
  Value* define(Graph& g, std::string_view name, const std::string& scope, By&& by) {
    Value* out = g.values.add();
    out->name.assign(name);
    // One hash lookup: insert the new value, or find the one that has the name.
    if (const Value* v = g.by_name.insert(out)) {
      const std::string first = v->producer
                                    ? node_label(g.nodes.index_of(v->producer), v->producer->name, v->producer->op_type)
                                : v->is_graph_input ? "a graph input"
                                                    : "an initializer";
      set_error(graph_prefix(scope) + "value " + quote(std::string(name)) + " is produced twice (by " + first +
                " and by " + by() + ")");
      return nullptr;
    }
    return out;
  }

  // Loads a graph in the steps below; the order matters (see each step).
  bool load_graph(const view::GraphView& p, Graph& g, Graph* parent, int depth, const std::string& scope) {
    if (depth > kMaxSubgraphNesting)
      return set_error(graph_prefix(scope) + "subgraphs nested deeper than " + std::to_string(kMaxSubgraphNesting));
    g.name = std::string(p.name);
    g.parent = parent;
    reserve_graph(p, g);
    const std::size_t first_node = g.nodes.size();
    std::size_t linked = 0;
    return load_inputs(p, g, scope) && load_initializers(p, g, scope) && create_nodes(p, g, depth, scope, linked) &&
           link_nodes(p, g, first_node, linked, depth, scope) && load_value_info(p, g, scope) &&
           load_outputs(p, g, scope);
  }

  // Reserves the containers from the graph's sizes, counting one output per
  // node (most nodes have one; the containers grow past that): counting them
  // exactly took a walk of every node's fields of its own.
  static void reserve_graph(const view::GraphView& p, Graph& g) {
    const std::size_t values = p.input.size() + p.initializer.size() + p.sparse_initializer.size() + p.node.size();
    g.values.reserve(values);
    g.by_name.reserve(g.by_name.size() + values);
    g.nodes.reserve(p.node.size());
    g.inputs.reserve(p.input.size());
    g.initializers.reserve(p.initializer.size() + p.sparse_initializer.size());
  }

  // Step 1: the graph inputs.
  bool load_inputs(const view::GraphView& p, Graph& g, const std::string& scope) {
    for (const view::ValueInfoView& in : p.input) {
      if (in.name.empty()) return set_error(graph_prefix(scope) + "a graph input has no name");
      Value* v = define(g, in.name, scope, [] { return std::string("a graph input"); });
      if (!v) return false;
      v->is_graph_input = true;
      if (in.type.present && !input_type(in, scope, v->type)) return false;
      g.inputs.push_back(v);
    }
    return true;
  }
  // Reads a graph input's declared type into `out`. Inputs share a few types
  // when a model takes its weights as inputs (7 among the 773 inputs of the
  // 48-layer transformer of bench/gen_whole_models.py), so a TypeProto in one
  // piece is decoded once and copied for each later input, of any graph of
  // the model, that repeats its bytes (the name only goes into messages).
  bool input_type(const view::ValueInfoView& in, const std::string& scope, Type& out) {
    const bool one_piece = in.type.more.empty();
    const std::string_view bytes = in.type.first.view();
    if (one_piece)
      if (const auto seen = input_types_.find(bytes); seen != input_types_.end()) {
        out = seen->second;
        return true;
      }
    Result<Type> t = type_from_view_named(
        in.type, [&] { return graph_prefix(scope) + "graph input " + quote(std::string(in.name)); });
    if (!t) return set_error(t.error());
    if (one_piece) input_types_.emplace(bytes, *t);
    out = std::move(t.value());
    return true;
  }

  // Step 2: initializers, dense then sparse (an initializer that is also an
  // input keeps the input's declared type).
  bool load_initializers(const view::GraphView& p, Graph& g, const std::string& scope) {
    for (const wire::Span& init : p.initializer) {
      Tensor* t = g.initializers.add();
      std::string e = read_tensor(
          view::msg_of(init), [&] { return graph_prefix(scope) + "initializer " + quote(t->name); }, *t);
      if (!e.empty()) return set_error(std::move(e));
      if (!add_initializer(g, t, Type(), scope)) return false;
    }
    for (const wire::Span& s : p.sparse_initializer) {
      const auto sp = view::decode<view::SparseTensorView>(s);
      Result<Tensor> t = sparse_tensor_from_view_named(sp, [&] {
        return graph_prefix(scope) + "sparse initializer " + quote(std::string(view::decode_tensor(sp.values).name));
      });
      if (!t) return set_error(t.error());
      std::vector<SymbolicDim> dims(t->dims.begin(), t->dims.end());
      Type type = Type::sparse_tensor(t->dtype, Shape(std::move(dims)));
      Tensor* stored = g.initializers.add();
      *stored = std::move(t.value());
      if (!add_initializer(g, stored, std::move(type), scope)) return false;
    }
    return true;
  }

  // Step 3: every node and its outputs, so that nodes may come in any order.
  // The same walk links the nodes (step 4) while it can: as long as every
  // input of a node is already a value of this graph and no attribute is a
  // subgraph (which may see any node's outputs). From the first node it
  // cannot link, link_nodes walks again: `linked` is how many come before it.
  bool create_nodes(const view::GraphView& p, Graph& g, int depth, const std::string& scope, std::size_t& linked) {
    view::NodeLookahead nodes(p.node);
    const auto prefetch_names = [&g](const view::NodeView& ahead) {
      for (std::string_view out : ahead.output) g.by_name.prefetch(out);
      for (std::string_view in : ahead.input) g.by_name.prefetch(in);
    };
    linked = 0;
    for (std::size_t i = 0; i < p.node.size(); ++i) {
      const bool linking = linked == i;
      if (linking && depth == 0) progress.reached(static_cast<std::size_t>(p.node[i].begin - file_begin));
      const view::NodeView& np = nodes.next(i, prefetch_names);
      Node* n = g.create_node();
      n->name.assign(np.name);
      n->op_type.assign(np.op_type);
      if (!canonical_domain(np.domain).empty()) n->domain = std::string(np.domain);
      n->outputs.reserve(np.output.size());
      for (std::string_view out : np.output) {
        Value* v = nullptr;
        if (!out.empty()) {
          v = define(g, out, scope, [&] { return node_label(np, i); });
          if (!v) return false;
          v->producer = n;
        }
        n->outputs.push_back(v);
      }
      if (!linking) continue;
      if (link_node(np, *n, g, depth, i, scope, Linking::Early) == Linked::Yes) {
        ++linked;
      } else {  // link_nodes starts again from this node
        n->inputs.clear();
        n->attributes.clear();
      }
    }
    return true;
  }

  // Step 4: the inputs and attributes of the nodes from `from` on (those
  // create_nodes could not link; subgraphs see every outer value by now).
  bool link_nodes(const view::GraphView& p, Graph& g, std::size_t first_node, std::size_t from, int depth,
                  const std::string& scope) {
    view::NodeLookahead nodes(p.node, from);
    const auto prefetch_inputs = [&g](const view::NodeView& ahead) {
      for (std::string_view in : ahead.input) g.by_name.prefetch(in);
    };
    for (std::size_t i = from; i < p.node.size(); ++i) {
      // The main graph's nodes are most of a large file, and no later step
      // reads them again. Only the main graph's: function bodies (depth 1)
      // are loaded before it, from the end of the file.
      if (depth == 0) progress.reached(static_cast<std::size_t>(p.node[i].begin - file_begin));
      const view::NodeView& np = nodes.next(i, prefetch_inputs);
      if (link_node(np, *g.nodes[first_node + i], g, depth, i, scope, Linking::Late) == Linked::No) return false;
    }
    return true;
  }

  // Early: in create_nodes' walk, where a later node's output or an outer
  // value is not known yet; such a node, a subgraph attribute or an error
  // leaves the node to link_nodes (No, with no error kept, so that errors
  // come in the order the two walks give them). Late: every value is known;
  // No is an error.
  enum class Linking { Early, Late };
  enum class Linked { No, Yes };
  Linked link_node(const view::NodeView& np, Node& n, Graph& g, int depth, std::size_t i, const std::string& scope,
                   Linking when) {
    const bool early = when == Linking::Early;
    n.inputs.reserve(np.input.size());
    n.attributes.reserve(np.attribute.size());
    for (std::string_view in : np.input) {
      if (in.empty()) {
        n.inputs.push_back(nullptr);
        continue;
      }
      Value* v = early ? g.by_name.find(in) : g.find(in);
      if (!v) {
        if (!early)
          set_error(graph_prefix(scope) + node_label(np, i) + ": input " + quote(std::string(in)) +
                    " is not produced by any node, input or initializer");
        return Linked::No;
      }
      n.inputs.push_back(v);
    }
    using AP = view::AttributeType;
    for (const wire::Span& ap : np.attribute) {  // np is this frame's: subgraphs have their own
      auto a = view::decode<view::AttributeView>(ap);
      if (early && (attribute_type(a) == AP::GRAPH || attribute_type(a) == AP::GRAPHS)) return Linked::No;
      n.attributes.emplace_back();
      if (!load_attribute(std::move(a), n.attributes.back(), g, depth,
                          [&] { return graph_prefix(scope) + node_label(np, i); })) {
        if (early) error.clear();  // link_nodes finds it again, after create_nodes' own errors
        return Linked::No;
      }
    }
    return Linked::Yes;
  }

  // Step 5: value_info, the types of intermediate values (a previous inference).
  bool load_value_info(const view::GraphView& p, Graph& g, const std::string& scope) {
    for (const wire::Span& s : p.value_info) {
      const auto vi = view::decode<view::ValueInfoView>(s);
      Value* v = g.by_name.find(vi.name);
      if (!v || !vi.type.present) continue;
      if (v->is_graph_input || (v->initializer && !v->producer)) continue;
      Result<Type> t = type_from_view_named(
          vi.type, [&] { return graph_prefix(scope) + "value_info " + quote(std::string(vi.name)); });
      if (!t) return set_error(t.error());
      v->type = std::move(t.value());
    }
    return true;
  }

  // Step 6: the graph outputs.
  bool load_outputs(const view::GraphView& p, Graph& g, const std::string& scope) {
    for (const view::ValueInfoView& out : p.output) {
      Value* v = g.find(out.name);
      if (!v || out.name.empty())
        return set_error(graph_prefix(scope) + "graph output " + quote(std::string(out.name)) +
                         " is not produced by any node, input or initializer");
      const bool local = g.by_name.contains(out.name);
      if (local) v->is_graph_output = true;
      if (out.type.present) {
        Result<Type> t = type_from_view_named(
            out.type, [&] { return graph_prefix(scope) + "graph output " + quote(std::string(out.name)); });
        if (!t) return set_error(t.error());
        if (local && (v->producer || v->type.is_unknown())) v->type = std::move(t.value());
      }
      g.outputs.push_back(v);
    }
    return true;
  }

  // Makes `stored` (already in g.initializers) the data of the value of its name.
  bool add_initializer(Graph& g, const Tensor* stored, Type type, const std::string& scope) {
    const std::string& name = stored->name;
    if (name.empty()) return set_error(graph_prefix(scope) + "an initializer has no name");
    Value* v = g.by_name.find(name);
    if (v) {
      if (!v->is_graph_input || v->initializer)
        return set_error(graph_prefix(scope) + "value " + quote(name) + " is produced twice (two initializers)");
    } else {
      v = g.create_value(name);
    }
    v->initializer = stored;
    if (v->type.is_unknown()) v->type = type.is_unknown() ? stored->type() : std::move(type);
    return true;
  }

  // The attribute's type; old models leave it UNDEFINED, and it is guessed
  // from the fields that are set.
  static view::AttributeType attribute_type(const view::AttributeView& p) {
    using AP = view::AttributeType;
    if (p.type != static_cast<int>(AP::UNDEFINED)) return static_cast<AP>(p.type);
    if (p.has_f) return AP::FLOAT;
    if (p.has_i) return AP::INT;
    if (p.has_s) return AP::STRING;
    if (p.t.present) return AP::TENSOR;
    if (p.g.present) return AP::GRAPH;
    if (p.sparse_tensor.present) return AP::SPARSE_TENSOR;
    if (p.tp.present) return AP::TYPE_PROTO;
    if (!p.floats.empty()) return AP::FLOATS;
    if (!p.ints.empty()) return AP::INTS;
    if (!p.strings.empty()) return AP::STRINGS;
    if (!p.tensors.empty()) return AP::TENSORS;
    if (!p.graphs.empty()) return AP::GRAPHS;
    if (!p.sparse_tensors.empty()) return AP::SPARSE_TENSORS;
    if (!p.type_protos.empty()) return AP::TYPE_PROTOS;
    return AP::UNDEFINED;
  }

  // `where()` names the node for messages; it is only called when a message
  // or a subgraph scope is needed (not once per attribute).
  template <class Where>
  bool load_attribute(view::AttributeView&& p, Attribute& a, Graph& g, int depth, Where&& where) {
    using K = Attribute::Kind;
    using AP = view::AttributeType;
    a.name.assign(p.name);
    if (!p.ref_attr_name.empty()) a.ref_attr_name = std::string(p.ref_attr_name);
    auto what = [&] { return where() + ": attribute " + quote(std::string(p.name)); };
    auto subgraph_scope = [&] { return where() + " subgraph " + quote(std::string(p.name)); };
    switch (attribute_type(p)) {
      case AP::FLOAT:
        a.kind = K::Float;
        a.f = p.f;
        return true;
      case AP::INT:
        a.kind = K::Int;
        a.i = p.i;
        return true;
      case AP::STRING:
        a.kind = K::String;
        a.s = std::string(p.s);
        return true;
      case AP::TENSOR:
        a.kind = K::Tensor;
        a.tensors.reserve(1);
        return add_tensor(p.t, what, a);
      case AP::GRAPH:
        a.kind = K::Graph;
        return add_graph(p.g, subgraph_scope, g, depth, a);
      case AP::SPARSE_TENSOR:
        a.kind = K::SparseTensor;
        return add_sparse_tensor(p.sparse_tensor, what, a);
      case AP::TYPE_PROTO:
        a.kind = K::TypeProto;
        return add_type(p.tp, what, a);
      case AP::FLOATS:
        a.kind = K::Floats;
        a.floats = std::move(p.floats);
        return true;
      case AP::INTS:
        a.kind = K::Ints;
        a.ints = std::move(p.ints);
        return true;
      case AP::STRINGS:
        a.kind = K::Strings;
        a.strings.assign(p.strings.begin(), p.strings.end());
        return true;
      default:
        return load_list_attribute(p, a, g, depth, what, subgraph_scope);
    }
  }

  // The attributes holding lists of messages (and the invalid type).
  template <class What, class Scope>
  bool load_list_attribute(const view::AttributeView& p, Attribute& a, Graph& g, int depth, const What& what,
                           const Scope& subgraph_scope) {
    using K = Attribute::Kind;
    using AP = view::AttributeType;
    switch (attribute_type(p)) {
      case AP::TENSORS:
        a.kind = K::Tensors;
        a.tensors.reserve(p.tensors.size());
        for (const wire::Span& t : p.tensors)
          if (!add_tensor(view::msg_of(t), what, a)) return false;
        return true;
      case AP::GRAPHS:
        a.kind = K::Graphs;
        for (const wire::Span& sg : p.graphs)
          if (!add_graph(view::msg_of(sg), subgraph_scope, g, depth, a)) return false;
        return true;
      case AP::SPARSE_TENSORS:
        a.kind = K::SparseTensors;
        for (const wire::Span& sp : p.sparse_tensors)
          if (!add_sparse_tensor(view::msg_of(sp), what, a)) return false;
        return true;
      case AP::TYPE_PROTOS:
        a.kind = K::TypeProtos;
        for (const wire::Span& tp : p.type_protos)
          if (!add_type(view::msg_of(tp), what, a)) return false;
        return true;
      default:
        if (!a.ref_attr_name.empty()) return true;  // a reference to the caller's attribute
        return set_error(what() + ": invalid attribute type " + std::to_string(p.type));
    }
  }

  // The attribute value helpers: each appends one value to `a`, or records
  // the error (named by `what()`) and returns false.
  template <class What>
  bool add_tensor(const view::Msg& tp, const What& what, Attribute& a) {
    std::string e = read_tensor(tp, what, a.tensors.emplace_back());
    return e.empty() || set_error(std::move(e));
  }

  template <class What>
  bool add_sparse_tensor(const view::Msg& sp, const What& what, Attribute& a) {
    Result<Tensor> t = sparse_tensor_from_view_named(view::decode<view::SparseTensorView>(sp), what);
    if (!t) return set_error(t.error());
    a.tensors.push_back(std::move(t.value()));
    return true;
  }

  // `scope()` names the subgraph in its errors.
  template <class Scope>
  bool add_graph(const view::Msg& gp, const Scope& scope, Graph& g, int depth, Attribute& a) {
    auto sub = std::make_shared<Graph>();
    if (!load_graph(view::decode<view::GraphView>(gp), *sub, &g, depth + 1, shorten(scope()))) return false;
    a.graphs.push_back(std::move(sub));
    return true;
  }

  template <class What>
  bool add_type(const view::Msg& tp, const What& what, Attribute& a) {
    Result<Type> t = type_from_view_named(tp, what);
    if (!t) return set_error(t.error());
    a.types.push_back(std::move(t.value()));
    return true;
  }

  bool load_function(const view::FunctionView& p, Model& m) {
    Function f;
    f.domain = std::string(canonical_domain(p.domain));
    f.name = std::string(p.name);
    const std::string scope = "function " + quote(qualified_op(f.domain, f.name));
    if (m.function(f.domain, f.name)) return set_error(scope + " is defined twice");
    f.attribute_names.assign(p.attribute.begin(), p.attribute.end());
    if (!load_opset_imports(p.opset_import, f.opset_imports, scope)) return false;
    // The body as a graph: the formal inputs are graph inputs, in order.
    view::GraphView gp;
    gp.name = p.name;
    for (std::string_view in : p.input) gp.input.push_back({in, {}});
    for (std::string_view out : p.output) gp.output.push_back({out, {}});
    gp.node = p.node;
    if (!load_graph(gp, *f.body, nullptr, 1, scope)) return false;
    // Attribute defaults (FunctionProto.attribute_proto, field 11, ONNX >= 1.13),
    // each parsed on its own as an AttributeProto.
    for (const wire::Span& s : p.attribute_proto) {
      if (!view::check(s.view(), view::kAttribute, kAttributeDefaultBudget))
        return set_error(scope + ": malformed attribute default (attribute_proto)");
      Attribute a;
      if (!load_attribute(view::decode<view::AttributeView>(s), a, *f.body, 1, [&] { return scope; })) return false;
      f.attribute_names.push_back(a.name);
      f.attribute_defaults.push_back(std::move(a));
    }
    m.functions.push_back(std::move(f));
    return true;
  }
};

}  // namespace detail

namespace detail {

// Loads model bytes already checked by view::check; an error message without
// the file's name, or an empty string.
inline std::string load_checked(std::string_view bytes, Model& m, ReadProgress progress = {}) {
  m.opset_imports.clear();
  Loader loader;
  loader.file_begin = bytes.data();
  loader.progress = std::move(progress);
  const auto p = view::decode<view::ModelView>(view::msg_of({bytes.data(), bytes.data() + bytes.size()}));
  if (!loader.load_model(p, m)) return loader.error;
  return {};
}

}  // namespace detail

namespace detail {
// Messages built in memory had no parser's nesting limit: their bytes are
// checked without one (the loader's own limits still apply).
inline constexpr int kUnlimitedBudget = INT_MAX;
}  // namespace detail

// A serialized TypeProto (e.g. one the writer just encoded) as a Type, read
// like the types of a file; `what` names it in errors.
inline Result<Type> type_from_bytes(std::string_view bytes, const std::string& what = "type") {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX) ||
      !view::check(bytes, view::kTypeProto, detail::kUnlimitedBudget))
    return detail::fail<Type>(what + ": not a valid TypeProto");
  return detail::type_from_view_named(view::msg_of({bytes.data(), bytes.data() + bytes.size()}), [&] { return what; });
}

// Loads a model from the bytes of an ONNX file without copying them: the
// protobuf wire format is read in place, weights stay where they are (only
// small tensors' values are decoded), external data is never opened. Errors
// name the file as `name`. With `may_have_external_tensors`, also tells
// whether any tensor of the file, wherever it is, may have external data: the
// wire check sees every tensor's data_location on its way, so a false there
// spares a caller the walk over every tensor that external_data() makes.
// `progress` is told how far the last walk over the main graph's nodes has
// got (offsets in `bytes`): an owner of mapped bytes may let the pages before
// go (MappedFile::release_pages_before).
inline Result<Model> load_model_bytes(std::string_view bytes, const std::string& name,
                                      bool* may_have_external_tensors = nullptr, ReadProgress progress = {}) {
  wire::VarintWatch external{view::kTensor, fields::TensorProto::kDataLocation,
                             static_cast<uint32_t>(view::DataLocation::EXTERNAL)};
  // libprotobuf reads at most 2 GB, and refuses malformed bytes anywhere in
  // the file before anything is loaded: so does this.
  if (bytes.size() > static_cast<std::size_t>(INT_MAX) ||
      !view::check(bytes, view::kModel, kProtobufRecursionLimit, &external))
    return Result<Model>::failure("file " + name + ": not a valid ONNX model (protobuf parse failed)");
  if (may_have_external_tensors) *may_have_external_tensors = external.seen;
  if (!view::decode<view::ModelView>(view::msg_of({bytes.data(), bytes.data() + bytes.size()})).graph.present)
    return Result<Model>::failure("file " + name + ": not a valid ONNX model (no graph)");
  Model m;
  if (std::string e = detail::load_checked(bytes, m, std::move(progress)); !e.empty())
    return Result<Model>::failure("file " + name + ": " + e);
  return Result<Model>(std::move(m));
}

// A model file's bytes and the Model loaded from them: the writer splices
// its output from the same bytes.
struct MappedModel {
  MappedFile file;
  Model model;
};

// Maps `path` ("-": standard input) and loads it; errors name the file as
// `name`.
inline Result<MappedModel> load_mapped_model(const std::string& path, const std::string& name) {
  Result<MappedFile> f = MappedFile::open(path, name);
  if (!f) return Result<MappedModel>::failure(f.error());
  Result<Model> m = load_model_bytes(f->bytes(), name);
  if (!m) return Result<MappedModel>::failure(m.error());
  MappedModel out;
  out.file = std::move(f.value());
  out.model = std::move(m.value());
  return Result<MappedModel>(std::move(out));
}

// Reads and loads an ONNX file ("-": standard input); every error names the
// file.
inline Result<Model> load_model_file(const std::string& path) {
  Result<MappedFile> f = MappedFile::open(path);
  if (!f) return Result<Model>::failure(f.error());
  return load_model_bytes(f->bytes(), path);
}

}  // namespace symshape::onnx
