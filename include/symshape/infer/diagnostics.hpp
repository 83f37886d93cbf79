// What an inference run reports: diagnostics with node, op and message, and
// whether anything changed. The core never throws.
#pragma once

#include <string>
#include <vector>

namespace symshape {

enum class Severity { Warning, Error };

enum class DiagnosticKind {
  Usage,        // the model is malformed: wrong input count, missing attribute
  Semantic,     // rank mismatch, axis out of range, incompatible broadcast
  MissingRule,  // no rule for this (domain, op, opset)
  Graph,        // cycles, dangling references
  Conflict,     // inferred value disagrees with an existing one
};

struct Diagnostic {
  Severity severity = Severity::Error;
  DiagnosticKind kind = DiagnosticKind::Semantic;
  std::string node;     // node name (may be empty)
  std::string op_type;  // op type (may be empty)
  std::string message;

  // "error: node 'conv1' (Conv): ..."
  std::string to_string() const {
    std::string out = severity == Severity::Error ? "error: " : "warning: ";
    if (!node.empty() || !op_type.empty()) {
      out += "node '" + node + "'";
      if (!op_type.empty()) out += " (" + op_type + ")";
      out += ": ";
    }
    return out + message;
  }
};

struct Report {
  std::vector<Diagnostic> diagnostics;
  bool modified = false;

  std::size_t count(Severity s) const {
    std::size_t n = 0;
    for (const auto& d : diagnostics) n += d.severity == s;
    return n;
  }
  std::size_t errors() const { return count(Severity::Error); }
  std::size_t warnings() const { return count(Severity::Warning); }
  bool ok() const { return errors() == 0; }
};

}  // namespace symshape
