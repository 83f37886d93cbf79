// Helpers shared by the tensor op families: integer lists from attributes
// or inputs, axes, indices, element type codes, and the values (symbolic
// integers, integral floats) that data propagation carries from input to
// output.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"

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

// A shape of as many unknown dims as the 1-D input `v` has elements, when
// that number is known (a shape input whose values are not); else unknown rank.
inline Shape shape_of_length(const Value* v) {
  auto len = static_length(v);
  return len ? Shape::of_rank(static_cast<std::size_t>(*len)) : Shape();
}

// The element type with ONNX code `code` (1..26), or nullopt for any other
// number; callers word the error, since each attribute names it differently.
inline std::optional<DataType> element_type_from_code(int64_t code) {
  if (code <= 0 || code > INT32_MAX || !is_valid_data_type(static_cast<int32_t>(code))) return std::nullopt;
  return static_cast<DataType>(code);
}

// False, after a semantic error `message` + the dim, when a known dim of a
// target shape is negative.
inline bool check_no_negative_dim(Context& ctx, const Node& n, const Dims& dims, const char* message) {
  for (const auto& d : dims) {
    if (d.is_int() && d.value() < 0) {
      ctx.record_error(n, message + d.to_string());
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

// A list of integers: from an attribute (when `from_input` is false) or from
// the known value of input `index`. `given` tells whether the attribute or the
// input is present at all; `values` is empty when present but not known.
struct IntsArg {
  bool given = false;
  std::optional<std::vector<int64_t>> values;
  std::optional<int64_t> length;  // known length even when the values are not
};

inline IntsArg ints_arg(const Context& ctx, const Node& n, bool from_input, const char* attr_name, std::size_t index) {
  IntsArg r;
  if (!from_input) {
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

// Copies the symbolic value of input `in` to output `out` (element order
// unchanged: Squeeze, Unsqueeze, Reshape, Identity, Flatten).
inline void copy_value(Context& ctx, Node& n, std::size_t out = 0, std::size_t in = 0) {
  if (auto v = ctx.symbolic_value(n.input(in))) ctx.set_symbolic_value(n.output(out), std::move(*v));
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
