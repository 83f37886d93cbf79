// The data of the report page (`symshape report`, docs/json.md "report
// --json"), "schema": "symshape/report/1": the run's settings, symbols,
// facts, assumptions, contracts and diagnostics, every value of every graph
// (main graph, subgraphs, initializers) with its dims and bytes, the main
// graph's nodes with the subgraphs of each nested under it (values referred to
// by their index in "values"), each node's FLOPs, and the profile's totals.
// The page (web/report/) evaluates the expressions at the symbols' values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "symshape/infer/contracts.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/profile/profile.hpp"
#include "symshape/report/attribute_text.hpp"
#include "symshape/report/json_schemas.hpp"
#include "symshape/report/json_types.hpp"
#include "symshape/report/json_writer.hpp"
#include "symshape/report/listed_values.hpp"
#include "symshape/report/profile_quantities.hpp"
#include "symshape/report/report_json.hpp"

namespace symshape::report {

// What the data says beside the model, its inference report and profile.
struct ReportDataOptions {
  std::string model_path;  // as given (the page names it so)
  MergePolicy policy = MergePolicy::Refine;
  Bindings bindings;                    // --bind: the page's starting values
  std::vector<Assumption> assumptions;  // of --assume-contracts
  // The type of a main-graph value as the written model holds it
  // (onnx::WrittenTypes::of: what `show` and `infer --json` print, fresh `_dN`
  // names for unknown dims included); empty: the IR's types. Values of
  // subgraphs always have the IR's.
  std::function<Type(const Value&)> main_graph_type;
};

// The document of one model. The values are numbered first (list_graph), so
// that nodes, graphs and the outer-scope values their subgraphs read refer to
// them by index.
class ReportData {
 public:
  explicit ReportData(const Model& model, ReportDataOptions options) : model_(model), options_(std::move(options)) {
    list_graph(*model.graph);
  }

  // The free symbols of every value's type, sorted: the page's fields, and
  // what --bind may name.
  std::set<std::string> symbols() const {
    std::set<std::string> out;
    for (const Type& t : types_) collect_symbols(t, out);
    return out;
  }

  // The document, with the inference's diagnostics, contracts and facts and
  // the model's profile (profile::profile_model with the rule table `rules`,
  // whose counts also give the FLOPs of the subgraphs' nodes). Call it under
  // the facts the inference ran under (FactScope), as the profile was made.
  std::string json(const Report& report, const profile::ModelProfile& profile, RuleTable rules) {
    using Layout = JsonWriter::Layout;
    profile_ = &profile;
    count_ctx_ = profile::count_context(model_, rules);
    j_ = JsonWriter();
    JsonWriter& j = j_;
    j.begin_object();
    j.key("schema").string(kReportJsonSchema);
    j.key("model").string(options_.model_path);
    j.key("policy").string(to_string(options_.policy));
    j.key("symbols").begin_array(Layout::Inline);
    for (const std::string& s : symbols()) j.string(s);
    j.end_array();
    j.key("bindings").begin_object(Layout::Inline);
    for (const auto& [name, value] : std::map<std::string, int64_t>(options_.bindings.begin(), options_.bindings.end()))
      j.key(name).integer(value);
    j.end_object();
    j.key("facts").begin_array(Layout::Inline);
    for (const Fact& f : report.facts) j.string(f.text);
    j.end_array();
    json_assumptions(j, options_.assumptions);
    json_contracts(j, report.contracts);
    json_diagnostics(j, report.diagnostics);
    write_values();
    j.key("graph");
    write_graph(*model_.graph, "", true);
    write_totals();
    j.end_object();
    profile_ = nullptr;
    return j.str() + "\n";
  }

 private:
  // ---- numbering the values ----

  void number(const Value* v) {
    if (!v || !index_.emplace(v, values_.size()).second) return;
    values_.push_back(v);
    const bool main = model_.graph->by_name.find(v->name) == v;
    types_.push_back(main && options_.main_graph_type ? options_.main_graph_type(*v) : v->type);
  }

  // Inputs, initializers, then each node's inputs (outer-scope values of a
  // subgraph are numbered in their own graph first), outputs and subgraphs.
  void list_graph(const Graph& g) {
    for (const Value* v : g.inputs) number(v);
    for (const Tensor* t : g.initializers) number(g.by_name.find(t->name));
    for (const Node* n : g.nodes) {
      for (const Value* v : n->inputs) number(v);
      for (const Value* v : n->outputs) number(v);
      for (const Attribute& a : n->attributes)
        for (const auto& sub : a.graphs)
          if (sub) list_graph(*sub);
    }
    for (const Value* v : g.outputs) number(v);
  }

  // ---- values ----

  static const char* role(const Value& v) {
    if (v.initializer) return "initializer";
    if (v.is_graph_input) return "input";
    if (v.is_graph_output) return "output";
    return "intermediate";
  }

  void write_values() {
    using Layout = JsonWriter::Layout;
    // The profile has the bytes of the main graph's node outputs already.
    std::unordered_map<const Value*, const SymbolicDim*> profiled;
    for (const profile::NodeProfile& n : profile_->nodes)
      for (const profile::OutputProfile& o : n.outputs) profiled.emplace(o.value, &o.bytes);
    JsonWriter& j = j_;
    j.key("values").begin_array();
    for (std::size_t i = 0; i < values_.size(); ++i) {
      const Value& v = *values_[i];
      const Type& t = types_[i];
      j.begin_object(Layout::Inline);
      j.key("name").string(v.name);
      json_dtype_and_dims(j, t);
      j.key("bytes");
      const auto it = profiled.find(&v);
      json_dim_value(j, it != profiled.end() ? *it->second : profile::value_bytes(&v));
      j.key("role").string(role(v));
      j.key("parameter").boolean(profile::holds_weights(&v));
      j.end_object();
    }
    j.end_array();
  }

  // ---- graphs and nodes ----

  void value_list(const char* key, const std::vector<Value*>& values) {
    j_.key(key).begin_array(JsonWriter::Layout::Inline);
    for (const Value* v : values)
      if (v) j_.integer(index_.at(v));
    j_.end_array();
  }
  template <class List>
  void optional_value_list(const char* key, const List& values) {
    j_.key(key).begin_array(JsonWriter::Layout::Inline);
    for (const Value* v : values) v ? j_.integer(index_.at(v)) : j_.null();
    j_.end_array();
  }

  // `scope`: " in subgraph 'body' of node #3 'loop' (Loop)" for a subgraph's
  // nodes, as diagnostics place them; empty in the main graph.
  void write_graph(const Graph& g, const std::string& scope, bool main) {
    JsonWriter& j = j_;
    j.begin_object();
    j.key("name").string(g.name);
    value_list("inputs", g.inputs);
    value_list("outputs", g.outputs);
    j.key("initializers").begin_array(JsonWriter::Layout::Inline);
    for (const Tensor* t : g.initializers)
      if (const Value* v = g.by_name.find(t->name)) j.integer(index_.at(v));
    j.end_array();
    j.key("nodes").begin_array();
    std::size_t i = 0;
    for (const Node* n : g.nodes) {
      if (main) {
        write_node(*n, i, scope, profile_->nodes[i]);
      } else {
        std::unordered_set<const Value*> params;
        write_node(*n, i, scope, profile::profile_node(*n, count_ctx_, params));
      }
      ++i;
    }
    j.end_array();
    j.end_object();
  }

  void write_node(const Node& n, std::size_t index, const std::string& scope, const profile::NodeProfile& p) {
    using Layout = JsonWriter::Layout;
    JsonWriter& j = j_;
    bool has_graphs = false;
    for (const Attribute& a : n.attributes) has_graphs = has_graphs || !a.graphs.empty();
    j.begin_object(has_graphs ? Layout::Pretty : Layout::Inline);
    j.key("name").string(n.name).key("op_type").string(n.op_type).key("domain").string(n.domain);
    optional_value_list("inputs", n.inputs);
    optional_value_list("outputs", n.outputs);
    j.key("attributes").begin_array(Layout::Inline);
    for (const Attribute& a : n.attributes) {
      j.begin_object(Layout::Inline).key("name").string(a.name).key("text").string(attribute_text(a));
      j.end_object();
    }
    j.end_array();
    // As the engine places a node in a diagnostic (infer/diagnostics_recorder.hpp).
    const std::string where = "node #" + std::to_string(index) + (n.name.empty() ? "" : " '" + n.name + "'") + " (" +
                              qualified_op(n.domain, n.op_type) + ")" + scope;
    j.key("where").string(where);
    j.key("flops");
    json_dim_value(j, p.flops.kind == profile::FlopKind::NotCounted ? SymbolicDim() : p.flops.flops);
    j.key("flops_note").string(p.flops.note);
    j.key("params");
    json_dim_value(j, p.params);
    j.key("subgraphs").begin_array();
    for (const Attribute& a : n.attributes)
      for (const auto& sub : a.graphs) {
        if (!sub) continue;
        j.begin_object().key("attribute").string(a.name).key("graph");
        write_graph(*sub, " in subgraph '" + sub->name + "' of " + where, false);
        j.end_object();
      }
    j.end_array();
    j.end_object();
  }

  // ---- totals ----

  void write_totals() {
    using Layout = JsonWriter::Layout;
    JsonWriter& j = j_;
    j.key("totals").begin_object();
    for (const TotalRow& t : total_rows(*profile_)) {
      j.key(t.name);
      json_dim_value(j, *t.q);
    }
    j.key("output_bytes");  // every node output of the main graph but a Constant's weights
    json_dim_value(j, profile_->activation_bytes);
    j.key("flops_not_counted").integer(profile_->not_counted);
    j.key("notes").begin_array(Layout::Inline);
    for (const std::string& note : profile_->notes) j.string(note);
    j.end_array();
    // The peak is the max of these: the page names the node where it occurs.
    j.key("peak_candidates").begin_array(Layout::Inline);
    for (const profile::PeakCandidate& c : profile_->peak_candidates) {
      j.begin_object(Layout::Inline).key("node").integer(c.step).key("bytes");
      json_dim_value(j, SymbolicDim(c.bytes));
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }

  const Model& model_;
  const ReportDataOptions options_;
  const profile::ModelProfile* profile_ = nullptr;  // while json() writes
  CountContext count_ctx_;
  std::unordered_map<const Value*, std::size_t> index_;
  std::vector<const Value*> values_;
  std::vector<Type> types_;  // of values_, as the data writes them
  JsonWriter j_;
};

// The document of an inferred `model` in one call (ReportData).
inline std::string report_data_json(const Model& model, const Report& report, const profile::ModelProfile& profile,
                                    RuleTable rules, const ReportDataOptions& options) {
  return ReportData(model, options).json(report, profile, rules);
}

}  // namespace symshape::report
