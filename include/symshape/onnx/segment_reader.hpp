// The ONNX adapter, reading side of the splicing writer (splice_writer.hpp):
// a model file's messages as segments, byte ranges of the file found with
// the loader's wire-format primitives (wire.hpp) and never copied, and the
// walk over the file's tensors that external_data() and relocation use.
// Standard library only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/onnx/external_data_paths.hpp"
#include "symshape/onnx/fields.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/views.hpp"
#include "symshape/onnx/wire.hpp"

namespace symshape::onnx {

namespace segments {

// One field of a message, as offsets into the file.
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  std::size_t begin = 0;      // the tag
  std::size_t len_begin = 0;  // length-delimited: the length varint
  std::size_t content = 0;    // length-delimited: the content
  std::size_t end = 0;        // one past the field
  uint64_t varint = 0;        // varint fields: the value
  bool delimited() const { return wire_type == wire::kLen; }
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

// The input file, and how many of its segments held malformed bytes (the
// loader accepted the file, so none should: Splice::finish() refuses to
// write then).
struct File {
  std::string_view bytes;
  uint64_t malformed = 0;
};

// The fields of one segment, in order, read with the loader's wire-format
// primitives (wire.hpp). next() is false at the end and on malformed bytes
// (ok() then false, and the file counts it as malformed).
class FieldReader {
 public:
  FieldReader(File& file, const Segment& s)
      : file_(file), c_{file.bytes.data() + s.content, file.bytes.data() + s.end} {}

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
    if (!good) ++file_.malformed;
    return good;
  }
  bool ok() const { return ok_; }

 private:
  segments::File& file_;
  wire::Cursor c_;
  bool ok_ = true;
  std::size_t pos() const { return static_cast<std::size_t>(c_.p - file_.bytes.data()); }

  bool value(Field& f) {
    switch (f.wire_type) {
      case wire::kVarint:
        return c_.varint(f.varint);
      case wire::kLen: {
        f.len_begin = pos();
        wire::Span s;
        if (!c_.len(s)) return false;
        f.content = static_cast<std::size_t>(s.begin - file_.bytes.data());
        return true;
      }
      case wire::kFixed64:
        return c_.skip(8);
      case wire::kFixed32:
        return c_.skip(4);
      case wire::kStartGroup:
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
      if (inner.wire_type == wire::kStartGroup) {
        open.push_back(tag >> 3);
      } else if (inner.wire_type == wire::kEndGroup) {
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
void for_each_field(File& file, const Segment& s, Fn&& fn) {
  FieldReader r(file, s);
  Field f;
  while (r.next(f)) fn(f, s);
}
template <class Fn>
void for_each_field(File& file, const Message& m, Fn&& fn) {
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
Message submessage(File& file, const M& m, uint32_t number) {
  Message out;
  for_each_field(file, m, [&](const Field& f, const Segment& s) {
    if (f.number == number && f.delimited()) out.push_back(sub_segment(f, s));
  });
  return out;
}
template <class M>
Message elements(File& file, const M& m, uint32_t number) {
  return submessage(file, m, number);
}

// The singular string field `number` (the last occurrence wins), in the file.
template <class M>
std::string_view string_field(File& file, const M& m, uint32_t number) {
  std::string_view out;
  for_each_field(file, m, [&](const Field& f, const Segment&) {
    if (f.number == number && f.delimited()) out = file.bytes.substr(f.content, f.end - f.content);
  });
  return out;
}

}  // namespace segments

namespace detail {

// Calls fn(Message tensor) for every tensor of the file, in the order of
// for_each_tensor (save.hpp): initializers, sparse initializers, tensor
// attributes, in subgraphs (to kMaxSubgraphNesting) and model-local functions.
template <class Fn>
class TensorWalk {
 public:
  TensorWalk(segments::File& file, Fn& fn) : file_(file), fn_(fn) {}

  void model(const segments::Message& m) {
    const segments::Message graph = segments::submessage(file_, m, fields::ModelProto::kGraph);
    this->graph(graph, 0);
    for (const segments::Segment& f : segments::elements(file_, m, fields::ModelProto::kFunctions)) {
      const segments::Message function{f};
      nodes(function, fields::FunctionProto::kNode, 0);
    }
  }

 private:
  segments::File& file_;
  Fn& fn_;

  void sparse(const segments::Message& st) {
    fn_(segments::submessage(file_, st, fields::SparseTensorProto::kValues));
    fn_(segments::submessage(file_, st, fields::SparseTensorProto::kIndices));
  }

  void graph(const segments::Message& g, int depth) {
    if (depth > kMaxSubgraphNesting) return;
    for (const segments::Segment& t : segments::elements(file_, g, fields::GraphProto::kInitializer))
      fn_(segments::Message{t});
    for (const segments::Segment& st : segments::elements(file_, g, fields::GraphProto::kSparseInitializer))
      sparse({st});
    nodes(g, fields::GraphProto::kNode, depth);
  }

  // Each node and attribute is read once (a graph of a million nodes is
  // walked without a list of its nodes).
  void nodes(const segments::Message& owner, uint32_t node_field, int depth) {
    segments::for_each_field(file_, owner, [&](const segments::Field& f, const segments::Segment& s) {
      if (f.number != node_field || !f.delimited()) return;
      const segments::Segment n = segments::sub_segment(f, s);
      segments::for_each_field(file_, n, [&](const segments::Field& af, const segments::Segment& in) {
        if (af.number == fields::NodeProto::kAttribute && af.delimited())
          attribute(segments::sub_segment(af, in), depth);
      });
    });
  }

  void attribute(const segments::Segment& a, int depth) {
    segments::Message t, tensors, st, sparse_tensors, g, graphs;  // empty (no allocation) for most attributes
    segments::for_each_field(file_, a, [&](const segments::Field& f, const segments::Segment& s) {
      if (!f.delimited()) return;
      segments::Message* to = f.number == fields::AttributeProto::kT               ? &t
                              : f.number == fields::AttributeProto::kTensors       ? &tensors
                              : f.number == fields::AttributeProto::kSparseTensor  ? &st
                              : f.number == fields::AttributeProto::kSparseTensors ? &sparse_tensors
                              : f.number == fields::AttributeProto::kG             ? &g
                              : f.number == fields::AttributeProto::kGraphs        ? &graphs
                                                                                   : nullptr;
      if (to) to->push_back(segments::sub_segment(f, s));
    });
    if (!t.empty()) fn_(t);
    for (const segments::Segment& e : tensors) fn_(segments::Message{e});
    if (!st.empty()) sparse(st);
    for (const segments::Segment& e : sparse_tensors) sparse({e});
    if (!g.empty()) graph(g, depth + 1);
    for (const segments::Segment& e : graphs) graph({e}, depth + 1);
  }
};

// A tensor's external-data facts, as TensorProto's accessors give them.
struct ExternalInfo {
  bool external = false;
  std::string name;
  bool has_location = false;
  segments::Segment entry;  // the first external_data entry keyed "location"
  std::string location;
};

inline ExternalInfo external_info(segments::File& file, const segments::Message& t) {
  ExternalInfo info;
  // data_location is a proto2 enum: values other than DEFAULT (0) and
  // EXTERNAL (1) go to the unknown fields and leave it as it was.
  bool has = false;
  int32_t location = 0;
  segments::for_each_field(file, t, [&](const segments::Field& f, const segments::Segment&) {
    if (f.number != fields::TensorProto::kDataLocation || f.wire_type != wire::kVarint) return;
    const auto v = static_cast<int32_t>(f.varint);
    if (v == 0 || v == 1) has = true, location = v;
  });
  info.external = has && location == static_cast<int32_t>(view::DataLocation::EXTERNAL);
  if (!info.external) return info;
  info.name = std::string(segments::string_field(file, t, fields::TensorProto::kName));
  for (const segments::Segment& e : segments::elements(file, t, fields::TensorProto::kExternalData))
    if (segments::string_field(file, e, fields::StringStringEntryProto::kKey) == "location") {
      info.has_location = true;
      info.entry = e;
      info.location = std::string(segments::string_field(file, e, fields::StringStringEntryProto::kValue));
      break;
    }
  return info;
}

template <class Fn>
void for_each_tensor_in_file(segments::File& file, Fn fn) {
  segments::Segment top;
  top.end = file.bytes.size();
  top.top = true;
  TensorWalk<Fn>(file, fn).model({top});
}

}  // namespace detail

// The external tensors of a model file: how many, and the data files they
// name (as external_data_files does for a proto), each once; not opened.
struct ExternalData {
  std::size_t tensors = 0;  // relocate() changes nothing when there are none
  std::vector<std::string> files;
  std::vector<std::string> relative_locations;  // each once, as the file writes them
};

inline ExternalData external_data(std::string_view bytes, const std::string& model_dir) {
  ExternalData out;
  segments::File file{bytes};
  detail::for_each_tensor_in_file(file, [&](const segments::Message& t) {
    const detail::ExternalInfo info = detail::external_info(file, t);
    if (!info.external) return;
    ++out.tensors;
    if (info.location.empty()) return;
    const std::string f = detail::external_file(model_dir, info.location).string();
    if (std::find(out.files.begin(), out.files.end(), f) == out.files.end()) out.files.push_back(f);
    const std::string location(info.location);
    if (!std::filesystem::path(location).is_absolute() &&
        std::find(out.relative_locations.begin(), out.relative_locations.end(), location) ==
            out.relative_locations.end())
      out.relative_locations.push_back(location);
  });
  return out;
}

inline std::vector<std::string> external_data_files(std::string_view bytes, const std::string& model_dir) {
  return external_data(bytes, model_dir).files;
}

}  // namespace symshape::onnx
