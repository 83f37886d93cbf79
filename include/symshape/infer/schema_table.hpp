// The rows of the operator schema table (generated into ops/schemas.hpp): an
// (operator, since_version)'s input and output counts, its formal inputs'
// options and names, and its attributes. Apart from the checks
// (infer/schema.hpp) so that Context can name a rule's inputs
// (Context::inputs).
#pragma once

#include <climits>
#include <cstddef>
#include <string_view>

#include "symshape/infer/versioned_lookup.hpp"
#include "symshape/ir/graph.hpp"

namespace symshape {

struct SchemaAttribute {
  std::string_view name;
  Attribute::Kind kind = Attribute::Kind::Undefined;
  bool required = false;
};

inline constexpr int kUnbounded = INT_MAX;

struct OperatorSchema {
  std::string_view domain;  // "" is ai.onnx
  std::string_view op_type;
  int since_version = 1;
  int min_inputs = 0, max_inputs = 0, min_outputs = 0, max_outputs = 0;
  // One letter per formal parameter: S single (required), O optional,
  // V variadic (repeats for every later position).
  std::string_view inputs, outputs;
  // The formal inputs' names as ONNX's schema gives them, one per letter of
  // `inputs`, separated by spaces ("X W B").
  std::string_view input_names;
  int first_attribute = 0, attribute_count = 0;  // a range of SchemaTable::attributes

  // The position of the formal input `name` (a variadic one's first
  // position); -1 when the schema has none of that name.
  int input_position(std::string_view name) const {
    if (name.empty()) return -1;
    std::size_t at = 0;
    for (int position = 0; at < input_names.size(); ++position) {
      std::size_t end = input_names.find(' ', at);
      if (end == std::string_view::npos) end = input_names.size();
      if (input_names.substr(at, end - at) == name) return position;
      at = end + 1;
    }
    return -1;
  }
};

// The rows sorted by (domain, op_type, since_version), as pointers and lengths.
struct SchemaTable {
  const OperatorSchema* rows = nullptr;
  std::size_t size = 0;
  const SchemaAttribute* attributes = nullptr;
  std::size_t attribute_size = 0;

  constexpr SchemaTable() = default;
  template <std::size_t N, std::size_t M>
  constexpr SchemaTable(const OperatorSchema (&r)[N], const SchemaAttribute (&a)[M])
      : rows(r), size(N), attributes(a), attribute_size(M) {}

  // The schema of exactly that version; nullptr when the table has none.
  const OperatorSchema* find(std::string_view domain, std::string_view op_type, int since_version) const {
    return exact_version(rows, size, canonical_domain(domain), op_type, since_version);
  }
  // The newest schema with since_version <= version; nullptr when none.
  const OperatorSchema* newest(std::string_view domain, std::string_view op_type, int version) const {
    return newest_at(rows, size, canonical_domain(domain), op_type, version);
  }
  const SchemaAttribute* attribute(const OperatorSchema& s, std::string_view name) const {
    for (int i = 0; i < s.attribute_count; ++i)
      if (attributes[s.first_attribute + i].name == name) return &attributes[s.first_attribute + i];
    return nullptr;
  }
};

namespace schema_detail {

// The option letter of position i ('V' repeats a trailing variadic parameter).
inline char option_at(std::string_view formals, std::size_t i) {
  if (i < formals.size()) return formals[i];
  return !formals.empty() && formals.back() == 'V' ? 'V' : 'O';
}

}  // namespace schema_detail

}  // namespace symshape
