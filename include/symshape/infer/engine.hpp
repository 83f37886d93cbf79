// The engine: walks a model's graph in topological order, resolves each
// node's rule once per (domain, op, opset), runs it, names unknown output
// dims with fresh symbols, and recurses into subgraphs and model-local
// functions.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symshape/infer/context.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/infer/schema.hpp"

namespace symshape {

// Subgraphs (If/Loop/Scan bodies, function calls) nested deeper than this are
// not inferred: an error, before the recursion could exhaust the stack (a
// level of If takes about 3.5 KB of stack at -O0, 4 to 6 KB under ASan, so
// 1024 levels fit in the usual 8 MB). The ONNX loader refuses deeper models
// (onnx::kMaxSubgraphNesting).
inline constexpr int kMaxSubgraphDepth = 1024;

// The newest ONNX IR version this release knows (IR version 13 is the one after
// August 2025's 12); newer models are inferred with a warning.
inline constexpr int64_t kNewestIrVersion = 13;

namespace detail {

inline std::string type_brief(const Value* v) {
  if (!v) return "-";
  if (v->type.is_tensor()) return v->type.shape().to_string();
  return v->type.to_string();
}

}  // namespace detail

class Engine final : private SubgraphInferer {
 public:
  // `schemas`: the operator schemas nodes are checked against before their
  // built-in rule runs (none when empty); options.user_rules are consulted
  // before `table`.
  Engine(RuleTable table, Model& model, const InferenceOptions& options, SchemaTable schemas)
      : table_(table),
        schemas_(schemas),
        model_(model),
        options_(options),
        ctx_(model.opset_imports, options.policy),
        by_key_(table.index.keys) {
    ctx_.set_data_propagation(options.data_propagation);
    ctx_.set_subgraph_inferer(this);
  }
  Engine(const Engine&) = delete;  // the context points to this engine
  Engine& operator=(const Engine&) = delete;

  Report run() {
    // Fresh names must not alias the _dN names an earlier run wrote into the model.
    int64_t used = -1;  // no _d<k> name yet
    max_fresh_index(*model_.graph, used);
    for (const auto& f : model_.functions)
      if (f.body) max_fresh_index(*f.body, used);
    ctx_.reserve_fresh_dims(used + 1);
    subgraph_budget_ = kSubgraphBudgetBase + kSubgraphBudgetPerNode * count_nodes(*model_.graph);
    name_anonymous_input_dims(*model_.graph);
    Facts facts;
    if (!gather_facts(facts)) return ctx_.report();
    const FactScope scope(facts);
    if (!facts.empty()) rebuild_input_dims(facts);
    std::set<std::string> input_symbols;
    for (const Value* v : model_.graph->inputs)
      if (v && v->type.is_tensor_like()) input_symbols.merge(v->type.shape().free_symbols());
    ctx_.set_input_symbols(std::move(input_symbols));
    warn_newer_versions();
    infer_graph(*model_.graph);
    ctx_.report().facts = facts.list();
    return ctx_.report();
  }

  // The facts of the options: each --assume text, and with assume_nonempty
  // `s >= 1` for every symbol of the graph inputs. A fact that does not parse
  // or contradicts the others is an error, and nothing is inferred.
  bool gather_facts(Facts& facts) {
    for (const auto* texts : {&options_.assume, &options_.assume_from_contracts})
      for (const std::string& text : *texts)
        if (Result<bool> r = facts.add(text, texts == &options_.assume ? "--assume" : "--assume-contracts"); !r) {
          ctx_.error(nullptr, DiagnosticKind::Usage, "fact '" + text + "': " + r.error());
          return false;
        }
    if (!options_.assume_nonempty) return true;
    std::set<std::string> names;
    for (const Value* v : model_.graph->inputs)
      if (v && v->type.is_tensor_like()) names.merge(v->type.shape().free_symbols());
    for (const std::string& name : names)
      if (Result<bool> r = facts.add(Expr::symbol(name), Relation::GreaterEqual, Expr(1), "--assume-nonempty"); !r) {
        ctx_.error(nullptr, DiagnosticKind::Usage, "--assume-nonempty: " + r.error());
        return false;
      }
    return true;
  }

  // The graph inputs' dims built again under the facts: their symbols then
  // carry the facts' bounds, and symbols that equalities define are replaced.
  void rebuild_input_dims(const Facts& facts) {
    for (Value* v : model_.graph->inputs)
      if (v && v->type.is_tensor_like() && v->type.shape().has_rank())
        for (auto& d : v->type.shape().dims())
          if (d.is_symbolic()) d = SymbolicDim(facts.apply(d.expr()));
  }

  // Nodes of g in an order where producers come first; false on a cycle,
  // with `order` holding the nodes that do not wait for it and `cycle_node` a
  // node on the cycle.
  static bool topological_order(const Graph& g, std::vector<Node*>& order, const Node*& cycle_node) {
    order.clear();
    if (in_topological_file_order(g)) {
      order.reserve(g.nodes.size());
      for (const auto& n : g.nodes) order.push_back(n);
      return true;
    }
    return dependency_order(g, order, cycle_node);
  }

 private:
  // topological_order for a graph whose file order is not one.
  static bool dependency_order(const Graph& g, std::vector<Node*>& order, const Node*& cycle_node) {
    Dependencies deps = dependencies(g);
    order = kahn_order(g, deps);
    if (order.size() == g.nodes.size()) return true;
    cycle_node = node_on_cycle(g, deps);
    return false;
  }

  RuleTable table_;
  SchemaTable schemas_;
  std::set<std::string> warned_unimported_;
  Model& model_;
  const InferenceOptions& options_;
  Context ctx_;
  // A node's rule and the schema it is checked against (none for custom rules
  // and for versions the schema table does not have), resolved together;
  // `formals` names the rule's inputs (Context::inputs), for user rules too.
  struct Dispatch {
    ResolvedRule rule;
    const OperatorSchema* schema = nullptr;
    const OperatorSchema* formals = nullptr;
    explicit operator bool() const { return static_cast<bool>(rule); }
  };
  // Rules resolved since the opsets last changed, of operators the built-in
  // table does not have (user rules, or none), by (domain, op_type): an
  // open-addressing table over views into the nodes' strings, which outlive
  // the run (one hash of the op_type per node, no allocation after warm-up).
  class ResolvedCache {
   public:
    Dispatch* find(std::string_view domain, std::string_view op_type, std::size_t& slot) {
      if (slots_.empty()) slots_.resize(64);
      const std::size_t h = std::hash<std::string_view>()(op_type);
      for (slot = h & (slots_.size() - 1);; slot = (slot + 1) & (slots_.size() - 1)) {
        Entry& e = slots_[slot];
        if (!e.used) return nullptr;
        if (e.hash == h && e.op_type == op_type && e.domain == domain) return &e.rule;
      }
    }
    // After find() returned nullptr with that slot.
    void put(std::size_t slot, std::string_view domain, std::string_view op_type, Dispatch rule) {
      slots_[slot] = Entry{std::hash<std::string_view>()(op_type), op_type, domain, rule, true};
      if (2 * ++size_ > slots_.size()) {  // keep the table at most half full
        std::vector<Entry> old(2 * slots_.size());
        old.swap(slots_);
        for (const Entry& e : old)
          if (e.used) {
            std::size_t i = e.hash & (slots_.size() - 1);
            while (slots_[i].used) i = (i + 1) & (slots_.size() - 1);
            slots_[i] = e;
          }
      }
    }
    void clear() {
      slots_.clear();
      size_ = 0;
    }

   private:
    struct Entry {
      std::size_t hash = 0;
      std::string_view op_type, domain;
      Dispatch rule;
      bool used = false;
    };
    std::vector<Entry> slots_;
    std::size_t size_ = 0;
  };
  ResolvedCache resolved_;
  // The resolved rules of the built-in table's operators, by the operator's
  // number in the table's index (RuleTable::find). An entry is current when
  // its generation is; a change of the opsets starts a new generation.
  struct KeyedDispatch {
    uint64_t generation = 0;
    Dispatch dispatch;
  };
  std::vector<KeyedDispatch> by_key_;
  uint64_t generation_ = 1;
  int function_depth_ = 0;
  int subgraph_depth_ = 0;
  bool reported_no_ai_onnx_ = false;
  // Subgraph inferences left: Loop bodies are inferred again to generalise
  // their types, so nested Loops cost exponentially in their depth; past
  // the budget, subgraphs are not inferred (an error, once).
  static constexpr std::size_t kSubgraphBudgetBase = 10000;
  static constexpr std::size_t kSubgraphBudgetPerNode = 64;
  std::size_t subgraph_budget_ = 0;
  bool budget_reported_ = false;
  const Node* too_deep_ = nullptr;  // the last node whose subgraphs were too deep

  // Calls on_producer(position) for the producer (in this graph) of each of
  // n's inputs, including values that its subgraphs read from the outer
  // scope, and stops at the first call that returns false; returns false
  // then. (With repeats; the caller removes them where it matters.)
  // (Subgraphs deeper than kMaxSubgraphDepth are not inferred, nor read.)
  template <class OnProducer>
  static bool for_each_dependency(const Node& n, const StablePool<Node>& index, OnProducer& on_producer,
                                  int depth = 0) {
    for (const Value* in : n.inputs) {
      if (!in || !in->producer) continue;
      const std::size_t at = index.index_of(in->producer);
      if (at != StablePool<Node>::npos && !on_producer(at)) return false;
    }
    if (depth >= kMaxSubgraphDepth) return true;
    for (const auto& a : n.attributes)
      for (const auto& g : a.graphs)
        if (g)
          for (const auto& sub : g->nodes)
            if (!for_each_dependency(*sub, index, on_producer, depth + 1)) return false;
    return true;
  }

  // The fast path of topological_order: whether every producer comes strictly
  // before its users in the file, in which case Kahn's algorithm would return
  // the file order (it keeps the file order among ready nodes).
  static bool in_topological_file_order(const Graph& g) {
    const StablePool<Node>& index = g.nodes;  // node -> position, by address
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      auto before = [i](std::size_t at) { return at < i; };
      if (!for_each_dependency(*g.nodes[i], index, before)) return false;
    }
    return true;
  }

  // The dependency graph by node position: each node's producers (sorted,
  // without repeats), its users, and how many producers are not ordered yet.
  struct Dependencies {
    std::vector<std::vector<std::size_t>> producers;
    std::vector<std::vector<std::size_t>> users;
    std::vector<std::size_t> pending;
  };
  static Dependencies dependencies(const Graph& g) {
    const StablePool<Node>& index = g.nodes;
    Dependencies d{std::vector<std::vector<std::size_t>>(g.nodes.size()),
                   std::vector<std::vector<std::size_t>>(g.nodes.size()), std::vector<std::size_t>(g.nodes.size(), 0)};
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      std::vector<std::size_t>& deps = d.producers[i];
      auto collect = [&deps](std::size_t at) {
        deps.push_back(at);  // a node reading its own output is a cycle too
        return true;
      };
      for_each_dependency(*g.nodes[i], index, collect);
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      for (std::size_t p : deps) d.users[p].push_back(i);
      d.pending[i] = deps.size();
    }
    return d;
  }

  // Kahn's algorithm, keeping the file's order among ready nodes (it pops the
  // smallest index). Nodes on or behind a cycle are left out, with
  // `d.pending` non-zero.
  static std::vector<Node*> kahn_order(const Graph& g, Dependencies& d) {
    std::vector<Node*> order;
    std::vector<std::size_t> ready;
    for (std::size_t i = g.nodes.size(); i-- > 0;)
      if (d.pending[i] == 0) ready.push_back(i);
    std::make_heap(ready.begin(), ready.end(), std::greater<>());
    while (!ready.empty()) {
      std::pop_heap(ready.begin(), ready.end(), std::greater<>());
      std::size_t i = ready.back();
      ready.pop_back();
      order.push_back(g.nodes[i]);
      for (std::size_t u : d.users[i]) {
        if (--d.pending[u] == 0) {
          ready.push_back(u);
          std::push_heap(ready.begin(), ready.end(), std::greater<>());
        }
      }
    }
    return order;
  }

  // After kahn_order left nodes out: an unordered node waits for an unordered
  // producer; following producers for as many steps as there are nodes ends
  // on a cycle (not merely downstream of one).
  static const Node* node_on_cycle(const Graph& g, const Dependencies& d) {
    std::size_t at = 0;
    while (at < g.nodes.size() && d.pending[at] == 0) ++at;
    for (std::size_t step = 0; at < g.nodes.size() && step < g.nodes.size(); ++step) {
      std::size_t next = g.nodes.size();
      for (std::size_t p : d.producers[at])
        if (d.pending[p] != 0 && (next == g.nodes.size() || p < next)) next = p;
      if (next == g.nodes.size()) break;
      at = next;
    }
    return at < g.nodes.size() ? g.nodes[at] : nullptr;
  }

  // Nodes of g and its subgraphs (to kMaxSubgraphDepth).
  static std::size_t count_nodes(const Graph& g, int depth = 0) {
    std::size_t count = g.nodes.size();
    for (const auto& n : g.nodes)
      for (const auto& a : n->attributes)
        for (const auto& sub : a.graphs)
          if (sub && depth < kMaxSubgraphDepth) count += count_nodes(*sub, depth + 1);
    return count;
  }

  void name_anonymous_input_dims(Graph& g) {
    for (Value* v : g.inputs)
      if (v && v->type.is_tensor_like()) {
        Shape named = ctx_.name_unknown_dims(v->type.shape());
        if (named != v->type.shape()) {
          v->type.shape() = std::move(named);
          ctx_.report().modified = true;
        }
      }
  }

  // Raises `used` to the largest k of the _d<k> symbols in types and values of
  // g, its subgraphs and type attributes.
  static void max_fresh_index(const Type& t, int64_t& used) {
    if (t.is_tensor_like() && t.shape().has_rank())
      for (const auto& d : t.shape().dims())
        if (d.is_symbolic()) max_fresh_index(d, used);
    if (t.inner()) max_fresh_index(*t.inner(), used);
  }
  static void max_fresh_index(const SymbolicDim& d, int64_t& used) {
    if (d.expr().is_symbol()) {  // the common case, without building the symbol list
      if (auto k = Context::fresh_index(d.expr().name())) used = std::max(used, *k);
      return;
    }
    for (const auto& name : free_symbols(d.expr()))
      if (auto k = Context::fresh_index(name)) used = std::max(used, *k);
  }
  static void max_fresh_index(const Graph& g, int64_t& used, int depth = 0) {
    for (const auto& v : g.values) {
      max_fresh_index(v->type, used);
      if (v->symbolic_value)
        for (const auto& d : *v->symbolic_value)
          if (d.is_symbolic()) max_fresh_index(d, used);
    }
    for (const auto& n : g.nodes)
      for (const auto& a : n->attributes) {
        for (const auto& t : a.types) max_fresh_index(t, used);
        for (const auto& sub : a.graphs)
          if (sub && depth < kMaxSubgraphDepth) max_fresh_index(*sub, used, depth + 1);
      }
  }

  // A model newer than the rules: inferred with the newest rules, which may
  // miss what a newer version changed, so the user is told.
  void warn_newer_versions() {
    if (model_.ir_version > kNewestIrVersion)
      ctx_.warn(nullptr, DiagnosticKind::Usage,
                "ir_version " + std::to_string(model_.ir_version) + " is newer than symshape knows (" +
                    std::to_string(kNewestIrVersion) + ")");
    for (const auto& [domain, version] : model_.opset_imports) {
      int newest = 0;
      for (std::size_t i = 0; i < table_.size; ++i)
        if (table_.entries[i].domain == domain) newest = std::max(newest, table_.entries[i].since_version);
      if (newest > 0 && version > newest)
        ctx_.warn(nullptr, DiagnosticKind::Usage,
                  "opset " + std::string(domain_title(domain)) + " " + std::to_string(version) +
                      " is newer than symshape knows (" + std::to_string(newest) + "); inferring with the rules of " +
                      std::to_string(newest));
    }
  }

  // The opset of a domain is fixed until the opsets change (function calls,
  // forget_resolved), so (domain, op_type) identifies the rule. An operator
  // of the built-in table is found by its index (one hash of the node's
  // strings, one comparison with the table's) and its rule, user rules
  // first, resolved once per generation; other operators by resolved_.
  Dispatch resolve(const Node& n) {
    if (const KeyRows key = table_.find(n.domain, n.op_type)) {
      KeyedDispatch& known = by_key_[key.key];
      if (known.generation != generation_)
        known = {generation_,
                 with_schema(n, resolve_rule(table_, options_.user_rules, n.domain, n.op_type, ctx_.opset(n.domain)))};
      return known.dispatch;
    }
    std::size_t slot = 0;
    if (const Dispatch* cached = resolved_.find(n.domain, n.op_type, slot)) return *cached;
    Dispatch d = with_schema(n, resolve_rule(table_, options_.user_rules, n.domain, n.op_type, ctx_.opset(n.domain)));
    resolved_.put(slot, n.domain, n.op_type, d);
    return d;
  }
  void forget_resolved() {
    resolved_.clear();
    ++generation_;
  }
  Dispatch with_schema(const Node& n, ResolvedRule rule) const {
    const bool checked = rule && !rule.user;
    return {rule, checked ? schemas_.find(n.domain, n.op_type, rule.since_version) : nullptr,
            rule ? schemas_.newest(n.domain, n.op_type, rule.since_version) : nullptr};
  }

  // A node of a domain the model does not import (onnxruntime's own tests
  // build com.microsoft nodes so): when every operator of that domain has one
  // version only, that version's rule, with a warning once per domain. Not for
  // ai.onnx, whose missing import is an error.
  Dispatch resolve_unimported(const Node& n) {
    if (canonical_domain(n.domain).empty() || ctx_.opset(n.domain) != 0) return {};
    int64_t version = 0;
    auto same_version = [&](const RuleEntry* entries, std::size_t size) {
      for (std::size_t i = 0; i < size; ++i) {
        const RuleEntry& e = entries[i];
        if (e.domain != n.domain) continue;
        if (version != 0 && e.since_version != version) return false;
        version = e.since_version;
      }
      return true;
    };
    if (!same_version(table_.entries, table_.size)) return {};
    if (options_.user_rules &&
        !same_version(options_.user_rules->entries().data(), options_.user_rules->entries().size()))
      return {};
    if (version == 0) return {};
    ResolvedRule r = resolve_rule(table_, options_.user_rules, n.domain, n.op_type, version);
    if (r && warned_unimported_.insert(n.domain).second)
      ctx_.warn(&n, DiagnosticKind::Usage,
                "the model uses " + n.domain.get() + " operators but does not import that domain; inferring with its " +
                    "version-" + std::to_string(version) + " rules (add an opset_import for " + n.domain.get() + ")");
    return with_schema(n, r);
  }

  // `scope`: where g is, as diagnostics give it (Context::NodePlace); null
  // for the main graph.
  void infer_graph(Graph& g, const std::string* scope = nullptr) {
    if (in_topological_file_order(g)) {  // the usual case: no list of the nodes (8 bytes a node)
      const std::size_t count = g.nodes.size();
      for (std::size_t i = 0; i < count; ++i) infer_node(*g.nodes[i], i, scope);
      return;
    }
    std::vector<Node*> order;
    const Node* cycle = nullptr;
    std::unordered_map<const Node*, std::size_t> index;  // the nodes' places in the file
    for (std::size_t i = 0; i < g.nodes.size(); ++i) index.emplace(g.nodes[i], i);
    if (!dependency_order(g, order, cycle)) {
      ctx_.set_current_node(cycle, index[cycle], scope);
      ctx_.error(cycle, DiagnosticKind::Graph,
                 "graph '" + g.name + "' has a cycle through this node; nodes on the cycle are not inferred");
      ctx_.set_current_node(nullptr);
    }
    for (Node* n : order) infer_node(*n, index[n], scope);
  }

  void infer_node(Node& n, std::size_t index, const std::string* scope) {
    ctx_.set_current_node(&n, index, scope);
    // Subgraphs are inferred afresh on every run (their values are cleared
    // first), so whether they changed is decided by comparing with before.
    std::vector<std::pair<const Value*, Type>> before;
    if (subgraph_depth_ == 0)
      for (const auto& a : n.attributes)
        for (const auto& g : a.graphs)
          if (g) snapshot(*g, before);
    if (const Function* f = model_.function(n.domain, n.op_type)) {
      infer_function_call(*f, n);
    } else if (Dispatch rule = resolve(n)) {
      run_rule(rule, n);
    } else if (Dispatch unimported = resolve_unimported(n)) {
      run_rule(unimported, n);
    } else if (canonical_domain(n.domain).empty() && ctx_.opset("") == 0 && !reported_no_ai_onnx_) {
      // ONNX requires an opset import for every domain the model uses.
      reported_no_ai_onnx_ = true;
      ctx_.error(&n, DiagnosticKind::Usage,
                 "the model uses ai.onnx operators but imports no ai.onnx opset (no \"\" or \"ai.onnx\" entry "
                 "in opset_imports)");
    } else {
      ctx_.warn(&n, DiagnosticKind::MissingRule,
                "no shape rule for " + std::string(domain_title(n.domain)) + "::" + n.op_type + " at opset " +
                    std::to_string(ctx_.opset(n.domain)) + "; outputs left unknown");
    }
    for (Value* out : n.outputs)
      if (out && out->type.is_tensor_like() && ctx_.has_unnamed_dims(out->type.shape()))
        out->type.shape() = ctx_.name_unknown_dims(out->type.shape());
    for (const auto& [v, old] : before)
      if (!same_up_to_fresh_names(old, v->type)) {
        ctx_.report().modified = true;
        break;
      }
    ctx_.set_current_node(nullptr);
    if (options_.trace) trace(n, scope);
  }

  // Runs the rule. A dim of its outputs that overflowed int64 on the way, or
  // an attribute it read as another kind than it has, is a usage error naming
  // the node (attribute reads in the node's subgraphs are theirs).
  void run_rule(const Dispatch& d, Node& n) {
    if (d.schema && !check_against_schema(ctx_, n, *d.schema, schemas_)) return;  // outputs stay unknown
    Context::AttributeMismatch mismatch;  // the outer rule's while this one runs, then this one's
    ctx_.swap_attribute_mismatch(mismatch);
    ctx_.set_rule_since_version(d.rule.since_version);
    const Context::RuleSchema outer_schema = ctx_.exchange_rule_schema({&n, d.formals, d.rule.since_version});
    d.rule.fn(ctx_, n);
    ctx_.exchange_rule_schema(outer_schema);
    ctx_.swap_attribute_mismatch(mismatch);
    if (clear_overflow_marks(n)) ctx_.overflow_error(n);
    if (!mismatch.name.empty())
      ctx_.usage_error(n, {"attribute '", mismatch.name, "' is ", to_string(mismatch.actual), ", expected ",
                           to_string(mismatch.expected)});
  }
  // Makes the overflowed dims of n's output shapes and values plain unknowns
  // (named afterwards like any other); true when there was one.
  static bool clear_overflow_marks(Node& n) {
    bool found = false;
    auto clear = [&found](auto&& dims) {  // a shape's dims, or a propagated value
      for (SymbolicDim& d : dims)
        if (d.overflowed()) {
          d = SymbolicDim();
          found = true;
        }
    };
    for (Value* out : n.outputs) {
      if (!out) continue;
      if (out->type.is_tensor_like() && out->type.shape().has_rank()) clear(out->type.shape().dims());
      if (out->symbolic_value) clear(*out->symbolic_value);
    }
    return found;
  }

  // Types of a subgraph's inputs and node outputs, nested subgraphs included.
  static void snapshot(const Graph& g, std::vector<std::pair<const Value*, Type>>& out, int depth = 0) {
    for (const Value* v : g.inputs)
      if (v) out.emplace_back(v, v->type);
    for (const auto& n : g.nodes) {
      for (const Value* v : n->outputs)
        if (v) out.emplace_back(v, v->type);
      for (const auto& a : n->attributes)
        for (const auto& sub : a.graphs)
          if (sub && depth < kMaxSubgraphDepth) snapshot(*sub, out, depth + 1);
    }
  }
  // Equal types, except that fresh names (_d<k>) may be numbered differently.
  static std::string without_fresh_numbers(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
      const bool starts = s[i] == '_' && i + 2 < s.size() && s[i + 1] == 'd' && s[i + 2] >= '0' && s[i + 2] <= '9' &&
                          (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'));
      if (!starts) {
        out += s[i++];
        continue;
      }
      out += "_d#";
      i += 2;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    return out;
  }
  static bool same_up_to_fresh_names(const Type& a, const Type& b) {
    return a == b || without_fresh_numbers(a.to_string()) == without_fresh_numbers(b.to_string());
  }

  // "Reshape  [b,s,768], [3] -> [b,s,12,64]  (name)", and where the node is
  // when it is not in the main graph (" in function 'local::f'").
  void trace(const Node& n, const std::string* scope) {
    std::string line = n.op_type;
    line.resize(std::max<std::size_t>(line.size() + 2, 18), ' ');
    for (std::size_t i = 0; i < n.inputs.size(); ++i) line += (i ? ", " : "") + detail::type_brief(n.inputs[i]);
    line += " -> ";
    for (std::size_t i = 0; i < n.outputs.size(); ++i) line += (i ? ", " : "") + detail::type_brief(n.outputs[i]);
    if (!n.name.empty()) line += "  (" + n.name + ")";
    if (scope) line += (n.name.empty() ? " " : "") + *scope;
    options_.trace(line);
  }

  // Types the subgraph's inputs, re-infers every node in it, and returns the
  // output types. Previous results inside the subgraph are cleared first, so a
  // body can be inferred again with more general input types.
  std::vector<Type> infer_subgraph(Graph& g, const std::vector<Type>& input_types) override {
    return infer_subgraph_in(g, input_types, " in subgraph '" + g.name + "' of " + ctx_.place_of(ctx_.current_node()));
  }
  // infer_subgraph, the nodes of g placed in `scope`.
  std::vector<Type> infer_subgraph_in(Graph& g, const std::vector<Type>& input_types, const std::string& scope) {
    if (subgraph_depth_ >= kMaxSubgraphDepth) {
      if (too_deep_ != ctx_.current_node())  // once per node, not per branch
        ctx_.error(ctx_.current_node(), DiagnosticKind::Graph,
                   "subgraphs nested deeper than " + std::to_string(kMaxSubgraphDepth) + " are not inferred");
      too_deep_ = ctx_.current_node();
      return std::vector<Type>(g.outputs.size());
    }
    if (subgraph_budget_ == 0) {
      if (!budget_reported_)
        ctx_.error(ctx_.current_node(), DiagnosticKind::Graph,
                   "subgraphs inferred too many times (deeply nested Loops?); the rest are not inferred");
      budget_reported_ = true;
      return std::vector<Type>(g.outputs.size());
    }
    --subgraph_budget_;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
      if (g.inputs[i]) g.inputs[i]->type = i < input_types.size() ? input_types[i] : Type();
    for (Node* n : g.nodes)
      for (Value* out : n->outputs)
        if (out) {
          out->type = Type();
          out->symbolic_value.reset();
          ctx_.forget_element_bounds(out);
        }
    const Context::NodePlace outer = ctx_.current_place();
    // Changes inside are judged by infer_node against the previous run (see
    // snapshot), not by the set_type calls on the cleared values.
    const bool modified = ctx_.report().modified;
    ++subgraph_depth_;
    infer_graph(g, &scope);
    --subgraph_depth_;
    ctx_.report().modified = modified;
    ctx_.set_current_place(outer);
    std::vector<Type> outs;
    for (Value* v : g.outputs) outs.push_back(v ? v->type : Type());
    return outs;
  }

  // Binds the attribute references in f's body to the caller's attributes
  // (or f's defaults); returns each bound attribute as it was, to restore it.
  static std::vector<std::pair<Attribute*, Attribute>> bind_attribute_refs(const Function& f, const Node& call) {
    std::vector<std::pair<Attribute*, Attribute>> saved;
    for (Node* bn : f.body->nodes) {
      for (auto& a : bn->attributes) {
        if (a.ref_attr_name.empty()) continue;
        const Attribute* src = call.attr(a.ref_attr_name);
        if (!src)
          for (const auto& d : f.attribute_defaults)
            if (d.name == a.ref_attr_name) src = &d;
        saved.emplace_back(&a, a);
        if (src) {
          std::string name = a.name;
          a = *src;
          a.name = std::move(name);
        }
      }
    }
    return saved;
  }

  void infer_function_call(const Function& f, Node& call) {
    if (function_depth_ >= 16) {
      ctx_.error(&call, DiagnosticKind::Graph, "model-local functions nested deeper than 16 (recursion?)");
      return;
    }
    Graph& body = *f.body;
    const std::vector<std::pair<Attribute*, Attribute>> saved = bind_attribute_refs(f, call);
    std::vector<Type> in;
    for (std::size_t i = 0; i < body.inputs.size(); ++i)
      in.push_back(i < call.inputs.size() && call.inputs[i] ? call.inputs[i]->type : Type());
    for (std::size_t i = 0; i < body.inputs.size() && i < call.inputs.size(); ++i)
      if (call.inputs[i] && body.inputs[i]) body.inputs[i]->symbolic_value = ctx_.symbolic_value(call.inputs[i]);
    auto outer_opsets = ctx_.opsets();
    auto merged = outer_opsets;
    for (const auto& [d, v] : f.opset_imports) merged[std::string(canonical_domain(d))] = v;
    ctx_.set_opsets(merged);
    forget_resolved();
    ++function_depth_;
    const std::string scope = " in function '" + qualified_op(f.domain, f.name) + "'";
    std::vector<Type> outs = infer_subgraph_in(body, in, scope);
    --function_depth_;
    ctx_.set_opsets(outer_opsets);
    forget_resolved();
    for (auto& [ptr, original] : saved) *ptr = original;
    for (std::size_t i = 0; i < call.outputs.size() && i < outs.size(); ++i) {
      ctx_.set_type(call.outputs[i], outs[i]);
      if (call.outputs[i] && body.outputs[i] && body.outputs[i]->symbolic_value)
        ctx_.set_symbolic_value(call.outputs[i], *body.outputs[i]->symbolic_value);
    }
  }
};

// The one-call API over a given rule table and the schemas its nodes are
// checked against (symshape.hpp passes the built-ins). The schemas have no
// default so that leaving them out is not a silent way to skip the checks:
// pass SchemaTable() to check nothing.
inline Report infer_shapes_with(RuleTable table, Model& model, const InferenceOptions& options, SchemaTable schemas) {
  Engine engine(table, model, options, schemas);
  return engine.run();
}

}  // namespace symshape
