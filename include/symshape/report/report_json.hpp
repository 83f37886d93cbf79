// The JSON of an inference report, as `symshape infer --json` writes it: the
// run's settings and counts, every diagnostic and contract (with the node's
// place), the facts in force, the assumptions made (--assume-contracts), and
// every listed value with its type as the written file holds it.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/contracts.hpp"
#include "symshape/infer/diagnostics.hpp"
#include "symshape/infer/options.hpp"
#include "symshape/ir/graph.hpp"
#include "symshape/onnx/types_as_written.hpp"
#include "symshape/report/diagnostic_text.hpp"
#include "symshape/report/json_schemas.hpp"
#include "symshape/report/json_types.hpp"
#include "symshape/report/json_writer.hpp"
#include "symshape/report/listed_values.hpp"

namespace symshape::report {

// The lists an inference report has, as `infer --json` and the report
// page's data (report_data.hpp) write them: each a key and an array.

// "diagnostics": severity, kind, node, op_type, where (the node's place), message.
inline void json_diagnostics(JsonWriter& j, const std::vector<Diagnostic>& diagnostics) {
  j.key("diagnostics").begin_array();
  for (const Diagnostic& d : diagnostics) {
    j.begin_object(JsonWriter::Layout::Inline);
    j.key("severity").string(severity_name(d.severity)).key("kind").string(kind_name(d.kind));
    j.key("node").string(d.node).key("op_type").string(d.op_type);
    j.key("where").string(d.where).key("message").string(d.message);
    j.end_object();
  }
  j.end_array();
}

// "contracts": the readable and exact relation, its kind and sides, the node and the origin.
inline void json_contracts(JsonWriter& j, const std::vector<Contract>& contracts) {
  j.key("contracts").begin_array();
  for (const Contract& c : contracts) {
    j.begin_object(JsonWriter::Layout::Inline);
    j.key("relation").string(c.readable()).key("exact").string(c.relation());
    j.key("kind").string(contract_kind_name(c.kind));
    j.key("lhs").string(c.lhs.to_string()).key("rhs").string(c.rhs.to_string());
    j.key("node").string(c.node).key("op_type").string(c.op_type);
    j.key("where").string(c.where).key("origin").string(c.origin);
    j.end_object();
  }
  j.end_array();
}

// "facts": each fact in force and where it comes from (--assume, --assume-nonempty...).
inline void json_facts(JsonWriter& j, const std::vector<Fact>& facts) {
  j.key("facts").begin_array();
  for (const Fact& f : facts) {
    j.begin_object(JsonWriter::Layout::Inline);
    j.key("fact").string(f.text).key("source").string(f.source);
    j.end_object();
  }
  j.end_array();
}

// "assumptions" of --assume-contracts: a symbol and its value, or a fact;
// the contract assumed and its place.
inline void json_assumptions(JsonWriter& j, const std::vector<Assumption>& assumptions) {
  j.key("assumptions").begin_array();
  for (const Assumption& x : assumptions) {
    j.begin_object(JsonWriter::Layout::Inline);
    if (x.symbol.empty())
      j.key("fact").string(x.fact);
    else
      j.key("symbol").string(x.symbol).key("value").string(x.value.to_string());
    j.key("relation").string(x.from.relation()).key("where").string(x.from.where);
    j.end_object();
  }
  j.end_array();
}

// `model_path` as given (the report names it so); `policy`: the merge policy
// the run used.
inline std::string report_json(const std::string& model_path, MergePolicy policy, const Model& model,
                               const Report& report, const std::vector<Assumption>& assumptions,
                               const onnx::WrittenTypes& types) {
  using Layout = JsonWriter::Layout;
  JsonWriter j;
  j.begin_object();
  j.key("schema").string(kInferJsonSchema);
  j.key("model").string(model_path);
  j.key("policy").string(to_string(policy));
  j.key("modified").boolean(report.modified);
  j.key("errors").integer(report.errors());
  j.key("warnings").integer(report.warnings());
  json_diagnostics(j, report.diagnostics);
  json_contracts(j, report.contracts);
  json_facts(j, report.facts);
  j.key("undetermined_dims").integer(report.undetermined_dims);
  json_assumptions(j, assumptions);
  j.key("values").begin_array();
  for (const Value* v : listed_values(model, false)) {
    j.begin_object(Layout::Inline);
    j.key("name").string(v->name).key("type").string(types.of(*v).to_string());
    json_dtype_and_dims(j, types.of(*v));
    j.key("node").string(v->producer ? v->producer->name : std::string());
    j.key("op_type").string(v->producer ? v->producer->op_type : std::string());
    j.key("graph_input").boolean(v->is_graph_input).key("graph_output").boolean(v->is_graph_output);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str() + "\n";
}

}  // namespace symshape::report
