// The ONNX messages (onnx-ml.proto of Debian's libonnx, protobuf 2 syntax)
// as views over a file's bytes: the schema that wire::check_message checks a
// file against, and small structs decoded on demand from a message's bytes
// with the accessors the loader needs. Strings are string_views into the
// bytes; a tensor's raw_data stays a byte range.
//
// Protobuf's semantics are kept: a singular scalar given twice takes the last
// value; a singular message given twice is the merge of its occurrences (a
// Msg holds all their byte ranges, read one after the other); of a oneof,
// the member set last wins; an enum value outside the enum is an unknown
// field (proto2); a known field of another wire type is an unknown field.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/fields.hpp"
#include "symshape/onnx/wire.hpp"
#include "symshape/support/name_index.hpp"

namespace symshape::onnx::view {

using wire::Field;
using wire::Span;

// onnx.proto's enums, with its numeric values (the loader needs no generated
// code; tests/onnx/load_test.cpp checks them against libonnx's).
enum class AttributeType : int {
  UNDEFINED = 0,
  FLOAT = 1,
  INT = 2,
  STRING = 3,
  TENSOR = 4,
  GRAPH = 5,
  FLOATS = 6,
  INTS = 7,
  STRINGS = 8,
  TENSORS = 9,
  GRAPHS = 10,
  SPARSE_TENSOR = 11,
  SPARSE_TENSORS = 12,
  TYPE_PROTO = 13,
  TYPE_PROTOS = 14,
};

// TensorProto.DataLocation.
enum class DataLocation : int { DEFAULT = 0, EXTERNAL = 1 };

// Message types, indexes of kSchema.
enum Type : uint8_t {
  kModel,
  kGraph,
  kNode,
  kAttribute,
  kTensor,
  kSparseTensor,
  kValueInfo,
  kTypeProto,
  kTypeTensor,    // TypeProto.Tensor and TypeProto.SparseTensor
  kTypeSequence,  // TypeProto.Sequence and TypeProto.Optional
  kTypeMap,
  kShape,
  kDimension,
  kOperatorSetId,
  kStringStringEntry,
  kFunction,
  kTrainingInfo,
  kTensorAnnotation,
  kSegment,
  kOpaque,
  kTypeCount
};

struct SchemaBuilder {
  wire::MessageSpec specs[kTypeCount];
  constexpr void set(Type t, uint32_t number, wire::Kind kind, Type type = kModel) {
    specs[t].fields[number] = {kind, static_cast<uint8_t>(type)};
  }
};

// Field numbers (fields.hpp) and types of onnx-ml.proto.
inline constexpr SchemaBuilder make_schema() {
  using K = wire::Kind;
  using namespace fields;
  SchemaBuilder b{};
  for (uint32_t n :
       {ModelProto::kProducerName, ModelProto::kProducerVersion, ModelProto::kDomain, ModelProto::kDocString})
    b.set(kModel, n, K::kBytes);
  b.set(kModel, ModelProto::kIrVersion, K::kVarint), b.set(kModel, ModelProto::kModelVersion, K::kVarint);
  b.set(kModel, ModelProto::kGraph, K::kMessage, kGraph);
  b.set(kModel, ModelProto::kOpsetImport, K::kMessage, kOperatorSetId);
  b.set(kModel, ModelProto::kMetadataProps, K::kMessage, kStringStringEntry);
  b.set(kModel, ModelProto::kTrainingInfo, K::kMessage, kTrainingInfo);
  b.set(kModel, ModelProto::kFunctions, K::kMessage, kFunction);

  b.set(kGraph, GraphProto::kNode, K::kMessage, kNode);
  b.set(kGraph, GraphProto::kName, K::kBytes), b.set(kGraph, GraphProto::kDocString, K::kBytes);
  b.set(kGraph, GraphProto::kInitializer, K::kMessage, kTensor);
  b.set(kGraph, GraphProto::kSparseInitializer, K::kMessage, kSparseTensor);
  for (uint32_t n : {GraphProto::kInput, GraphProto::kOutput, GraphProto::kValueInfo})
    b.set(kGraph, n, K::kMessage, kValueInfo);
  b.set(kGraph, GraphProto::kQuantizationAnnotation, K::kMessage, kTensorAnnotation);

  for (uint32_t n : {NodeProto::kInput, NodeProto::kOutput, NodeProto::kName, NodeProto::kOpType, NodeProto::kDocString,
                     NodeProto::kDomain})
    b.set(kNode, n, K::kBytes);
  b.set(kNode, NodeProto::kAttribute, K::kMessage, kAttribute);

  namespace A = AttributeProto;
  for (uint32_t n : {A::kName, A::kS, A::kStrings, A::kDocString, A::kRefAttrName}) b.set(kAttribute, n, K::kBytes);
  b.set(kAttribute, A::kType, K::kVarint), b.set(kAttribute, A::kF, K::kFixed32), b.set(kAttribute, A::kI, K::kVarint);
  b.set(kAttribute, A::kT, K::kMessage, kTensor), b.set(kAttribute, A::kTensors, K::kMessage, kTensor);
  b.set(kAttribute, A::kG, K::kMessage, kGraph), b.set(kAttribute, A::kGraphs, K::kMessage, kGraph);
  b.set(kAttribute, A::kSparseTensor, K::kMessage, kSparseTensor);
  b.set(kAttribute, A::kSparseTensors, K::kMessage, kSparseTensor);
  b.set(kAttribute, A::kTp, K::kMessage, kTypeProto), b.set(kAttribute, A::kTypeProtos, K::kMessage, kTypeProto);
  b.set(kAttribute, A::kFloats, K::kPackedFixed32), b.set(kAttribute, A::kInts, K::kPackedVarint);

  namespace T = TensorProto;
  for (uint32_t n : {T::kDims, T::kInt32Data, T::kInt64Data, T::kUint64Data}) b.set(kTensor, n, K::kPackedVarint);
  b.set(kTensor, T::kDataType, K::kVarint), b.set(kTensor, T::kDataLocation, K::kVarint);
  b.set(kTensor, T::kSegment, K::kMessage, kSegment);
  b.set(kTensor, T::kFloatData, K::kPackedFixed32), b.set(kTensor, T::kDoubleData, K::kPackedFixed64);
  for (uint32_t n : {T::kStringData, T::kName, T::kRawData, T::kDocString}) b.set(kTensor, n, K::kBytes);
  b.set(kTensor, T::kExternalData, K::kMessage, kStringStringEntry);
  b.set(kSegment, T::Segment::kBegin, K::kVarint), b.set(kSegment, T::Segment::kEnd, K::kVarint);

  b.set(kSparseTensor, SparseTensorProto::kValues, K::kMessage, kTensor);
  b.set(kSparseTensor, SparseTensorProto::kIndices, K::kMessage, kTensor);
  b.set(kSparseTensor, SparseTensorProto::kDims, K::kPackedVarint);

  b.set(kValueInfo, ValueInfoProto::kName, K::kBytes), b.set(kValueInfo, ValueInfoProto::kDocString, K::kBytes);
  b.set(kValueInfo, ValueInfoProto::kType, K::kMessage, kTypeProto);

  namespace TP = TypeProto;
  b.set(kTypeProto, TP::kTensorType, K::kMessage, kTypeTensor);
  b.set(kTypeProto, TP::kSparseTensorType, K::kMessage, kTypeTensor);
  b.set(kTypeProto, TP::kSequenceType, K::kMessage, kTypeSequence);
  b.set(kTypeProto, TP::kOptionalType, K::kMessage, kTypeSequence);
  b.set(kTypeProto, TP::kMapType, K::kMessage, kTypeMap), b.set(kTypeProto, TP::kOpaqueType, K::kMessage, kOpaque);
  b.set(kTypeProto, TP::kDenotation, K::kBytes);
  b.set(kTypeTensor, TP::Tensor::kElemType, K::kVarint), b.set(kTypeTensor, TP::Tensor::kShape, K::kMessage, kShape);
  b.set(kTypeSequence, TP::Sequence::kElemType, K::kMessage, kTypeProto);
  b.set(kTypeMap, TP::Map::kKeyType, K::kVarint), b.set(kTypeMap, TP::Map::kValueType, K::kMessage, kTypeProto);
  b.set(kOpaque, TP::Opaque::kDomain, K::kBytes), b.set(kOpaque, TP::Opaque::kName, K::kBytes);

  b.set(kShape, TensorShapeProto::kDim, K::kMessage, kDimension);
  namespace D = TensorShapeProto::Dimension;
  b.set(kDimension, D::kDimValue, K::kVarint), b.set(kDimension, D::kDimParam, K::kBytes);
  b.set(kDimension, D::kDenotation, K::kBytes);

  b.set(kOperatorSetId, OperatorSetIdProto::kDomain, K::kBytes);
  b.set(kOperatorSetId, OperatorSetIdProto::kVersion, K::kVarint);
  b.set(kStringStringEntry, StringStringEntryProto::kKey, K::kBytes);
  b.set(kStringStringEntry, StringStringEntryProto::kValue, K::kBytes);

  namespace F = FunctionProto;
  for (uint32_t n : {F::kName, F::kInput, F::kOutput, F::kAttribute, F::kDocString, F::kDomain})
    b.set(kFunction, n, K::kBytes);
  b.set(kFunction, F::kNode, K::kMessage, kNode), b.set(kFunction, F::kOpsetImport, K::kMessage, kOperatorSetId);

  namespace TI = TrainingInfoProto;
  b.set(kTrainingInfo, TI::kInitialization, K::kMessage, kGraph),
      b.set(kTrainingInfo, TI::kAlgorithm, K::kMessage, kGraph);
  b.set(kTrainingInfo, TI::kInitializationBinding, K::kMessage, kStringStringEntry);
  b.set(kTrainingInfo, TI::kUpdateBinding, K::kMessage, kStringStringEntry);
  b.set(kTensorAnnotation, TensorAnnotation::kTensorName, K::kBytes);
  b.set(kTensorAnnotation, TensorAnnotation::kQuantParameterTensorNames, K::kMessage, kStringStringEntry);
  for (wire::MessageSpec& spec : b.specs) spec.compute_steps();
  return b;
}
inline constexpr SchemaBuilder kSchema = make_schema();

// Whether bytes parse as a message of type t, as libprotobuf parses them.
inline bool check(std::string_view bytes, Type t, int budget, wire::VarintWatch* watch = nullptr) {
  return wire::check_message(bytes, kSchema.specs, t, budget, watch);
}

// Varints as protobuf reads int64 and int32 fields (two's complement,
// truncated to 32 bits).
inline int64_t as_i64(uint64_t u) { return static_cast<int64_t>(u); }
inline int32_t as_i32(uint64_t u) { return static_cast<int32_t>(static_cast<uint32_t>(u)); }
inline float as_float(uint64_t u) {
  const auto b = static_cast<uint32_t>(u);
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
inline double as_double(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

// A message that may have been given several times (merged, in order).
struct Msg {
  Span first;
  std::vector<Span> more;
  bool present = false;

  void add(Span s) {
    if (present) {
      more.push_back(s);
    } else {
      first = s;
      present = true;
    }
  }
  void reset() {
    present = false;
    more.clear();
  }
  template <class F>
  void for_each(F&& f) const {
    if (!present) return;
    each_field(first, f);
    for (const Span& s : more) each_field(s, f);
  }
  template <class F>
  static void each_field(Span s, F&& f) {
    wire::Fields it(s);
    Field x;
    while (it.next(x)) f(x);
  }
};

inline Msg msg_of(Span s) {
  Msg m;
  m.add(s);
  return m;
}

// Decodes a view V (with `void on(const Field&)`) from a message.
template <class V>
V decode(const Msg& m) {
  V v;
  m.for_each([&](const Field& f) { v.on(f); });
  return v;
}
template <class V>
V decode(Span s) {
  V v;
  Msg::each_field(s, [&](const Field& f) { v.on(f); });
  return v;
}

// The scalars of a repeated numeric field, packed or not: calls add(bits)
// for each (varints as read, fixed32/fixed64 as their bits).
enum class Elem { kVarint, kFixed32, kFixed64 };
inline uint32_t wire_of(Elem e) {
  return e == Elem::kVarint ? wire::kVarint : e == Elem::kFixed32 ? wire::kFixed32 : wire::kFixed64;
}
template <class Add>
void add_repeated(const Field& f, Elem e, Add&& add) {
  if (f.wire == wire_of(e)) {
    add(f.u);
  } else if (f.wire == wire::kLen) {
    if (e == Elem::kVarint) {
      wire::for_each_packed_varint(f.bytes, add);
    } else {
      const std::size_t size = e == Elem::kFixed32 ? 4 : 8;
      for (const char* p = f.bytes.begin; p + size <= f.bytes.end; p += size)
        add(size == 4 ? uint64_t{wire::load_u32(p)} : wire::load_u64(p));
    }
  }
}
// How many scalars add_repeated would give.
inline int64_t count_repeated(const Field& f, Elem e) {
  if (f.wire == wire_of(e)) return 1;
  if (f.wire != wire::kLen) return 0;
  if (e == Elem::kVarint) return wire::count_packed_varints(f.bytes);
  return static_cast<int64_t>(f.bytes.size() / (e == Elem::kFixed32 ? 4 : 8));
}

struct ModelView {
  int64_t ir_version = 0;
  std::vector<Span> opset_import, functions;
  Msg graph;
  void on(const Field& f) {
    if (f.number == fields::ModelProto::kIrVersion && f.wire == wire::kVarint) ir_version = as_i64(f.u);
    if (f.wire != wire::kLen) return;
    if (f.number == fields::ModelProto::kOpsetImport) opset_import.push_back(f.bytes);
    if (f.number == fields::ModelProto::kGraph) graph.add(f.bytes);
    if (f.number == fields::ModelProto::kFunctions) functions.push_back(f.bytes);
  }
};

struct OpsetView {
  std::string_view domain;
  int64_t version = 0;
  void on(const Field& f) {
    if (f.number == fields::OperatorSetIdProto::kDomain && f.wire == wire::kLen) domain = f.bytes.view();
    if (f.number == fields::OperatorSetIdProto::kVersion && f.wire == wire::kVarint) version = as_i64(f.u);
  }
};

struct ValueInfoView {
  std::string_view name;
  Msg type;
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    if (f.number == fields::ValueInfoProto::kName) name = f.bytes.view();
    if (f.number == fields::ValueInfoProto::kType) type.add(f.bytes);
  }
};

// A graph: its node, initializer and value_info lists as byte ranges (read
// when the loader gets to them); its inputs and outputs decoded.
struct GraphView {
  std::string_view name;
  std::vector<Span> node, initializer, sparse_initializer, value_info;
  std::vector<ValueInfoView> input, output;
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    switch (f.number) {
      case fields::GraphProto::kNode:
        node.push_back(f.bytes);
        break;
      case fields::GraphProto::kName:
        name = f.bytes.view();
        break;
      case fields::GraphProto::kInitializer:
        initializer.push_back(f.bytes);
        break;
      case fields::GraphProto::kSparseInitializer:
        sparse_initializer.push_back(f.bytes);
        break;
      case fields::GraphProto::kInput:
        input.push_back(decode<ValueInfoView>(f.bytes));
        break;
      case fields::GraphProto::kOutput:
        output.push_back(decode<ValueInfoView>(f.bytes));
        break;
      case fields::GraphProto::kValueInfo:
        value_info.push_back(f.bytes);
        break;
      default:
        break;
    }
  }
};

struct NodeView {
  std::string_view name, op_type, domain;
  std::vector<std::string_view> input, output;
  std::vector<Span> attribute;
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    switch (f.number) {
      case fields::NodeProto::kInput:
        input.push_back(f.bytes.view());
        break;
      case fields::NodeProto::kOutput:
        output.push_back(f.bytes.view());
        break;
      case fields::NodeProto::kName:
        name = f.bytes.view();
        break;
      case fields::NodeProto::kOpType:
        op_type = f.bytes.view();
        break;
      case fields::NodeProto::kDomain:
        domain = f.bytes.view();
        break;
      case fields::NodeProto::kAttribute:
        attribute.push_back(f.bytes);
        break;
      default:
        break;
    }
  }
  // Decodes a node into this view, reusing its lists' memory.
  void read(Span s) {
    name = op_type = domain = {};
    input.clear();
    output.clear();
    attribute.clear();
    Msg::each_field(s, *this);
  }
  void operator()(const Field& f) { on(f); }
};

// A graph's nodes read in order from `first`, each once, a few nodes before
// they are used: `coming` sees node i + kAhead when node i is handed out, so
// the caller can prefetch what that node will look up (NameIndex::prefetch).
class NodeLookahead {
 public:
  static constexpr std::size_t kAhead = kPrefetchDistance;
  explicit NodeLookahead(const std::vector<Span>& nodes, std::size_t first = 0) : nodes_(nodes), first_(first) {}
  // Node i; calls go i = first, first + 1, ... and the view lasts until the next call.
  template <class Coming>
  const NodeView& next(std::size_t i, Coming&& coming) {
    if (i == first_)
      for (std::size_t k = first_; k < first_ + kAhead && k < nodes_.size(); ++k) read(k, coming);
    if (i + kAhead < nodes_.size()) read(i + kAhead, coming);  // into node i - 1's place
    return ring_[i % kRing];
  }

 private:
  static constexpr std::size_t kRing = kAhead + 1;
  template <class Coming>
  void read(std::size_t k, Coming& coming) {
    ring_[k % kRing].read(nodes_[k]);
    coming(ring_[k % kRing]);
  }
  const std::vector<Span>& nodes_;
  std::size_t first_;
  std::array<NodeView, kRing> ring_;
};

struct AttributeView {
  std::string_view name, ref_attr_name, s;
  int type = 0;  // AttributeProto.AttributeType, 0..14
  bool has_f = false, has_i = false, has_s = false;
  float f = 0;
  int64_t i = 0;
  Msg t, g, sparse_tensor, tp;
  std::vector<double> floats;
  decltype(Attribute::ints) ints;
  std::vector<std::string_view> strings;
  std::vector<Span> tensors, graphs, sparse_tensors, type_protos;

  void on(const Field& x) {
    if (x.wire == wire::kLen) return on_len(x);
    if (x.number == fields::AttributeProto::kType && x.wire == wire::kVarint && as_i32(x.u) >= 0 && as_i32(x.u) <= 14)
      type = as_i32(x.u);
    if (x.number == fields::AttributeProto::kF && x.wire == wire::kFixed32) f = as_float(x.u), has_f = true;
    if (x.number == fields::AttributeProto::kI && x.wire == wire::kVarint) i = as_i64(x.u), has_i = true;
    if (x.number == fields::AttributeProto::kFloats)
      add_repeated(x, Elem::kFixed32, [&](uint64_t u) { floats.push_back(as_float(u)); });
    if (x.number == fields::AttributeProto::kInts)
      add_repeated(x, Elem::kVarint, [&](uint64_t u) { ints.push_back(as_i64(u)); });
  }
  void on_len(const Field& x) {
    switch (x.number) {
      case fields::AttributeProto::kName:
        name = x.bytes.view();
        break;
      case fields::AttributeProto::kRefAttrName:
        ref_attr_name = x.bytes.view();
        break;
      case fields::AttributeProto::kS:
        s = x.bytes.view(), has_s = true;
        break;
      case fields::AttributeProto::kT:
        t.add(x.bytes);
        break;
      case fields::AttributeProto::kG:
        g.add(x.bytes);
        break;
      case fields::AttributeProto::kSparseTensor:
        sparse_tensor.add(x.bytes);
        break;
      case fields::AttributeProto::kTp:
        tp.add(x.bytes);
        break;
      case fields::AttributeProto::kFloats:
        add_repeated(x, Elem::kFixed32, [&](uint64_t u) { floats.push_back(as_float(u)); });
        break;
      case fields::AttributeProto::kInts:
        add_repeated(x, Elem::kVarint, [&](uint64_t u) { ints.push_back(as_i64(u)); });
        break;
      case fields::AttributeProto::kStrings:
        strings.push_back(x.bytes.view());
        break;
      case fields::AttributeProto::kTensors:
        tensors.push_back(x.bytes);
        break;
      case fields::AttributeProto::kGraphs:
        graphs.push_back(x.bytes);
        break;
      case fields::AttributeProto::kSparseTensors:
        sparse_tensors.push_back(x.bytes);
        break;
      case fields::AttributeProto::kTypeProtos:
        type_protos.push_back(x.bytes);
        break;
      default:
        break;
    }
  }
};

// A tensor: its scalars and dims decoded, how many values each typed field
// holds, raw_data as a byte range; the values themselves are read only for
// small tensors (values()).
struct TensorView {
  Msg msg;
  std::string_view name;
  int32_t data_type = 0;
  decltype(Tensor::dims) dims;
  bool has_raw_data = false, has_data_location = false;
  Span raw_data;
  int data_location = 0;
  std::vector<Span> external_data;
  int64_t float_n = 0, int32_n = 0, string_n = 0, int64_n = 0, double_n = 0, uint64_n = 0;

  void on(const Field& f) {
    switch (f.number) {
      case fields::TensorProto::kDims:
        add_repeated(f, Elem::kVarint, [&](uint64_t u) { dims.push_back(as_i64(u)); });
        break;
      case fields::TensorProto::kDataType:
        if (f.wire == wire::kVarint) data_type = as_i32(f.u);
        break;
      case fields::TensorProto::kFloatData:
        float_n += count_repeated(f, Elem::kFixed32);
        break;
      case fields::TensorProto::kInt32Data:
        int32_n += count_repeated(f, Elem::kVarint);
        break;
      case fields::TensorProto::kStringData:
        string_n += f.wire == wire::kLen;
        break;
      case fields::TensorProto::kInt64Data:
        int64_n += count_repeated(f, Elem::kVarint);
        break;
      case fields::TensorProto::kName:
        if (f.wire == wire::kLen) name = f.bytes.view();
        break;
      case fields::TensorProto::kRawData:
        if (f.wire == wire::kLen) raw_data = f.bytes, has_raw_data = true;
        break;
      case fields::TensorProto::kDoubleData:
        double_n += count_repeated(f, Elem::kFixed64);
        break;
      case fields::TensorProto::kUint64Data:
        uint64_n += count_repeated(f, Elem::kVarint);
        break;
      case fields::TensorProto::kExternalData:
        if (f.wire == wire::kLen) external_data.push_back(f.bytes);
        break;
      case fields::TensorProto::kDataLocation:  // an enum: values outside DataLocation are unknown fields
        if (f.wire == wire::kVarint && (as_i32(f.u) == static_cast<int>(DataLocation::DEFAULT) ||
                                        as_i32(f.u) == static_cast<int>(DataLocation::EXTERNAL)))
          data_location = as_i32(f.u), has_data_location = true;
        break;
      default:
        break;
    }
  }

  // Calls add(bits) for each value of a typed field (number, element).
  template <class Add>
  void values(uint32_t number, Elem e, Add&& add) const {
    msg.for_each([&](const Field& f) {
      if (f.number == number) add_repeated(f, e, add);
    });
  }
  // The strings of string_data.
  std::vector<std::string> strings() const {
    std::vector<std::string> out;
    msg.for_each([&](const Field& f) {
      if (f.number == fields::TensorProto::kStringData && f.wire == wire::kLen) out.emplace_back(f.bytes.view());
    });
    return out;
  }
};

inline TensorView decode_tensor(const Msg& m) {
  TensorView v = decode<TensorView>(m);
  v.msg = m;
  return v;
}

struct SparseTensorView {
  Msg values;
  decltype(Tensor::dims) dims;
  void on(const Field& f) {
    if (f.number == fields::SparseTensorProto::kValues && f.wire == wire::kLen) values.add(f.bytes);
    if (f.number == fields::SparseTensorProto::kDims)
      add_repeated(f, Elem::kVarint, [&](uint64_t u) { dims.push_back(as_i64(u)); });
  }
};

struct StringPairView {
  std::string_view key, value;
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    if (f.number == fields::StringStringEntryProto::kKey) key = f.bytes.view();
    if (f.number == fields::StringStringEntryProto::kValue) value = f.bytes.view();
  }
};

// TypeProto: which member of its oneof is set (its field number: 1 tensor,
// 4 sequence, 5 map, 7 opaque, 8 sparse tensor, 9 optional; 0 none) and the
// occurrences of that member since it was last set.
struct TypeView {
  uint32_t member = 0;
  Msg value;
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    switch (f.number) {
      case fields::TypeProto::kTensorType:
      case fields::TypeProto::kSequenceType:
      case fields::TypeProto::kMapType:
      case fields::TypeProto::kOpaqueType:
      case fields::TypeProto::kSparseTensorType:
      case fields::TypeProto::kOptionalType:
        if (member != f.number) value.reset(), member = f.number;
        value.add(f.bytes);
        break;
      default:
        break;
    }
  }
};

// TypeProto.Tensor and .SparseTensor (elem_type, shape); .Sequence and
// .Optional (elem_type as field 1); .Map (key_type, value_type).
struct TensorTypeView {
  int32_t elem_type = 0;
  Msg shape;
  void on(const Field& f) {
    if (f.number == fields::TypeProto::Tensor::kElemType && f.wire == wire::kVarint) elem_type = as_i32(f.u);
    if (f.number == fields::TypeProto::Tensor::kShape && f.wire == wire::kLen) shape.add(f.bytes);
  }
};
struct ElemTypeView {
  Msg elem_type;
  void on(const Field& f) {
    if (f.number == fields::TypeProto::Sequence::kElemType && f.wire == wire::kLen) elem_type.add(f.bytes);
  }
};
struct MapTypeView {
  int32_t key_type = 0;
  Msg value_type;
  void on(const Field& f) {
    if (f.number == fields::TypeProto::Map::kKeyType && f.wire == wire::kVarint) key_type = as_i32(f.u);
    if (f.number == fields::TypeProto::Map::kValueType && f.wire == wire::kLen) value_type.add(f.bytes);
  }
};

// TensorShapeProto.Dimension: its oneof (1 dim_value, 2 dim_param, 0 none).
struct DimView {
  uint32_t which = 0;
  int64_t value = 0;
  std::string_view param;
  void on(const Field& f) {
    if (f.number == fields::TensorShapeProto::Dimension::kDimValue && f.wire == wire::kVarint)
      which = 1, value = as_i64(f.u), param = {};
    if (f.number == fields::TensorShapeProto::Dimension::kDimParam && f.wire == wire::kLen)
      which = 2, param = f.bytes.view(), value = 0;
  }
};

struct FunctionView {
  std::string_view name, domain;
  std::vector<std::string_view> input, output, attribute;
  std::vector<Span> node, opset_import;
  std::vector<Span> attribute_proto;  // field 11 (ONNX >= 1.13), unknown to this schema
  void on(const Field& f) {
    if (f.wire != wire::kLen) return;
    switch (f.number) {
      case fields::FunctionProto::kName:
        name = f.bytes.view();
        break;
      case fields::FunctionProto::kDomain:
        domain = f.bytes.view();
        break;
      case fields::FunctionProto::kInput:
        input.push_back(f.bytes.view());
        break;
      case fields::FunctionProto::kOutput:
        output.push_back(f.bytes.view());
        break;
      case fields::FunctionProto::kAttribute:
        attribute.push_back(f.bytes.view());
        break;
      case fields::FunctionProto::kNode:
        node.push_back(f.bytes);
        break;
      case fields::FunctionProto::kOpsetImport:
        opset_import.push_back(f.bytes);
        break;
      case fields::FunctionProto::kAttributeProto:
        attribute_proto.push_back(f.bytes);
        break;
      default:
        break;
    }
  }
};

}  // namespace symshape::onnx::view
