// Helpers shared by the tensor op families: integer lists from attributes
// or inputs, axes, indices, element type codes, and the values (symbolic
// integers, integral floats) that data propagation carries from input to
// output.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

using Dims = std::vector<SymbolicDim>;

// Number of elements of a scalar or 1-D input whose length is a known
// integer (e.g. axes whose values are unknown), else nullopt.
inline std::optional<int64_t> static_length(const Value* v) {
  const Shape* s = shape_of(v);
  if (!s) return std::nullopt;
  if (s->rank() == 0) return 1;
  if (s->rank() == 1 && (*s)[0].is_int()) return (*s)[0].value();
  return std::nullopt;
}

// Whether a shape holds exactly one element as a scalar or a 1-D tensor of
// one element (scalar inputs such as Range's start or Clip's min).
inline bool is_scalar_like(const Shape& s) { return s.rank() == 0 || (s.rank() == 1 && s[0].is_int(1)); }

// Longer shape inputs give an unknown rank rather than that many unknown dims:
// a model may declare a 1-D shape input of 2^63-1 (or -1) elements, and
// allocating the dims threw std::length_error (found by tests/fuzz/fuzz_engine).
inline constexpr int64_t kMaxRankFromLength = 4096;

// A shape of `rank` unknown dims; unknown rank when `rank` is negative or
// above kMaxRankFromLength.
inline Shape unknown_dims_of_rank(int64_t rank) {
  if (rank < 0 || rank > kMaxRankFromLength) return Shape();
  return Shape::of_rank(static_cast<std::size_t>(rank));
}

// A shape of as many unknown dims as the 1-D input `v` has elements, when
// that number is known (a shape input whose values are not); else unknown rank.
inline Shape shape_of_length(const Value* v) {
  auto len = static_length(v);
  return len ? unknown_dims_of_rank(*len) : Shape();
}

// The element type with ONNX code `code` (1..26), or nullopt for any other
// number; callers word the error, since each attribute names it differently.
inline Maybe<DataType> element_type_from_code(int64_t code) {
  if (code <= 0 || code > INT32_MAX || !is_valid_data_type(static_cast<int32_t>(code))) return std::nullopt;
  return static_cast<DataType>(code);
}

// False, after a semantic error `message` + the dim, when a known dim of a
// target shape is negative.
inline bool check_no_negative_dim(Context& ctx, const Node& n, const Dims& dims, const char* message) {
  for (const auto& d : dims) {
    if (d.is_int() && d.value() < 0) {
      ctx.record_error(n, {message, d});
      return false;
    }
  }
  return true;
}

// Normalised axes, with a semantic error on out-of-range or repeated axes.
inline std::optional<std::vector<int64_t>> unique_axes(Context& ctx, const Node& n, std::vector<int64_t> axes,
                                                       int64_t rank) {
  auto a = normalize_axes(ctx, n, std::move(axes), rank);
  if (!a) return std::nullopt;
  std::vector<int64_t> sorted = *a;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    ctx.record_error(n, "axes contain a repeated axis");
    return std::nullopt;
  }
  return a;
}

// The input's dims without the axes marked in `reduced` (each kept as 1 with
// keepdims): the output of a reduction.
inline std::vector<SymbolicDim> reduced_dims(const Shape& in, const std::vector<bool>& reduced, bool keepdims) {
  std::vector<SymbolicDim> out;
  out.reserve(reduced.size());
  for (std::size_t i = 0; i < reduced.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(in[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return out;
}

// A list of integers: from attribute `attr_name` or from the known value of
// input `index`. `given` tells whether the attribute or the
// input is present at all; `values` is empty when present but not known.
struct IntsArg {
  bool given = false;
  std::optional<std::vector<int64_t>> values;
  std::optional<int64_t> length;  // known length even when the values are not
};

enum class IntsFrom { Attribute, Input };
inline IntsArg ints_arg(const Context& ctx, const Node& n, IntsFrom from_input, const char* attr_name,
                        std::size_t index) {
  IntsArg r;
  if (from_input == IntsFrom::Attribute) {
    if (const Attribute* a = n.attr(attr_name)) {
      r.given = true;
      if (a->kind == Attribute::Kind::Ints)
        r.values = std::vector<int64_t>(a->ints.begin(), a->ints.end());
      else if (a->kind == Attribute::Kind::Int)
        r.values = std::vector<int64_t>{a->i};
    }
  } else if (const Value* v = n.input(index)) {
    r.given = true;
    r.values = ctx.int_values(v);
    r.length = static_length(v);
  }
  if (r.values) r.length = static_cast<int64_t>(r.values->size());
  return r;
}

// Index into [0, len] with Python's negative-index convention, clamped.
inline int64_t clamp_index(int64_t v, int64_t len) {
  if (v < 0) v = v < -len ? 0 : v + len;
  return v > len ? len : v;
}

// Output type with the dtype of input `in`.
inline void set_like_input(Context& ctx, Node& n, std::size_t out, Shape shape, std::size_t in = 0) {
  ctx.set_shape_and_dtype(n.output(out), std::move(shape), dtype_of(n.input(in)));
}

// Copies the value (whole numbers or fractions) of input `in` to output
// `out`, or the bounds of its elements (element order unchanged: Squeeze,
// Unsqueeze, Reshape, Identity, Flatten).
inline void copy_value(Context& ctx, Node& n, std::size_t out = 0, std::size_t in = 0) {
  if (auto v = ctx.rational_value(n.input(in))) ctx.set_rational_value(n.output(out), std::move(*v));
  ctx.keep_element_bounds(n.input(in), n.output(out));
}

// Unknown elements for an input whose values are not tracked but whose shape
// is known and small, so that the known elements of the others stay (And/Or
// decide from the other side; Concat keeps them).
inline std::optional<Dims> unknown_elements(const Value* v) {
  const Shape* s = shape_of(v);
  if (!s || !s->has_rank()) return std::nullopt;
  int64_t count = 1;
  for (const SymbolicDim& d : s->dims())
    if (!d.is_int() || d.value() < 0 || !checked::mul(count, d.value(), count)) return std::nullopt;
  if (count > static_cast<int64_t>(Context::kMaxSymbolicValueSize)) return std::nullopt;
  return Dims(static_cast<std::size_t>(count));
}

// The least and the largest element of an integer value: the bounds kept
// beside the graph (a Range's, a ConstantOfShape's fill), else those of its
// known elements when they are integers or a single one; nullopt otherwise.
inline Maybe<Context::ElementBounds> value_bounds(const Context& ctx, const Value* v) {
  if (const Context::ElementBounds* b = ctx.element_bounds(v)) return *b;
  auto values = ctx.symbolic_value(v);
  if (!values || values->empty()) return std::nullopt;
  if (values->size() == 1) {
    if (!(*values)[0].is_known()) return std::nullopt;
    return Context::ElementBounds{(*values)[0], (*values)[0]};
  }
  auto ints = ctx.int_values(v);
  if (!ints) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(ints->begin(), ints->end());
  return Context::ElementBounds{*lo, *hi};
}

// Elementwise `f(a[i], b[i])` over two values, numpy style (a one-element
// value broadcasts). nullopt when the lengths do not broadcast or `f` gives
// nullopt for some pair (no value then).
template <class F>
std::optional<Dims> broadcast_values(const Dims& a, const Dims& b, F f) {
  if (a.size() != b.size() && a.size() != 1 && b.size() != 1) return std::nullopt;
  const std::size_t len = a.size() == 1 ? b.size() : a.size();
  Dims out;
  for (std::size_t i = 0; i < len; ++i) {
    std::optional<SymbolicDim> r = f(a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i]);
    if (!r) return std::nullopt;
    out.push_back(std::move(*r));
  }
  return out;
}

// Values of any rank are stored flattened in row-major order; the value's
// type gives the shape. The integer dims of `v` when they hold exactly
// `count` elements (a one-element value of unknown shape counts as a
// scalar), else nullopt.
inline std::optional<std::vector<int64_t>> value_dims(const Value* v, std::size_t count) {
  const Shape* s = shape_of(v);
  if (!s) {
    if (count == 1) return std::vector<int64_t>{};
    return std::nullopt;
  }
  std::vector<int64_t> dims;
  dims.reserve(s->dims().size());
  int64_t total = 1;
  for (const auto& d : s->dims()) {
    if (!d.is_int() || d.value() < 0) return std::nullopt;
    dims.push_back(d.value());
    if (!checked::mul(total, d.value(), total)) return std::nullopt;
  }
  if (total != static_cast<int64_t>(count)) return std::nullopt;
  return dims;
}

// Row-major strides of `dims`.
inline std::vector<std::size_t> row_major_strides(const std::vector<int64_t>& dims) {
  std::vector<std::size_t> st(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) st[i - 1] = st[i] * static_cast<std::size_t>(dims[i]);
  return st;
}

// The multi-index of flat position `flat` in `dims` (row-major).
inline std::vector<int64_t> unflatten(std::size_t flat, const std::vector<int64_t>& dims) {
  std::vector<int64_t> idx(dims.size(), 0);
  for (std::size_t i = dims.size(); i-- > 0;) {
    const auto d = static_cast<std::size_t>(dims[i]);
    idx[i] = static_cast<int64_t>(flat % d);
    flat /= d;
  }
  return idx;
}

// Numpy broadcasting of the values of `inputs` (element counts `counts`):
// for each output element in row-major order, the flat index into each
// input's value. nullopt when a shape is not known in integers, does not
// hold its count, or does not broadcast.
// The same from the integer dims of each input.
inline Maybe<std::vector<std::vector<std::size_t>>> broadcast_indices(std::vector<std::vector<int64_t>> dims) {
  std::size_t rank = 0;
  for (const auto& d : dims) rank = std::max(rank, d.size());
  std::vector<int64_t> out(rank, 1);
  for (auto& d : dims) {
    d.insert(d.begin(), rank - d.size(), 1);  // align to the right
    for (std::size_t i = 0; i < rank; ++i) {
      if (d[i] == out[i] || d[i] == 1) continue;
      if (out[i] != 1) return std::nullopt;
      out[i] = d[i];
    }
  }
  int64_t count = 1;
  for (int64_t d : out)
    if (d < 0 || !checked::mul(count, d, count)) return std::nullopt;
  if (count > static_cast<int64_t>(Context::kMaxSymbolicValueSize)) return std::nullopt;
  const auto total = static_cast<std::size_t>(count);
  std::vector<std::vector<std::size_t>> result(total, std::vector<std::size_t>(dims.size(), 0));
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const auto st = row_major_strides(dims[k]);
    for (std::size_t f = 0; f < total; ++f) {
      const auto idx = unflatten(f, out);
      for (std::size_t i = 0; i < rank; ++i)
        if (dims[k][i] != 1) result[f][k] += static_cast<std::size_t>(idx[i]) * st[i];
    }
  }
  return result;
}

inline Maybe<std::vector<std::vector<std::size_t>>> broadcast_indices(const std::vector<const Value*>& inputs,
                                                                      const std::vector<std::size_t>& counts) {
  std::vector<std::vector<int64_t>> dims;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    auto d = value_dims(inputs[k], counts[k]);
    if (!d) return std::nullopt;
    dims.push_back(std::move(*d));
  }
  return broadcast_indices(std::move(dims));
}

// Elementwise `f(a[i], b[i])` over the values of inputs `va` and `vb` with
// numpy broadcasting of their shapes; nullopt when they do not broadcast or
// `f` gives nullopt for some pair.
template <class F>
std::optional<Dims> broadcast_values_nd(const Value* va, const Dims& a, const Value* vb, const Dims& b, F f) {
  auto idx = broadcast_indices({va, vb}, {a.size(), b.size()});
  if (!idx) return std::nullopt;
  Dims out;
  for (const auto& ij : *idx) {
    std::optional<SymbolicDim> r = f(a[ij[0]], b[ij[1]]);
    if (!r) return std::nullopt;
    out.push_back(std::move(*r));
  }
  return out;
}

// Three-valued comparison of two known values: 1 when `pred` provably holds,
// 0 when provably not, nullopt when undecided. The prover knows that dims
// (the symbols) are >= 0. `op`: "Equal", "Less", "Greater", "LessOrEqual",
// "GreaterOrEqual".
inline std::optional<bool> compare_values(const std::string& op, const SymbolicDim& x, const SymbolicDim& y) {
  if (!x.is_known() || !y.is_known()) return std::nullopt;
  const Expr& a = x.expr();
  const Expr& b = y.expr();
  // p >= q + k
  auto ge = [](const Expr& p, const Expr& q, int64_t k) { return prove_ge(p, k == 0 ? q : q + Expr(k)); };
  if (op == "Equal") {
    if (x == y || prove_eq(a, b)) return true;
    if (ge(a, b, 1) || ge(b, a, 1)) return false;
    return std::nullopt;
  }
  const bool swap = op == "Greater" || op == "LessOrEqual";
  const Expr& p = swap ? b : a;  // Less(p, q) or its negation
  const Expr& q = swap ? a : b;
  std::optional<bool> less;
  if (ge(q, p, 1))
    less = true;
  else if (ge(p, q, 0))
    less = false;
  if (!less) return std::nullopt;
  const bool negate = op == "LessOrEqual" || op == "GreaterOrEqual";
  return negate ? !*less : *less;
}

// Integral floats are tracked as values too (they feed Range and OneHot's
// depth in the expanded window functions, say): a float tensor's symbolic
// value holds its elements when every one is an integer that the element
// type represents exactly. Arithmetic rules propagate integer types only.
inline bool is_float_type(DataType t) {
  return t == DataType::FLOAT || t == DataType::DOUBLE || t == DataType::FLOAT16 || t == DataType::BFLOAT16;
}
// The largest magnitude below which every integer is exact in `t`.
inline int64_t exact_integer_limit(DataType t) {
  switch (t) {
    case DataType::DOUBLE:
      return int64_t{1} << 53;
    case DataType::FLOAT:
      return int64_t{1} << 24;
    case DataType::FLOAT16:
      return int64_t{1} << 11;
    case DataType::BFLOAT16:
      return int64_t{1} << 8;
    default:
      return 0;
  }
}
// Float data as integer values, when every element is an integer exact in `t`.
inline std::optional<Dims> integral_float_values(const std::vector<double>& data, DataType t) {
  const auto limit = static_cast<double>(exact_integer_limit(t));
  if (data.size() > Context::kMaxSymbolicValueSize) return std::nullopt;
  Dims out;
  for (double x : data) {
    if (!(x == std::floor(x)) || !(std::fabs(x) <= limit)) return std::nullopt;
    out.push_back(static_cast<int64_t>(x));
  }
  return out;
}

// ---- fractional float values (Context::rational_value) ----
using Rationals = Context::Rationals;

// Add, Sub, Mul or Div of two float values as fractions, numpy-broadcast;
// Div needs a divisor of known non-zero integers. nullopt when the op is
// none of these, the shapes do not broadcast, or a denominator overflows.
inline std::optional<Rationals> rational_arithmetic(const std::string& op, const Value* va, const Rationals& a,
                                                    const Value* vb, const Rationals& b) {
  auto idx = broadcast_indices({va, vb}, {a.num.size(), b.num.size()});
  if (!idx) return std::nullopt;
  Rationals r;
  if (op == "Div") {
    // x/p / (y/q) = x*q*(l/|y|)*sign(y) / (p*l), l = lcm of the |y|.
    int64_t l = 1;
    for (const auto& y : b.num) {
      if (!y.is_int() || y.value() == 0 || y.value() == INT64_MIN) return std::nullopt;
      const int64_t m = y.value() < 0 ? -y.value() : y.value();
      if (!checked::mul(l / std::gcd(l, m), m, l)) return std::nullopt;
    }
    if (!checked::mul(a.den, l, r.den)) return std::nullopt;
    for (const auto& ij : *idx) {
      const int64_t y = b.num[ij[1]].value();
      const int64_t f = (l / (y < 0 ? -y : y)) * (y < 0 ? -1 : 1);
      int64_t g = 0;
      if (!checked::mul(f, b.den, g)) return std::nullopt;
      r.num.push_back(a.num[ij[0]] * SymbolicDim(g));
    }
    return r;
  }
  if (op != "Add" && op != "Sub" && op != "Mul") return std::nullopt;
  if (!checked::mul(a.den, b.den, r.den)) return std::nullopt;
  for (const auto& ij : *idx) {
    const SymbolicDim& x = a.num[ij[0]];
    const SymbolicDim& y = b.num[ij[1]];
    if (op == "Mul")
      r.num.push_back(x * y);
    else if (op == "Add")
      r.num.push_back(x * SymbolicDim(b.den) + y * SymbolicDim(a.den));
    else
      r.num.push_back(x * SymbolicDim(b.den) - y * SymbolicDim(a.den));
  }
  return r;
}

// x / y rounded toward zero, as ONNX's integer Div and a Cast of a float to
// an integer type round, for y provably >= 1: x // y when x is provably
// >= 0, -((-x) // y) when provably <= 0, else max(x,0)//y - max(-x,0)//y,
// which is exact for either sign. Unknown when x or y is.
inline SymbolicDim truncated_quotient(const SymbolicDim& x, const SymbolicDim& y) {
  if (!x.is_known() || !y.is_known()) return {};
  if (x.is_int() && y.is_int() && y.value() >= 1) return SymbolicDim(x.value() / y.value());
  if (prove_ge(x.expr(), Expr(0))) return x / y;
  const SymbolicDim minus_x = SymbolicDim(0) - x;
  if (prove_ge(minus_x.expr(), Expr(0))) return SymbolicDim(0) - minus_x / y;
  return dim_max(x, SymbolicDim(0)) / y - dim_max(minus_x, SymbolicDim(0)) / y;
}

// floor(x / den) or ceil(x / den) of each element, as integers.
inline Dims round_rationals(const Rationals& r, bool floor) {
  Dims out;
  for (const auto& x : r.num) {
    if (!x.is_known())
      out.emplace_back();
    else
      out.emplace_back(floor ? x / SymbolicDim(r.den) : SymbolicDim(ceil_to_int(x.expr(), Expr(r.den))));
  }
  return out;
}

// Axes whose values are unknown but whose number k is: for every choice of k
// distinct positions among `allowed` (at most 4096 choices), `make(chosen)`
// gives the resulting dims; the result keeps each dim on which every choice
// agrees and leaves the others unknown. nullopt when no choice is possible or
// there are too many.
template <class Make>
std::optional<Dims> common_over_choices(const std::vector<bool>& allowed, std::size_t k, Make make) {
  const std::size_t n = allowed.size();
  if (k > n || n > 24) return std::nullopt;
  std::optional<Dims> common;
  std::size_t count = 0;
  std::vector<bool> chosen(n, false);
  bool too_many = false;
  // Depth-first over the positions, deciding chosen or not.
  auto visit = [&](auto&& self, std::size_t at, std::size_t left) -> void {
    if (too_many) return;
    if (left == 0) {
      if (++count > 4096) {
        too_many = true;
        return;
      }
      Dims d = make(chosen);
      if (!common) {
        common = std::move(d);
      } else if (common->size() != d.size()) {
        too_many = true;  // not expected: every choice gives the same rank
      } else {
        for (std::size_t i = 0; i < d.size(); ++i)
          if (!((*common)[i] == d[i])) (*common)[i] = SymbolicDim();
      }
      return;
    }
    if (n - at < left) return;
    if (allowed[at]) {
      chosen[at] = true;
      self(self, at + 1, left - 1);
      chosen[at] = false;
    }
    self(self, at + 1, left);
  };
  visit(visit, 0, k);
  if (too_many) return std::nullopt;
  return common;
}

}  // namespace symshape::ops
