// The inference context: merge policy, diagnostics, contracts, fresh dims and
// symbolic values (the last two jobs in the headers of its bases). Rules call set_shape / set_dtype / set_type on their
// outputs and report problems with usage_error (malformed model) or record_error (semantic; severity per policy). How
// an inferred type merges with the one a value already has (declared in the file, or inferred before):
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

#include <array>
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
#include "symshape/infer/diagnostics_recorder.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/infer/schema_table.hpp"
#include "symshape/infer/value_store.hpp"
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

// What a rule works with: the model's opsets, the merging of inferred types
// under the policy (below), fresh dims, attributes read by kind and subgraph
// inference; and, from its bases, diagnostics and contracts
// (infer/diagnostics_recorder.hpp) and the known values of small tensors
// (infer/value_store.hpp).
class Context : public DiagnosticsRecorder, public ValueStore {
 public:
  explicit Context(std::map<std::string, int64_t> opset_imports, MergePolicy policy = MergePolicy::Refine)
      : DiagnosticsRecorder(policy), opsets_(normalize_opsets(std::move(opset_imports))) {}

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
  bool set_type(Value* v, Type inferred) { return v && merge_type(v, std::move(inferred)); }
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

  // The since_version of the rule the engine runs for the current node (the
  // version of the operator it chose at the model's opset).
  void set_rule_since_version(int v) { rule_since_version_ = v; }
  int rule_since_version() const { return rule_since_version_; }

  // ---- inputs by name ----
  // The inputs of n that its schema names, in the order asked:
  //   auto [x, w, b] = ctx.inputs(n, "X", "W", "B");
  //   if (!x) return;
  // Each name is a formal input of the operator's ONNX schema at the rule's
  // since_version (a variadic one gives its first value); an optional input
  // that is absent is nullptr. A required input that is absent is a usage
  // error naming it; a name the schema does not have, or an operator without
  // a schema (com.microsoft's, custom ones), is an error naming the rule's
  // mistake. After any error every value is nullptr, so testing a required
  // input tells whether to go on.
  template <class... Names>
  std::array<const Value*, sizeof...(Names)> inputs(const Node& n, Names... names) {
    static_assert(sizeof...(Names) > 0, "name at least one input");
    const std::array<std::string_view, sizeof...(Names)> wanted{std::string_view(names)...};
    std::array<Value*, sizeof...(Names)> found{};
    std::array<const Value*, sizeof...(Names)> values{};  // all null after an error
    if (inputs_by_name(n, wanted.data(), wanted.size(), found.data()))
      for (std::size_t k = 0; k < found.size(); ++k) values[k] = found[k];
    return values;
  }

  // The schema whose formal inputs name the inputs of the node whose rule
  // runs (the engine sets it around each rule, and restores the outer one
  // after a rule that infers subgraphs): the ONNX schema of the rule's
  // version or, for a version newer than the table, the newest it has.
  struct RuleSchema {
    const Node* node = nullptr;
    const OperatorSchema* schema = nullptr;
    int rule_since_version = 0;
  };
  RuleSchema exchange_rule_schema(RuleSchema next) {
    std::swap(next, rule_schema_);
    return next;
  }

  // Context::inputs for a count known at run time (and its one copy out of
  // line): the values of `count` names into `out`; false after an error.
  bool inputs_by_name(const Node& n, const std::string_view* names, std::size_t count, Value** out) {
    const OperatorSchema* s = rule_schema_.node == &n ? rule_schema_.schema : nullptr;
    if (!s) {
      if (rule_schema_.node != &n)
        usage_error(n,
                    "inputs by name: this node's rule is not the one running (Context::inputs reads the inputs "
                    "of the node whose rule runs)");
      else
        usage_error(n, {"inputs by name: ", domain_title(n.domain), "::", n.op_type,
                        " has no ONNX schema in symshape's table, so its inputs have no names; its rule reads them "
                        "by position (n.input(i))"});
      return false;
    }
    for (std::size_t k = 0; k < count; ++k) {
      const int position = s->input_position(names[k]);
      if (position < 0) {
        // A rule newer than the table reads the names of the newest schema it has.
        const std::string newest =
            s->since_version == rule_schema_.rule_since_version
                ? std::string()
                : ", the newest schema symshape has for version " + std::to_string(rule_schema_.rule_since_version);
        usage_error(n, {"inputs by name: '", names[k], "' is not an input of ", s->op_type, "-", s->since_version,
                        " (its inputs: ", s->input_names, newest, ")"});
        return false;
      }
      out[k] = n.input(static_cast<std::size_t>(position));
      if (out[k]) continue;
      // A variadic input is required up to the schema's minimum count.
      const char option = schema_detail::option_at(s->inputs, static_cast<std::size_t>(position));
      if (option == 'S' || (option == 'V' && position < s->min_inputs)) {
        usage_error(n, {"missing required input '", names[k], "' (input ", position, " of ", s->op_type, "-",
                        s->since_version, ")"});
        return false;
      }
    }
    return true;
  }

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
  // The reads are Node's (one of another kind reads as absent); Context
  // keeps the first mismatch.
  int64_t attr_int(const Node& n, std::string_view name, int64_t fallback) {
    note_kind(n, name, Attribute::Kind::Int);
    return n.attr_int(name, fallback);
  }
  double attr_float(const Node& n, std::string_view name, double fallback) {
    note_kind(n, name, Attribute::Kind::Float);
    return n.attr_float(name, fallback);
  }
  std::string attr_string(const Node& n, std::string_view name, std::string fallback = {}) {
    note_kind(n, name, Attribute::Kind::String);
    return n.attr_string(name, std::move(fallback));
  }
  std::optional<std::vector<int64_t>> attr_ints(const Node& n, std::string_view name) {
    note_kind(n, name, Attribute::Kind::Ints);
    return n.attr_ints(name);
  }
  // Swaps the kept mismatch with `other` (the engine keeps each rule's apart
  // from those of the rules of its subgraphs).
  void swap_attribute_mismatch(AttributeMismatch& other) {
    if (other.name.empty() && attribute_mismatch_.name.empty()) return;  // the usual case: no string moved
    std::swap(other, attribute_mismatch_);
  }

  // ---- subgraphs (the engine infers them) ----
  void set_subgraph_inferer(SubgraphInferer* inferer) { subgraph_ = inferer; }
  // Infers `g` with its inputs typed as given; returns the output types
  // (unknown ones when no inferer is installed).
  std::vector<Type> infer_subgraph(Graph& g, const std::vector<Type>& input_types) {
    return subgraph_ ? subgraph_->infer_subgraph(g, input_types) : std::vector<Type>(g.outputs.size());
  }

 private:
  void note_kind(const Node& n, std::string_view name, Attribute::Kind expected) {
    const Attribute* a = n.attr(name);
    if (a && a->kind != expected && a->kind != Attribute::Kind::Undefined && attribute_mismatch_.name.empty())
      attribute_mismatch_ = {a->name, a->kind, expected};
  }
  void conflict(const Value* v, const std::string& what) {
    const Severity s = policy_ == MergePolicy::Strict ? Severity::Error : Severity::Warning;
    add(s, DiagnosticKind::Conflict, current_node(), "value '" + (v ? v->name : std::string()) + "': " + what);
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
    record_contract(current_node(), Contract::Kind::Equal, a, b, "declared " + where);
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
      warn(current_node(), DiagnosticKind::Semantic,
           "dim " + std::to_string(i) + " of '" + (v ? v->name : std::string()) +
               "' is exact but too long to keep; it becomes the fresh " + d.to_string() + " (" + text +
               "). Facts the runs satisfy shorten it: add --assume or --assume-contracts");
    }
  }

  // Merges `inferred` into v->type under the merge policy, in place (the
  // type is moved once); returns whether v->type changed.
  bool merge_type(Value* v, Type&& inferred) {
    const Type& old = v->type;
    if (inferred.is_unknown()) return false;
    if (old.is_unknown() || policy_ == MergePolicy::Override) {
      if (inferred.is_tensor_like()) name_overlong(v, inferred.shape());
      return replace_type(v, std::move(inferred));
    }
    if (old.kind() != inferred.kind()) {
      if (policy_ == MergePolicy::Skip) return false;
      conflict(v, "inferred type " + inferred.to_string() + " conflicts with existing " + old.to_string());
      return false;
    }
    if (!inferred.is_tensor_like()) return policy_ != MergePolicy::Skip && replace_type(v, std::move(inferred));
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
    return replace_type(v, old.kind() == Type::Kind::SparseTensor ? Type::sparse_tensor(dtype, std::move(shape))
                                                                  : Type::tensor(dtype, std::move(shape)));
  }
  bool replace_type(Value* v, Type&& t) {
    if (t == v->type) return false;
    v->type = std::move(t);
    report_.modified = true;
    return true;
  }

  std::map<std::string, int64_t> opsets_;
  RuleSchema rule_schema_;
  AttributeMismatch attribute_mismatch_;
  int rule_since_version_ = 0;
  int64_t next_dim_ = 0;
  int64_t fresh_begin_ = 0;
  SubgraphInferer* subgraph_ = nullptr;
  std::set<std::string> input_symbols_;
};

}  // namespace symshape
