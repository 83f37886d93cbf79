// The ONNX adapter, splicing writer: the inferred types written into a model
// file without re-serializing it. The output is the input file's bytes with
// value_info and graph output types rewritten (in the main graph and in
// subgraphs), the inputs the caller names rewritten, and relative external
// data locations relocated; everything else (nodes without subgraphs,
// initializers, doc strings, functions, unknown fields) is copied as byte
// ranges of the input. Parsed into a ModelProto, the output equals what
// write_inferred_types + relocate_external_data make of the parsed input
// (save.hpp), fresh dim names included.
//
//   Result<Model> model = io::load_model_bytes(bytes, path);
//   infer_shapes(model.value());
//   io::Splice splice(bytes, *model);
//   splice.write_types();
//   Result<io::SplicedModel> out = splice.finish();
//   io::PendingFile::prepare(out_path, io::spliced_writer(*out, input_fd));
//
// The input is walked with the loader's wire-format primitives (wire.hpp);
// no protobuf library is involved. Singular
// message fields that occur more than once (protobuf merges them) are handled
// as the parser does: every occurrence is rewritten in place. Enclosing
// messages (graph, node, attribute, value info, tensor) get new length
// prefixes. Subgraphs deeper than kMaxNesting are copied unchanged, as
// write_inferred_types leaves them.
#pragma once

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/external_data_paths.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/output_file.hpp"
#include "symshape/onnx/views.hpp"
#include "symshape/onnx/wire.hpp"
#include "symshape/onnx/written_types.hpp"
#include "symshape/support/name_index.hpp"
#include "symshape/support/result.hpp"

namespace symshape::io {

namespace splicing {

namespace pb = symshape::wire;

// One field of a message, as offsets into the file.
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  std::size_t begin = 0;      // the tag
  std::size_t len_begin = 0;  // length-delimited: the length varint
  std::size_t content = 0;    // length-delimited: the content
  std::size_t end = 0;        // one past the field
  uint64_t varint = 0;        // varint fields: the value
  bool delimited() const { return wire_type == pb::kLen; }
};

// A (part of a) message: its content [content, end) in the file. `len_begin`
// and `parent` place its length prefix, for Editor::frame(); the whole file
// (the ModelProto) has parent == nullptr and top == true.
struct Segment {
  std::size_t len_begin = 0, content = 0, end = 0;
  const Segment* parent = nullptr;
  bool top = false;
  mutable int frame = -1;  // Editor's frame, once registered
};

// A message as protobuf parses it: a singular message field that occurs more
// than once is the merge of its occurrences, in order.
using Message = std::vector<Segment>;

// How many segments on this thread had malformed bytes (the loader accepted
// the file, so none should: Splice::finish() refuses to write then).
inline uint64_t& malformed_count() {
  static thread_local uint64_t count = 0;
  return count;
}

// The fields of one segment, in order, read with the loader's wire-format
// primitives (wire.hpp). next() is false at the end and on malformed bytes
// (ok() then false, and malformed_count() counts it).
class FieldReader {
 public:
  FieldReader(std::string_view file, const Segment& s)
      : file_(file.data()), c_{file.data() + s.content, file.data() + s.end} {}

  bool next(Field& f) {
    if (!ok_ || c_.at_end()) return false;
    f = Field();
    f.begin = pos();
    uint32_t tag = 0;
    bool good = c_.tag(tag) && (tag >> 3) != 0;
    f.number = tag >> 3;
    f.wire_type = tag & 7;
    if (good) good = value(f);
    f.end = pos();
    ok_ = good;
    if (!good) ++malformed_count();
    return good;
  }
  bool ok() const { return ok_; }

 private:
  const char* file_;
  pb::Cursor c_;
  bool ok_ = true;
  std::size_t pos() const { return static_cast<std::size_t>(c_.p - file_); }

  bool value(Field& f) {
    switch (f.wire_type) {
      case pb::kVarint:
        return c_.varint(f.varint);
      case pb::kLen: {
        f.len_begin = pos();
        pb::Span s;
        if (!c_.len(s)) return false;
        f.content = static_cast<std::size_t>(s.begin - file_);
        return true;
      }
      case pb::kFixed64:
        return c_.skip(8);
      case pb::kFixed32:
        return c_.skip(4);
      case pb::kStartGroup:
        return skip_group(f.number);
      default:
        return false;
    }
  }

  // Past the end-group tag of a group (nested groups on an explicit stack).
  bool skip_group(uint32_t number) {
    std::vector<uint32_t> open{number};
    while (!open.empty()) {
      uint32_t tag = 0;
      if (!c_.tag(tag) || (tag >> 3) == 0) return false;
      Field inner;
      inner.wire_type = tag & 7;
      if (inner.wire_type == pb::kStartGroup) {
        open.push_back(tag >> 3);
      } else if (inner.wire_type == pb::kEndGroup) {
        if (open.back() != tag >> 3) return false;
        open.pop_back();
      } else if (!value(inner)) {
        return false;
      }
    }
    return true;
  }
};

// Calls fn(field, segment) for every field of the segment, in file order.
template <class Fn>
void for_each_field(std::string_view file, const Segment& s, Fn&& fn) {
  FieldReader r(file, s);
  Field f;
  while (r.next(f)) fn(f, s);
}
template <class Fn>
void for_each_field(std::string_view file, const Message& m, Fn&& fn) {
  for (const Segment& s : m) for_each_field(file, s, fn);
}

// A field's content as a segment inside `parent` (which must outlive it, for
// Editor::frame()).
inline Segment sub_segment(const Field& f, const Segment& parent) {
  Segment s;
  s.len_begin = f.len_begin;
  s.content = f.content;
  s.end = f.end;
  s.parent = &parent;
  return s;
}

// The occurrences of message field `number`: the elements of a repeated
// field, or the parts of a singular one (merged by the parser).
template <class M>
Message submessage(std::string_view file, const M& m, uint32_t number) {
  Message out;
  for_each_field(file, m, [&](const Field& f, const Segment& s) {
    if (f.number == number && f.delimited()) out.push_back(sub_segment(f, s));
  });
  return out;
}
template <class M>
Message elements(std::string_view file, const M& m, uint32_t number) {
  return submessage(file, m, number);
}

// The singular string field `number` (the last occurrence wins), in the file.
template <class M>
std::string_view string_field(std::string_view file, const M& m, uint32_t number) {
  std::string_view out;
  for_each_field(file, m, [&](const Field& f, const Segment&) {
    if (f.number == number && f.delimited()) out = file.substr(f.content, f.end - f.content);
  });
  return out;
}

inline void append_varint(std::string& out, uint64_t v) {
  char buf[10];
  std::size_t n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  out.append(buf, n);
}

inline uint64_t make_tag(uint32_t number, uint32_t wire_type) { return uint64_t{number} << 3 | wire_type; }

inline void append_varint_field(std::string& out, uint32_t number, uint64_t v) {
  append_varint(out, make_tag(number, pb::kVarint));
  append_varint(out, v);
}

// A length-delimited field: tag, length, content.
inline void append_delimited(std::string& out, uint32_t number, std::string_view content) {
  append_varint(out, make_tag(number, pb::kLen));
  append_varint(out, content.size());
  out.append(content.data(), content.size());
}

// A length-delimited field whose content fill(out) appends in place: the
// length, unknown until then, takes one byte that is patched afterwards (and
// widened, moving the content, past 127 bytes). Saves building nested
// messages in strings of their own.
template <class Fill>
void append_nested(std::string& out, uint32_t number, Fill&& fill) {
  append_varint(out, make_tag(number, pb::kLen));
  const std::size_t at = out.size();
  out.push_back('\0');
  fill(out);
  const std::size_t size = out.size() - at - 1;
  if (size < 0x80) {
    out[at] = static_cast<char>(size);
    return;
  }
  std::string length;
  append_varint(length, size);
  out.replace(at, 1, length);
}

}  // namespace splicing

// The output: pieces that are byte ranges of the input or bytes of their own.
struct SplicedModel {
  struct Piece {
    const char* data = nullptr;
    std::size_t size = 0;
    bool from_input = false;  // data points into the input
  };
  std::string_view input;
  std::deque<std::string> owned;  // the new bytes (a deque: pieces point into them)
  std::vector<Piece> pieces;
  std::size_t size = 0;
  // Offset of a from_input piece in the input file.
  std::size_t offset(const Piece& p) const { return static_cast<std::size_t>(p.data - input.data()); }
};

namespace detail {

// Edits of the input: ranges replaced by new bytes (insertions and removals
// included), and the length prefixes of the messages around them ("frames").
class Editor {
 public:
  explicit Editor(std::string_view input) : input_(input) {}

  // The frame of a segment (and its enclosing ones); -1 for the whole file.
  int frame(const splicing::Segment& s) {
    if (s.top || s.frame >= 0) return s.frame;
    const int parent = s.parent ? frame(*s.parent) : -1;
    auto [it, fresh] = by_content_.emplace(s.content, static_cast<int>(frames_.size()));
    if (fresh)
      frames_.push_back({s.len_begin, s.content, s.end, parent,
                         parent < 0 ? 1 : frames_[static_cast<std::size_t>(parent)].depth + 1});
    s.frame = it->second;
    return s.frame;
  }

  // Replaces [begin, end) of segment s's content by `bytes`.
  void replace(const splicing::Segment& s, std::size_t begin, std::size_t end, std::string bytes) {
    const int f = frame(s);
    edits_.push_back(
        {begin, end, f, f < 0 ? 0 : frames_[static_cast<std::size_t>(f)].depth, edits_.size(), std::move(bytes)});
  }

  Result<SplicedModel> finish();

 private:
  struct Frame {
    std::size_t len_begin, content, end;
    int parent, depth;
    int64_t delta = 0;
  };
  struct Edit {
    std::size_t begin, end;
    int frame, depth;
    std::size_t seq;
    std::string bytes;
  };
  std::string_view input_;
  std::vector<Frame> frames_;
  std::unordered_map<std::size_t, int> by_content_;
  std::vector<Edit> edits_;

  Result<bool> add_length_edits();
};

// New length prefixes, innermost frames first (a frame's content starts after
// its parent's), each frame's size change carried to its parent.
inline Result<bool> Editor::add_length_edits() {
  for (const Edit& e : edits_)
    if (e.frame >= 0)
      frames_[static_cast<std::size_t>(e.frame)].delta +=
          static_cast<int64_t>(e.bytes.size()) - static_cast<int64_t>(e.end - e.begin);
  std::vector<int> order(frames_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return frames_[static_cast<std::size_t>(a)].content > frames_[static_cast<std::size_t>(b)].content;
  });
  for (int i : order) {
    const Frame& f = frames_[static_cast<std::size_t>(i)];
    if (f.delta == 0) continue;
    const int64_t size = static_cast<int64_t>(f.end - f.content) + f.delta;
    if (size < 0 || size > INT_MAX)
      return Result<bool>::failure("the model is larger than 2 GB and cannot be serialized");
    std::string prefix;
    splicing::append_varint(prefix, static_cast<uint64_t>(size));
    const int64_t change =
        f.delta + static_cast<int64_t>(prefix.size()) - static_cast<int64_t>(f.content - f.len_begin);
    const int parent = f.parent;
    edits_.push_back({f.len_begin, f.content, parent, parent < 0 ? 0 : frames_[static_cast<std::size_t>(parent)].depth,
                      edits_.size(), std::move(prefix)});
    if (parent >= 0) frames_[static_cast<std::size_t>(parent)].delta += change;
  }
  return true;
}

inline Result<SplicedModel> Editor::finish() {
  Result<bool> lengths = add_length_edits();
  if (!lengths) return Result<SplicedModel>::failure(lengths.error());
  // In file order; at one place, an inner message's insertion before an outer one's.
  std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.depth != b.depth) return a.depth > b.depth;
    return a.seq < b.seq;
  });
  SplicedModel out;
  out.input = input_;
  std::size_t at = 0;
  auto copy = [&](std::size_t from, std::size_t to) {
    if (to <= from) return;
    if (!out.pieces.empty() && out.pieces.back().from_input &&
        out.pieces.back().data + out.pieces.back().size == input_.data() + from)
      out.pieces.back().size += to - from;
    else
      out.pieces.push_back({input_.data() + from, to - from, true});
    out.size += to - from;
  };
  for (Edit& e : edits_) {
    if (e.begin < at) return Result<SplicedModel>::failure("internal error: overlapping edits of the model file");
    copy(at, e.begin);
    at = e.end;
    if (e.bytes.empty()) continue;
    out.owned.push_back(std::move(e.bytes));
    out.pieces.push_back({out.owned.back().data(), out.owned.back().size(), false});
    out.size += out.owned.back().size();
  }
  copy(at, input_.size());
  edits_.clear();
  if (out.size > static_cast<std::size_t>(INT_MAX))
    return Result<SplicedModel>::failure("the model is larger than 2 GB and cannot be serialized");
  return Result<SplicedModel>(std::move(out));
}

// Field numbers of onnx.proto (the fields the splice reads or rewrites).
namespace onnx_field {
inline constexpr uint32_t kModelGraph = 7, kModelFunctions = 25;
inline constexpr uint32_t kGraphNode = 1, kGraphInitializer = 5, kGraphInput = 11, kGraphOutput = 12,
                          kGraphValueInfo = 13, kGraphSparseInitializer = 15;
inline constexpr uint32_t kNodeOpType = 4, kNodeAttribute = 5;
inline constexpr uint32_t kAttrName = 1, kAttrT = 5, kAttrG = 6, kAttrTensors = 10, kAttrGraphs = 11,
                          kAttrSparseTensor = 22, kAttrSparseTensors = 23;
inline constexpr uint32_t kValueInfoName = 1, kValueInfoType = 2;
inline constexpr uint32_t kTensorName = 8, kTensorExternalData = 13, kTensorDataLocation = 14;
inline constexpr int32_t kDataLocationExternal = 1;  // TensorProto.DataLocation.EXTERNAL
inline constexpr uint32_t kSparseValues = 1, kSparseIndices = 2;
inline constexpr uint32_t kEntryKey = 1, kEntryValue = 2;
inline constexpr uint32_t kFunctionNode = 7;
}  // namespace onnx_field

// A TypeProto's bytes as detail::write_type (save.hpp) makes it, encoded
// directly: field numbers of onnx.proto's TypeProto, Tensor, Sequence, Map,
// Optional, SparseTensor, TensorShapeProto and Dimension.
inline void append_shape(std::string& out, const Shape& s, FreshDims& fresh) {
  for (const auto& d : s.dims())
    splicing::append_nested(out, 1, [&](std::string& dim) {
      if (d.is_int() && d.value() >= 0)
        splicing::append_varint_field(dim, 1, static_cast<uint64_t>(d.value()));
      else
        splicing::append_delimited(dim, 2, d.is_known() ? d.to_string() : fresh.next());
    });
}

inline void append_type(std::string& out, const Type& t, FreshDims& fresh) {
  const auto enum_value = [](DataType d) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(d)));
  };
  switch (t.kind()) {
    case Type::Kind::Tensor:
    case Type::Kind::SparseTensor:
      splicing::append_nested(out, t.kind() == Type::Kind::Tensor ? 1 : 8, [&](std::string& inner) {
        splicing::append_varint_field(inner, 1, enum_value(t.elem_type()));
        if (t.shape().has_rank())
          splicing::append_nested(inner, 2, [&](std::string& shape) { append_shape(shape, t.shape(), fresh); });
      });
      break;
    case Type::Kind::Sequence:
    case Type::Kind::Optional:
      splicing::append_nested(out, t.kind() == Type::Kind::Sequence ? 4 : 9, [&](std::string& inner) {
        splicing::append_nested(inner, 1, [&](std::string& elem) { append_type(elem, *t.inner(), fresh); });
      });
      break;
    case Type::Kind::Map:
      splicing::append_nested(out, 5, [&](std::string& inner) {
        splicing::append_varint_field(inner, 1, enum_value(t.elem_type()));
        splicing::append_nested(inner, 2, [&](std::string& value) { append_type(value, *t.inner(), fresh); });
      });
      break;
    default:
      break;
  }
}

// Calls fn(Message tensor) for every tensor of the file, in the order of
// for_each_tensor (save.hpp): initializers, sparse initializers, tensor
// attributes, in subgraphs (to kMaxNesting) and model-local functions.
template <class Fn>
class TensorWalk {
 public:
  TensorWalk(std::string_view file, Fn& fn) : file_(file), fn_(fn) {}

  void model(const splicing::Message& m) {
    const splicing::Message graph = splicing::submessage(file_, m, onnx_field::kModelGraph);
    this->graph(graph, 0);
    for (const splicing::Segment& f : splicing::elements(file_, m, onnx_field::kModelFunctions)) {
      const splicing::Message function{f};
      nodes(function, onnx_field::kFunctionNode, 0);
    }
  }

 private:
  std::string_view file_;
  Fn& fn_;

  void sparse(const splicing::Message& st) {
    fn_(splicing::submessage(file_, st, onnx_field::kSparseValues));
    fn_(splicing::submessage(file_, st, onnx_field::kSparseIndices));
  }

  void graph(const splicing::Message& g, int depth) {
    if (depth > kMaxNesting) return;
    for (const splicing::Segment& t : splicing::elements(file_, g, onnx_field::kGraphInitializer))
      fn_(splicing::Message{t});
    for (const splicing::Segment& st : splicing::elements(file_, g, onnx_field::kGraphSparseInitializer)) sparse({st});
    nodes(g, onnx_field::kGraphNode, depth);
  }

  // Each node and attribute is read once (a graph of a million nodes is
  // walked without a list of its nodes).
  void nodes(const splicing::Message& owner, uint32_t node_field, int depth) {
    splicing::for_each_field(file_, owner, [&](const splicing::Field& f, const splicing::Segment& s) {
      if (f.number != node_field || !f.delimited()) return;
      const splicing::Segment n = splicing::sub_segment(f, s);
      splicing::for_each_field(file_, n, [&](const splicing::Field& af, const splicing::Segment& in) {
        if (af.number == onnx_field::kNodeAttribute && af.delimited()) attribute(splicing::sub_segment(af, in), depth);
      });
    });
  }

  void attribute(const splicing::Segment& a, int depth) {
    namespace F = onnx_field;
    splicing::Message t, tensors, st, sparse_tensors, g, graphs;  // empty (no allocation) for most attributes
    splicing::for_each_field(file_, a, [&](const splicing::Field& f, const splicing::Segment& s) {
      if (!f.delimited()) return;
      splicing::Message* to = f.number == F::kAttrT               ? &t
                              : f.number == F::kAttrTensors       ? &tensors
                              : f.number == F::kAttrSparseTensor  ? &st
                              : f.number == F::kAttrSparseTensors ? &sparse_tensors
                              : f.number == F::kAttrG             ? &g
                              : f.number == F::kAttrGraphs        ? &graphs
                                                                  : nullptr;
      if (to) to->push_back(splicing::sub_segment(f, s));
    });
    if (!t.empty()) fn_(t);
    for (const splicing::Segment& e : tensors) fn_(splicing::Message{e});
    if (!st.empty()) sparse(st);
    for (const splicing::Segment& e : sparse_tensors) sparse({e});
    if (!g.empty()) graph(g, depth + 1);
    for (const splicing::Segment& e : graphs) graph({e}, depth + 1);
  }
};

// A tensor's external-data facts, as TensorProto's accessors give them.
struct ExternalInfo {
  bool external = false;
  std::string name;
  bool has_location = false;
  splicing::Segment entry;  // the first external_data entry keyed "location"
  std::string location;
};

inline ExternalInfo external_info(std::string_view file, const splicing::Message& t) {
  ExternalInfo info;
  // data_location is a proto2 enum: values other than DEFAULT (0) and
  // EXTERNAL (1) go to the unknown fields and leave it as it was.
  bool has = false;
  int32_t location = 0;
  splicing::for_each_field(file, t, [&](const splicing::Field& f, const splicing::Segment&) {
    if (f.number != onnx_field::kTensorDataLocation || f.wire_type != 0) return;
    const auto v = static_cast<int32_t>(f.varint);
    if (v == 0 || v == 1) has = true, location = v;
  });
  info.external = has && location == onnx_field::kDataLocationExternal;
  if (!info.external) return info;
  info.name = std::string(splicing::string_field(file, t, onnx_field::kTensorName));
  for (const splicing::Segment& e : splicing::elements(file, t, onnx_field::kTensorExternalData))
    if (splicing::string_field(file, e, onnx_field::kEntryKey) == "location") {
      info.has_location = true;
      info.entry = e;
      info.location = std::string(splicing::string_field(file, e, onnx_field::kEntryValue));
      break;
    }
  return info;
}

template <class Fn>
void for_each_tensor_in_file(std::string_view file, Fn fn) {
  splicing::Segment top;
  top.end = file.size();
  top.top = true;
  TensorWalk<Fn>(file, fn).model({top});
}

// As collect_proto_symbols (save.hpp) on the parsed TypeProto: the
// dim_params of a TypeProto given as bytes (the occurrences of a merged
// message), read with the loader's views.
inline void collect_dim_params(const view::Msg& type, std::set<std::string>& out, int depth = 0) {
  if (depth > kMaxNesting || !type.present) return;
  const auto t = view::decode<view::TypeView>(type);
  switch (t.member) {
    case 1:  // tensor_type
    case 8:  // sparse_tensor_type
      view::decode<view::TensorTypeView>(t.value).shape.for_each([&](const symshape::wire::Field& f) {
        if (f.number != 1 || f.wire != symshape::wire::kLen) return;  // TensorShapeProto.dim
        const auto d = view::decode<view::DimView>(f.bytes);
        if (d.which == 2) out.insert(std::string(d.param));
      });
      break;
    case 4:  // sequence_type
    case 9:  // optional_type
      collect_dim_params(view::decode<view::ElemTypeView>(t.value).elem_type, out, depth + 1);
      break;
    case 5:  // map_type
      collect_dim_params(view::decode<view::MapTypeView>(t.value).value_type, out, depth + 1);
      break;
    default:
      break;
  }
}

}  // namespace detail

// The external tensors of a model file: how many, and the data files they
// name (as external_data_files does for a proto), each once; not opened.
struct ExternalData {
  std::size_t tensors = 0;  // relocate() changes nothing when there are none
  std::vector<std::string> files;
};

inline ExternalData external_data(std::string_view bytes, const std::string& model_dir) {
  ExternalData out;
  detail::for_each_tensor_in_file(bytes, [&](const splicing::Message& t) {
    const detail::ExternalInfo info = detail::external_info(bytes, t);
    if (!info.external) return;
    ++out.tensors;
    if (info.location.empty()) return;
    const std::string f = detail::external_file(model_dir, info.location).string();
    if (std::find(out.files.begin(), out.files.end(), f) == out.files.end()) out.files.push_back(f);
  });
  return out;
}

inline std::vector<std::string> external_data_files(std::string_view bytes, const std::string& model_dir) {
  return external_data(bytes, model_dir).files;
}

// A value info of the main graph as written: its bytes in the input (a whole
// ValueInfoProto), or its name and new type (TypeProto bytes).
struct WrittenValueInfo {
  std::string_view input;  // the ValueInfoProto, when it is unchanged
  std::string_view name;   // (in the input or in the Model)
  std::string_view type;   // the new TypeProto, when rewritten
  bool rewritten = false;
  std::size_t type_at = 0, type_size = 0;  // (where `type` is in the Splice's buffer, while it grows)
};

// Builds the output of one model file: write_types() and relocate() record
// the edits, finish() makes the pieces. `bytes` and `model` (loaded from
// them) must outlive the Splice. The constructor reads the main graph's
// fields (the nodes, most of a large file, only there); after it, until
// relocate() or the output's writing, the Splice reads the file only where
// it writes, so a caller may let the mapped pages go (MappedFile::release_pages)
// while the model is inferred.
class Splice {
 public:
  Splice(std::string_view bytes, const Model& model)
      : in_(bytes),
        model_(model),
        editor_(bytes),
        fresh_([this] { return used_symbols(); }),
        malformed_(splicing::malformed_count()) {
    top_.end = bytes.size();
    top_.top = true;
    main_graph_ = splicing::submessage(in_, top_, detail::onnx_field::kModelGraph);
    main_fields_ = graph_fields(*model_.graph, main_graph_);
  }
  Splice(const Splice&) = delete;
  Splice& operator=(const Splice&) = delete;

  // As write_inferred_types(model, proto, inputs_too).
  void write_types(const std::vector<std::string>& inputs_too = {});
  // What write_types() would write in the main graph (main_graph_value_infos())
  // without preparing the output: for a reader of the types (the summary,
  // `show`); relocate() and finish() then refuse.
  void record_types(const std::vector<std::string>& inputs_too = {}) {
    editing_ = false;
    write_types(inputs_too);
  }
  // As relocate_external_data(proto, from_dir, to_dir); on failure nothing changes.
  Result<bool> relocate(const std::string& from_dir, const std::string& to_dir);
  // The main graph's graph inputs, value_info and graph outputs as written
  // (after write_types), in that order. The node outputs that get a
  // value_info of their own (writes_value_info) have an entry only when their
  // types take fresh names: the others are written as the IR has them.
  const std::vector<WrittenValueInfo>& main_graph_value_infos() const { return written_; }
  Result<SplicedModel> finish() {
    if (!editing_) return Result<SplicedModel>::failure("the types were only recorded (record_types)");
    if (splicing::malformed_count() != malformed_)
      return Result<SplicedModel>::failure("the model file has malformed protobuf fields (nothing written)");
    return editor_.finish();
  }

 private:
  using FieldIn = std::pair<splicing::Field, const splicing::Segment*>;  // a field and the segment it is in
  // The fields of a GraphProto that the writer reads, from one walk over it.
  struct GraphFields {
    std::vector<splicing::Segment> inputs, outputs;
    std::vector<FieldIn> value_infos;
    std::vector<std::pair<std::size_t, splicing::Segment>> with_graphs;  // the nodes with a graph attribute, by index
    std::size_t node_count = 0;
  };

  std::string_view in_;
  const Model& model_;
  detail::Editor editor_;
  detail::FreshDims fresh_;
  splicing::Segment top_;
  splicing::Message main_graph_;  // (segments that main_fields_ and the editor point to: never changed)
  GraphFields main_fields_;
  std::vector<WrittenValueInfo> written_;
  std::string written_types_;  // the new types of written_
  uint64_t malformed_;         // splicing::malformed_count() at the start
  bool editing_ = true;        // false after record_types()

  GraphFields graph_fields(const Graph& g, const splicing::Message& p) const;
  std::set<std::string> used_symbols() const;
  void collect_proto_symbols(const splicing::Message& g, std::set<std::string>& out, int depth) const;
  void collect_subgraph_symbols(const splicing::Segment& node, std::set<std::string>& out, int depth) const;
  void collect_value_info_symbols(std::size_t content, std::size_t end, std::set<std::string>& out) const;
  std::string type_bytes(const Type& t);
  void rewrite_type(const splicing::Segment& vi, std::string_view type);
  void add_written(std::string_view input, std::string_view name, std::string_view type, bool rewritten);
  void keep_other_value_infos(const std::vector<const Value*>& values, const std::vector<FieldIn>& infos, bool main);
  void write_graph(const Graph& g, const splicing::Message& p, const GraphFields& fields, int depth, bool main);
  void write_node_subgraphs(const Node& n, const splicing::Segment& node, int depth);
};

// The fields of GraphProto `p`, which was loaded as `g`. The nodes with a
// graph attribute are those of g (the loader keeps the file's node order),
// so that a node's own fields are not read.
inline Splice::GraphFields Splice::graph_fields(const Graph& g, const splicing::Message& p) const {
  namespace F = detail::onnx_field;
  std::vector<std::size_t> with_graphs;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const std::vector<Attribute>& attributes = g.nodes[i]->attributes;
    if (std::any_of(attributes.begin(), attributes.end(), [](const Attribute& a) { return !a.graphs.empty(); }))
      with_graphs.push_back(i);
  }
  GraphFields out;
  std::size_t next = 0;  // in with_graphs
  splicing::for_each_field(in_, p, [&](const splicing::Field& f, const splicing::Segment& s) {
    if (!f.delimited()) return;
    if (f.number == F::kGraphNode) {
      if (next < with_graphs.size() && with_graphs[next] == out.node_count)
        out.with_graphs.emplace_back(with_graphs[next++], splicing::sub_segment(f, s));
      ++out.node_count;
    } else if (f.number == F::kGraphInput) {
      out.inputs.push_back(splicing::sub_segment(f, s));
    } else if (f.number == F::kGraphOutput) {
      out.outputs.push_back(splicing::sub_segment(f, s));
    } else if (f.number == F::kGraphValueInfo) {
      out.value_infos.emplace_back(f, &s);
    }
  });
  return out;
}

// Symbols of the model and of the file's types (as write_inferred_types
// collects them), for fresh dim names: the main graph's from the fields the
// constructor found, its subgraphs' as collect_proto_symbols reads them.
inline std::set<std::string> Splice::used_symbols() const {
  std::set<std::string> used;
  detail::collect_graph_symbols(*model_.graph, used);
  for (const splicing::Segment& s : main_fields_.inputs) collect_value_info_symbols(s.content, s.end, used);
  for (const splicing::Segment& s : main_fields_.outputs) collect_value_info_symbols(s.content, s.end, used);
  for (const auto& [f, s] : main_fields_.value_infos) collect_value_info_symbols(f.content, f.end, used);
  for (const auto& [i, node] : main_fields_.with_graphs) collect_subgraph_symbols(node, used, 1);
  return used;
}

// As collect_proto_graph_symbols: the types of inputs, outputs and value_info
// (each ValueInfoProto read alone), in subgraphs to kMaxNesting.
inline void Splice::collect_proto_symbols(const splicing::Message& g, std::set<std::string>& out, int depth) const {
  namespace F = detail::onnx_field;
  if (depth > kMaxNesting) return;
  splicing::for_each_field(in_, g, [&](const splicing::Field& f, const splicing::Segment& s) {
    if (!f.delimited()) return;
    if (f.number == F::kGraphInput || f.number == F::kGraphOutput || f.number == F::kGraphValueInfo)
      collect_value_info_symbols(f.content, f.end, out);
    else if (f.number == F::kGraphNode)
      collect_subgraph_symbols(splicing::sub_segment(f, s), out, depth + 1);
  });
}

// The symbols of the subgraphs of a NodeProto, at nesting `depth`.
inline void Splice::collect_subgraph_symbols(const splicing::Segment& node, std::set<std::string>& out,
                                             int depth) const {
  namespace F = detail::onnx_field;
  for (const splicing::Segment& a : splicing::elements(in_, node, F::kNodeAttribute)) {
    const splicing::Message sub = splicing::submessage(in_, a, F::kAttrG);
    if (!sub.empty()) collect_proto_symbols(sub, out, depth);
    for (const splicing::Segment& e : splicing::elements(in_, a, F::kAttrGraphs))
      collect_proto_symbols({e}, out, depth);
  }
}

// The dim_params of the ValueInfoProto at [content, end).
inline void Splice::collect_value_info_symbols(std::size_t content, std::size_t end, std::set<std::string>& out) const {
  const symshape::wire::Span vi{in_.data() + content, in_.data() + end};
  detail::collect_dim_params(view::decode<view::ValueInfoView>(vi).type, out);
}

inline std::string Splice::type_bytes(const Type& t) {
  std::string out;
  detail::append_type(out, t, fresh_);
  return out;
}

inline void Splice::add_written(std::string_view input, std::string_view name, std::string_view type, bool rewritten) {
  // `type` is set to its place in written_types_ once that stops growing.
  written_.push_back({input, name, {}, rewritten, written_types_.size(), type.size()});
  written_types_.append(type.data(), type.size());
}

// The ValueInfoProto `vi` with its type replaced (every occurrence removed,
// the new one appended).
inline void Splice::rewrite_type(const splicing::Segment& vi, std::string_view type) {
  if (!editing_) return;
  splicing::for_each_field(in_, vi, [&](const splicing::Field& f, const splicing::Segment&) {
    if (f.number == detail::onnx_field::kValueInfoType && f.delimited()) editor_.replace(vi, f.begin, f.end, {});
  });
  std::string field;
  splicing::append_delimited(field, detail::onnx_field::kValueInfoType, type);
  editor_.replace(vi, vi.end, vi.end, std::move(field));
}

inline void Splice::write_types(const std::vector<std::string>& inputs_too) {
  namespace F = detail::onnx_field;
  const std::vector<splicing::Segment>& inputs = main_fields_.inputs;
  std::vector<std::string_view> names(inputs.size());
  std::vector<std::string> types(inputs.size());
  std::vector<bool> rewritten(inputs.size(), false);
  for (std::size_t i = 0; i < inputs.size(); ++i) names[i] = splicing::string_field(in_, inputs[i], F::kValueInfoName);
  for (const std::string& name : inputs_too)
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (names[i] == name) {
        const Value* v = model_.graph->find(name);
        if (v && detail::writable(v->type)) {
          types[i] = type_bytes(v->type);  // a name listed twice is written twice, as the proto path does
          rewritten[i] = true;
        }
      }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (rewritten[i]) rewrite_type(inputs[i], types[i]);
    add_written(in_.substr(inputs[i].content, inputs[i].end - inputs[i].content), names[i], types[i], rewritten[i]);
  }
  write_graph(*model_.graph, main_graph_, main_fields_, 0, true);
  for (WrittenValueInfo& w : written_)  // the buffer has stopped growing
    if (w.rewritten) w.type = std::string_view(written_types_).substr(w.type_at, w.type_size);
}

// The file's value_info of other values than `values` is kept, that of
// `values` is dropped (write_graph writes theirs).
inline void Splice::keep_other_value_infos(const std::vector<const Value*>& values, const std::vector<FieldIn>& infos,
                                           bool main) {
  NameIndex<const Value> ours;
  ours.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i + kPrefetchDistance < values.size()) ours.prefetch(values[i + kPrefetchDistance]->name);
    ours.insert(values[i]);
  }
  for (const auto& [f, s] : infos) {
    const std::string_view name =
        splicing::string_field(in_, splicing::sub_segment(f, *s), detail::onnx_field::kValueInfoName);
    if (ours.contains(name)) {
      if (editing_) editor_.replace(*s, f.begin, f.end, {});
    } else if (main) {
      add_written(in_.substr(f.content, f.end - f.content), name, {}, false);
    }
  }
}

// As detail::write_graph (save.hpp), on the segments of GraphProto `p` and
// its `fields`.
inline void Splice::write_graph(const Graph& g, const splicing::Message& p, const GraphFields& fields, int depth,
                                bool main) {
  namespace F = detail::onnx_field;
  if (depth > kMaxNesting || p.empty()) return;
  // The node outputs given a value_info of their own, in node order (the
  // loader made their names unique); a list of them only when the file's
  // value_info is to be sorted out.
  const auto for_each_written = [&g](auto&& fn) {
    for (const auto& n : g.nodes)
      for (const Value* v : n->outputs)
        if (v && writes_value_info(*v)) fn(v);
  };
  if (!fields.value_infos.empty()) {
    std::vector<const Value*> values;
    for_each_written([&values](const Value* v) { values.push_back(v); });
    keep_other_value_infos(values, fields.value_infos, main);
  }
  std::string added, vi, type;
  if (editing_) added.reserve(g.nodes.size() * 48);
  for_each_written([&](const Value* v) {
    // A type that takes no fresh name needs no entry: it is written as the
    // IR has it (see main_graph_value_infos()).
    const bool entry = main && detail::takes_fresh_names(v->type);
    if (!editing_ && !entry) return;
    type.clear();
    detail::append_type(type, v->type, fresh_);
    if (entry) add_written({}, v->name, type, true);
    if (!editing_) return;
    vi.clear();
    splicing::append_delimited(vi, F::kValueInfoName, v->name);
    splicing::append_delimited(vi, F::kValueInfoType, type);
    splicing::append_delimited(added, F::kGraphValueInfo, vi);
  });
  if (!added.empty()) editor_.replace(p.back(), p.back().end, p.back().end, std::move(added));
  for (const splicing::Segment& out : fields.outputs) {
    const std::string_view name = splicing::string_field(in_, out, F::kValueInfoName);
    const Value* v = g.find(name);
    const bool rewrite = v && detail::writable(v->type);
    const std::string new_type = rewrite ? type_bytes(v->type) : std::string();
    if (rewrite) rewrite_type(out, new_type);
    if (main) add_written(in_.substr(out.content, out.end - out.content), name, new_type, rewrite);
  }
  // Subgraphs: the IR keeps the proto's node and attribute order. (Their
  // fresh dims come after the main graph's: recording skips them.)
  if (editing_ && fields.node_count == g.nodes.size())
    for (const auto& [i, node] : fields.with_graphs) write_node_subgraphs(*g.nodes[i], node, depth);
}

inline void Splice::write_node_subgraphs(const Node& n, const splicing::Segment& node, int depth) {
  namespace F = detail::onnx_field;
  if (splicing::string_field(in_, node, F::kNodeOpType) != n.op_type) return;
  for (const splicing::Segment& as : splicing::elements(in_, node, F::kNodeAttribute)) {
    const Attribute* a = n.attr(splicing::string_field(in_, as, F::kAttrName));
    if (!a) continue;
    const splicing::Message sub = splicing::submessage(in_, as, F::kAttrG);
    if (!sub.empty() && a->graphs.size() == 1 && a->graphs[0])
      write_graph(*a->graphs[0], sub, graph_fields(*a->graphs[0], sub), depth + 1, false);
    const std::vector<splicing::Segment> subs = splicing::elements(in_, as, F::kAttrGraphs);
    if (!subs.empty() && subs.size() == a->graphs.size())
      for (std::size_t k = 0; k < subs.size(); ++k)
        if (a->graphs[k]) {
          const splicing::Message one{subs[k]};
          write_graph(*a->graphs[k], one, graph_fields(*a->graphs[k], one), depth + 1, false);
        }
  }
}

inline Result<bool> Splice::relocate(const std::string& from_dir, const std::string& to_dir) {
  namespace F = detail::onnx_field;
  if (!editing_) return Result<bool>::failure("the types were only recorded (record_types)");
  const std::filesystem::path to = detail::canonical_dir(to_dir);
  if (detail::canonical_dir(from_dir) == to) return true;
  std::string error;
  struct Change {
    int frame;  // the external_data entry's
    splicing::Segment entry;
    std::string location;
  };
  std::vector<Change> changes;
  detail::for_each_tensor_in_file(in_, [&](const splicing::Message& t) {
    if (!error.empty()) return;
    const detail::ExternalInfo info = detail::external_info(in_, t);
    if (!info.external) return;
    Result<std::optional<std::string>> moved =
        detail::relocated_location(info.name, info.has_location ? &info.location : nullptr, from_dir, to);
    if (!moved)
      error = moved.error();
    else if (*moved)  // the entry's frame while its enclosing segments exist
      changes.push_back({editor_.frame(info.entry), info.entry, **moved});
  });
  if (!error.empty()) return Result<bool>::failure(error);
  for (Change& c : changes) {
    splicing::Segment entry = c.entry;
    entry.parent = nullptr;
    entry.frame = c.frame;
    splicing::for_each_field(in_, entry, [&](const splicing::Field& f, const splicing::Segment&) {
      if (f.number == F::kEntryValue && f.delimited()) editor_.replace(entry, f.begin, f.end, {});
    });
    std::string field;
    splicing::append_delimited(field, F::kEntryValue, c.location);
    editor_.replace(entry, entry.end, entry.end, std::move(field));
  }
  return true;
}

// ---- writing ----

namespace detail {

// Copies `size` bytes at `offset` of in_fd to fd's position with
// copy_file_range; false (nothing or part copied, `done` says how much) when
// the kernel cannot (another file system, a pipe, an old kernel).
inline bool copy_range(int in_fd, int fd, std::size_t offset, std::size_t size, std::size_t& done) {
  done = 0;
  loff_t at = static_cast<loff_t>(offset);
  while (done < size) {
    const ssize_t n = ::copy_file_range(in_fd, &at, fd, nullptr, size - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace detail

// Writes the pieces to fd. Input ranges are copied in the kernel from
// `in_fd` (the input file, which `model.input` maps; -1: none) while
// copy_file_range works, else written from the mapped bytes.
inline bool write_spliced(const SplicedModel& model, int fd, int in_fd = -1) {
  bool kernel_copy = in_fd >= 0;
  for (const SplicedModel::Piece& p : model.pieces) {
    std::size_t done = 0;
    if (p.from_input && kernel_copy) {
      errno = 0;
      if (detail::copy_range(in_fd, fd, model.offset(p), p.size, done)) continue;
      if (errno == ENOSPC || errno == EIO || errno == EDQUOT || errno == EFBIG) return false;
      kernel_copy = false;  // EXDEV, ENOSYS, EINVAL (a pipe, a device), ...: write() from the bytes
    }
    if (!write_all(fd, p.data + done, p.size - done)) return false;
  }
  return true;
}

// A PendingFile writer of the spliced model; `model` (and the input it maps)
// must outlive the PendingFile, `in_fd` stays open until it is committed.
inline PendingFile::Writer spliced_writer(const SplicedModel& model, int in_fd = -1) {
  return [&model, in_fd](int fd) { return write_spliced(model, fd, in_fd); };
}

}  // namespace symshape::io
