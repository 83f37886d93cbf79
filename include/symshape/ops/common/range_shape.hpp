// Range's output, shared by ai.onnx Range (ops/range.hpp) and com.microsoft
// Range (ops/microsoft/tensor.hpp): a 1-D tensor of
// max(ceil((limit - start) / delta), 0) elements, of the type of start.
// Symbolic start and limit work when delta is a known non-zero number, in
// integers and in floats that hold whole numbers or fractions
// (Cast(past+seq, float), seq - 0.5); other float constants are computed in
// double. Small ranges propagate their values.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace range_detail {

// The value of a one-element float constant, else nullopt.
inline Maybe<double> float_scalar(const Value* v) {
  if (!v || !v->initializer || !v->initializer->has_data || v->initializer->float_data.size() != 1) return std::nullopt;
  return v->initializer->float_data[0];
}

// The one element of a scalar-like value, as a fraction num / den (whole
// numbers have den 1); nullopt when not known.
struct Scalar {
  SymbolicDim num;
  int64_t den = 1;
};
inline Maybe<Scalar> scalar_value(const Context& ctx, const Value* v) {
  auto r = ctx.rational_value(v);
  if (!r || r->num.size() != 1 || !r->num[0].is_known()) return std::nullopt;
  return Scalar{r->num[0], r->den};
}

// max(ceil((limit - start) / delta), 0) for symbolic start and limit (whole
// or fractions) and a known delta != 0: with s = sn/sd, l = ln/ld,
// d = dn/dd, it is ceil((ln*sd - sn*ld) * dd * sign(dn) / (ld*sd*|dn|)).
// Unknown when a product overflows.
inline SymbolicDim length(const Scalar& start, const Scalar& limit, const Scalar& delta) {
  if (!delta.num.is_int() || delta.num.value() == 0 || delta.num.value() == INT64_MIN) return {};
  const int64_t dn = delta.num.value();
  int64_t divisor = 0, sign_dd = 0;
  if (!checked::mul(limit.den, start.den, divisor) || !checked::mul(divisor, dn < 0 ? -dn : dn, divisor) ||
      !checked::mul(delta.den, dn < 0 ? -1 : 1, sign_dd))
    return {};
  const SymbolicDim span = limit.num * SymbolicDim(start.den) - start.num * SymbolicDim(limit.den);
  const SymbolicDim scaled = span * SymbolicDim(sign_dd);
  if (!scaled.is_known()) return {};
  return proven_max(SymbolicDim(ceil_to_int(scaled.expr(), Expr(divisor))), SymbolicDim(0));
}

// The elements start + i * delta of a small range of known length, as
// fractions over sd*dd; nullopt when there are too many or a product overflows.
inline std::optional<Rationals> range_values(const Scalar& start, const Scalar& delta, const SymbolicDim& len) {
  if (!len.is_int() || len.value() > static_cast<int64_t>(Context::kMaxSymbolicValueSize) || !delta.num.is_int())
    return std::nullopt;
  Rationals values;
  int64_t step = 0;
  if (!checked::mul(start.den, delta.den, values.den) || !checked::mul(delta.num.value(), start.den, step))
    return std::nullopt;
  const SymbolicDim first = start.num * SymbolicDim(delta.den);
  for (int64_t i = 0; i < len.value(); ++i) {
    int64_t offset = 0;
    if (!checked::mul(i, step, offset)) return std::nullopt;
    values.num.push_back(first + SymbolicDim(offset));
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
  auto start = scalar_value(ctx, n.input(0));
  auto limit = scalar_value(ctx, n.input(1));
  auto delta = n.input(2) ? scalar_value(ctx, n.input(2)) : Maybe<Scalar>(Scalar{SymbolicDim(1), 1});
  if (start && limit && delta) {
    if (delta->num.is_int(0)) return ctx.record_error(n, "delta must not be 0");
    const SymbolicDim len = length(*start, *limit, *delta);
    ctx.set_shape_and_dtype(n.output(0), Shape{len}, dtype);
    if (auto values = range_values(*start, *delta, len)) {
      ctx.set_rational_value(n.output(0), std::move(*values));
    } else if (is_integer_type(dtype)) {
      set_range_bounds(ctx, n.output(0), start->num, limit->num, delta->num);
    }
    return;
  }
  auto len = range_detail::float_length(ctx, n);
  if (!len) return;
  ctx.set_shape_and_dtype(n.output(0), Shape{*len}, dtype);
}
}  // namespace range_detail

}  // namespace symshape::ops
