// Range: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements, of
// the type of start. Symbolic start/limit work when delta is a known
// non-zero integer; float constants are computed exactly. Small integer
// ranges propagate their values.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace range_detail {

// The value of a one-element float constant, else nullopt.
inline Maybe<double> float_scalar(const Value* v) {
  if (!v || !v->initializer || !v->initializer->has_data || v->initializer->float_data.size() != 1) return std::nullopt;
  return v->initializer->float_data[0];
}

// max(ceil((limit - start) / delta), 0) for symbolic start and limit and an
// integer delta != 0; unknown when it cannot be expressed.
inline SymbolicDim int_length(const SymbolicDim& start, const SymbolicDim& limit, const SymbolicDim& delta) {
  if (!delta.is_int() || !start.is_known() || !limit.is_known()) return {};
  const int64_t d = delta.value();
  if (d > 0) return dim_max(SymbolicDim(ceil_to_int((limit - start).expr(), Expr(d))), SymbolicDim(0));
  if (d != INT64_MIN) return dim_max(SymbolicDim(ceil_to_int((start - limit).expr(), Expr(-d))), SymbolicDim(0));
  return {};
}

// The elements start + i * delta of a small range of known length; nullopt
// when there are too many or an offset overflows.
inline std::optional<Dims> range_values(const SymbolicDim& start, const SymbolicDim& delta, const SymbolicDim& len) {
  if (!len.is_int() || len.value() > static_cast<int64_t>(Context::kMaxSymbolicValueSize) || !delta.is_int())
    return std::nullopt;
  Dims values;
  for (int64_t i = 0; i < len.value(); ++i) {
    int64_t offset = 0;
    if (!checked::mul(i, delta.value(), offset)) return std::nullopt;
    values.push_back(start + SymbolicDim(offset));
  }
  return values;
}

// The first and the last element of a non-empty integer range of symbolic
// length: start and start + delta*(n-1), n = ceil((limit - start)/delta)
// (limit-1 for delta 1), for the rows a Gather of it reads.
inline void set_range_bounds(Context& ctx, Value* out, const SymbolicDim& start, const SymbolicDim& limit,
                             const SymbolicDim& delta) {
  if (!delta.is_int() || !start.is_known() || !limit.is_known()) return;
  const int64_t d = delta.value();
  SymbolicDim last;
  if (d == 1) {
    last = limit - SymbolicDim(1);
  } else if (d > 0) {
    last = start + SymbolicDim(d) * (SymbolicDim(ceil_to_int((limit - start).expr(), Expr(d))) - SymbolicDim(1));
  } else if (d == -1) {
    last = limit + SymbolicDim(1);
  } else if (d != INT64_MIN) {
    last = start + SymbolicDim(d) * (SymbolicDim(ceil_to_int((start - limit).expr(), Expr(-d))) - SymbolicDim(1));
  }
  if (d > 0) ctx.set_element_bounds(out, start, last);
  if (d < 0) ctx.set_element_bounds(out, last, start);
}

// The length of a range of float constants, computed exactly; unknown when
// an input is not such a constant.
inline std::optional<SymbolicDim> float_length(Context& ctx, const Node& n) {
  auto start = float_scalar(n.input(0));
  auto limit = float_scalar(n.input(1));
  // com.microsoft Range: delta is optional (default 1).
  auto delta = n.input(2) ? float_scalar(n.input(2)) : Maybe<double>(1.0);
  if (!start || !limit || !delta) return SymbolicDim();
  if (*delta == 0) {
    ctx.record_error(n, "delta must not be 0");
    return std::nullopt;
  }
  const double count = std::ceil((*limit - *start) / *delta);
  if (std::isfinite(count) && count < 9.0e18) return SymbolicDim(static_cast<int64_t>(count > 0 ? count : 0));
  return SymbolicDim();
}

// start, limit and delta (absent: 1, com.microsoft Range) -> [len].
inline void range(Context& ctx, Node& n) {
  for (std::size_t i = 0; i < 3 && i < n.inputs.size(); ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && !is_scalar_like(*s)) return ctx.record_error(n, {"input ", i, " must be a scalar, got ", *s});
  }
  const DataType dtype = dtype_of(n.input(0));
  auto start = ctx.symbolic_value(n.input(0));
  auto limit = ctx.symbolic_value(n.input(1));
  auto delta = n.input(2) ? ctx.symbolic_value(n.input(2)) : std::optional<Dims>(Dims{SymbolicDim(1)});
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 && delta->size() == 1) {
    const SymbolicDim& s = (*start)[0];
    const SymbolicDim& d = (*delta)[0];
    if (d.is_int(0)) return ctx.record_error(n, "delta must not be 0");
    const SymbolicDim len = range_detail::int_length(s, (*limit)[0], d);
    ctx.set_shape_and_dtype(n.output(0), Shape{len}, dtype);
    if (auto values = range_detail::range_values(s, d, len)) {
      ctx.set_symbolic_value(n.output(0), std::move(*values));
    } else if (is_integer_type(dtype)) {
      range_detail::set_range_bounds(ctx, n.output(0), s, (*limit)[0], d);
    }
    return;
  }
  auto len = range_detail::float_length(ctx, n);
  if (!len) return;
  ctx.set_shape_and_dtype(n.output(0), Shape{*len}, dtype);
}
}  // namespace range_detail

inline void infer_range(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  range_detail::range(ctx, n);
}
SYMSHAPE_RULES(infer_range, ai_onnx("Range", 11, 27));

inline constexpr auto kRangeRules = family_rules<infer_range_rules>("symshape/ops/range.hpp");

}  // namespace symshape::ops
