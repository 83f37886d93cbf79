// Cast (to: an element type; a type name string at opset 1) and CastLike
// (the element type of the second input). Integer values propagate through
// casts between integer types (concrete values only when they fit the
// target type), and into float types when the target type holds them
// exactly (integral floats are tracked; see common/tensor_values.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"

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
  // Integral float values (common/tensor_values.hpp) cast to integers exactly.
  if (!(is_integer_type(from) && from != DataType::BOOL) && !is_float_type(from)) return;
  auto v = ctx.symbolic_value(n.input(0));
  if (!v) return;
  if (to == DataType::BOOL) {
    // Non-zero is true.
    std::vector<SymbolicDim> out;
    for (const SymbolicDim& d : *v) {
      if (!d.is_int()) return;
      out.push_back(d.value() != 0 ? 1 : 0);
    }
    ctx.set_symbolic_value(n.output(0), std::move(out));
    return;
  }
  int64_t lo = 0, hi = 0;  // the range of concrete values kept
  bool symbolic_ok = false;  // dims (non-negative, below 2^31) fit the target
  switch (to) {
    case DataType::INT64:
      lo = INT64_MIN, hi = INT64_MAX, symbolic_ok = true;
      break;
    case DataType::UINT64:
      lo = 0, hi = INT64_MAX, symbolic_ok = true;
      break;
    case DataType::INT32:
      lo = INT32_MIN, hi = INT32_MAX, symbolic_ok = true;
      break;
    case DataType::UINT32:
      lo = 0, hi = UINT32_MAX, symbolic_ok = true;
      break;
    case DataType::INT16:
      lo = INT16_MIN, hi = INT16_MAX;
      break;
    case DataType::UINT16:
      lo = 0, hi = UINT16_MAX;
      break;
    case DataType::INT8:
      lo = INT8_MIN, hi = INT8_MAX;
      break;
    case DataType::UINT8:
      lo = 0, hi = UINT8_MAX;
      break;
    default:
      if (!is_float_type(to)) return;
      hi = exact_integer_limit(to), lo = -hi;
  }
  for (const SymbolicDim& d : *v) {
    if (d.is_int() ? (d.value() < lo || d.value() > hi) : !symbolic_ok) return;
  }
  ctx.set_symbolic_value(n.output(0), *v);
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
  if (to == DataType::UNDEFINED) return ctx.record_error(n, "invalid target type in attribute 'to'");
  cast_detail::cast_to(ctx, n, to);
}
SYMSHAPE_RULES(infer_cast, ai_onnx("Cast", 1, 6, 9, 13, 19, 21, 23, 24, 25));

inline void infer_cast_like(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  cast_detail::cast_to(ctx, n, dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_cast_like, ai_onnx("CastLike", 15, 19, 21, 23, 24, 25));

inline constexpr auto kCastRules = family_rules<infer_cast_rules, infer_cast_like_rules>("symshape/ops/cast.hpp");

}  // namespace symshape::ops
