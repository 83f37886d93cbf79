// A diagnostic as text: its severity and kind by name, the place of its node,
// and the one line `symshape infer` prints on stderr and the Python package
// gives as a diagnostic's `line`:
//   "FILE: error: node #2 'proj_out' (MatMul): MESSAGE".
#pragma once

#include <string>

#include "symshape/infer/diagnostics.hpp"

namespace symshape::report {

// Text for one line of a terminal: control characters (a newline in a node or
// value name) escaped as \n, \t, \xHH, so every diagnostic stays one line.
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

inline const char* severity_name(Severity s) { return s == Severity::Error ? "error" : "warning"; }

inline const char* kind_name(DiagnosticKind k) {
  switch (k) {
    case DiagnosticKind::Usage:
      return "usage";
    case DiagnosticKind::Semantic:
      return "semantic";
    case DiagnosticKind::MissingRule:
      return "missing_rule";
    case DiagnosticKind::Graph:
      return "graph";
    case DiagnosticKind::Conflict:
      return "conflict";
  }
  return "unknown";
}

// The place of a diagnostic's or contract's node: the engine's (`where`:
// "node #2 'proj_out' (MatMul)", with the subgraph or function around it),
// else "node 'name' (Op)" from the name and op type alone; empty when there
// is no node.
inline std::string node_place(const std::string& where, const std::string& node, const std::string& op_type) {
  if (!where.empty() || (node.empty() && op_type.empty())) return where;
  return "node '" + node + "' (" + op_type + ")";
}

// "FILE: error: node #2 'proj_out' (MatMul): MESSAGE", each part made one line;
// `file` is the model as messages name it.
inline std::string diagnostic_line(const std::string& file, const Diagnostic& d) {
  const std::string place = node_place(d.where, d.node, d.op_type);
  return one_line(file) + ": " + severity_name(d.severity) + ": " + (place.empty() ? "" : one_line(place + ": ")) +
         one_line(d.message);
}

}  // namespace symshape::report
