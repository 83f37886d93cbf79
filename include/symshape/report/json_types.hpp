// Types in the JSON documents: a value's "dtype" and "dims" (docs/json.md).
#pragma once

#include "symshape/report/json_writer.hpp"
#include "symshape/types.hpp"

namespace symshape::report {

// A dim or a quantity for scripts: an integer, an expression's text, or null
// when unknown.
inline void json_dim_value(JsonWriter& j, const SymbolicDim& d) {
  if (d.is_int())
    j.integer(d.value());
  else if (d.is_known())
    j.string(d.to_string());
  else
    j.null();
}

// A type's element type and dims for scripts: "dtype" ("float"; null for
// what is no tensor) and "dims" (integers, expressions as strings, null for an
// unknown dim; null for an unknown rank or what is no tensor).
inline void json_dims(JsonWriter& j, const Type& t) {
  j.key("dims");
  if (!t.is_tensor_like() || !t.shape().has_rank()) {
    j.null();
    return;
  }
  j.begin_array(JsonWriter::Layout::Inline);
  for (const SymbolicDim& d : t.shape().dims()) json_dim_value(j, d);
  j.end_array();
}

inline void json_dtype_and_dims(JsonWriter& j, const Type& t) {
  j.key("dtype");
  if (t.is_tensor_like())
    j.string(to_string(t.elem_type()));
  else
    j.null();
  json_dims(j, t);
}

}  // namespace symshape::report
