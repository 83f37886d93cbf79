// `profile_model`: FLOPs, parameters and memory of an inferred model, each a
// canonical expression of its input symbols (unknown, printed "?", when a dim
// it needs is unknown). Counts per node (the counts registered with the
// rules, counts.hpp), bytes of every output
// and the activation totals (memory.hpp), parameters (elements of the
// floating-point initializers and Constant tensors the graph reads), and grouping by operator type
// or by the node-name scope exporters write (`/blocks.3/attn/MatMul` ->
// `/blocks.3/attn`). docs/profile.md states the conventions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/profile/counts.hpp"
#include "symshape/profile/memory.hpp"

namespace symshape::profile {

struct OutputProfile {
  std::string name;
  SymbolicDim bytes;
  DataType dtype = DataType::UNDEFINED;  // of a tensor output
  bool parameter = false;                // holds weights, not activations (memory.hpp, holds_weights)
  const Value* value = nullptr;
};

struct NodeProfile {
  const Node* node = nullptr;
  std::string name, op_type, domain;
  FlopCount flops;
  std::vector<OutputProfile> outputs;
  SymbolicDim params = SymbolicDim(0);  // elements of the float initializers it reads
  SymbolicDim param_bytes = SymbolicDim(0);
};

struct ModelProfile {
  std::vector<NodeProfile> nodes;  // the main graph's nodes, in order
  SymbolicDim flops;               // sum over the counted nodes (unknown when one of them is)
  SymbolicDim params, param_bytes;
  SymbolicDim activation_bytes, peak_activation_bytes;
  // The steps (node indices) whose live bytes peak_activation_bytes is the
  // Max of; empty when it is unknown. largest_candidate_at() picks the one
  // where the peak occurs at given bindings.
  std::vector<PeakCandidate> peak_candidates;
  std::size_t not_counted = 0;  // nodes whose FLOPs are NotCounted, left out of `flops`
  std::vector<std::string> notes;
};

// Elements and bytes of one float initializer.
inline void add_param(const Tensor& t, SymbolicDim& params, SymbolicDim& bytes) {
  const std::optional<int64_t> count = t.element_count();
  const SymbolicDim c = count ? SymbolicDim(*count) : SymbolicDim();
  params = params + c;
  bytes = bytes + c * SymbolicDim(element_bits(t.dtype) / 8);
}

// The tensor of a parameter: a float initializer, or a Constant node's
// float tensor (memory.hpp, constant_parameter); null for other values.
inline const Tensor* parameter_tensor(const Value* v) {
  if (v->initializer) return ops::is_float_type(v->initializer->dtype) ? v->initializer : nullptr;
  return constant_parameter(v);
}

// The parameters a node reads (through its subgraphs too).
inline std::vector<const Value*> float_params(const Node& n) {
  std::unordered_set<const Value*> read;
  values_read(n, read);
  std::vector<const Value*> out;
  for (const Value* v : read)
    if (parameter_tensor(v)) out.push_back(v);
  return out;
}

inline NodeProfile profile_node(const Node& n, const CountContext& ctx, std::unordered_set<const Value*>& params) {
  NodeProfile p;
  p.node = &n;
  p.name = n.name;
  p.op_type = n.op_type;
  p.domain = n.domain;
  p.flops = count_flops(n, ctx);
  if (p.flops.flops.overflowed()) p.flops.note = "unknown: the count overflows int64";
  for (const Value* v : n.outputs)
    if (v)
      p.outputs.push_back({v->name, value_bytes(v),
                           v->type.is_tensor_like() ? v->type.elem_type() : DataType::UNDEFINED, holds_weights(v), v});
  for (const Value* v : float_params(n)) {
    add_param(*parameter_tensor(v), p.params, p.param_bytes);
    params.insert(v);
  }
  return p;
}

// Totals of the FLOPs: the counted nodes summed, the others left out and
// named in a note.
inline void total_flops(ModelProfile& m) {
  std::vector<Expr> terms;
  bool unknown = false;
  std::map<std::string, std::size_t> missing;  // op -> nodes not counted
  for (const NodeProfile& n : m.nodes) {
    if (n.flops.kind == FlopKind::NotCounted) {
      ++m.not_counted;
      ++missing[n.op_type];
    } else if (n.flops.flops.is_unknown()) {
      unknown = true;
    } else {
      terms.push_back(n.flops.flops.expr());
    }
  }
  m.flops = unknown ? SymbolicDim() : SymbolicDim(sum_of(terms));
  if (unknown) m.notes.push_back("flops unknown: a counted node has a dim that is unknown");
  for (const auto& [op, count] : missing)
    m.notes.push_back("flops leave out " + std::to_string(count) + " " + op + " node(s): not counted");
}

// The profile of an inferred model, with the FLOP counts of the rule table
// that inferred it: builtin_rule_table() after infer_shapes (symshape.hpp),
// the build's own table when it chose its families. A parameter rather than
// a default, so that this header does not include every family.
inline ModelProfile profile_model(const Model& model, RuleTable rules) {
  ModelProfile m;
  const Graph& g = *model.graph;
  const CountContext ctx = count_context(model, rules);
  std::unordered_set<const Value*> params;
  for (const Node* n : g.nodes) m.nodes.push_back(profile_node(*n, ctx, params));
  total_flops(m);
  m.params = SymbolicDim(0);
  m.param_bytes = SymbolicDim(0);
  for (const Value* v : params) add_param(*parameter_tensor(v), m.params, m.param_bytes);
  m.activation_bytes = activation_bytes(g);
  std::optional<std::vector<PeakCandidate>> candidates = peak_candidates(g);
  m.peak_activation_bytes = peak_activation_bytes(candidates);
  if (candidates) m.peak_candidates = std::move(*candidates);
  if (m.activation_bytes.is_unknown()) m.notes.push_back("activation bytes unknown: a node output has no known size");
  for (const SymbolicDim* total : {&m.flops, &m.params, &m.param_bytes, &m.activation_bytes, &m.peak_activation_bytes})
    if (total->overflowed()) {
      m.notes.push_back("a total overflows int64 and is shown as unknown");
      break;
    }
  return m;
}

// ---- grouping ----

enum class GroupBy { Op, Scope };

// The scope exporters write in node names: everything before the last '/'
// ("/blocks.3/attn/MatMul" -> "/blocks.3/attn"). In a name without '/' the
// '.' separates scopes ("p2o.Conv.0", as Paddle2ONNX names nodes, ->
// "p2o.Conv"); "" for a name with neither.
inline char scope_separator(const std::string& name) { return name.find('/') != std::string::npos ? '/' : '.'; }

inline std::string node_scope(const std::string& name) {
  const std::size_t cut = name.rfind(scope_separator(name));
  return cut == std::string::npos ? std::string() : name.substr(0, cut);
}

// The scope that holds `scope` ("/blocks.3/attn" -> "/blocks.3", "p2o.Conv"
// -> "p2o"), "" at the top.
inline std::string parent_scope(const std::string& scope) { return node_scope(scope); }

struct GroupRow {
  std::string key;
  std::size_t nodes = 0;
  std::size_t not_counted = 0;
  SymbolicDim flops = SymbolicDim(0);         // of the counted nodes
  SymbolicDim output_bytes = SymbolicDim(0);  // of their outputs
  SymbolicDim params = SymbolicDim(0);        // read by its nodes (a shared one in each group)
  std::string parent;                         // by scope: the scope holding this one ("" at the top)
  int depth = 0;                              // by scope: how many scopes hold this one
};

// One row per op type (domain-qualified outside ai.onnx), in order of first
// appearance; or one row per scope, each holding its nested scopes' nodes
// too, in tree order (a scope, then the scopes inside it, each level in
// order of first appearance; nodes without a scope in a last row "").
inline std::vector<GroupRow> group_profile(const ModelProfile& m, GroupBy by) {
  std::vector<GroupRow> rows;
  std::map<std::string, std::size_t> index;
  auto row_of = [&](const std::string& key) -> std::size_t {
    auto [it, fresh] = index.emplace(key, rows.size());
    if (fresh) rows.emplace_back().key = key;
    return it->second;
  };
  auto add = [](GroupRow& r, const NodeProfile& n) {
    ++r.nodes;
    if (n.flops.kind == FlopKind::NotCounted)
      ++r.not_counted;
    else
      r.flops = r.flops + n.flops.flops;
    for (const OutputProfile& o : n.outputs) r.output_bytes = r.output_bytes + o.bytes;
    r.params = r.params + n.params;
  };
  if (by == GroupBy::Op) {
    for (const NodeProfile& n : m.nodes) add(rows[row_of(qualified_op(n.domain, n.op_type))], n);
    return rows;
  }
  // Every scope and the scopes holding it get the node.
  std::map<std::string, std::vector<std::string>> children;  // in order of first appearance
  std::vector<std::string> tops;
  bool unscoped = false;
  for (const NodeProfile& n : m.nodes) {
    std::string scope = node_scope(n.name);
    if (scope.empty()) {
      unscoped = true;
      continue;
    }
    for (; !scope.empty(); scope = parent_scope(scope)) {
      const bool fresh = index.count(scope) == 0;
      add(rows[row_of(scope)], n);
      if (fresh) {
        const std::string parent = parent_scope(scope);
        (parent.empty() ? tops : children[parent]).push_back(scope);
      }
    }
  }
  // Tree order.
  std::vector<GroupRow> ordered;
  ordered.reserve(rows.size() + 1);
  std::vector<std::pair<std::string, int>> stack;
  for (auto it = tops.rbegin(); it != tops.rend(); ++it) stack.emplace_back(*it, 0);
  while (!stack.empty()) {
    auto [key, depth] = stack.back();
    stack.pop_back();
    GroupRow r = rows[index.at(key)];
    r.parent = parent_scope(key);
    r.depth = depth;
    ordered.push_back(std::move(r));
    const auto kids = children.find(key);
    if (kids == children.end()) continue;
    for (auto it = kids->second.rbegin(); it != kids->second.rend(); ++it) stack.emplace_back(*it, depth + 1);
  }
  if (unscoped) {
    GroupRow none;
    for (const NodeProfile& n : m.nodes)
      if (node_scope(n.name).empty()) add(none, n);
    ordered.push_back(std::move(none));
  }
  return ordered;
}

}  // namespace symshape::profile
