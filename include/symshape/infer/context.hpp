// The inference context: merge policy, diagnostics, contracts, fresh dims and
// symbolic values. Rules call set_shape / set_dtype / set_type on their outputs
// and report problems with usage_error (malformed model) or record_error
// (semantic; severity per policy). How an inferred type merges with the one a
// value already has (declared in the file, or inferred before):
//
// | policy   | existing type                                 | conflicts | semantic errors |
// | skip     | kept if present (a missing dtype or rank is   | none      | warnings        |
// |          | filled in)                                    |           |                 |
// | override | always replaced                               | none      | errors          |
// | refine   | a tensor dim is replaced by the inferred one  | warnings  | errors          |
// |          | where that is more exact (see merge_dim); a   |           |                 |
// |          | sequence/optional/map type replaced; a        |           |                 |
// |          | conflict keeps the existing dim, rank, dtype  |           |                 |
// |          | or type                                       |           |                 |
// | strict   | as refine                                     | errors    | errors          |
//
// Under refine and strict, an inferred dim that is an expression of the graph
// inputs' symbols wins over an existing dim that is not (an exporter's
// placeholder such as `unk__12`) and over one that disagrees with it; a
// disagreement that can hold (`total` vs `past+seq`, `1` vs `N`) becomes a
// contract, one that cannot (3 vs 4) a conflict. An inferred fresh dim
// (is_fresh) never conflicts.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "symshape/expr/prove.hpp"
#include "symshape/infer/conditions.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/support/message.hpp"

namespace symshape {

// Dims whose expression grows past this many nodes become fresh symbols, so
// that expressions stay readable and inference stays linear.
inline constexpr uint32_t kMaxDimExprSize = 256;

// What Context calls to infer a subgraph (If's branches, Loop's and Scan's
// bodies): the engine, which outlives the context's use by rules.
class SubgraphInferer {
 public:
  virtual std::vector<Type> infer_subgraph(Graph& g, const std::vector<Type>& input_types) = 0;

 protected:
  ~SubgraphInferer() = default;  // not deleted through this interface
};

class Context {
 public:
  explicit Context(std::map<std::string, int64_t> opset_imports, MergePolicy policy = MergePolicy::Refine)
      : opsets_(normalize_opsets(std::move(opset_imports))), policy_(policy) {}

  MergePolicy policy() const { return policy_; }
  // Opset of a domain ("" and "ai.onnx" are the same); 0 when not imported.
  int64_t opset(const std::string& domain) const {
    auto it = opsets_.find(std::string(canonical_domain(domain)));
    return it == opsets_.end() ? 0 : it->second;
  }
  const std::map<std::string, int64_t>& opsets() const { return opsets_; }
  void set_opsets(std::map<std::string, int64_t> o) { opsets_ = normalize_opsets(std::move(o)); }
  // The "ai.onnx" key stored as "" (an explicit "" entry wins).
  static std::map<std::string, int64_t> normalize_opsets(std::map<std::string, int64_t> o) {
    auto it = o.find("ai.onnx");
    if (it == o.end()) return o;
    o.emplace("", it->second);
    o.erase(it);
    return o;
  }

  Report& report() { return report_; }
  const Report& report() const { return report_; }

  // The node being inferred, for messages.
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
    s += " (" + (n->domain.empty() ? n->op_type : n->domain + "." + n->op_type) + ")";
    return current_scope_ ? s + *current_scope_ : s;
  }
  // The since_version of the rule the engine runs for the current node (the
  // version of the operator it chose at the model's opset).
  void set_rule_since_version(int v) { rule_since_version_ = v; }
  int rule_since_version() const { return rule_since_version_; }

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
    if (n) {
      c.node = n->name;
      c.op_type = n->op_type;
      c.where = place_of(n);
    }
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
    if (n) {
      c.node = n->name;
      c.op_type = n->op_type;
      c.where = place_of(n);
    }
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
    auto never_one = [](const Expr& x) { return prove_ge(x, Expr(2)) || prove_ge(Expr(0), x); };
    return never_one(a) && never_one(b);
  }

  // The symbols of the graph inputs' dims: an inferred dim over these (and
  // integers) is exact, an existing dim over other names is a placeholder.
  void set_input_symbols(std::set<std::string> names) { input_symbols_ = std::move(names); }
  bool over_input_symbols(const SymbolicDim& d) const {
    if (d.is_unknown()) return false;
    if (d.is_int()) return true;
    for (const auto& name : free_symbols(d.expr()))
      if (!input_symbols_.count(name)) return false;
    return true;
  }
  // Whether d's symbols are the inputs' or fresh `_dN` ones (of this run, or
  // written by an earlier one), not names that only the file's value_info or
  // outputs use.
  bool of_this_run(const SymbolicDim& d) const {
    if (d.is_unknown() || d.is_int()) return true;
    for (const auto& name : free_symbols(d.expr()))
      if (!input_symbols_.count(name) && !fresh_index(name)) return false;
    return true;
  }

  // ---- fresh dims ----
  SymbolicDim new_symbolic_dim(const std::string& prefix = "_d") {
    return SymbolicDim(Expr::symbol(prefix + std::to_string(next_dim_++)));
  }
  // Fresh names start at _d<next> (the engine reserves the _dN names that the
  // model already uses, so that a fresh dim never aliases an existing one).
  void reserve_fresh_dims(int64_t next) {
    if (next > next_dim_) next_dim_ = next;
    fresh_begin_ = next_dim_;
  }
  // The k of a name "_d<k>"; nullopt for any other name.
  static std::optional<int64_t> fresh_index(const std::string& name) {
    if (name.size() < 3 || name.size() > 20 || name[0] != '_' || name[1] != 'd') return std::nullopt;
    int64_t k = 0;
    for (std::size_t i = 2; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return std::nullopt;
      k = k * 10 + (name[i] - '0');
    }
    return k;
  }
  // Whether d is a fresh name made in this run: a placeholder for an unknown
  // dim, which never replaces nor conflicts with an existing known dim.
  bool is_fresh(const SymbolicDim& d) const {
    if (!d.is_symbolic() || !d.expr().is_symbol()) return false;
    const std::optional<int64_t> k = fresh_index(d.expr().name());
    return k && *k >= fresh_begin_ && *k < next_dim_;
  }
  // Whether name_unknown_dims would change s.
  static bool has_unnamed_dims(const Shape& s) {
    if (!s.has_rank()) return false;
    for (const auto& d : s.dims())
      if (d.is_unknown() || (d.is_symbolic() && d.expr().size() > kMaxDimExprSize)) return true;
    return false;
  }
  // Replaces unknown dims (and overlong expressions) by fresh symbols.
  Shape name_unknown_dims(Shape s) {
    if (!s.has_rank()) return s;
    for (auto& d : s.dims())
      if (d.is_unknown() || (d.is_symbolic() && d.expr().size() > kMaxDimExprSize)) d = new_symbolic_dim();
    return s;
  }

  // How specific a dim is: int (2) > expression (1) > unknown (0). Refine
  // replaces an existing dim only by a more specific one.
  static int specificity(const SymbolicDim& d) { return d.is_int() ? 2 : d.is_known() ? 1 : 0; }

  // ---- setting types under the merge policy; each returns whether the value changed ----
  bool set_type(Value* v, Type inferred) {
    if (!v) return false;
    Type merged = merge_type(v, v->type, std::move(inferred));
    if (merged == v->type) return false;
    v->type = std::move(merged);
    report_.modified = true;
    return true;
  }
  bool set_shape_and_dtype(Value* v, Shape shape, DataType dtype) {
    return set_type(v, Type::tensor(dtype, std::move(shape)));
  }
  bool set_shape(Value* v, Shape shape) {
    if (!v) return false;
    return set_type(v, Type::tensor(v->type.is_tensor() ? v->type.elem_type() : DataType::UNDEFINED, std::move(shape)));
  }
  bool set_dtype(Value* v, DataType dtype) {
    if (!v) return false;
    return set_type(v, Type::tensor(dtype, v->type.is_tensor() ? v->type.shape() : Shape()));
  }

  // ---- element bounds ----
  // The smallest and largest element of an integer tensor too long to list
  // (a Range of symbolic length: `past` and `past+seq-1`), for the rows a
  // Gather of it reads. Few values have them: they are kept here, not in
  // every Value.
  struct ElementBounds {
    SymbolicDim lo, hi;
  };
  void set_element_bounds(const Value* v, const SymbolicDim& lo, const SymbolicDim& hi) {
    if (v && lo.is_known() && hi.is_known()) element_bounds_[v] = ElementBounds{lo, hi};
  }
  // For rules that keep the elements (Unsqueeze, Reshape, Cast to int64,
  // Expand, ...): the output has the bounds of the input.
  void keep_element_bounds(const Value* from, const Value* to) {
    if (!from || !to) return;
    auto it = element_bounds_.find(from);
    if (it != element_bounds_.end()) element_bounds_[to] = it->second;
  }
  const ElementBounds* element_bounds(const Value* v) const {
    auto it = element_bounds_.find(v);
    return it == element_bounds_.end() ? nullptr : &it->second;
  }
  // A value inferred again (a subgraph's) starts without bounds.
  void forget_element_bounds(const Value* v) { element_bounds_.erase(v); }

  // ---- partial data propagation ----
  // Known element values of a small integer tensor: the propagated symbolic
  // value, else the data of a constant initializer.
  std::optional<std::vector<SymbolicDim>> symbolic_value(const Value* v) const {
    if (!v) return std::nullopt;
    if (v->symbolic_value) {
      if (v->fraction) return std::nullopt;  // a fraction: rational_value only
      return v->symbolic_value;
    }
    if (v->initializer && v->initializer->has_data && is_integer_type(v->initializer->dtype) &&
        v->initializer->int_data.size() <= kMaxSymbolicValueSize) {
      return std::vector<SymbolicDim>(v->initializer->int_data.begin(), v->initializer->int_data.end());
    }
    return std::nullopt;
  }
  // Only integer values, or nullopt.
  std::optional<std::vector<int64_t>> int_values(const Value* v) const {
    auto s = symbolic_value(v);
    if (!s) return std::nullopt;
    std::vector<int64_t> out;
    for (const auto& d : *s) {
      if (!d.is_int()) return std::nullopt;
      out.push_back(d.value());
    }
    return out;
  }
  void set_symbolic_value(Value* v, std::vector<SymbolicDim> data) { set_rational_value(v, {std::move(data), 1}); }

  // Known values of a float tensor as fractions with one common positive
  // denominator: element i is num[i] / den (den = 1 for whole numbers, which
  // symbolic_value also gives). Floats in initializers count when each is
  // p / 2^k with k <= 10 (exact in binary floating point).
  using Rationals = symshape::Rationals;
  // Whether v has data a value can come from (a propagated value, or a
  // constant initializer's); rational_value and symbolic_value are nullopt
  // without it, and cost nothing to skip.
  static bool carries_data(const Value* v) {
    return v && (v->symbolic_value || (v->initializer && v->initializer->has_data));
  }
  std::optional<Rationals> rational_value(const Value* v) const {
    if (!carries_data(v)) return std::nullopt;
    if (v->symbolic_value && v->fraction && v->fraction->num.size() == v->symbolic_value->size()) return *v->fraction;
    if (auto s = symbolic_value(v)) return Rationals{std::move(*s), 1};
    if (!v->initializer || !v->initializer->has_data || v->initializer->int_data.size() > 0) return std::nullopt;
    if (v->initializer->float_data.size() > kMaxSymbolicValueSize) return std::nullopt;
    return exact_rationals(v->initializer->float_data);
  }
  // `data` as Rationals when every element is p / 2^k with k <= 10 and |p| < 2^53.
  static std::optional<Rationals> exact_rationals(const std::vector<double>& data) {
    // Weights are rarely such fractions: one pass rules them out. If x * den is
    // whole for some den <= 1024, so is x * 1024 (den divides 1024).
    for (double x : data)
      if (!(x * 1024.0 == std::floor(x * 1024.0))) return std::nullopt;
    for (int64_t den = 1; den <= 1024; den *= 2) {
      Rationals r{{}, den};
      for (double x : data) {
        const double p = x * static_cast<double>(den);  // exact: den is a power of two
        if (!(p == std::floor(p)) || !(std::fabs(p) < 9007199254740992.0)) break;
        r.num.emplace_back(static_cast<int64_t>(p));
      }
      if (r.num.size() == data.size()) return r;
    }
    return std::nullopt;
  }
  // Stores `r` reduced (integer numerators and the denominator divided by
  // their gcd; den = 1 makes it a plain symbolic value). A denominator <= 0
  // stores nothing.
  void set_rational_value(Value* v, Rationals r) {
    if (!v || !data_propagation_ || r.num.size() > kMaxSymbolicValueSize || r.den <= 0) return;
    // A symbolic numerator gives up the gcd of its coefficients ((4*N+2)/2 is 2*N+1).
    int64_t g = r.den;
    for (const auto& d : r.num) {
      if (g == 1) break;
      if (d.is_int())
        g = std::gcd(g, d.value() == INT64_MIN ? int64_t{1} : d.value());
      else
        g = d.is_known() ? detail::content_gcd(d.expr(), g) : 1;
    }
    if (g > 1)
      for (auto& d : r.num) d = d.is_int() ? SymbolicDim(d.value() / g) : d / SymbolicDim(g);
    r.den /= g;
    if (r.den == 1) {
      v->symbolic_value = std::move(r.num);
      v->fraction.reset();
    } else {
      v->symbolic_value = std::vector<SymbolicDim>(r.num.size());  // unknown placeholders
      v->fraction = std::move(r);
    }
  }
  void set_data_propagation(bool on) { data_propagation_ = on; }
  static constexpr std::size_t kMaxSymbolicValueSize = 64;

  // ---- attributes ----
  // A node's attribute read as the kind the rule expects. One of another
  // kind reads as absent, and the first such read of a rule is kept for the
  // engine, which reports it as a usage error naming the node after the rule
  // (ONNX's schema check catches most before; this covers operators without
  // a schema, such as com.microsoft's).
  struct AttributeMismatch {
    std::string name;  // empty: none
    Attribute::Kind actual = Attribute::Kind::Undefined;
    Attribute::Kind expected = Attribute::Kind::Undefined;
  };
  const Attribute* attr_of_kind(const Node& n, std::string_view name, Attribute::Kind k) {
    const Attribute* a = n.attr(name);
    if (!a || a->kind == k) return a;
    if (a->kind != Attribute::Kind::Undefined && attribute_mismatch_.name.empty())
      attribute_mismatch_ = {a->name, a->kind, k};
    return nullptr;
  }
  int64_t attr_int(const Node& n, std::string_view name, int64_t fallback) {
    const Attribute* a = attr_of_kind(n, name, Attribute::Kind::Int);
    return a ? a->i : fallback;
  }
  double attr_float(const Node& n, std::string_view name, double fallback) {
    const Attribute* a = attr_of_kind(n, name, Attribute::Kind::Float);
    return a ? a->f : fallback;
  }
  std::string attr_string(const Node& n, std::string_view name, std::string fallback = {}) {
    const Attribute* a = attr_of_kind(n, name, Attribute::Kind::String);
    return a ? a->s : fallback;
  }
  std::optional<std::vector<int64_t>> attr_ints(const Node& n, std::string_view name) {
    const Attribute* a = attr_of_kind(n, name, Attribute::Kind::Ints);
    if (!a) return std::nullopt;
    return std::vector<int64_t>(a->ints.begin(), a->ints.end());
  }
  // The kept mismatch, replaced by `next` (the engine keeps each rule's apart
  // from those of the rules of its subgraphs).
  AttributeMismatch exchange_attribute_mismatch(AttributeMismatch next) {
    std::swap(next, attribute_mismatch_);
    return next;
  }

  // ---- subgraphs (the engine infers them) ----
  void set_subgraph_inferer(SubgraphInferer* inferer) { subgraph_ = inferer; }
  // Infers `g` with its inputs typed as given; returns the output types
  // (unknown ones when no inferer is installed).
  std::vector<Type> infer_subgraph(Graph& g, const std::vector<Type>& input_types) {
    return subgraph_ ? subgraph_->infer_subgraph(g, input_types) : std::vector<Type>(g.outputs.size());
  }

 private:
  void add(Severity s, DiagnosticKind k, const Node* n, std::string message) {
    Diagnostic d;
    d.severity = s;
    d.kind = k;
    if (n) {
      d.node = n->name;
      d.op_type = n->op_type;
      d.where = place_of(n);
    }
    d.message = std::move(message);
    report_.diagnostics.push_back(std::move(d));
  }

  void conflict(const Value* v, const std::string& what) {
    const Severity s = policy_ == MergePolicy::Strict ? Severity::Error : Severity::Warning;
    add(s, DiagnosticKind::Conflict, current_, "value '" + (v ? v->name : std::string()) + "': " + what);
  }

  Shape merge_shape(const Value* v, const Shape& old, Shape inferred) {
    name_overlong(v, inferred);
    if (policy_ == MergePolicy::Override || !old.has_rank()) return inferred;
    if (policy_ == MergePolicy::Skip) return old;
    if (!inferred.has_rank()) return old;
    if (old.rank() != inferred.rank()) {
      conflict(v, "inferred rank " + std::to_string(inferred.rank()) + " " + inferred.to_string() +
                      " conflicts with existing " + old.to_string());
      return old;
    }
    Shape out = old;
    for (std::size_t i = 0; i < old.size(); ++i) out[i] = merge_dim(v, i, old[i], inferred[i]);
    return out;
  }

  // Refine/strict merge of one dim: the existing `a` unless the inferred `b`
  // is more exact (see the table at the top).
  SymbolicDim merge_dim(const Value* v, std::size_t i, const SymbolicDim& a, const SymbolicDim& b) {
    if (a == b) return a;
    // An exporter's placeholder (torch writes one name for different dims):
    // what is inferred is never worse, and unknown is safer than it.
    if (!of_this_run(a)) return b;
    if (b.is_unknown()) return a;
    if (a.is_unknown()) return b;
    const bool b_exact = over_input_symbols(b);
    if (!over_input_symbols(a)) return b_exact ? b : a;  // fresh dims give way to exact ones only
    if (!b_exact) return a;
    const std::string where = "dim " + std::to_string(i) + " of '" + (v ? v->name : std::string()) + "'";
    if (prove_ge(a.expr(), b.expr() + Expr(1)) || prove_ge(b.expr(), a.expr() + Expr(1))) {
      conflict(
          v, "inferred dim " + std::to_string(i) + " = " + b.to_string() + " conflicts with existing " + a.to_string());
      return a;
    }
    record_contract(current_, Contract::Kind::Equal, a, b, "declared " + where);
    return b;
  }

  // A dim the node determines but whose expression is too long to keep
  // becomes a fresh symbol, never silently: a warning names the node and the
  // value, and the report counts it. Facts usually make such a dim short (a
  // min/max tower that only an overrun or an empty tensor needs).
  void name_overlong(const Value* v, Shape& s) {
    if (!s.has_rank()) return;
    for (std::size_t i = 0; i < s.size(); ++i) {
      SymbolicDim& d = s.dims()[i];
      if (!d.is_symbolic() || d.expr().size() <= kMaxDimExprSize) continue;
      ++report_.undetermined_dims;
      std::string text = d.to_string();
      if (text.size() > 80) text = text.substr(0, 77) + "...";
      d = new_symbolic_dim();
      warn(current_, DiagnosticKind::Semantic,
           "dim " + std::to_string(i) + " of '" + (v ? v->name : std::string()) +
               "' is exact but too long to keep; it becomes the fresh " + d.to_string() + " (" + text +
               "). Facts the runs satisfy shorten it: add --assume or --assume-contracts");
    }
  }

  Type merge_type(const Value* v, const Type& old, Type inferred) {
    if (inferred.is_unknown()) return old;
    if (old.is_unknown() || policy_ == MergePolicy::Override) {
      if (inferred.is_tensor_like()) name_overlong(v, inferred.shape());
      return inferred;
    }
    if (old.kind() != inferred.kind()) {
      if (policy_ == MergePolicy::Skip) return old;
      conflict(v, "inferred type " + inferred.to_string() + " conflicts with existing " + old.to_string());
      return old;
    }
    if (!inferred.is_tensor_like()) return policy_ == MergePolicy::Skip ? old : (old == inferred ? old : inferred);
    DataType dtype = old.elem_type();
    if (dtype == DataType::UNDEFINED || (policy_ != MergePolicy::Skip && inferred.elem_type() != DataType::UNDEFINED &&
                                         inferred.elem_type() != dtype)) {
      if (dtype != DataType::UNDEFINED)
        conflict(v, std::string("inferred element type ") + to_string(inferred.elem_type()) +
                        " conflicts with existing " + to_string(dtype));
      // Refine and strict keep a defined dtype, as they keep a conflicting dim.
      if (dtype == DataType::UNDEFINED) dtype = inferred.elem_type();
    }
    Shape shape = merge_shape(v, old.shape(), std::move(inferred.shape()));
    return old.kind() == Type::Kind::SparseTensor ? Type::sparse_tensor(dtype, std::move(shape))
                                                  : Type::tensor(dtype, std::move(shape));
  }

  std::map<std::string, int64_t> opsets_;
  MergePolicy policy_;
  Report report_;
  AttributeMismatch attribute_mismatch_;
  const Node* current_ = nullptr;
  std::size_t current_index_ = 0;
  const std::string* current_scope_ = nullptr;
  int rule_since_version_ = 0;
  int64_t next_dim_ = 0;
  int64_t fresh_begin_ = 0;
  bool data_propagation_ = true;
  SubgraphInferer* subgraph_ = nullptr;
  std::set<std::string> input_symbols_;
  std::set<std::string> contract_keys_;
  std::map<const Value*, ElementBounds> element_bounds_;
};

}  // namespace symshape
