// Cast (to: an element type; a type name string at opset 1), CastLike (the
// element type of the second input) and Identity (any type passes through).
// Integer values propagate through casts between integer types and Identity.
#pragma once

#include <cstdint>
#include <string>

#include "symshape/ops/shape_ops.hpp"

namespace symshape::ops {

namespace cast_detail {

inline DataType type_from_name(const std::string& s) {
  static const char* const names[] = {"UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",  "INT16",
                                      "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16", "DOUBLE",
                                      "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
  for (int32_t i = 1; i < static_cast<int32_t>(sizeof(names) / sizeof(names[0])); ++i)
    if (s == names[i]) return static_cast<DataType>(i);
  return DataType::UNDEFINED;
}

inline void cast_to(Context& ctx, Node& n, DataType to) {
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), to);
  const DataType from = dtype_of(n.input(0));
  if (is_integer_type(from) && from != DataType::BOOL && is_integer_type(to) && to != DataType::BOOL)
    tensor_detail::copy_value(ctx, n);
}

}  // namespace cast_detail

inline void infer_cast(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* a = require_attr(ctx, n, "to");
  if (!a) return;
  DataType to = DataType::UNDEFINED;
  if (a->kind == Attribute::Kind::String) {
    to = cast_detail::type_from_name(a->s);
  } else if (a->i > 0 && a->i <= INT32_MAX && is_valid_data_type(static_cast<int32_t>(a->i))) {
    to = static_cast<DataType>(a->i);
  }
  if (to == DataType::UNDEFINED) {
    ctx.record_error(n, "invalid target type in attribute 'to'");
    return;
  }
  cast_detail::cast_to(ctx, n, to);
}

inline void infer_cast_like(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  cast_detail::cast_to(ctx, n, dtype_of(n.input(1)));
}

inline void infer_identity(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n, 0, 0);
  tensor_detail::copy_value(ctx, n);
}

inline constexpr auto kCastRules = make_rules({
    RuleEntry{"", "Cast", 1, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 6, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 9, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 13, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 19, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 21, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 23, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 24, &infer_cast, "infer_cast"},
    RuleEntry{"", "Cast", 25, &infer_cast, "infer_cast"},
    RuleEntry{"", "CastLike", 15, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "CastLike", 19, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "CastLike", 21, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "CastLike", 23, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "CastLike", 24, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "CastLike", 25, &infer_cast_like, "infer_cast_like"},
    RuleEntry{"", "Identity", 1, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 13, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 14, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 16, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 19, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 21, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 23, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 24, &infer_identity, "infer_identity"},
    RuleEntry{"", "Identity", 25, &infer_identity, "infer_identity"},
});

}  // namespace symshape::ops
