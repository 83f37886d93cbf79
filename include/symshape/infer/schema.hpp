// Operator schemas as ONNX's checker uses them: how many inputs and outputs a
// node of an (operator, since_version) takes, which of them may be omitted, and
// its attributes with their kinds. The engine checks every node against its
// schema before the rule runs, so a rule never sees Add with three inputs or a
// 'perm' given as floats. The table of ONNX's schemas is generated into
// ops/schemas.hpp (its rows: infer/schema_table.hpp); an operator version
// not in it is not checked.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <string>
#include <string_view>

#include "symshape/infer/context.hpp"
#include "symshape/infer/schema_table.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape {

namespace schema_detail {

inline std::string plural(int n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

inline std::string title(const OperatorSchema& s) {
  return std::string(s.op_type) + "-" + std::to_string(s.since_version);
}

// Input and output counts and omitted required ones; false after an error.
// (An array, not the node's two lists: they are SmallVectors of different
// sizes, and a template made two copies of this.)
enum class CountOf { Inputs, Outputs };
inline bool check_count(Context& ctx, const Node& n, const OperatorSchema& s, const Value* const* values,
                        std::size_t size, CountOf of) {
  const bool inputs = of == CountOf::Inputs;
  const int count = static_cast<int>(size);
  const int min_count = inputs ? s.min_inputs : s.min_outputs;
  const int max_count = inputs ? s.max_inputs : s.max_outputs;
  const char* word = inputs ? "input" : "output";
  if (count > max_count) {
    ctx.usage_error(
        n, {title(s), (inputs ? " takes at most " : " produces at most "), plural(max_count, word), ", got ", count});
    return false;
  }
  for (int i = 0; i < std::max(count, min_count); ++i) {
    if (i < count && (values[i] != nullptr || option_at(inputs ? s.inputs : s.outputs, i) != 'S')) continue;
    ctx.usage_error(
        n, {"missing required ", word, " ", i, " (", title(s), " needs at least ", plural(min_count, word), ")"});
    return false;
  }
  return true;
}

// Unknown attributes, attributes of another kind, missing required ones.
inline bool check_attributes(Context& ctx, const Node& n, const OperatorSchema& s, const SchemaTable& table) {
  bool ok = true;
  for (const Attribute& a : n.attributes) {
    const SchemaAttribute* known = table.attribute(s, a.name);
    if (!known) {
      ctx.usage_error(n, {"unknown attribute '", a.name, "' for ", title(s)});
      ok = false;
    } else if (a.ref_attr_name.empty() && a.kind != Attribute::Kind::Undefined && a.kind != known->kind) {
      // (Undefined: an unbound function attribute reference, which reads as absent.)
      ctx.usage_error(n, {"attribute '", a.name, "' is ", to_string(a.kind), ", expected ", to_string(known->kind)});
      ok = false;
    }
  }
  for (int i = 0; i < s.attribute_count; ++i) {
    const SchemaAttribute& want = table.attributes[s.first_attribute + i];
    if (!want.required) continue;  // (most are optional: no search of the node's attributes)
    const Attribute* given = n.attr(want.name);
    if (!given || given->kind == Attribute::Kind::Undefined) {
      ctx.usage_error(n, {"missing required attribute '", want.name, "' (", title(s), ")"});
      ok = false;
    }
  }
  return ok;
}

}  // namespace schema_detail

// True when the node fits its schema; false after usage errors naming it.
inline bool check_against_schema(Context& ctx, const Node& n, const OperatorSchema& s, const SchemaTable& table) {
  using schema_detail::CountOf;
  const bool counts_ok = schema_detail::check_count(ctx, n, s, n.inputs.data(), n.inputs.size(), CountOf::Inputs) &&
                         schema_detail::check_count(ctx, n, s, n.outputs.data(), n.outputs.size(), CountOf::Outputs);
  const bool attributes_ok = schema_detail::check_attributes(ctx, n, s, table);
  return counts_ok && attributes_ok;
}

}  // namespace symshape
