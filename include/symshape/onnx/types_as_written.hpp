// The types of a model's main graph as the file written by the splicing
// writer holds them (splice_writer.hpp, after write_types or record_types):
// what `symshape infer -o` writes and what reports of the inference print.
#pragma once

#include <string_view>
#include <vector>

#include "symshape/ir/graph.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/onnx/views.hpp"
#include "symshape/onnx/written_types.hpp"
#include "symshape/support/name_index.hpp"

namespace symshape::onnx {

// The types of the main graph's values as the written file holds them after
// the splice's write_types (graph inputs, value_info, graph outputs): what
// `infer -o` writes and what the summary, the JSON report and `show` print.
// A value the writer could not write (e.g. a tensor whose element type stayed
// undefined after an upstream error) keeps what the file had, or is unknown.
class WrittenTypes {
 public:
  // Indexes the entries (a later entry of a name wins, as graph outputs come
  // last), which must outlive it; types are decoded when asked for, so a
  // summary of a large graph builds no Type it does not print. Most node
  // outputs have no entry (their types are written as the IR has them).
  explicit WrittenTypes(const std::vector<WrittenValueInfo>& infos) {
    index_.reserve(infos.size());
    for (const WrittenValueInfo& w : infos) {
      // An entry the file had (the loader has read it: it is well formed)
      // counts when it has a type.
      if (!w.rewritten && !view::decode<view::ValueInfoView>(view::msg_of(span_of(w.input))).type.present) continue;
      index_.assign(&w);
    }
  }
  // An initializer that is no graph input has no TypeProto: its type comes
  // from its dims, as the IR has it. v: a value of the main graph.
  Type of(const Value& v) const {
    const Entry* e = find(v);
    if (!e && writes_value_info(v)) return v.type;  // no entry: written as the IR has it
    if (!e) return v.initializer && !v.is_graph_input ? v.type : Type();
    if (e->rewritten) {
      Result<Type> t = type_from_bytes(e->type, v.name);
      return t ? *t : Type();
    }
    const auto info = view::decode<view::ValueInfoView>(view::msg_of(span_of(e->input)));
    Result<Type> t = detail::type_from_view_named(info.type, [&] { return v.name; });
    return t ? *t : Type();
  }
  // Whether of(v) is known: a tensor with a rank, or another type that is
  // not unknown. A tensor's TypeProto is read without parsing its dims.
  bool known(const Value& v) const {
    if (writes_value_info(v)) return is_known(v.type);  // written as the IR has it
    const Entry* e = find(v);
    if (!e) return is_known(of(v));
    const auto type = view::decode<view::TypeView>(type_proto(*e));
    if (type.member != 1 && type.member != 8) return is_known(of(v));  // not tensor_type or sparse_tensor_type
    const auto t = view::decode<view::TensorTypeView>(type.value);
    return is_valid_data_type(t.elem_type) && t.shape.present;
  }
  static bool is_known(const Type& t) { return t.is_tensor_like() ? t.shape().has_rank() : !t.is_unknown(); }
  // The bytes of v's TypeProto in its entry, when it has one in one piece:
  // of(v) is then a function of these bytes alone. Empty otherwise.
  std::string_view type_bytes(const Value& v) const {
    const Entry* e = find(v);
    if (!e) return {};
    const view::Msg type = type_proto(*e);
    if (!type.present || !type.more.empty()) return {};
    return type.first.view();
  }

 private:
  using Entry = WrittenValueInfo;  // the new TypeProto (rewritten), or the file's ValueInfoProto
  NameIndex<const Entry> index_;

  static wire::Span span_of(std::string_view b) { return {b.data(), b.data() + b.size()}; }
  const Entry* find(const Value& v) const { return index_.find(v.name); }
  static view::Msg type_proto(const Entry& e) {
    if (e.rewritten) return view::msg_of(span_of(e.type));
    return view::decode<view::ValueInfoView>(view::msg_of(span_of(e.input))).type;
  }
};

}  // namespace symshape::onnx
