// What an inference run reports: diagnostics with node, op and message, and
// whether anything changed. The core never throws.
#pragma once

#include <string>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/expr/fact.hpp"

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
  // The node's place, set by the engine: "node #2 'proj' (MatMul)", "node #0
  // 'add' (Add) in subgraph 'then_branch' of node #1 'if' (If)", "... in
  // function 'local::f'"; empty for a diagnostic about no node.
  std::string where;

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

// A relation between dims that every valid run of the model satisfies, with
// the node that imposes it: MatMul's inner dims, Concat's other dims, two
// broadcast dims, a dim the file declares that the inference cannot confirm,
// the positions a Gather reads from a table.
// The inferred shapes never assume it (they stay exact for every valid run);
// `symshape infer --assume-contracts` does.
struct Contract {
  enum class Kind {
    Equal,      // lhs == rhs
    Broadcast,  // lhs == rhs, or one of them is 1 (numpy broadcasting)
    AtMost,     // lhs <= rhs, or `unless_zero` is 0 (an index into a table
                // of rhs rows: its largest value plus 1, read unless there
                // are no indices)
  };
  Kind kind = Kind::Equal;
  SymbolicDim lhs, rhs;
  SymbolicDim unless_zero;  // AtMost: the count of indices (unknown: none)
  std::string node;         // the node that imposes it (may be empty)
  std::string op_type;      // its op type
  std::string origin;       // what imposes it: "broadcast", "MatMul inner dims", "declared dim 0 of 'y'"
  std::string where;        // the node's place, as Diagnostic::where
  // A fact under which the relation holds, shorter to read when the sides
  // hold clamps (`past+seq <= 64`; infer/conditions.hpp); empty when none.
  std::string condition;

  // "total == past+seq", "a == b or a == 1 or b == 1"
  std::string relation() const { return relation(lhs.to_string(), rhs.to_string()); }
  // The relation with lhs written `a` and rhs written `b` (`symshape infer`
  // writes them cut to fit a screen).
  std::string relation(const std::string& a, const std::string& b) const {
    if (kind == Kind::Equal) return a + " == " + b;
    if (kind == Kind::AtMost)
      return (unless_zero.is_symbolic() ? unless_zero.to_string() + " == 0 or " : std::string()) + a + " <= " + b;
    if (lhs.is_int()) return b + " == " + a + " or " + b + " == 1";
    if (rhs.is_int()) return a + " == " + b + " or " + a + " == 1";
    return a + " == " + b + " or " + a + " == 1 or " + b + " == 1";
  }
  // The condition when there is one, else the relation.
  std::string readable() const { return condition.empty() ? relation() : condition; }
  // "contract: node 'add' (Add): total == past+seq (broadcast)"
  std::string to_string() const {
    std::string out = "contract: ";
    if (!node.empty() || !op_type.empty()) {
      out += "node '" + node + "'";
      if (!op_type.empty()) out += " (" + op_type + ")";
      out += ": ";
    }
    return out + readable() + " (" + origin + ")";
  }
};

// "equal", "broadcast", "at_most" (the JSON and Python names).
inline const char* contract_kind_name(Contract::Kind k) {
  switch (k) {
    case Contract::Kind::Equal:
      return "equal";
    case Contract::Kind::Broadcast:
      return "broadcast";
    case Contract::Kind::AtMost:
      return "at_most";
  }
  return "equal";
}

struct Report {
  std::vector<Diagnostic> diagnostics;
  // Relations the model needs of its inputs, de-duplicated, in the order found.
  std::vector<Contract> contracts;
  // The facts in force (InferenceOptions::assume, assume_nonempty), each with
  // where it came from.
  std::vector<Fact> facts;
  // Output dims that became fresh symbols although the node's inputs were
  // known: each has a warning naming the node.
  std::size_t undetermined_dims = 0;
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
