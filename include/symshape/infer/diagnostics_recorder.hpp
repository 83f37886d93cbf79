// Diagnostics and contracts as inference records them, each with its node's
// place: the engine tells the recorder which node is being inferred and
// where (its index in its graph, the subgraph or function around it), so a
// diagnostic names the node exactly. Context derives from it; rules call
// usage_error, record_error and record_contract through their Context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>

#include "symshape/expr/prove.hpp"
#include "symshape/infer/conditions.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/support/message.hpp"

namespace symshape {

class DiagnosticsRecorder {
 public:
  // `policy`: semantic errors are warnings under MergePolicy::Skip.
  explicit DiagnosticsRecorder(MergePolicy policy) : policy_(policy) {}

  MergePolicy policy() const { return policy_; }

  Report& report() { return report_; }
  const Report& report() const { return report_; }

  // Where the node being inferred is: its index in its graph, and the scope
  // of that graph (" in subgraph 'body' of node #1 'loop' (Loop)", empty in
  // the main graph), which the engine keeps alive while the node is current.
  struct NodePlace {
    const Node* node = nullptr;
    std::size_t index = 0;
    const std::string* scope = nullptr;
  };
  void set_current_node(const Node* n, std::size_t index = 0, const std::string* scope = nullptr) {
    current_ = n;
    current_index_ = index;
    current_scope_ = scope;
  }
  NodePlace current_place() const { return {current_, current_index_, current_scope_}; }
  void set_current_place(const NodePlace& p) { set_current_node(p.node, p.index, p.scope); }
  const Node* current_node() const { return current_; }
  // The place of a node as diagnostics give it: "node #2 'proj' (MatMul)" and
  // the scope; without the index for a node other than the current one.
  std::string place_of(const Node* n) const {
    if (!n) return {};
    std::string s = "node";
    if (n == current_) s += " #" + std::to_string(current_index_);
    if (!n->name.empty()) s += " '" + n->name + "'";
    s += " (" + qualified_op(n->domain, n->op_type) + ")";
    return current_scope_ ? s + *current_scope_ : s;
  }

  // ---- diagnostics ----
  void usage_error(const Node& n, std::string message) {
    add(Severity::Error, DiagnosticKind::Usage, &n, std::move(message));
  }
  // A semantic error: a warning under `skip`, an error otherwise.
  void record_error(const Node& n, std::string message) {
    add(policy_ == MergePolicy::Skip ? Severity::Warning : Severity::Error, DiagnosticKind::Semantic, &n,
        std::move(message));
  }
  // The same from a literal or from pieces (support/message.hpp), as the
  // built-in rules write them: out of line, so that a call site only passes
  // a pointer or a small array instead of building a string.
  [[gnu::cold]] void usage_error(const Node& n, const char* message) { usage_error(n, std::string(message)); }
  [[gnu::cold]] void usage_error(const Node& n, std::initializer_list<MessagePiece> pieces) {
    usage_error(n, join_message(pieces));
  }
  // A dim or element count of the node went beyond int64 (the engine finds
  // overflowed dims in the outputs; a rule calls it for a count it keeps).
  [[gnu::cold]] void overflow_error(const Node& n) {
    usage_error(n,
                "int64 overflow in a dim computation (a dim or element count beyond 2^63-1); "
                "the dims it affects are left unknown");
  }
  [[gnu::cold]] void record_error(const Node& n, const char* message) { record_error(n, std::string(message)); }
  [[gnu::cold]] void record_error(const Node& n, std::initializer_list<MessagePiece> pieces) {
    record_error(n, join_message(pieces));
  }
  void warn(const Node* n, DiagnosticKind kind, std::string message) {
    add(Severity::Warning, kind, n, std::move(message));
  }
  void error(const Node* n, DiagnosticKind kind, std::string message) {
    add(Severity::Error, kind, n, std::move(message));
  }

  // ---- contracts ----
  // Records that valid runs need `a == b` (Equal) or `a == b or either is 1`
  // (Broadcast), unless that is known to hold; callers report relations that
  // can never hold (3 vs 4) as errors instead. Unknown dims give nothing.
  void record_contract(const Node* n, Contract::Kind kind, const SymbolicDim& a, const SymbolicDim& b,
                       std::string origin) {
    if (a.is_unknown() || b.is_unknown() || a == b) return;
    if (kind == Contract::Kind::Broadcast && (a.is_int(1) || b.is_int(1))) return;
    if (prove_eq(a.expr(), b.expr())) return;
    if (detail::active_facts() && breaks_facts(kind, a.expr(), b.expr())) {
      error(n, DiagnosticKind::Semantic,
            "the facts in force rule out every valid run: " + a.to_string() + " and " + b.to_string() +
                (kind == Contract::Kind::Equal ? " must be equal" : " must be equal or one of them 1") + " (" + origin +
                ")");
      return;
    }
    std::string sa = a.to_string(), sb = b.to_string();
    const std::string key = (kind == Contract::Kind::Equal ? "=" : "~") + std::min(sa, sb) + "|" + std::max(sa, sb);
    if (report_.contracts.size() >= kMaxContracts || !contract_keys_.insert(key).second) return;
    Contract c;
    c.kind = kind;
    c.lhs = a;
    c.rhs = b;
    name_node(c, n);
    c.origin = std::move(origin);
    if (a.is_symbolic() && b.is_symbolic() && (has_clamp(a.expr()) || has_clamp(b.expr()))) {
      ClampReading r = read_clamps(a.expr(), b.expr(), kind == Contract::Kind::Broadcast);
      if (r.always_holds) return;
      c.condition = std::move(r.condition);
    }
    // Two relations of one node that come down to the same condition (a Where
    // broadcasting three inputs) are listed once.
    if (!c.condition.empty() &&
        !contract_keys_.insert("?" + std::to_string(reinterpret_cast<std::uintptr_t>(n)) + "|" + c.condition).second)
      return;
    report_.contracts.push_back(std::move(c));
  }
  // The contract that a Gather's indices, whose largest value is `largest`,
  // read rows of a table of `rows`: largest+1 <= rows (when `count`, the
  // number of indices, is not 0). Recorded only when it does not hold
  // for every run; a violation that the facts force is an error.
  void record_index_bound(const Node* n, const SymbolicDim& largest, const SymbolicDim& rows, const SymbolicDim& count,
                          std::string origin) {
    if (largest.is_unknown() || rows.is_unknown() || count.is_int(0) || !largest.is_symbolic()) return;
    const SymbolicDim needed = largest + SymbolicDim(1);
    if (needed.is_unknown() || prove_ge(rows.expr(), needed.expr())) return;
    const bool read = !count.is_symbolic() || prove_ge(count.expr(), Expr(1));
    if (detail::active_facts() && read && prove_ge(needed.expr(), rows.expr() + Expr(1))) {
      error(n, DiagnosticKind::Semantic,
            "the facts in force rule out every valid run: index " + largest.to_string() + " into " + rows.to_string() +
                " rows (" + origin + ")");
      return;
    }
    const std::string key = "<" + needed.to_string() + "|" + rows.to_string();
    if (report_.contracts.size() >= kMaxContracts || !contract_keys_.insert(key).second) return;
    Contract c;
    c.kind = Contract::Kind::AtMost;
    c.lhs = needed;
    c.rhs = rows;
    if (count.is_symbolic() && !read) c.unless_zero = count;
    name_node(c, n);
    c.origin = std::move(origin);
    c.condition = needed.to_string() + " <= " + rows.to_string();
    report_.contracts.push_back(std::move(c));
  }
  static constexpr std::size_t kMaxContracts = 10000;
  static bool has_clamp(const Expr& e) {
    if (e.kind() == ExprKind::Min || e.kind() == ExprKind::Max) return true;
    for (const auto& t : e.terms())
      if (has_clamp(t.first)) return true;
    for (const auto& x : e.args())
      if (has_clamp(x)) return true;
    return false;
  }
  // Whether the facts in force make `a == b` (Equal; Broadcast: or one is 1) impossible.
  static bool breaks_facts(Contract::Kind kind, const Expr& a, const Expr& b) {
    const Expr one(1);
    const bool unequal = prove_ge(a, b + one) || prove_ge(b, a + one);
    if (!unequal || kind == Contract::Kind::Equal) return unequal;
    return prove_not_one(a) && prove_not_one(b);
  }

 protected:
  // A diagnostic's or contract's node: its name, op type and place.
  template <class Record>
  void name_node(Record& r, const Node* n) const {
    if (!n) return;
    r.node = n->name;
    r.op_type = n->op_type;
    r.where = place_of(n);
  }
  void add(Severity s, DiagnosticKind k, const Node* n, std::string message) {
    Diagnostic d;
    d.severity = s;
    d.kind = k;
    name_node(d, n);
    d.message = std::move(message);
    report_.diagnostics.push_back(std::move(d));
  }

  MergePolicy policy_;
  Report report_;

 private:
  const Node* current_ = nullptr;
  std::size_t current_index_ = 0;
  const std::string* current_scope_ = nullptr;
  std::set<std::string> contract_keys_;
};

}  // namespace symshape
