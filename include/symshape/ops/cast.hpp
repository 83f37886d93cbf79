// Cast (to: an element type; a type name string at opset 1) and CastLike
// (the element type of the second input). Integer values propagate through
// casts between integer types (concrete values only when they fit the
// target type), and into float types when the target type holds them
// exactly (integral floats are tracked; see common/tensor_values.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace cast_detail {

// The element type named `s` (opset 1 spells the target as a string).
inline Maybe<DataType> type_from_name(const std::string& s) {
  static const char* const names[] = {"UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",  "INT16",
                                      "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16", "DOUBLE",
                                      "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
  for (int32_t i = 1; i < static_cast<int32_t>(sizeof(names) / sizeof(names[0])); ++i)
    if (s == names[i]) return static_cast<DataType>(i);
  return std::nullopt;
}

// The `to` attribute as an element type; nullopt after the error when it is
// missing or names no element type.
inline Maybe<DataType> target_type(Context& ctx, const Node& n) {
  const Attribute* a = require_attr(ctx, n, "to");
  if (!a) return std::nullopt;
  auto to = a->kind == Attribute::Kind::String ? type_from_name(a->s) : element_type_from_code(a->i);
  if (!to) ctx.record_error(n, "invalid target type in attribute 'to'");
  return to;
}

// The integer values a cast to `to` keeps: concrete values in [lo, hi], and
// symbolic dims (non-negative, below 2^31) when `symbolic_ok`.
struct KeptRange {
  int64_t lo = 0, hi = 0;
  bool symbolic_ok = false;
};
// nullopt when `to` keeps no values (neither an integer nor a float type).
inline Maybe<KeptRange> kept_range(DataType to) {
  switch (to) {
    case DataType::INT64:
      return KeptRange{INT64_MIN, INT64_MAX, true};
    case DataType::UINT64:
      return KeptRange{0, INT64_MAX, true};
    case DataType::INT32:
      return KeptRange{INT32_MIN, INT32_MAX, true};
    case DataType::UINT32:
      return KeptRange{0, UINT32_MAX, true};
    case DataType::INT16:
      return KeptRange{INT16_MIN, INT16_MAX, false};
    case DataType::UINT16:
      return KeptRange{0, UINT16_MAX, false};
    case DataType::INT8:
      return KeptRange{INT8_MIN, INT8_MAX, false};
    case DataType::UINT8:
      return KeptRange{0, UINT8_MAX, false};
    default:
      if (!is_float_type(to)) return std::nullopt;
      return KeptRange{-exact_integer_limit(to), exact_integer_limit(to), false};
  }
}

// The values after the cast; nullopt when one of them does not survive it
// (non-zero is true for BOOL, which needs concrete values).
inline std::optional<Dims> cast_values(const Dims& v, DataType to) {
  if (to == DataType::BOOL) {
    Dims out;
    for (const SymbolicDim& d : v) {
      if (!d.is_int()) return std::nullopt;
      out.push_back(d.value() != 0 ? 1 : 0);
    }
    return out;
  }
  auto range = kept_range(to);
  if (!range) return std::nullopt;
  // A symbolic value is taken to be below 2^24 (FLOAT) or 2^53 (DOUBLE), as
  // onnxruntime's symbolic shape inference takes it: torch casts sizes to
  // float for positions (arange(past, past+seq, dtype=float)), grids and
  // scales. FLOAT16 and BFLOAT16 keep only integers (2^11, 2^8 are too small
  // for dims).
  const auto symbolic_kept = [&](const SymbolicDim& d) {
    return d.is_known() && (range->symbolic_ok || to == DataType::DOUBLE || to == DataType::FLOAT);
  };
  for (const SymbolicDim& d : v) {
    if (d.is_int() ? (d.value() < range->lo || d.value() > range->hi) : !symbolic_kept(d)) return std::nullopt;
  }
  return v;
}

// Fractional float values: kept by a cast to FLOAT or DOUBLE, truncated
// toward zero by a cast to INT64 or INT32.
inline void cast_fractions(Context& ctx, Node& n, DataType from, DataType to) {
  auto r = ctx.rational_value(n.input(0));
  if (!is_float_type(from) || !r || r->den == 1) return;
  if (to == DataType::FLOAT || to == DataType::DOUBLE) return ctx.set_rational_value(n.output(0), *r);
  if (to != DataType::INT64 && to != DataType::INT32) return;
  Dims out;
  for (const auto& x : r->num) out.push_back(truncated_quotient(x, SymbolicDim(r->den)));
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

inline void cast_to(Context& ctx, Node& n, DataType to) {
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), to);
  const DataType from = dtype_of(n.input(0));
  // Indices (a Range's bounds) keep their values in int64.
  if (is_integer_type(from) && from != DataType::BOOL && from != DataType::UINT64 && to == DataType::INT64)
    ctx.keep_element_bounds(n.input(0), n.output(0));
  // Integral float values (common/tensor_values.hpp) cast to integers
  // exactly; booleans are 0 and 1 (a Loop's condition: Cast(true)).
  if (!is_integer_type(from) && !is_float_type(from)) return;
  auto v = ctx.symbolic_value(n.input(0));
  if (v) {
    if (auto out = cast_values(*v, to)) ctx.set_symbolic_value(n.output(0), std::move(*out));
    return;
  }
  cast_fractions(ctx, n, from, to);
}

}  // namespace cast_detail

inline void infer_cast(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  auto to = cast_detail::target_type(ctx, n);
  if (!to) return;
  cast_detail::cast_to(ctx, n, *to);
}
SYMSHAPE_RULES(infer_cast, ai_onnx("Cast", 1, 6, 9, 13, 19, 21, 23, 24, 25).cost(count_none));

inline void infer_cast_like(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  cast_detail::cast_to(ctx, n, dtype_of(n.input(1)));
}
SYMSHAPE_RULES(infer_cast_like, ai_onnx("CastLike", 15, 19, 21, 23, 24, 25).cost(count_none));

inline constexpr auto kCastRules = family_rules<infer_cast_rules, infer_cast_like_rules>("symshape/ops/cast.hpp");

}  // namespace symshape::ops
