// libFuzzer target for the ONNX loader, the inference engine and the writer:
// bytes -> ModelProto::ParseFromArray -> onnx::load_model_proto -> infer_shapes
// (Refine and Strict, then under facts: facts_run.hpp) ->
// onnx::write_inferred_types -> load again. Any crash,
// sanitizer report, hang or out-of-memory is a bug: malformed models must only
// give errors.
//
// Two mutation modes, one binary (environment variable SYMSHAPE_FUZZ_MUTATOR):
// - structure-aware (default): LLVMFuzzerCustomMutator parses the input as an
//   onnx::ModelProto and applies 1-3 model-level mutations (dims, attributes,
//   node inputs/outputs, op types, initializers, opsets, in any graph including
//   If/Loop/Scan bodies and model-local functions), then serializes it again.
//   Inputs that do not parse get libFuzzer's byte mutations.
// - SYMSHAPE_FUZZ_MUTATOR=bytes: only libFuzzer's byte mutations (the former
//   fuzz_load target).
// Built and run by run_fuzz_engine.sh (ctest fuzz_engine_*) and
// run_fuzz_load.sh; see tests/fuzz/README.md.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "facts_run.hpp"
#include "symshape/onnx/proto.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using Rng = std::mt19937_64;
using ::onnx::AttributeProto;
using ::onnx::GraphProto;
using ::onnx::ModelProto;
using ::onnx::NodeProto;
using ::onnx::TensorProto;
using ::onnx::TypeProto;
using ::onnx::ValueInfoProto;
using NodeList = google::protobuf::RepeatedPtrField<NodeProto>;

bool bytes_only() {
  static const bool only = [] {
    const char* mode = std::getenv("SYMSHAPE_FUZZ_MUTATOR");
    return mode != nullptr && std::strcmp(mode, "bytes") == 0;
  }();
  return only;
}

// ---------------------------------------------------------------- random picks

size_t pick(Rng& rng, size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng); }
bool coin(Rng& rng) { return (rng() & 1) != 0; }

template <class T>
const T& pick_of(Rng& rng, const std::vector<T>& v) {
  return v[pick(rng, v.size())];
}

// clang-format off
int64_t interesting_int(Rng& rng) {
  static const std::vector<int64_t> kInts = {0,  1,  -1, 2,  -2, 3,          4,          7,
                                             64, -3, 65, 1000,  INT32_MAX, INT32_MIN,  INT64_C(1) << 32,
                                             INT64_C(1) << 62, -(INT64_C(1) << 62), INT64_MAX, INT64_MIN};
  // clang-format on
  if (pick(rng, 4) == 0) return static_cast<int64_t>(pick(rng, 17)) - 8;
  return pick_of(rng, kInts);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float interesting_float(Rng& rng) {
  static const std::vector<float> kFloats = {0.0f,  -0.0f, 1.0f,   -1.0f, 0.5f, 2.0f,  2.5f,
                                             1e-9f, 1e30f, -1e30f, 3.0f,  kInf, -kInf, kNaN};
  return pick_of(rng, kFloats);
}

// Symbol names, expressions the dim parser accepts, and some it must reject.
// clang-format off
const std::string& interesting_dim_param(Rng& rng) {
  static const std::vector<std::string> kParams = {
      "N",     "H",          "W",       "batch",  "seq",     "N+1",       "(H-1)//2+1", "2*N",   "N*M",
      "N-N",   "N-1",        "H//0",    "N%3",    "max(N,1)", "min(H,W)", "CeilToInt(N)", "",     "?",
      "-1",    "N+",         "((((N",   "9223372036854775807*N", "4611686018427387904+N", "unk__0", "N^2",
      "a b",   "N//2*2",     "0",       "-N"};
  // clang-format on
  return pick_of(rng, kParams);
}

// clang-format off
const std::string& interesting_string(Rng& rng) {
  static const std::vector<std::string> kStrings = {
      "",      "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "constant", "reflect", "edge", "nearest", "linear",
      "cubic", "half_pixel", "asymmetric", "floor", "round_prefer_floor", "ij,jk->ik", "...ij->...ji", "x"};
  // clang-format on
  return pick_of(rng, kStrings);
}

// ---------------------------------------------------------------- the model's parts

// Every graph of the model: the main graph and every nested subgraph (If, Loop,
// Scan bodies; also those inside model-local functions), depth first.
void collect_graphs(GraphProto* g, std::vector<GraphProto*>& out, int depth);

void collect_from_nodes(NodeList* nodes, std::vector<GraphProto*>& out, int depth) {
  if (depth > 16) return;
  for (NodeProto& n : *nodes) {
    for (AttributeProto& a : *n.mutable_attribute()) {
      if (a.has_g()) collect_graphs(a.mutable_g(), out, depth + 1);
      for (GraphProto& sub : *a.mutable_graphs()) collect_graphs(&sub, out, depth + 1);
    }
  }
}

void collect_graphs(GraphProto* g, std::vector<GraphProto*>& out, int depth) {
  out.push_back(g);
  collect_from_nodes(g->mutable_node(), out, depth);
}

struct Parts {
  std::vector<GraphProto*> graphs;
  std::vector<NodeList*> node_lists;  // the graphs' and the functions' nodes
  std::vector<NodeProto*> nodes;
  std::vector<ValueInfoProto*> value_infos;
  std::vector<TensorProto*> tensors;  // initializers and TENSOR attributes
  std::vector<std::string> names;     // every value name, every scope
};

Parts collect_parts(ModelProto& m) {
  Parts p;
  collect_graphs(m.mutable_graph(), p.graphs, 0);
  for (auto& f : *m.mutable_functions()) collect_from_nodes(f.mutable_node(), p.graphs, 1);
  for (GraphProto* g : p.graphs) {
    p.node_lists.push_back(g->mutable_node());
    for (auto* field : {g->mutable_input(), g->mutable_output(), g->mutable_value_info()})
      for (ValueInfoProto& v : *field) {
        p.value_infos.push_back(&v);
        p.names.push_back(v.name());
      }
    for (TensorProto& t : *g->mutable_initializer()) {
      p.tensors.push_back(&t);
      p.names.push_back(t.name());
    }
  }
  for (auto& f : *m.mutable_functions()) {
    p.node_lists.push_back(f.mutable_node());
    for (const std::string& name : f.input()) p.names.push_back(name);
  }
  for (NodeList* list : p.node_lists)
    for (NodeProto& n : *list) {
      p.nodes.push_back(&n);
      for (const std::string& name : n.output()) p.names.push_back(name);
      for (AttributeProto& a : *n.mutable_attribute())
        if (a.has_t()) p.tensors.push_back(a.mutable_t());
    }
  return p;
}

// The tensor type inside a (possibly sequence or optional) type, or nullptr.
TypeProto::Tensor* tensor_type_of(TypeProto* t) {
  for (int depth = 0; t != nullptr && depth < 8; ++depth) {
    if (t->has_tensor_type()) return t->mutable_tensor_type();
    if (t->has_sequence_type())
      t = t->mutable_sequence_type()->mutable_elem_type();
    else if (t->has_optional_type())
      t = t->mutable_optional_type()->mutable_elem_type();
    else
      return nullptr;
  }
  return nullptr;
}

// ---------------------------------------------------------------- mutations
// Each returns false when the model has nothing it applies to.

void set_dim(::onnx::TensorShapeProto::Dimension* d, Rng& rng) {
  switch (pick(rng, 3)) {
    case 0:
      d->set_dim_value(interesting_int(rng));
      break;
    case 1:
      d->set_dim_param(interesting_dim_param(rng));
      break;
    default:
      d->Clear();
      break;  // unknown dim
  }
}

// A dim of a graph input/output/value_info: value, param, cleared; or a dim
// added/removed, the shape dropped, the element type changed.
bool mutate_value_info(Parts& p, Rng& rng) {
  if (p.value_infos.empty()) return false;
  TypeProto::Tensor* t = tensor_type_of(pick_of(rng, p.value_infos)->mutable_type());
  if (t == nullptr) return false;
  auto* shape = t->mutable_shape();
  switch (pick(rng, 6)) {
    case 0:
      t->set_elem_type(static_cast<int32_t>(pick(rng, 27)));
      return true;
    case 1:
      set_dim(shape->add_dim(), rng);
      return true;
    case 2:
      if (shape->dim_size() > 0) shape->mutable_dim()->RemoveLast();
      return true;
    case 3:
      t->clear_shape();
      return true;
    default:
      if (shape->dim_size() == 0) return false;
      set_dim(shape->mutable_dim(static_cast<int>(pick(rng, shape->dim_size()))), rng);
      return true;
  }
}

void mutate_ints(google::protobuf::RepeatedField<int64_t>* v, Rng& rng) {
  switch (pick(rng, 4)) {
    case 0:
      v->Add(interesting_int(rng));
      break;
    case 1:
      if (!v->empty()) v->RemoveLast();
      break;
    case 2:
      v->Clear();
      break;
    default:
      if (v->empty())
        v->Add(interesting_int(rng));
      else
        v->Set(static_cast<int>(pick(rng, v->size())), interesting_int(rng));
  }
}

// A tensor (initializer or Constant value): dims, element type, data.
bool mutate_tensor(TensorProto& t, Rng& rng) {
  switch (pick(rng, 6)) {
    case 0:
      mutate_ints(t.mutable_dims(), rng);
      return true;
    case 1:
      t.set_data_type(static_cast<int32_t>(pick(rng, 27)));
      return true;
    case 2:
      mutate_ints(t.mutable_int64_data(), rng);
      return true;
    case 3:
      if (t.float_data_size() == 0)
        t.add_float_data(interesting_float(rng));
      else
        t.set_float_data(static_cast<int>(pick(rng, t.float_data_size())), interesting_float(rng));
      return true;
    case 4:
      t.add_int32_data(static_cast<int32_t>(interesting_int(rng)));
      return true;
    default: {  // raw bytes: overwrite 8 of them with an interesting int, or cut the tail
      std::string* raw = t.mutable_raw_data();
      if (raw->size() >= 8 && coin(rng)) {
        const int64_t v = interesting_int(rng);
        std::memcpy(&(*raw)[pick(rng, raw->size() - 7)], &v, sizeof v);
      } else {
        raw->resize(pick(rng, raw->size() + 9));
      }
      return true;
    }
  }
}

bool mutate_initializer(Parts& p, Rng& rng) {
  return !p.tensors.empty() && mutate_tensor(*pick_of(rng, p.tensors), rng);
}

// An attribute's value of its own kind (or a subgraph's nodes, elsewhere).
void mutate_attribute_value(AttributeProto& a, Rng& rng) {
  switch (a.type()) {
    case AttributeProto::INT:
      a.set_i(interesting_int(rng));
      break;
    case AttributeProto::FLOAT:
      a.set_f(interesting_float(rng));
      break;
    case AttributeProto::STRING:
      a.set_s(interesting_string(rng));
      break;
    case AttributeProto::INTS:
      mutate_ints(a.mutable_ints(), rng);
      break;
    case AttributeProto::FLOATS:
      a.add_floats(interesting_float(rng));
      break;
    case AttributeProto::TENSOR:
      mutate_tensor(*a.mutable_t(), rng);
      break;
    default:
      a.set_i(interesting_int(rng));
      break;
  }
}

// An attribute set to another kind than the rule expects (ints for an int, ...).
void change_attribute_kind(AttributeProto& a, Rng& rng) {
  static const std::vector<AttributeProto::AttributeType> kKinds = {AttributeProto::INT,    AttributeProto::FLOAT,
                                                                    AttributeProto::STRING, AttributeProto::INTS,
                                                                    AttributeProto::FLOATS, AttributeProto::TENSOR};
  a.set_type(pick_of(rng, kKinds));
  mutate_attribute_value(a, rng);
}

// An attribute the op may read, added with a value of a random kind.
void add_attribute(NodeProto& n, Rng& rng) {
  // clang-format off
  static const std::vector<std::string> kNames = {
      "axis",    "axes",  "perm",     "pads",    "strides", "kernel_shape", "dilations", "group",
      "keepdims", "to",   "split",    "starts",  "ends",    "shape",        "value",     "transA",
      "transB",  "auto_pad", "mode",  "num_outputs", "allowzero", "batch_dims", "k", "noop_with_empty_axes",
      "epsilon", "alpha", "output_padding", "output_shape", "ceil_mode", "num_heads", "hidden_size", "direction"};
  // clang-format on
  AttributeProto* a = n.add_attribute();
  a->set_name(pick_of(rng, kNames));
  change_attribute_kind(*a, rng);
}

bool mutate_attribute(Parts& p, Rng& rng) {
  if (p.nodes.empty()) return false;
  NodeProto& n = *pick_of(rng, p.nodes);
  const size_t choice = pick(rng, 5);
  if (n.attribute_size() == 0 || choice == 0) {
    add_attribute(n, rng);
    return true;
  }
  const int i = static_cast<int>(pick(rng, n.attribute_size()));
  AttributeProto& a = *n.mutable_attribute(i);
  if (a.has_g() || a.graphs_size() > 0) return false;  // subgraphs are mutated through their nodes
  if (choice == 1)
    change_attribute_kind(a, rng);
  else if (choice == 2)
    n.mutable_attribute()->DeleteSubrange(i, 1);
  else
    mutate_attribute_value(a, rng);
  return true;
}

// Drop, duplicate, swap or blank (optional input absent) a node's input or output.
bool mutate_node_io(Parts& p, Rng& rng) {
  if (p.nodes.empty()) return false;
  NodeProto& n = *pick_of(rng, p.nodes);
  auto* io = coin(rng) ? n.mutable_input() : n.mutable_output();
  if (io->empty()) return false;
  const int i = static_cast<int>(pick(rng, io->size()));
  switch (pick(rng, 4)) {
    case 0:
      io->DeleteSubrange(i, 1);
      break;
    case 1:
      *io->Add() = io->Get(i);
      break;
    case 2:
      io->SwapElements(i, static_cast<int>(pick(rng, io->size())));
      break;
    default:
      io->Mutable(i)->clear();
      break;
  }
  return true;
}

// A node input renamed to another existing value (any scope), or a node output
// renamed to an existing value (a second producer).
bool rename_value(Parts& p, Rng& rng) {
  if (p.nodes.empty() || p.names.empty()) return false;
  NodeProto& n = *pick_of(rng, p.nodes);
  const bool output = pick(rng, 4) == 0;
  auto* io = output ? n.mutable_output() : n.mutable_input();
  if (io->empty()) {
    *io->Add() = pick_of(rng, p.names);
    return true;
  }
  *io->Mutable(static_cast<int>(pick(rng, io->size()))) = pick_of(rng, p.names);
  return true;
}

// A node deleted, duplicated or moved (the engine orders nodes itself).
bool mutate_node_list(Parts& p, Rng& rng) {
  NodeList* list = pick_of(rng, p.node_lists);
  if (list->empty()) return false;
  const int i = static_cast<int>(pick(rng, list->size()));
  switch (pick(rng, 3)) {
    case 0:
      list->DeleteSubrange(i, 1);
      break;
    case 1:
      *list->Add() = list->Get(i);
      break;
    default:
      list->SwapElements(i, static_cast<int>(pick(rng, list->size())));
      break;
  }
  return true;
}

struct Op {
  const char* domain;
  const char* type;
};

// Operators grouped by their usual number of inputs (index 4: four or more).
// clang-format off
const std::vector<Op>& ops_with_inputs(size_t count) {
  static const std::vector<std::vector<Op>> kOps = {
      {{"", "Constant"}, {"", "RandomNormal"}, {"", "RandomUniform"}},
      {{"", "Relu"},      {"", "Neg"},        {"", "Identity"},     {"", "Shape"},          {"", "Transpose"},
       {"", "Flatten"},   {"", "Softmax"},    {"", "Cast"},         {"", "Size"},           {"", "NonZero"},
       {"", "GlobalAveragePool"}, {"", "Squeeze"}, {"", "Unsqueeze"}, {"", "ReduceMean"},  {"", "ArgMax"},
       {"", "MaxPool"},   {"", "AveragePool"}, {"", "ConstantOfShape"}, {"", "Split"},     {"", "DepthToSpace"},
       {"", "SpaceToDepth"}, {"", "Trilu"},   {"", "EyeLike"},      {"", "Dropout"},        {"", "LRN"},
       {"", "SequenceLength"}, {"", "OptionalHasElement"}, {"com.microsoft", "Gelu"}},
      {{"", "Add"},       {"", "MatMul"},     {"", "Reshape"},      {"", "Expand"},         {"", "Gather"},
       {"", "Concat"},    {"", "Equal"},      {"", "Pow"},          {"", "Tile"},           {"", "Unsqueeze"},
       {"", "Squeeze"},   {"", "PRelu"},      {"", "GatherElements"}, {"", "GatherND"},     {"", "Compress"},
       {"", "ReduceSum"}, {"", "TopK"},       {"", "CumSum"},       {"", "Einsum"},         {"", "Mod"},
       {"", "Where"},     {"", "SequenceAt"}, {"com.microsoft", "FusedMatMul"}, {"com.microsoft", "BiasGelu"}},
      {{"", "Gemm"},      {"", "Conv"},       {"", "Where"},        {"", "Range"},          {"", "Clip"},
       {"", "Slice"},     {"", "Pad"},        {"", "Resize"},       {"", "ScatterElements"}, {"", "ScatterND"},
       {"", "OneHot"},    {"", "ConvTranspose"}, {"", "LayerNormalization"}, {"", "InstanceNormalization"},
       {"", "QuantizeLinear"}, {"", "DequantizeLinear"}, {"", "Split"}, {"", "If"},        {"", "Loop"},
       {"com.microsoft", "SkipLayerNormalization"}},
      {{"", "Slice"},     {"", "Resize"},     {"", "LSTM"},         {"", "GRU"},            {"", "RNN"},
       {"", "BatchNormalization"}, {"", "QLinearMatMul"}, {"", "QLinearConv"}, {"", "Scan"}, {"", "Loop"},
       {"", "NonMaxSuppression"}, {"", "RoiAlign"}, {"com.microsoft", "Attention"},
       {"com.microsoft", "MultiHeadAttention"}, {"com.microsoft", "EmbedLayerNormalization"}}};
  // clang-format on
  return kOps[count < 4 ? count : 4];
}

bool imports_domain(const ModelProto& m, const std::string& domain) {
  for (const auto& o : m.opset_import())
    if (o.domain() == domain) return true;
  return false;
}

// An op type changed to another op with the same number of inputs.
bool change_op_type(ModelProto& m, Parts& p, Rng& rng) {
  if (p.nodes.empty()) return false;
  NodeProto& n = *pick_of(rng, p.nodes);
  const Op& op = pick_of(rng, ops_with_inputs(static_cast<size_t>(n.input_size())));
  n.set_op_type(op.type);
  n.set_domain(op.domain);
  if (!imports_domain(m, op.domain)) {
    auto* o = m.add_opset_import();
    o->set_domain(op.domain);
    o->set_version(1);
  }
  return true;
}

// An opset version (or the IR version) changed, or an import added/removed.
bool mutate_opset(ModelProto& m, Rng& rng) {
  static const std::vector<int64_t> kVersions = {1,  6,  7,  9,  10, 11, 12, 13, 14, 15,
                                                 16, 17, 18, 19, 21, 22, 23, 0,  -1, 1000};
  const size_t choice = pick(rng, 6);
  if (choice == 0) {
    m.set_ir_version(coin(rng) ? static_cast<int64_t>(pick(rng, 12)) : interesting_int(rng));
  } else if (choice == 1 || m.opset_import_size() == 0) {
    auto* o = m.add_opset_import();
    o->set_domain(coin(rng) ? "com.microsoft" : (coin(rng) ? "ai.onnx.ml" : ""));
    o->set_version(pick_of(rng, kVersions));
  } else if (choice == 2) {
    m.mutable_opset_import()->DeleteSubrange(static_cast<int>(pick(rng, m.opset_import_size())), 1);
  } else {
    auto* o = m.mutable_opset_import(static_cast<int>(pick(rng, m.opset_import_size())));
    o->set_version(pick(rng, 3) == 0 ? interesting_int(rng) : pick_of(rng, kVersions));
  }
  return true;
}

bool mutate_once(ModelProto& m, Rng& rng) {
  Parts p = collect_parts(m);
  switch (pick(rng, 9)) {
    case 0:
    case 1:
      return mutate_value_info(p, rng);
    case 2:
      return mutate_attribute(p, rng);
    case 3:
      return mutate_node_io(p, rng);
    case 4:
      return rename_value(p, rng);
    case 5:
      return mutate_node_list(p, rng);
    case 6:
      return change_op_type(m, p, rng);
    case 7:
      return mutate_initializer(p, rng);
    default:
      return mutate_opset(m, rng);
  }
}

size_t write_model(const ModelProto& m, uint8_t* data, size_t max_size) {
  std::string out;
  if (!m.SerializeToString(&out) || out.size() > max_size) return 0;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  ModelProto m;
  if (bytes_only() || size > static_cast<size_t>(INT_MAX) || !m.ParseFromArray(data, static_cast<int>(size)) ||
      !m.has_graph())
    return LLVMFuzzerMutate(data, size, max_size);
  Rng rng(seed);
  const size_t count = 1 + pick(rng, 3);
  for (size_t applied = 0, tries = 0; applied < count && tries < 20; ++tries) applied += mutate_once(m, rng) ? 1 : 0;
  const size_t written = write_model(m, data, max_size);
  return written != 0 ? written : LLVMFuzzerMutate(data, size, max_size);
}

// Crossover: the first model with one node of the second appended to a random
// graph (its inputs then name values of the second model, or of the first when
// the names coincide). Byte mode or an unparsable input: the first half of one
// and the second half of the other.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  Rng rng(seed);
  ModelProto a;
  ModelProto b;
  const bool parsed = !bytes_only() && size1 <= static_cast<size_t>(INT_MAX) && size2 <= static_cast<size_t>(INT_MAX) &&
                      a.ParseFromArray(data1, static_cast<int>(size1)) && a.has_graph() &&
                      b.ParseFromArray(data2, static_cast<int>(size2));
  if (parsed) {
    Parts pb = collect_parts(b);
    Parts pa = collect_parts(a);
    if (!pb.nodes.empty()) {
      *pick_of(rng, pa.node_lists)->Add() = *pick_of(rng, pb.nodes);
      if (const size_t written = write_model(a, out, max_out_size)) return written;
    }
  }
  const size_t head = std::min(pick(rng, size1 + 1), max_out_size);
  const size_t tail = std::min(size2 - std::min(pick(rng, size2 + 1), size2), max_out_size - head);
  if (head > 0) std::memcpy(out, data1, head);
  if (tail > 0) std::memcpy(out + head, data2 + size2 - tail, tail);
  return head + tail;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > static_cast<size_t>(INT_MAX)) return 0;
  ::onnx::ModelProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  symshape::Result<symshape::Model> model = symshape::onnx::load_model_proto(proto);
  if (!model) return 0;
  for (symshape::MergePolicy policy : {symshape::MergePolicy::Refine, symshape::MergePolicy::Strict}) {
    symshape::InferenceOptions options;
    options.policy = policy;
    symshape::Report report = symshape::infer_shapes(model.value(), options);
    (void)report;
  }
  (void)symshape::fuzz::infer_under_facts(proto);
  symshape::onnx::write_inferred_types(*model, proto);
  // The written model must load again.
  symshape::Result<symshape::Model> again = symshape::onnx::load_model_proto(proto);
  if (!again) __builtin_trap();
  return 0;
}
