// The JSON of a profile, as `symshape profile --json` writes it and the
// Python package's profile returns it: {model, bindings, totals, nodes[,
// groups]}, each quantity {"expr": ..., "value": ...} (value when the
// bindings make it concrete).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "symshape/expr/evaluate.hpp"
#include "symshape/profile/profile.hpp"
#include "symshape/report/json_schemas.hpp"
#include "symshape/report/json_types.hpp"
#include "symshape/report/json_writer.hpp"
#include "symshape/report/profile_quantities.hpp"

namespace symshape::report {

namespace detail {

// "KEY": {"expr": ..., "value": ...} (value when the bindings make it concrete).
inline void json_quantity(JsonWriter& j, const char* key, const SymbolicDim& q, const Bindings& b) {
  j.key(key).begin_object(JsonWriter::Layout::Inline);
  j.key("expr").string(q.to_string());
  if (const std::optional<int64_t> v = value_of(q, b)) j.key("value").integer(*v);
  j.end_object();
}

inline void json_node(JsonWriter& j, const profile::NodeProfile& n, const Bindings& b) {
  j.begin_object();
  j.key("name").string(n.name).key("op_type").string(n.op_type).key("domain").string(n.domain);
  json_quantity(j, "flops", n.flops.flops, b);
  if (!n.flops.note.empty()) j.key("flops_note").string(n.flops.note);
  j.key("outputs").begin_array(JsonWriter::Layout::Inline);
  for (const profile::OutputProfile& o : n.outputs) {
    j.begin_object().key("name").string(o.name);
    json_quantity(j, "bytes", o.bytes, b);
    j.key("dtype").string(to_string(o.dtype));
    if (o.value) json_dims(j, o.value->type);
    if (o.parameter) j.key("parameter").boolean(true);  // a Constant's weights: not an activation
    j.end_object();
  }
  j.end_array();
  json_quantity(j, "params", n.params, b);
  j.end_object();
}

// By scope, each group also names the scope holding it ("parent", "" at the
// top) and its depth; a scope's quantities include its nested scopes'.
inline void json_groups(JsonWriter& j, const std::vector<profile::GroupRow>& groups, profile::GroupBy by,
                        const Bindings& b) {
  j.key("groups").begin_array();
  for (const profile::GroupRow& g : groups) {
    j.begin_object(JsonWriter::Layout::Inline).key("key").string(g.key).key("nodes").integer(g.nodes);
    if (by == profile::GroupBy::Scope) j.key("parent").string(g.parent).key("depth").integer(g.depth);
    j.key("not_counted").integer(g.not_counted);
    json_quantity(j, "flops", g.flops, b);
    json_quantity(j, "output_bytes", g.output_bytes, b);
    json_quantity(j, "params", g.params, b);
    j.end_object();
  }
  j.end_array();
}

}  // namespace detail

// What the JSON says beside the profile: the model as given, the bindings
// the quantities are evaluated at, and the grouping of the "groups" member
// (none without), and a sweep: the totals at each value of one symbol.
struct ProfileJsonOptions {
  std::string model_path;
  Bindings bindings;
  std::optional<profile::GroupBy> by;
  std::string sweep_symbol;           // none when empty
  std::vector<int64_t> sweep_values;  // each with the bindings
};

inline std::string profile_json(const profile::ModelProfile& p, const ProfileJsonOptions& a) {
  JsonWriter j;
  j.begin_object();
  j.key("schema").string(kProfileJsonSchema);
  j.key("model").string(a.model_path);
  j.key("bindings").begin_object(JsonWriter::Layout::Inline);
  const std::map<std::string, int64_t> sorted(a.bindings.begin(), a.bindings.end());
  for (const auto& [name, value] : sorted) j.key(name).integer(value);
  j.end_object();
  j.key("totals").begin_object();
  for (const TotalRow& t : total_rows(p)) detail::json_quantity(j, t.name, *t.q, a.bindings);
  j.key("flops_not_counted").integer(p.not_counted);
  j.key("notes").begin_array(JsonWriter::Layout::Inline);
  for (const std::string& note : p.notes) j.string(note);
  j.end_array();
  j.end_object();
  j.key("nodes").begin_array();
  for (const profile::NodeProfile& n : p.nodes) detail::json_node(j, n, a.bindings);
  j.end_array();
  if (a.by) detail::json_groups(j, profile::group_profile(p, *a.by), *a.by, a.bindings);
  if (!a.sweep_symbol.empty()) {
    j.key("sweep").begin_object();
    j.key("symbol").string(a.sweep_symbol);
    j.key("points").begin_array();
    for (int64_t v : a.sweep_values) {
      Bindings b = a.bindings;
      b[a.sweep_symbol] = v;
      j.begin_object(JsonWriter::Layout::Inline);
      j.key(a.sweep_symbol).integer(v);
      for (const TotalRow& t : total_rows(p)) {
        j.key(t.name).integer_or_null(value_of(*t.q, b));
      }
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_object();
  return j.str() + "\n";
}

}  // namespace symshape::report
