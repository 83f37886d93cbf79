// A node attribute as one short line for the report page (report_data.hpp):
// numbers and strings as they are, long lists and strings cut, a tensor as
// its type (and its values when it has at most a few), a graph by its name
// and node count.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "symshape/ir/graph.hpp"

namespace symshape::report {

namespace detail {

inline constexpr std::size_t kListedItems = 8;   // a longer list shows these and its length
inline constexpr std::size_t kStringBytes = 60;  // a longer string is cut (at a UTF-8 boundary)
inline constexpr std::size_t kTensorValues = 8;  // a tensor with at most these shows its values

inline std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}
inline std::string number_text(int64_t x) { return std::to_string(x); }
inline std::string number_text(const std::string& s) {
  if (s.size() <= kStringBytes) return "\"" + s + "\"";
  std::size_t end = kStringBytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // not inside a character
  return "\"" + s.substr(0, end) + "…\"";
}

// "[1, 2, 3]"; a list longer than kListedItems: its first items, then "… (N values)".
template <class List>
std::string list_text(const List& items) {
  std::string out = "[";
  std::size_t i = 0;
  for (const auto& x : items) {
    if (i == kListedItems) {
      out += ", … (" + std::to_string(items.size()) + " values)";
      break;
    }
    out += (i++ ? ", " : "") + number_text(x);
  }
  return out + "]";
}

// "float[768,768]", and " = [0, -1]" for a tensor of at most kTensorValues values in the file.
inline std::string tensor_text(const Tensor& t) {
  std::string out = to_string(t.dtype);
  out += "[";
  for (std::size_t i = 0; i < t.dims.size(); ++i) out += (i ? "," : "") + std::to_string(t.dims[i]);
  out += "]";
  const std::optional<int64_t> count = t.element_count();
  if (!t.has_data || !count || *count > static_cast<int64_t>(kTensorValues)) return out;
  const auto n = static_cast<std::size_t>(*count);
  if (t.int_data.size() == n) return out + " = " + list_text(t.int_data);
  if (t.float_data.size() == n) return out + " = " + list_text(t.float_data);
  if (t.string_data.size() == n) return out + " = " + list_text(t.string_data);
  return out;
}

inline std::string graph_text(const Graph* g) {
  if (!g) return "graph (none)";
  const std::size_t n = g->nodes.size();
  return "graph '" + g->name + "' (" + std::to_string(n) + (n == 1 ? " node)" : " nodes)");
}

}  // namespace detail

inline std::string attribute_text(const Attribute& a) {
  using Kind = Attribute::Kind;
  switch (a.kind) {
    case Kind::Int:
      return std::to_string(a.i);
    case Kind::Float:
      return detail::number_text(a.f);
    case Kind::String:
      return detail::number_text(a.s);
    case Kind::Ints:
      return detail::list_text(a.ints);
    case Kind::Floats:
      return detail::list_text(a.floats);
    case Kind::Strings:
      return detail::list_text(a.strings);
    case Kind::Tensor:
      return a.tensors.empty() ? "tensor" : "tensor " + detail::tensor_text(a.tensors[0]);
    case Kind::SparseTensor:
      return a.tensors.empty() ? "sparse tensor" : "sparse tensor " + detail::tensor_text(a.tensors[0]);
    case Kind::Graph:
      return detail::graph_text(a.graphs.empty() ? nullptr : a.graphs[0].get());
    case Kind::TypeProto:
      return a.types.empty() ? "type" : "type " + a.types[0].to_string();
    case Kind::Tensors:
    case Kind::SparseTensors:
      return std::to_string(a.tensors.size()) + " tensors";
    case Kind::Graphs:
      return std::to_string(a.graphs.size()) + " graphs";
    case Kind::TypeProtos:
      return std::to_string(a.types.size()) + " types";
    case Kind::Undefined:
      break;
  }
  return "?";
}

}  // namespace symshape::report
