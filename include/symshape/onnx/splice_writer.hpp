// The ONNX adapter, splicing writer (its reading side: segment_reader.hpp): the inferred types written into a model
// file without re-serializing it. The output is the input file's bytes with
// value_info and graph output types rewritten (in the main graph and in
// subgraphs), the inputs the caller names rewritten, and relative external
// data locations relocated; everything else (nodes without subgraphs,
// initializers, doc strings, functions, unknown fields) is copied as byte
// ranges of the input. Parsed into a ModelProto, the output equals what
// write_inferred_types + relocate_external_data make of the parsed input
// (save.hpp), fresh dim names included.
//
//   Result<Model> model = onnx::load_model_bytes(bytes, path);
//   infer_shapes(model.value());
//   onnx::Splice splice(bytes, *model);
//   splice.write_types();
//   Result<onnx::SplicedModel> out = splice.finish();
//   symshape::PendingFile::prepare(out_path, onnx::spliced_writer(*out, input_fd));
//
// The input is walked with the loader's wire-format primitives (wire.hpp);
// no protobuf library is involved. Singular message fields that occur more than once (protobuf merges them) are handled
// as the parser does: every occurrence is rewritten in place. Enclosing
// messages (graph, node, attribute, value info, tensor) get new length
// prefixes. Subgraphs are written to the loader's kMaxSubgraphNesting levels,
// as write_inferred_types writes them.
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
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/external_data_paths.hpp"
#include "symshape/onnx/fields.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/segment_reader.hpp"
#include "symshape/onnx/views.hpp"
#include "symshape/onnx/wire.hpp"
#include "symshape/onnx/written_types.hpp"
#include "symshape/support/name_index.hpp"
#include "symshape/support/output_file.hpp"
#include "symshape/support/read_progress.hpp"
#include "symshape/support/result.hpp"
#include "symshape/support/string_hash.hpp"

namespace symshape::onnx {

namespace detail {

// Protobuf wire-format encoding of the new fields.
// put_*: into room the caller has made (varint_size, delimited_size); they
// return the end of what they wrote.
inline char* put_varint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}
inline void append_varint(std::string& out, uint64_t v) {
  if (v < 0x80) {  // tags, small lengths and values: most of what the writer encodes
    out.push_back(static_cast<char>(v));
    return;
  }
  char buf[10];
  out.append(buf, static_cast<std::size_t>(put_varint(buf, v) - buf));
}

inline uint64_t make_tag(uint32_t number, uint32_t wire_type) { return uint64_t{number} << 3 | wire_type; }

inline void append_varint_field(std::string& out, uint32_t number, uint64_t v) {
  append_varint(out, make_tag(number, wire::kVarint));
  append_varint(out, v);
}

// How many bytes append_varint(out, v) appends.
inline std::size_t varint_size(uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

// A length-delimited field: tag, length, content.
inline std::size_t delimited_size(uint32_t number, std::size_t content_size) {
  return varint_size(make_tag(number, wire::kLen)) + varint_size(content_size) + content_size;
}
inline void append_delimited(std::string& out, uint32_t number, std::string_view content) {
  append_varint(out, make_tag(number, wire::kLen));
  append_varint(out, content.size());
  out.append(content.data(), content.size());
}
inline char* put_delimited(char* p, uint32_t number, std::string_view content) {
  p = put_varint(p, make_tag(number, wire::kLen));
  p = put_varint(p, content.size());
  return std::copy(content.begin(), content.end(), p);
}

// A length-delimited field whose content fill(out) appends in place: the
// length, unknown until then, takes one byte that is patched afterwards (and
// widened, moving the content, past 127 bytes). Saves building nested
// messages in strings of their own.
template <class Fill>
void append_nested(std::string& out, uint32_t number, Fill&& fill) {
  append_varint(out, make_tag(number, wire::kLen));
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

}  // namespace detail

// The output: pieces that are byte ranges of the input, bytes of their own,
// or bytes made as they are written (a graph's new value_info entries: a
// million-node graph's are tens of megabytes, not held twice). Made pieces
// read the Model's graphs, which must outlive the SplicedModel unchanged.
struct SplicedModel {
  // Receives consecutive chunks of a made piece; false stops the making.
  using Emit = std::function<bool(std::string_view)>;
  using Maker = std::function<bool(const Emit&)>;
  struct Piece {
    const char* data = nullptr;
    std::size_t size = 0;
    bool from_input = false;  // data points into the input
    int made = -1;            // when >= 0: the bytes are makers[made]'s
  };
  std::string_view input;
  std::deque<std::string> owned;  // the new bytes (a deque: pieces point into them)
  std::vector<Maker> makers;
  std::vector<Piece> pieces;
  std::size_t size = 0;
  // Offset of a from_input piece in the input file.
  std::size_t offset(const Piece& p) const { return static_cast<std::size_t>(p.data - input.data()); }

  // Passes p's bytes to `out`, in one or more chunks; false when `out`
  // refuses one, or when a maker's bytes are not the size it announced.
  bool emit(const Piece& p, const Emit& out) const {
    if (p.made < 0) return out(std::string_view(p.data, p.size));
    std::size_t made = 0;
    const bool ok = makers[static_cast<std::size_t>(p.made)]([&](std::string_view chunk) {
      made += chunk.size();
      return made <= p.size && out(chunk);
    });
    return ok && made == p.size;
  }
  // The whole model in memory (for a caller that wants bytes, not a file).
  Result<std::string> bytes() const {
    std::string out;
    out.reserve(size);
    for (const Piece& p : pieces)
      if (!emit(p, [&out](std::string_view chunk) {
            out.append(chunk.data(), chunk.size());
            return true;
          }))
        return Result<std::string>::failure("internal error: a made part of the model has the wrong size");
    return out;
  }
};

namespace detail {

// Edits of the input: ranges replaced by new bytes (insertions and removals
// included), and the length prefixes of the messages around them ("frames").
class Editor {
 public:
  explicit Editor(std::string_view input) : input_(input) {}

  // The frame of a segment (and its enclosing ones); -1 for the whole file.
  int frame(const segments::Segment& s) {
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
  void replace(const segments::Segment& s, std::size_t begin, std::size_t end, std::string bytes) {
    const int f = frame(s);
    const std::size_t size = bytes.size();
    edits_.push_back(
        {begin, end, f, f < 0 ? 0 : frames_[static_cast<std::size_t>(f)].depth, edits_.size(), std::move(bytes), size});
  }
  // Inserts at `at` of segment s's content the `size` bytes that `make`
  // makes when the output is written.
  void insert_made(const segments::Segment& s, std::size_t at, std::size_t size, SplicedModel::Maker make) {
    replace(s, at, at, {});
    edits_.back().size = size;
    edits_.back().made = static_cast<int>(makers_.size());
    makers_.push_back(std::move(make));
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
    std::size_t size;  // bytes.size(), or the made bytes' size
    int made = -1;     // in makers_
  };
  std::string_view input_;
  std::vector<Frame> frames_;
  std::unordered_map<std::size_t, int> by_content_;
  std::vector<Edit> edits_;
  std::vector<SplicedModel::Maker> makers_;

  Result<bool> add_length_edits();
};

// New length prefixes, innermost frames first (a frame's content starts after
// its parent's), each frame's size change carried to its parent.
inline Result<bool> Editor::add_length_edits() {
  for (const Edit& e : edits_)
    if (e.frame >= 0)
      frames_[static_cast<std::size_t>(e.frame)].delta +=
          static_cast<int64_t>(e.size) - static_cast<int64_t>(e.end - e.begin);
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
    detail::append_varint(prefix, static_cast<uint64_t>(size));
    const int64_t change =
        f.delta + static_cast<int64_t>(prefix.size()) - static_cast<int64_t>(f.content - f.len_begin);
    const int parent = f.parent;
    const std::size_t prefix_size = prefix.size();
    edits_.push_back({f.len_begin, f.content, parent, parent < 0 ? 0 : frames_[static_cast<std::size_t>(parent)].depth,
                      edits_.size(), std::move(prefix), prefix_size});
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
    if (e.made >= 0) {
      out.pieces.push_back({nullptr, e.size, false, static_cast<int>(out.makers.size())});
      out.makers.push_back(std::move(makers_[static_cast<std::size_t>(e.made)]));
      out.size += e.size;
      continue;
    }
    if (e.bytes.empty()) continue;
    out.owned.push_back(std::move(e.bytes));
    out.pieces.push_back({out.owned.back().data(), out.owned.back().size(), false});
    out.size += out.owned.back().size();
  }
  copy(at, input_.size());
  edits_.clear();
  makers_.clear();
  if (out.size > static_cast<std::size_t>(INT_MAX))
    return Result<SplicedModel>::failure("the model is larger than 2 GB and cannot be serialized");
  return Result<SplicedModel>(std::move(out));
}

// A TypeProto's bytes as detail::write_type (save.hpp) makes it, encoded
// directly.
inline void append_shape(std::string& out, const Shape& s, FreshDims& fresh) {
  namespace D = fields::TensorShapeProto::Dimension;
  for (const auto& d : s.dims())
    append_nested(out, fields::TensorShapeProto::kDim, [&](std::string& dim) {
      if (d.is_int() && d.value() >= 0)
        append_varint_field(dim, D::kDimValue, static_cast<uint64_t>(d.value()));
      else
        append_delimited(dim, D::kDimParam, d.is_known() ? d.to_string() : fresh.next());
    });
}

inline void append_type(std::string& out, const Type& t, FreshDims& fresh) {
  const auto enum_value = [](DataType d) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(d)));
  };
  namespace TP = fields::TypeProto;
  switch (t.kind()) {
    case Type::Kind::Tensor:
    case Type::Kind::SparseTensor:
      append_nested(out, t.kind() == Type::Kind::Tensor ? TP::kTensorType : TP::kSparseTensorType,
                    [&](std::string& inner) {
                      append_varint_field(inner, TP::Tensor::kElemType, enum_value(t.elem_type()));
                      if (t.shape().has_rank())
                        append_nested(inner, TP::Tensor::kShape,
                                      [&](std::string& shape) { append_shape(shape, t.shape(), fresh); });
                    });
      break;
    case Type::Kind::Sequence:
    case Type::Kind::Optional:
      append_nested(out, t.kind() == Type::Kind::Sequence ? TP::kSequenceType : TP::kOptionalType,
                    [&](std::string& inner) {
                      append_nested(inner, TP::Sequence::kElemType,
                                    [&](std::string& elem) { append_type(elem, *t.inner(), fresh); });
                    });
      break;
    case Type::Kind::Map:
      append_nested(out, TP::kMapType, [&](std::string& inner) {
        append_varint_field(inner, TP::Map::kKeyType, enum_value(t.elem_type()));
        append_nested(inner, TP::Map::kValueType, [&](std::string& value) { append_type(value, *t.inner(), fresh); });
      });
      break;
    default:
      break;
  }
}

// The TypeProto bytes of the tensor types that take no fresh names, each
// encoded once: the values of a graph share a few types, and encoding one
// (its symbolic dims printed) costs more than finding it again.
class EncodedTypes {
 public:
  // t's bytes, as append_type(out, t, fresh) writes them; `scratch` holds
  // them when t is not kept (it takes fresh names, or is no tensor type).
  const std::string& bytes(const Type& t, FreshDims& fresh, std::string& scratch) {
    if (!keeps(t)) {
      scratch.clear();
      append_type(scratch, t, fresh);
      return scratch;
    }
    if (const Kept* k = index_.find(t)) return k->bytes;
    kept_.push_back({t, {}});
    append_type(kept_.back().bytes, t, fresh);  // takes no fresh name
    index_.insert(&kept_.back());
    return kept_.back().bytes;
  }
  // Whether bytes() keeps t's bytes: the same each time they are asked for.
  static bool keeps(const Type& t) { return t.kind() == Type::Kind::Tensor && !takes_fresh_names(t); }
  // The bytes kept for t by an earlier bytes(), or nullptr.
  const std::string* find(const Type& t) const {
    const Kept* k = index_.find(t);
    return k ? &k->bytes : nullptr;
  }

 private:
  struct Kept {
    Type type;
    std::string bytes;
  };
  // Each value of a graph is looked up twice (when its entry is sized and
  // when it is written), so this is a hash, a probe or two and one
  // comparison of types.
  struct KeyedOnType {
    using Key = const Type&;
    static Key key(const Kept& k) { return k.type; }
    static std::size_t hash(const Type& t) {
      uint64_t h = static_cast<uint64_t>(t.elem_type()) * 0x9e3779b97f4a7c15u;
      for (const SymbolicDim& d : t.shape().dims()) h = (h ^ d.expr().hash()) * 0x100000001b3u;
      // mixed, as the low bits pick the slot
      return static_cast<std::size_t>(symshape::detail::mix64(h ^ static_cast<uint64_t>(t.shape().rank() + 1)));
    }
    static bool equal(const Type& a, const Type& b) { return a == b; }
  };
  std::deque<Kept> kept_;  // (a deque: the bytes returned stay where they are)
  HashIndex<const Kept, KeyedOnType> index_;
};

// Calls fn(v) for each node output v of g that gets a value_info of its
// own, in node order (the loader made their names unique).
template <class Fn>
void for_each_written_value(const Graph& g, Fn&& fn) {
  for (const auto& n : g.nodes)
    for (const Value* v : n->outputs)
      if (v && writes_value_info(*v)) fn(v);
}

// The value_info entries that the splice adds to a graph, made again when
// the output is written instead of held (a million-node graph's take tens of
// megabytes): each value's ValueInfoProto with its name and the type bytes
// that EncodedTypes keeps; the types it does not keep (those that took fresh
// names, or are no tensor types) are held here, in order.
class AddedValueInfos {
 public:
  AddedValueInfos(const Graph& g, std::shared_ptr<const EncodedTypes> encoded)
      : graph_(&g), encoded_(std::move(encoded)) {}

  // Adds the entry of v, the next of for_each_written_value(g), whose type
  // is written as `type`.
  void add(const Value& v, std::string_view type) {
    size_ += entry_size(v.name, type);
    if (EncodedTypes::keeps(v.type)) return;
    held_.append(type.data(), type.size());
    held_sizes_.push_back(type.size());
  }
  std::size_t size() const { return size_; }

  // Passes the entries to `out` in chunks of about kChunk bytes.
  bool make(const SplicedModel::Emit& out) const {
    static constexpr std::size_t kChunk = 64 * 1024;
    std::string chunk;
    chunk.reserve(2 * kChunk);
    std::size_t held_at = 0, held_index = 0;
    bool ok = true;
    for_each_written_value(*graph_, [&](const Value* v) {
      if (!ok) return;
      std::string_view type;
      if (EncodedTypes::keeps(v->type)) {
        const std::string* kept = encoded_->find(v->type);
        if (!kept) {
          ok = false;  // the graph changed since the entries were added
          return;
        }
        type = *kept;
      } else {
        if (held_index == held_sizes_.size()) {
          ok = false;
          return;
        }
        type = std::string_view(held_).substr(held_at, held_sizes_[held_index]);
        held_at += held_sizes_[held_index++];
      }
      append_entry(chunk, v->name, type);
      if (chunk.size() >= kChunk) {
        ok = out(chunk);
        chunk.clear();
      }
    });
    return ok && (chunk.empty() || out(chunk));
  }

 private:
  const Graph* graph_;
  std::shared_ptr<const EncodedTypes> encoded_;
  std::string held_;
  std::vector<std::size_t> held_sizes_;
  std::size_t size_ = 0;

  static std::size_t value_info_size(std::string_view name, std::string_view type) {
    return delimited_size(fields::ValueInfoProto::kName, name.size()) +
           delimited_size(fields::ValueInfoProto::kType, type.size());
  }
  static std::size_t entry_size(std::string_view name, std::string_view type) {
    return delimited_size(fields::GraphProto::kValueInfo, value_info_size(name, type));
  }
  // The entry's room is made at once and filled through a pointer: appending
  // it field by field costs an out-of-line call per tag and length byte.
  static void append_entry(std::string& out, std::string_view name, std::string_view type) {
    const std::size_t content = value_info_size(name, type);
    const std::size_t at = out.size();
    out.resize(at + delimited_size(fields::GraphProto::kValueInfo, content));
    char* p = out.data() + at;
    p = put_varint(p, make_tag(fields::GraphProto::kValueInfo, wire::kLen));
    p = put_varint(p, content);
    p = put_delimited(p, fields::ValueInfoProto::kName, name);
    put_delimited(p, fields::ValueInfoProto::kType, type);
  }
};

// As collect_proto_symbols (save.hpp) on the parsed TypeProto: the
// dim_params of a TypeProto given as bytes (the occurrences of a merged
// message), read with the loader's views.
inline void collect_dim_params(const view::Msg& type, std::set<std::string>& out, int depth = 0) {
  if (depth > kMaxNesting || !type.present) return;
  const auto t = view::decode<view::TypeView>(type);
  namespace TP = fields::TypeProto;
  switch (t.member) {
    case TP::kTensorType:
    case TP::kSparseTensorType:
      view::decode<view::TensorTypeView>(t.value).shape.for_each([&](const wire::Field& f) {
        if (f.number != fields::TensorShapeProto::kDim || f.wire != wire::kLen) return;
        const auto d = view::decode<view::DimView>(f.bytes);
        if (d.which == fields::TensorShapeProto::Dimension::kDimParam) out.insert(std::string(d.param));
      });
      break;
    case TP::kSequenceType:
    case TP::kOptionalType:
      collect_dim_params(view::decode<view::ElemTypeView>(t.value).elem_type, out, depth + 1);
      break;
    case TP::kMapType:
      collect_dim_params(view::decode<view::MapTypeView>(t.value).value_type, out, depth + 1);
      break;
    default:
      break;
  }
}

}  // namespace detail

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
// while the model is inferred; `progress` is told how far the constructor's
// walk over the main graph's fields has got (offsets in `bytes`), for letting
// them go on the way.
class Splice {
 public:
  Splice(std::string_view bytes, const Model& model, ReadProgress progress = {})
      : in_(bytes), file_{bytes}, model_(model), editor_(bytes), fresh_([this] { return used_symbols(); }) {
    top_.end = bytes.size();
    top_.top = true;
    main_graph_ = segments::submessage(file_, top_, fields::ModelProto::kGraph);
    main_fields_ = graph_fields(*model_.graph, main_graph_, &progress);
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
    if (file_.malformed != 0)
      return Result<SplicedModel>::failure("the model file has malformed protobuf fields (nothing written)");
    return editor_.finish();
  }

 private:
  using FieldIn = std::pair<segments::Field, const segments::Segment*>;  // a field and the segment it is in
  // The fields of a GraphProto that the writer reads, from one walk over it.
  struct GraphFields {
    std::vector<segments::Segment> inputs, outputs;
    std::vector<FieldIn> value_infos;
    std::vector<std::pair<std::size_t, segments::Segment>> with_graphs;  // the nodes with a graph attribute, by index
    std::size_t node_count = 0;
  };

  std::string_view in_;
  segments::File file_;  // in_, and how many of its segments were malformed
  const Model& model_;
  detail::Editor editor_;
  detail::FreshDims fresh_;
  std::shared_ptr<detail::EncodedTypes> encoded_ =
      std::make_shared<detail::EncodedTypes>();  // (shared: the added value_info entries read it as they are written)
  segments::Segment top_;
  segments::Message main_graph_;  // (segments that main_fields_ and the editor point to: never changed)
  GraphFields main_fields_;
  std::vector<WrittenValueInfo> written_;
  std::string written_types_;  // the new types of written_
  bool editing_ = true;        // false after record_types()

  GraphFields graph_fields(const Graph& g, const segments::Message& p, ReadProgress* progress = nullptr);
  std::set<std::string> used_symbols();
  void collect_proto_symbols(const segments::Message& g, std::set<std::string>& out, int depth);
  void collect_subgraph_symbols(const segments::Segment& node, std::set<std::string>& out, int depth);
  void collect_value_info_symbols(std::size_t content, std::size_t end, std::set<std::string>& out) const;
  std::string type_bytes(const Type& t);
  void rewrite_type(const segments::Segment& vi, std::string_view type);
  void add_written(std::string_view input, std::string_view name, std::string_view type, bool rewritten);
  void keep_other_value_infos(const std::vector<const Value*>& values, const std::vector<FieldIn>& infos, bool main);
  void write_graph(const Graph& g, const segments::Message& p, const GraphFields& found, int depth, bool main);
  void write_node_subgraphs(const Node& n, const segments::Segment& node, int depth);
};

// The fields of GraphProto `p`, which was loaded as `g`. The nodes with a
// graph attribute are those of g (the loader keeps the file's node order),
// so that a node's own fields are not read. `progress`, when given, is told
// each field's offset.
inline Splice::GraphFields Splice::graph_fields(const Graph& g, const segments::Message& p, ReadProgress* progress) {
  std::vector<std::size_t> with_graphs;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const std::vector<Attribute>& attributes = g.nodes[i]->attributes;
    if (std::any_of(attributes.begin(), attributes.end(), [](const Attribute& a) { return !a.graphs.empty(); }))
      with_graphs.push_back(i);
  }
  GraphFields out;
  std::size_t next = 0;  // in with_graphs
  segments::for_each_field(file_, p, [&](const segments::Field& f, const segments::Segment& s) {
    if (progress) progress->reached(f.begin);
    if (!f.delimited()) return;
    if (f.number == fields::GraphProto::kNode) {
      if (next < with_graphs.size() && with_graphs[next] == out.node_count)
        out.with_graphs.emplace_back(with_graphs[next++], segments::sub_segment(f, s));
      ++out.node_count;
    } else if (f.number == fields::GraphProto::kInput) {
      out.inputs.push_back(segments::sub_segment(f, s));
    } else if (f.number == fields::GraphProto::kOutput) {
      out.outputs.push_back(segments::sub_segment(f, s));
    } else if (f.number == fields::GraphProto::kValueInfo) {
      out.value_infos.emplace_back(f, &s);
    }
  });
  return out;
}

// Symbols of the model and of the file's types (as write_inferred_types
// collects them), for fresh dim names: the main graph's from the fields the
// constructor found, its subgraphs' as collect_proto_symbols reads them.
inline std::set<std::string> Splice::used_symbols() {
  std::set<std::string> used;
  detail::collect_graph_symbols(*model_.graph, used);
  for (const segments::Segment& s : main_fields_.inputs) collect_value_info_symbols(s.content, s.end, used);
  for (const segments::Segment& s : main_fields_.outputs) collect_value_info_symbols(s.content, s.end, used);
  for (const auto& [f, s] : main_fields_.value_infos) collect_value_info_symbols(f.content, f.end, used);
  for (const auto& [i, node] : main_fields_.with_graphs) collect_subgraph_symbols(node, used, 1);
  return used;
}

// As collect_proto_graph_symbols: the types of inputs, outputs and value_info
// (each ValueInfoProto read alone), in subgraphs to kMaxSubgraphNesting.
inline void Splice::collect_proto_symbols(const segments::Message& g, std::set<std::string>& out, int depth) {
  if (depth > kMaxSubgraphNesting) return;
  segments::for_each_field(file_, g, [&](const segments::Field& f, const segments::Segment& s) {
    if (!f.delimited()) return;
    if (f.number == fields::GraphProto::kInput || f.number == fields::GraphProto::kOutput ||
        f.number == fields::GraphProto::kValueInfo)
      collect_value_info_symbols(f.content, f.end, out);
    else if (f.number == fields::GraphProto::kNode)
      collect_subgraph_symbols(segments::sub_segment(f, s), out, depth + 1);
  });
}

// The symbols of the subgraphs of a NodeProto, at nesting `depth`.
inline void Splice::collect_subgraph_symbols(const segments::Segment& node, std::set<std::string>& out, int depth) {
  for (const segments::Segment& a : segments::elements(file_, node, fields::NodeProto::kAttribute)) {
    const segments::Message sub = segments::submessage(file_, a, fields::AttributeProto::kG);
    if (!sub.empty()) collect_proto_symbols(sub, out, depth);
    for (const segments::Segment& e : segments::elements(file_, a, fields::AttributeProto::kGraphs))
      collect_proto_symbols({e}, out, depth);
  }
}

// The dim_params of the ValueInfoProto at [content, end).
inline void Splice::collect_value_info_symbols(std::size_t content, std::size_t end, std::set<std::string>& out) const {
  const wire::Span vi{in_.data() + content, in_.data() + end};
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
inline void Splice::rewrite_type(const segments::Segment& vi, std::string_view type) {
  if (!editing_) return;
  segments::for_each_field(file_, vi, [&](const segments::Field& f, const segments::Segment&) {
    if (f.number == fields::ValueInfoProto::kType && f.delimited()) editor_.replace(vi, f.begin, f.end, {});
  });
  std::string field;
  detail::append_delimited(field, fields::ValueInfoProto::kType, type);
  editor_.replace(vi, vi.end, vi.end, std::move(field));
}

inline void Splice::write_types(const std::vector<std::string>& inputs_too) {
  const std::vector<segments::Segment>& inputs = main_fields_.inputs;
  std::vector<std::string_view> names(inputs.size());
  std::vector<std::string> types(inputs.size());
  std::vector<bool> rewritten(inputs.size(), false);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    names[i] = segments::string_field(file_, inputs[i], fields::ValueInfoProto::kName);
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
        segments::string_field(file_, segments::sub_segment(f, *s), fields::ValueInfoProto::kName);
    if (ours.contains(name)) {
      if (editing_) editor_.replace(*s, f.begin, f.end, {});
    } else if (main) {
      add_written(in_.substr(f.content, f.end - f.content), name, {}, false);
    }
  }
}

// As detail::write_graph (save.hpp), on the segments of GraphProto `p` and
// the fields `found` in them.
inline void Splice::write_graph(const Graph& g, const segments::Message& p, const GraphFields& found, int depth,
                                bool main) {
  if (depth > kMaxSubgraphNesting || p.empty()) return;
  // The node outputs given a value_info of their own; a list of them only
  // when the file's value_info is to be sorted out.
  if (!found.value_infos.empty()) {
    std::vector<const Value*> values;
    detail::for_each_written_value(g, [&values](const Value* v) { values.push_back(v); });
    keep_other_value_infos(values, found.value_infos, main);
  }
  // Their types are encoded here, in node order, so that fresh dim names are
  // given in that order; the entries are made as the output is written.
  detail::AddedValueInfos added(g, encoded_);
  std::string scratch;
  detail::for_each_written_value(g, [&](const Value* v) {
    // A type that takes no fresh name needs no entry: it is written as the
    // IR has it (see main_graph_value_infos()).
    const bool entry = main && detail::takes_fresh_names(v->type);
    if (!editing_ && !entry) return;
    const std::string& type = encoded_->bytes(v->type, fresh_, scratch);
    if (entry) add_written({}, v->name, type, true);
    if (editing_) added.add(*v, type);
  });
  if (added.size() > 0)
    editor_.insert_made(p.back(), p.back().end, added.size(),
                        [added = std::move(added)](const SplicedModel::Emit& out) { return added.make(out); });
  for (const segments::Segment& out : found.outputs) {
    const std::string_view name = segments::string_field(file_, out, fields::ValueInfoProto::kName);
    const Value* v = g.find(name);
    const bool rewrite = v && detail::writable(v->type);
    const std::string new_type = rewrite ? type_bytes(v->type) : std::string();
    if (rewrite) rewrite_type(out, new_type);
    if (main) add_written(in_.substr(out.content, out.end - out.content), name, new_type, rewrite);
  }
  // Subgraphs: the IR keeps the proto's node and attribute order. (Their
  // fresh dims come after the main graph's: recording skips them.)
  if (editing_ && found.node_count == g.nodes.size())
    for (const auto& [i, node] : found.with_graphs) write_node_subgraphs(*g.nodes[i], node, depth);
}

inline void Splice::write_node_subgraphs(const Node& n, const segments::Segment& node, int depth) {
  if (segments::string_field(file_, node, fields::NodeProto::kOpType) != n.op_type) return;
  for (const segments::Segment& as : segments::elements(file_, node, fields::NodeProto::kAttribute)) {
    const Attribute* a = n.attr(segments::string_field(file_, as, fields::AttributeProto::kName));
    if (!a) continue;
    const segments::Message sub = segments::submessage(file_, as, fields::AttributeProto::kG);
    if (!sub.empty() && a->graphs.size() == 1 && a->graphs[0])
      write_graph(*a->graphs[0], sub, graph_fields(*a->graphs[0], sub), depth + 1, false);
    const std::vector<segments::Segment> subs = segments::elements(file_, as, fields::AttributeProto::kGraphs);
    if (!subs.empty() && subs.size() == a->graphs.size())
      for (std::size_t k = 0; k < subs.size(); ++k)
        if (a->graphs[k]) {
          const segments::Message one{subs[k]};
          write_graph(*a->graphs[k], one, graph_fields(*a->graphs[k], one), depth + 1, false);
        }
  }
}

inline Result<bool> Splice::relocate(const std::string& from_dir, const std::string& to_dir) {
  if (!editing_) return Result<bool>::failure("the types were only recorded (record_types)");
  const std::filesystem::path to = detail::canonical_dir(to_dir);
  if (detail::canonical_dir(from_dir) == to) return true;
  std::string error;
  struct Change {
    int frame;  // the external_data entry's
    segments::Segment entry;
    std::string location;
  };
  std::vector<Change> changes;
  detail::for_each_tensor_in_file(file_, [&](const segments::Message& t) {
    if (!error.empty()) return;
    const detail::ExternalInfo info = detail::external_info(file_, t);
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
    segments::Segment entry = c.entry;
    entry.parent = nullptr;
    entry.frame = c.frame;
    segments::for_each_field(file_, entry, [&](const segments::Field& f, const segments::Segment&) {
      if (f.number == fields::StringStringEntryProto::kValue && f.delimited())
        editor_.replace(entry, f.begin, f.end, {});
    });
    std::string field;
    detail::append_delimited(field, fields::StringStringEntryProto::kValue, c.location);
    editor_.replace(entry, entry.end, entry.end, std::move(field));
  }
  return true;
}

// ---- writing ----

namespace detail {

// Copies `size` bytes at `offset` of in_fd to fd's position with
// copy_file_range; false (nothing or part copied, `done` says how much) when
// the kernel cannot (another file system, a pipe, an old kernel), or where
// there is no such call (WebAssembly: ENOSYS, the bytes are written instead).
inline bool copy_range(int in_fd, int fd, std::size_t offset, std::size_t size, std::size_t& done) {
  done = 0;
#ifdef __EMSCRIPTEN__
  (void)in_fd, (void)fd, (void)offset, (void)size;
  errno = ENOSYS;
  return false;
#endif
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
    if (p.made >= 0) {
      if (!model.emit(p, [fd](std::string_view chunk) { return write_all(fd, chunk.data(), chunk.size()); }))
        return false;
      continue;
    }
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

}  // namespace symshape::onnx
