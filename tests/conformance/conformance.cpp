// Conformance against the ONNX backend test models (Debian's libonnx-testdata).
//
// For every <data>/{node,pytorch-converted,pytorch-operator,simple}/*/model.onnx:
// remember the stored output types, strip value_info and output types (inputs
// stay), then infer with (a) symshape (load_model_proto + infer_shapes) and
// (b) ONNX's reference onnx::shape_inference::InferShapes (data propagation
// on), on the same stripped proto, and compare each output with the stored
// type:
//   exact    element type, rank and every dim agree (ints equal; a stored
//            dim_param is matched by any symbolic dim; a stored unknown dim or
//            an absent stored shape matches anything);
//   partial  nothing contradicts but something is missing (unknown type,
//            dtype or rank; a symbolic/unknown dim where an int is stored);
//   wrong    the kind, element type, rank or an integer dim differs;
//   failed   the model did not load, or the tool reported an error and
//            produced no output type at all (reference: it threw).
// A model takes the worst verdict of its outputs.
//
// --light DIR adds the suite "light": the nine light CNNs of ONNX's backend
// test data (DIR/*.onnx, static shapes, weights made by ConstantOfShape).
//
// --with-input-values: the integer inputs of each test model (those that have
// test_data_set_0: the node tests, and a few of the simple suite) become
// constant initializers holding test_data_set_0/input_<i>.pb, so ops that
// consume shapes, axes, indices or sizes are checked on their values.
//
// Every symshape result is also written back into the proto
// (write_inferred_types), reloaded and inferred again: values whose types
// change are listed (the run over an annotated model must be a fixed point).
//
// Exit status: 1 if symshape has any wrong model, 77 if the data is absent
// (ctest SKIP_RETURN_CODE), else 0.
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "symshape/onnx/proto.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------
// A tool-independent view of a value type.

struct DimView {
  enum Kind { Int, Sym, Unknown } kind = Unknown;
  int64_t value = 0;
};

struct TypeView {
  enum Kind { Unknown, Tensor, Sparse, Sequence, Optional, Map } kind = Unknown;
  int32_t elem = 0;  // tensor element type, or map key type; 0 = unknown
  bool has_rank = false;
  std::vector<DimView> dims;
  std::shared_ptr<TypeView> inner;  // sequence/optional element, map value

  std::string to_string() const {
    switch (kind) {
      case Unknown:
        return "?";
      case Tensor:
      case Sparse: {
        std::string s = kind == Sparse ? "sparse " : "";
        s += elem ? symshape::to_string(static_cast<symshape::DataType>(elem)) : "?dtype";
        if (!has_rank) return s + "[?rank]";
        s += "[";
        for (std::size_t i = 0; i < dims.size(); ++i) {
          if (i) s += ",";
          s += dims[i].kind == DimView::Int ? std::to_string(dims[i].value) : dims[i].kind == DimView::Sym ? "s" : "?";
        }
        return s + "]";
      }
      case Sequence:
        return "seq(" + (inner ? inner->to_string() : std::string("?")) + ")";
      case Optional:
        return "optional(" + (inner ? inner->to_string() : std::string("?")) + ")";
      case Map:
        return "map(" + std::to_string(elem) + "," + (inner ? inner->to_string() : std::string("?")) + ")";
    }
    return "?";
  }
};

TypeView view_tensor_proto_type(TypeView::Kind kind, int32_t elem, bool has_shape,
                                const onnx::TensorShapeProto& shape) {
  TypeView v;
  v.kind = kind;
  v.elem = elem;
  v.has_rank = has_shape;
  if (has_shape)
    for (const auto& d : shape.dim()) {
      DimView dv;
      if (d.has_dim_value()) {
        dv.kind = DimView::Int;
        dv.value = d.dim_value();
      } else if (d.has_dim_param() && !d.dim_param().empty()) {
        dv.kind = DimView::Sym;
      }
      v.dims.push_back(dv);
    }
  return v;
}

TypeView view_of(const onnx::TypeProto& t) {
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
      return view_tensor_proto_type(TypeView::Tensor, t.tensor_type().elem_type(), t.tensor_type().has_shape(),
                                    t.tensor_type().shape());
    case onnx::TypeProto::kSparseTensorType:
      return view_tensor_proto_type(TypeView::Sparse, t.sparse_tensor_type().elem_type(),
                                    t.sparse_tensor_type().has_shape(), t.sparse_tensor_type().shape());
    case onnx::TypeProto::kSequenceType: {
      TypeView v;
      v.kind = TypeView::Sequence;
      if (t.sequence_type().has_elem_type())
        v.inner = std::make_shared<TypeView>(view_of(t.sequence_type().elem_type()));
      return v;
    }
    case onnx::TypeProto::kOptionalType: {
      TypeView v;
      v.kind = TypeView::Optional;
      if (t.optional_type().has_elem_type())
        v.inner = std::make_shared<TypeView>(view_of(t.optional_type().elem_type()));
      return v;
    }
    case onnx::TypeProto::kMapType: {
      TypeView v;
      v.kind = TypeView::Map;
      v.elem = t.map_type().key_type();
      if (t.map_type().has_value_type()) v.inner = std::make_shared<TypeView>(view_of(t.map_type().value_type()));
      return v;
    }
    default:
      return {};
  }
}

TypeView view_of(const symshape::Type& t) {
  using K = symshape::Type::Kind;
  TypeView v;
  switch (t.kind()) {
    case K::Unknown:
      return v;
    case K::Tensor:
    case K::SparseTensor:
      v.kind = t.kind() == K::Tensor ? TypeView::Tensor : TypeView::Sparse;
      v.elem = static_cast<int32_t>(t.elem_type());
      v.has_rank = t.shape().has_rank();
      if (v.has_rank)
        for (const auto& d : t.shape().dims()) {
          DimView dv;
          if (d.is_int()) {
            dv.kind = DimView::Int;
            dv.value = d.value();
          } else if (d.is_symbolic()) {
            dv.kind = DimView::Sym;
          }
          v.dims.push_back(dv);
        }
      return v;
    case K::Sequence:
    case K::Optional:
      v.kind = t.kind() == K::Sequence ? TypeView::Sequence : TypeView::Optional;
      if (t.inner()) v.inner = std::make_shared<TypeView>(view_of(*t.inner()));
      return v;
    case K::Map:
      v.kind = TypeView::Map;
      v.elem = static_cast<int32_t>(t.elem_type());
      if (t.inner()) v.inner = std::make_shared<TypeView>(view_of(*t.inner()));
      return v;
  }
  return v;
}

// ---------------------------------------------------------------------------
// Verdicts.

enum Verdict { Exact = 0, Partial = 1, Wrong = 2, Failed = 3 };
const char* verdict_name(Verdict v) {
  static const char* const names[] = {"exact", "partial", "wrong", "failed"};
  return names[v];
}

struct Comparison {
  Verdict verdict = Exact;
  std::string why;
  int int_for_param = 0;  // an int inferred where the stored type has a dim_param
  void worsen(Verdict v, const std::string& reason) {
    if (v > verdict) {
      verdict = v;
      why = reason;
    }
  }
};

void compare(const TypeView& stored, const TypeView& inferred, Comparison& c) {
  if (stored.kind == TypeView::Unknown) return;
  if (inferred.kind == TypeView::Unknown) return c.worsen(Partial, "type unknown");
  if (stored.kind != inferred.kind) return c.worsen(Wrong, "kind differs");
  if (stored.elem != 0) {
    if (inferred.elem == 0)
      c.worsen(Partial, "element type unknown");
    else if (stored.elem != inferred.elem)
      return c.worsen(Wrong, "element type differs");
  }
  if (stored.kind == TypeView::Sequence || stored.kind == TypeView::Optional || stored.kind == TypeView::Map) {
    if (!stored.inner) return;
    if (!inferred.inner) return c.worsen(Partial, "element type unknown");
    return compare(*stored.inner, *inferred.inner, c);
  }
  if (!stored.has_rank) return;
  if (!inferred.has_rank) return c.worsen(Partial, "rank unknown");
  if (stored.dims.size() != inferred.dims.size()) return c.worsen(Wrong, "rank differs");
  for (std::size_t i = 0; i < stored.dims.size(); ++i) {
    const DimView& s = stored.dims[i];
    const DimView& x = inferred.dims[i];
    if (s.kind == DimView::Unknown) continue;
    if (s.kind == DimView::Int) {
      if (x.kind == DimView::Int) {
        if (x.value != s.value) return c.worsen(Wrong, "dim " + std::to_string(i) + " differs");
      } else {
        c.worsen(Partial, "dim " + std::to_string(i) + " not an integer");
      }
    } else {  // stored dim_param
      if (x.kind == DimView::Unknown) c.worsen(Partial, "dim " + std::to_string(i) + " unknown");
      if (x.kind == DimView::Int) ++c.int_for_param;
    }
  }
}

struct OutputResult {
  std::string name;
  TypeView stored, inferred;
  Comparison cmp;
};

struct ToolResult {
  Verdict verdict = Exact;
  std::string message;  // load/inference error, or the first diagnostic
  std::vector<OutputResult> outputs;
  int int_for_param = 0;
  std::vector<std::string> missing_rules;  // "Op@opset" of nodes without a rule
  std::vector<std::string> errors;         // error diagnostics (symshape)
  std::string round_trip;                  // first difference after write + reload + infer
};

// Type text with the engine's fresh names (_d0, _d12, ...) made anonymous.
std::string without_fresh_names(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    const bool starts = text[i] == '_' && i + 1 < text.size() && text[i + 1] == 'd' &&
                        (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'));
    if (starts) {
      out += 'd';
      i += 2;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      --i;
    }
  }
  return out;
}

// The types of every value of the main graph, by name.
std::map<std::string, std::string> value_types(const symshape::Graph& g) {
  std::map<std::string, std::string> out;
  for (const auto& v : g.values)
    if (v && !v->name.empty()) out[v->name] = without_fresh_names(v->type.to_string());
  return out;
}

// Writes the inferred types into the proto (symshape::onnx::write_inferred_types),
// loads and infers that annotated model again, and returns the first value
// whose type changed ("" when none did): inference over an annotated model
// must give the same result again.
std::string check_round_trip(const symshape::Model& model, const onnx::ModelProto& proto) {
  onnx::ModelProto annotated = proto;
  symshape::onnx::write_inferred_types(model, annotated);
  auto again = symshape::onnx::load_model_proto(annotated);
  if (!again) return "reload failed: " + again.error();
  symshape::infer_shapes(again.value());
  const auto before = value_types(*model.graph);
  const auto after = value_types(*again.value().graph);
  for (const auto& [name, type] : before) {
    auto it = after.find(name);
    const std::string now = it == after.end() ? "(missing)" : it->second;
    if (now != type) return "'" + name + "': " + type + " then " + now;
  }
  return {};
}

void judge(ToolResult& r, const std::vector<TypeView>& stored, const std::vector<std::string>& names,
           const std::vector<TypeView>& inferred) {
  r.verdict = Exact;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    OutputResult o;
    o.name = names[i];
    o.stored = stored[i];
    o.inferred = i < inferred.size() ? inferred[i] : TypeView();
    compare(o.stored, o.inferred, o.cmp);
    r.verdict = std::max(r.verdict, o.cmp.verdict);
    r.int_for_param += o.cmp.int_for_param;
    r.outputs.push_back(std::move(o));
  }
}

// ---------------------------------------------------------------------------
// Models.

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

void strip_value_info(onnx::GraphProto& g) {
  g.clear_value_info();
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) strip_value_info(*a.mutable_g());
      for (auto& sub : *a.mutable_graphs()) strip_value_info(sub);
    }
}

// Integer inputs of a node test become initializers holding the test data.
// Returns how many inputs were replaced.
int inline_integer_inputs(onnx::ModelProto& m, const fs::path& dir) {
  onnx::GraphProto* g = m.mutable_graph();
  std::vector<int> keep;
  int replaced = 0;
  for (int i = 0; i < g->input_size(); ++i) {
    const onnx::ValueInfoProto& in = g->input(i);
    const bool integer = in.type().has_tensor_type() && [](int32_t e) {
      using T = onnx::TensorProto;
      return e == T::INT8 || e == T::UINT8 || e == T::INT16 || e == T::UINT16 || e == T::INT32 || e == T::UINT32 ||
             e == T::INT64 || e == T::UINT64;
    }(in.type().tensor_type().elem_type());
    std::string bytes;
    onnx::TensorProto t;
    if (integer && read_file(dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb"), bytes) &&
        t.ParseFromString(bytes)) {
      t.set_name(in.name());
      *g->add_initializer() = std::move(t);
      ++replaced;
    } else {
      keep.push_back(i);
    }
  }
  if (replaced) {
    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
    for (int i : keep) *inputs.Add() = g->input(i);
    g->mutable_input()->Swap(&inputs);
    if (m.ir_version() < 4) m.set_ir_version(4);  // initializers outside the inputs
  }
  return replaced;
}

ToolResult run_symshape(const onnx::ModelProto& proto, const std::vector<TypeView>& stored,
                        const std::vector<std::string>& names) {
  ToolResult r;
  try {
    auto loaded = symshape::onnx::load_model_proto(proto);
    if (!loaded) {
      r.verdict = Failed;
      r.message = "load: " + loaded.error();
      return r;
    }
    symshape::Model& model = loaded.value();
    symshape::Report report = symshape::infer_shapes(model);
    for (const auto& d : report.diagnostics)
      if (d.kind == symshape::DiagnosticKind::MissingRule) {
        const std::size_t at = d.message.find(" at opset ");
        const std::size_t end = at == std::string::npos ? at : d.message.find(';', at);
        std::string key = d.op_type;
        if (end != std::string::npos) key += "@" + d.message.substr(at + 10, end - at - 10);
        if (std::find(r.missing_rules.begin(), r.missing_rules.end(), key) == r.missing_rules.end())
          r.missing_rules.push_back(key);
      }
    for (const auto& d : report.diagnostics)
      if (d.severity == symshape::Severity::Error) r.errors.push_back(d.to_string());
    for (const auto& d : report.diagnostics)
      if (d.severity == symshape::Severity::Error) {
        r.message = d.to_string();
        break;
      }
    if (r.message.empty() && !report.diagnostics.empty()) r.message = report.diagnostics.front().to_string();
    std::vector<TypeView> inferred;
    bool any = false;
    for (const std::string& n : names) {
      const symshape::Value* v = nullptr;
      for (const symshape::Value* o : model.graph->outputs)
        if (o && o->name == n) v = o;
      inferred.push_back(v ? view_of(v->type) : TypeView());
      any = any || inferred.back().kind != TypeView::Unknown;
    }
    r.round_trip = check_round_trip(model, proto);
    if (!any && report.errors() > 0 && !names.empty()) {
      r.verdict = Failed;
      return r;
    }
    judge(r, stored, names, inferred);
  } catch (const std::exception& e) {  // a bug: the core must not throw
    r.verdict = Failed;
    r.message = std::string("EXCEPTION from symshape: ") + e.what();
  }
  return r;
}

ToolResult run_reference(const onnx::ModelProto& proto, const std::vector<TypeView>& stored,
                         const std::vector<std::string>& names) {
  ToolResult r;
  onnx::ModelProto copy = proto;
  try {
    onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0, /*enable_data_propagation=*/true};
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    r.verdict = Failed;
    r.message = e.what();
    return r;
  }
  std::vector<TypeView> inferred;
  for (const std::string& n : names) {
    TypeView v;
    for (const auto& o : copy.graph().output())
      if (o.name() == n && o.has_type()) v = view_of(o.type());
    inferred.push_back(v);
  }
  judge(r, stored, names, inferred);
  return r;
}

struct Counts {
  int models = 0;
  int by[4] = {0, 0, 0, 0};
  int int_for_param = 0;
};

struct Entry {
  std::string suite, test, op;
  ToolResult sym, ref;
};

std::string first_line(const std::string& s, std::size_t max = 200) {
  std::string out = s.substr(0, s.find('\n'));
  if (out.size() > max) out = out.substr(0, max) + "...";
  return out;
}

void describe(const Entry& e, const ToolResult& r, const char* tool) {
  std::printf("  %-8s %s/%s [%s]", verdict_name(r.verdict), e.suite.c_str(), e.test.c_str(), e.op.c_str());
  if (tool) std::printf(" (%s)", tool);
  std::printf("\n");
  for (const auto& o : r.outputs)
    if (o.cmp.verdict != Exact)
      std::printf("      output '%s': stored %s, inferred %s: %s\n", o.name.c_str(), o.stored.to_string().c_str(),
                  o.inferred.to_string().c_str(), o.cmp.why.c_str());
  if (!r.message.empty()) std::printf("      %s\n", first_line(r.message).c_str());
}

// Why a model stays partial: test-name prefixes with the reason its output
// shape cannot be derived from the model file (plus, with
// --with-input-values, its integer input data). `both` marks the reasons that
// hold in both modes; the others are about integer graph inputs and apply to
// the inputs-only mode. --list-partial prints each partial model with its
// reason, or UNEXPLAINED (counted) when no entry covers it.
struct PartialReason {
  const char* prefix;
  bool both;
  const char* reason;
};

const PartialReason kPartialReasons[] = {
    // Values of float inputs: they stay graph inputs in both modes.
    {"test_resize_downsample_scales", true, "the `scales` input is a float graph input"},
    {"test_resize_upsample_scales", true, "the `scales` input is a float graph input"},
    {"test_upsample_nearest", true, "the `scales` input is a float graph input"},
    {"test_onehot_", true, "`depth` is a float graph input"},
    {"test_range_float_type", true, "`start`/`limit`/`delta` are float graph inputs"},
    // Sizes that depend on element values, whatever the mode.
    {"test_nonzero", true, "the number of non-zero elements of the input data"},
    {"test_unique_", true, "the number of distinct elements of the input data"},
    {"test_compress_", true, "the number of true elements of the `condition` input (bool, not inlined)"},
    {"test_nonmaxsuppression_", true, "the number of boxes that survive suppression (box and score values)"},
    {"test_strnorm", true, "the number of input strings that are stopwords (string input data)"},
    {"test_loop11", true,
     "the condition is a bool graph input (the loop may stop early); the body slices at the iteration counter"},
    // Integer graph inputs (exact with --with-input-values).
    {"test_reshape_", false, "the `shape` input is an int64 graph input"},
    {"test_slice", false, "`starts`/`ends`/`axes`/`steps` are int64 graph inputs"},
    {"test_unsqueeze_", false, "the `axes` input is an int64 graph input"},
    {"test_squeeze", false, "the `axes` input is an int64 graph input"},
    {"test_expand_", false, "the `shape` input is an int64 graph input"},
    {"test_expand_shape_model", false, "the `shape` input is an int64 graph input"},
    {"test_reduce_sum_", false, "the `axes` input is an int64 graph input"},
    {"test_split_", false, "the `split` input is an int64 graph input"},
    {"test_constantofshape_", false, "the `input` (shape) is an int64 graph input"},
    {"test_constant_pad", false, "the `pads` input is an int64 graph input"},
    {"test_edge_pad", false, "the `pads` input is an int64 graph input"},
    {"test_reflect_pad", false, "the `pads` input is an int64 graph input"},
    {"test_top_k", false, "`K` is an int64 graph input"},
    {"test_tile", false, "the `repeats` input is an int64 graph input"},
    {"test_blackmanwindow", false, "the window `size` is an int32 graph input"},
    {"test_hammingwindow", false, "the window `size` is an int32 graph input"},
    {"test_hannwindow", false, "the window `size` is an int32 graph input"},
    {"test_stft", false, "`frame_step`/`frame_length` are int64 graph inputs"},
    {"test_melweightmatrix", false, "`num_mel_bins`/`dft_length` are integer graph inputs"},
    {"test_maxunpool_export_with_output_shape", false, "the `output_shape` input is an int64 graph input"},
    {"test_range_int32_type", false, "`start`/`limit`/`delta` are int32 graph inputs"},
    {"test_resize_", false, "the `sizes` input is an int64 graph input"},
};

// The reason recorded for a partial model, or nullptr.
const char* partial_reason(const std::string& test, bool with_values) {
  for (const PartialReason& r : kPartialReasons)
    if (test.rfind(r.prefix, 0) == 0 && (r.both || !with_values)) return r.reason;
  return nullptr;
}

// What symshape gives for the outputs that are not exact: "name: inferred
// (stored ...)", joined with "; ".
std::string partial_outputs(const ToolResult& r) {
  std::string out;
  for (const auto& o : r.outputs)
    if (o.cmp.verdict != Exact) {
      if (!out.empty()) out += "; ";
      out += "`" + o.name + "` " + o.inferred.to_string() + " (stored " + o.stored.to_string() + ")";
    }
  return out;
}

// The verdict logic checked on hand-made types before any model is run, so a
// bug there cannot silently turn every comparison into "exact".
bool self_test() {
  auto tensor = [](int32_t elem, std::vector<DimView> dims, bool has_rank = true) {
    TypeView v;
    v.kind = TypeView::Tensor;
    v.elem = elem;
    v.has_rank = has_rank;
    v.dims = std::move(dims);
    return v;
  };
  const DimView i2{DimView::Int, 2}, i3{DimView::Int, 3}, sym{DimView::Sym, 0}, unk{DimView::Unknown, 0};
  auto verdict = [](const TypeView& stored, const TypeView& inferred) {
    Comparison c;
    compare(stored, inferred, c);
    return c.verdict;
  };
  TypeView seq_stored;
  seq_stored.kind = TypeView::Sequence;
  seq_stored.inner = std::make_shared<TypeView>(tensor(1, {i2}));
  TypeView seq_inferred = seq_stored;
  seq_inferred.inner = std::make_shared<TypeView>(tensor(1, {i3}));
  struct Case {
    TypeView stored, inferred;
    Verdict expected;
  } cases[] = {
      {tensor(1, {i2, i3}), tensor(1, {i2, i3}), Exact},
      {tensor(1, {i2, sym}), tensor(1, {i2, sym}), Exact},
      {tensor(1, {i2, unk}), tensor(1, {i2, i3}), Exact},
      {tensor(1, {}, false), tensor(1, {i2}), Exact},
      {TypeView(), tensor(1, {i2}), Exact},
      {tensor(1, {i2, i3}), tensor(1, {i2, sym}), Partial},
      {tensor(1, {i2, i3}), tensor(1, {i2, unk}), Partial},
      {tensor(1, {i2, i3}), tensor(1, {}, false), Partial},
      {tensor(1, {i2, i3}), tensor(0, {i2, i3}), Partial},
      {tensor(1, {i2, i3}), TypeView(), Partial},
      {tensor(1, {i2, sym}), tensor(1, {i2, unk}), Partial},
      {tensor(1, {i2, i3}), tensor(1, {i3, i3}), Wrong},
      {tensor(1, {i2, i3}), tensor(1, {i2, i3, i3}), Wrong},
      {tensor(1, {i2, i3}), tensor(7, {i2, i3}), Wrong},
      {tensor(1, {i2, i3}), tensor(7, {i2, sym}), Wrong},
      {tensor(1, {i2}), seq_stored, Wrong},
      {seq_stored, seq_stored, Exact},
      {seq_stored, seq_inferred, Wrong},
  };
  bool ok = true;
  for (std::size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const Verdict got = verdict(cases[i].stored, cases[i].inferred);
    if (got != cases[i].expected) {
      std::printf("self-test case %zu: stored %s, inferred %s: got %s, expected %s\n", i,
                  cases[i].stored.to_string().c_str(), cases[i].inferred.to_string().c_str(), verdict_name(got),
                  verdict_name(cases[i].expected));
      ok = false;
    }
  }
  return ok;
}

int usage() {
  std::fprintf(
      stderr,
      "usage: conformance [--data DIR] [--light DIR] [--with-input-values] [--suite NAME]... [--filter SUBSTR]\n"
      "                   [--verbose] [--show-reference] [--show-worse]\n"
      "                   [--markdown] [--list-partial]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path data = "/usr/share/libonnx-testdata/data";
  fs::path light;  // the light CNNs (suite "light"), when given
  bool with_values = false, verbose = false, show_reference = false, show_worse = false, markdown = false;
  bool list_partial = false;
  std::vector<std::string> suites;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) {
      data = argv[++i];
    } else if (a == "--light" && i + 1 < argc) {
      light = argv[++i];
    } else if (a == "--with-input-values") {
      with_values = true;
    } else if (a == "--suite" && i + 1 < argc) {
      suites.push_back(argv[++i]);
    } else if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--verbose") {
      verbose = true;
    } else if (a == "--markdown") {
      markdown = true;
    } else if (a == "--list-partial") {
      list_partial = true;
    } else if (a == "--show-worse") {
      show_worse = true;
    } else if (a == "--show-reference") {
      show_reference = true;
    } else {
      return usage();
    }
  }
  if (!self_test()) {
    std::printf("FAIL: the verdict logic is broken\n");
    return 2;
  }
  if (suites.empty()) suites = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  if (!fs::is_directory(data / "node")) {
    std::printf("SKIPPED: ONNX backend test data not found under %s (install libonnx-testdata)\n",
                data.string().c_str());
    return 77;
  }

  std::vector<Entry> entries;
  std::map<std::string, Counts> sym_counts, ref_counts;
  int inlined_models = 0;
  if (!light.empty()) {
    if (fs::is_directory(light))
      suites.push_back("light");
    else
      std::printf("note: the light CNNs are not in %s; suite 'light' skipped\n", light.string().c_str());
  }
  for (const std::string& suite : suites) {
    // (test name, model file, test dir)
    std::vector<std::tuple<std::string, fs::path, fs::path>> tests;
    std::error_code ec;
    if (suite == "light") {
      for (const auto& d : fs::directory_iterator(light, ec))
        if (d.path().extension() == ".onnx") tests.emplace_back(d.path().stem().string(), d.path(), fs::path());
    } else {
      for (const auto& d : fs::directory_iterator(data / suite, ec))
        if (fs::exists(d.path() / "model.onnx"))
          tests.emplace_back(d.path().filename().string(), d.path() / "model.onnx", d.path());
    }
    std::sort(tests.begin(), tests.end());
    for (const auto& [test_name, model_file, dir] : tests) {
      Entry e;
      e.suite = suite;
      e.test = test_name;
      if (!filter.empty() && e.test.find(filter) == std::string::npos) continue;
      std::string bytes;
      onnx::ModelProto proto;
      if (!read_file(model_file, bytes) || !proto.ParseFromString(bytes)) {
        std::printf("  cannot read %s\n", model_file.string().c_str());
        e.sym.verdict = e.ref.verdict = Failed;
        e.sym.message = e.ref.message = "unreadable model";
      } else {
        e.op = proto.graph().node_size() ? proto.graph().node(0).op_type() : "-";
        std::vector<TypeView> stored;
        std::vector<std::string> names;
        for (const auto& o : proto.graph().output()) {
          names.push_back(o.name());
          stored.push_back(o.has_type() ? view_of(o.type()) : TypeView());
        }
        strip_value_info(*proto.mutable_graph());
        for (auto& o : *proto.mutable_graph()->mutable_output()) o.clear_type();
        if (with_values && !dir.empty() && inline_integer_inputs(proto, dir) > 0) ++inlined_models;
        e.sym = run_symshape(proto, stored, names);
        e.ref = run_reference(proto, stored, names);
      }
      for (auto [counts, r] : {std::pair{&sym_counts, &e.sym}, std::pair{&ref_counts, &e.ref}}) {
        Counts& c = (*counts)[suite];
        ++c.models;
        ++c.by[r->verdict];
        c.int_for_param += r->int_for_param;
      }
      entries.push_back(std::move(e));
    }
  }

  // Per-op detail of symshape's non-exact results.
  std::map<std::string, std::vector<const Entry*>> wrong_by_op, partial_by_op, failed_by_op;
  for (const Entry& e : entries) {
    if (e.sym.verdict == Wrong) wrong_by_op[e.op].push_back(&e);
    if (e.sym.verdict == Partial) partial_by_op[e.op].push_back(&e);
    if (e.sym.verdict == Failed) failed_by_op[e.op].push_back(&e);
  }
  std::printf("symshape conformance over %s%s\n\n", data.string().c_str(),
              with_values ? " (integer inputs inlined as constants)" : "");
  if (!wrong_by_op.empty()) {
    std::printf("WRONG (symshape contradicts the stored type):\n");
    for (const auto& [op, list] : wrong_by_op)
      for (const Entry* e : list) describe(*e, e->sym, nullptr);
    std::printf("\n");
  }
  auto print_group = [&](const char* title, const std::map<std::string, std::vector<const Entry*>>& by_op) {
    if (by_op.empty()) return;
    std::vector<std::pair<std::string, std::vector<const Entry*>>> sorted(by_op.begin(), by_op.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    std::printf("%s by op (op: models; first example):\n", title);
    for (const auto& [op, list] : sorted) {
      if (verbose) {
        std::printf(" %s: %zu\n", op.c_str(), list.size());
        for (const Entry* e : list) describe(*e, e->sym, nullptr);
        continue;
      }
      const Entry& e = *list.front();
      std::string reason;
      for (const auto& o : e.sym.outputs)
        if (o.cmp.verdict == e.sym.verdict) {
          reason = o.name + ": stored " + o.stored.to_string() + ", inferred " + o.inferred.to_string() + " (" +
                   o.cmp.why + ")";
          break;
        }
      if (reason.empty()) reason = first_line(e.sym.message, 120);
      std::printf("  %-28s %4zu  %s: %s\n", op.c_str(), list.size(), e.test.c_str(), reason.c_str());
    }
    std::printf("\n");
  };
  print_group("PARTIAL", partial_by_op);
  print_group("FAILED", failed_by_op);

  // One markdown row per partial model: model | mode | op | reason | what
  // symshape gives. Rows of both modes sort together (`sort` on the output).
  int unexplained = 0;
  if (list_partial) {
    std::printf("| model | mode | op | why it cannot be exact | symshape gives (stored) |\n|---|---|---|---|---|\n");
    for (const Entry& e : entries) {
      if (e.sym.verdict != Partial) continue;
      const char* why = partial_reason(e.test, with_values);
      if (!why) ++unexplained;
      std::printf("| %s/%s | %s | %s | %s | %s |\n", e.suite.c_str(), e.test.c_str(),
                  with_values ? "values inlined" : "inputs only", e.op.c_str(), why ? why : "UNEXPLAINED",
                  partial_outputs(e.sym).c_str());
    }
    std::printf("partial models without a recorded reason: %d\n\n", unexplained);
  }

  // Error diagnostics on these valid models point at rule bugs (false
  // semantic errors) even when the outputs come out right.
  int models_with_errors = 0;
  for (const Entry& e : entries)
    if (!e.sym.errors.empty()) {
      if (models_with_errors++ == 0) std::printf("symshape reported errors on valid models:\n");
      std::printf("  %s/%s [%s] (%s): %s%s\n", e.suite.c_str(), e.test.c_str(), e.op.c_str(),
                  verdict_name(e.sym.verdict), first_line(e.sym.errors.front(), 160).c_str(),
                  e.sym.errors.size() > 1 ? (" (+" + std::to_string(e.sym.errors.size() - 1) + " more)").c_str() : "");
    }
  if (models_with_errors) std::printf("\n");

  int round_trip_diffs = 0;
  for (const Entry& e : entries)
    if (!e.sym.round_trip.empty()) {
      if (round_trip_diffs++ == 0)
        std::printf("types that change when the annotated model is inferred again (write_inferred_types, reload):\n");
      std::printf("  %s/%s [%s]: %s\n", e.suite.c_str(), e.test.c_str(), e.op.c_str(),
                  first_line(e.sym.round_trip, 200).c_str());
    }
  if (round_trip_diffs) std::printf("\n");

  // Ops without a rule (symshape's missing-rule warnings), with the number of
  // models where they occur.
  std::map<std::string, int> missing;
  for (const Entry& e : entries)
    for (const std::string& k : e.sym.missing_rules) ++missing[k];
  if (!missing.empty()) {
    std::vector<std::pair<std::string, int>> sorted(missing.begin(), missing.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::printf("No rule (op@opset: models):");
    int col = 0;
    for (const auto& [k, count] : sorted) {
      if (col++ % 6 == 0) std::printf("\n ");
      std::printf(" %s: %d,", k.c_str(), count);
    }
    std::printf("\n\n");
  }

  if (show_worse) {
    std::printf("symshape worse than the reference although every op has a rule:\n");
    for (const Entry& e : entries)
      if (e.ref.verdict < e.sym.verdict && e.sym.missing_rules.empty()) {
        describe(e, e.sym, "symshape");
        for (const auto& o : e.ref.outputs)
          if (o.cmp.verdict == Exact)
            std::printf("      reference: '%s' %s\n", o.name.c_str(), o.inferred.to_string().c_str());
      }
    std::printf("\nsymshape better than the reference:\n");
    for (const Entry& e : entries)
      if (e.sym.verdict < e.ref.verdict) describe(e, e.ref, "reference");
    std::printf("\n");
  }
  if (show_reference) {
    std::printf("Reference (onnx::shape_inference::InferShapes) non-exact results:\n");
    for (const Entry& e : entries)
      if (e.ref.verdict != Exact) describe(e, e.ref, "reference");
    std::printf("\n");
  }

  // Models where symshape and the reference disagree in quality.
  int sym_better = 0, ref_better = 0;
  for (const Entry& e : entries) {
    if (e.sym.verdict < e.ref.verdict) ++sym_better;
    if (e.ref.verdict < e.sym.verdict) ++ref_better;
  }

  std::printf("%-18s %6s | %-33s | %-33s\n", "", "", "symshape", "ONNX reference");
  std::printf("%-18s %6s | %7s %7s %7s %7s %2s| %7s %7s %7s %7s\n", "suite", "models", "exact", "partial", "wrong",
              "failed", "", "exact", "partial", "wrong", "failed");
  Counts total_sym, total_ref;
  for (const std::string& suite : suites) {
    const Counts& s = sym_counts[suite];
    const Counts& r = ref_counts[suite];
    std::printf("%-18s %6d | %7d %7d %7d %7d %2s| %7d %7d %7d %7d\n", suite.c_str(), s.models, s.by[0], s.by[1],
                s.by[2], s.by[3], "", r.by[0], r.by[1], r.by[2], r.by[3]);
    total_sym.models += s.models;
    for (int k = 0; k < 4; ++k) {
      total_sym.by[k] += s.by[k];
      total_ref.by[k] += r.by[k];
    }
    total_sym.int_for_param += s.int_for_param;
    total_ref.int_for_param += r.int_for_param;
  }
  std::printf("%-18s %6d | %7d %7d %7d %7d %2s| %7d %7d %7d %7d\n", "total", total_sym.models, total_sym.by[0],
              total_sym.by[1], total_sym.by[2], total_sym.by[3], "", total_ref.by[0], total_ref.by[1], total_ref.by[2],
              total_ref.by[3]);
  if (markdown) {
    std::printf(
        "\n| suite | models | symshape exact | partial | wrong | failed | reference exact | partial | wrong | failed "
        "|\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string& suite : suites) {
      const Counts& s = sym_counts[suite];
      const Counts& r = ref_counts[suite];
      std::printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", suite.c_str(), s.models, s.by[0], s.by[1],
                  s.by[2], s.by[3], r.by[0], r.by[1], r.by[2], r.by[3]);
    }
    std::printf("| **total** | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", total_sym.models, total_sym.by[0],
                total_sym.by[1], total_sym.by[2], total_sym.by[3], total_ref.by[0], total_ref.by[1], total_ref.by[2],
                total_ref.by[3]);
  }
  std::printf("\nsymshape better than the reference on %d models, worse on %d", sym_better, ref_better);
  if (with_values) std::printf("; %d models had integer inputs inlined", inlined_models);
  std::printf("\nmodels where symshape reported errors: %d; whose types change when inferred again: %d",
              models_with_errors, round_trip_diffs);
  std::printf("\nintegers inferred where a dim_param is stored: symshape %d, reference %d\n", total_sym.int_for_param,
              total_ref.int_for_param);
  if (total_sym.by[Wrong] > 0) {
    std::printf("FAIL: symshape is wrong on %d models\n", total_sym.by[Wrong]);
    return 1;
  }
  return 0;
}
