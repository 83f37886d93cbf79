// Helpers every rule uses: input checks, attributes, axes, broadcasting and
// reading integer lists from attributes, constants or propagated values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/context.hpp"

namespace symshape {

// The node has at least `min_count` inputs present (and at most max_count,
// when given); otherwise false after a usage error naming the missing input.
inline bool check_inputs(Context& ctx, const Node& n, std::size_t min_count, std::size_t max_count = SIZE_MAX) {
  if (n.inputs.size() > max_count) {
    ctx.usage_error(n, {"expected at most ", max_count, " inputs, got ", n.inputs.size()});
    return false;
  }
  for (std::size_t i = 0; i < min_count; ++i) {
    if (i >= n.inputs.size() || n.inputs[i] == nullptr) {
      ctx.usage_error(n, {"missing required input ", i, " (expected at least ", min_count, ")"});
      return false;
    }
  }
  return true;
}

// The attribute `name`; nullptr after a usage error when it is missing.
inline const Attribute* require_attr(Context& ctx, const Node& n, const char* name) {
  const Attribute* a = n.attr(name);
  if (!a) ctx.usage_error(n, {"missing required attribute '", name, "'"});
  return a;
}
// The attribute `name` of that kind; nullptr after a usage error when it is
// missing or of another kind.
inline const Attribute* require_attr(Context& ctx, const Node& n, const char* name, Attribute::Kind kind) {
  const Attribute* a = require_attr(ctx, n, name);
  if (!a || a->kind == kind) return a;
  ctx.usage_error(n, {"attribute '", name, "' is ", to_string(a->kind), ", expected ", to_string(kind)});
  return nullptr;
}

// Tensor type helpers: nullptr-safe.
inline const Type& type_of(const Value* v) {
  static const Type unknown;
  return v ? v->type : unknown;
}
inline DataType dtype_of(const Value* v) {
  return v && v->type.is_tensor_like() ? v->type.elem_type() : DataType::UNDEFINED;
}
// The shape, when the input is a tensor of known rank.
inline const Shape* shape_of(const Value* v) {
  return v && v->type.is_tensor_like() && v->type.shape().has_rank() ? &v->type.shape() : nullptr;
}
// Dim i of a shape that may be missing or too short; unknown then.
inline SymbolicDim dim_at(const Shape* s, std::size_t i) { return s && i < s->size() ? (*s)[i] : SymbolicDim(); }

// Normalises a possibly negative axis into [0, rank); nullopt after the error when out of range.
inline std::optional<int64_t> normalize_axis(Context& ctx, const Node& n, int64_t axis, int64_t rank,
                                             const char* what = "axis") {
  if (axis < -rank || axis >= rank) {
    ctx.record_error(n, {what, " ", axis, " is out of range for rank ", rank});
    return std::nullopt;
  }
  return axis < 0 ? axis + rank : axis;
}

// normalize_axis on each axis; nullopt after the first error.
inline std::optional<std::vector<int64_t>> normalize_axes(Context& ctx, const Node& n, std::vector<int64_t> axes,
                                                          int64_t rank) {
  for (auto& a : axes) {
    auto x = normalize_axis(ctx, n, a, rank);
    if (!x) return std::nullopt;
    a = *x;
  }
  return axes;
}

// Whether y is x*f for an f in [0, 1] by its bounds (an indicator such as
// min(1, rows left)): y is then x or 0, and either way the broadcast of x
// and y is y.
inline bool indicator_multiple(const Expr& y, const Expr& x) {
  if (y.kind() != ExprKind::Mul || x.is_int()) return false;
  const std::optional<Expr> f = detail::divide_monomial(y, x);
  if (!f) return false;
  const Interval b = f->bounds();
  return b.has_lo && b.lo >= 0 && b.has_hi && b.hi <= 1;
}

// The broadcast of two dims x and y (numpy rules: equal, or one of them is 1),
// exact for every valid run, zero-size dims included; nullopt when both are
// integers that cannot broadcast (the caller reports it). Two symbolic dims
// that are not provably equal give the dim the prover shows to be the result
// (`seq` for seq vs min(64,seq)), else the exact max(x,y)*min(x,y,1), and the
// relation the model needs is recorded as a contract.
inline std::optional<SymbolicDim> broadcast_dim(Context& ctx, const Node& n, const SymbolicDim& x,
                                                const SymbolicDim& y) {
  if (x == y && x.is_known()) return x;
  if (x.is_int(1)) return y;
  if (y.is_int(1)) return x;
  if (x.is_int() && y.is_int()) return std::nullopt;
  if (x.is_int() || y.is_int()) {  // an integer k != 1: the other dim is k or 1
    const SymbolicDim& k = x.is_int() ? x : y;
    ctx.record_contract(&n, Contract::Kind::Broadcast, x.is_int() ? y : x, k, "broadcast");
    return k;
  }
  if (x.is_unknown() || y.is_unknown()) return ctx.new_symbolic_dim();
  ctx.record_contract(&n, Contract::Kind::Broadcast, x, y, "broadcast");
  const Expr &a = x.expr(), &b = y.expr();
  const Expr one(1);
  // The result is x unless x == 1 != y; a dim that is never 1 (>= 2, 0, or
  // even like 2*k), a dim that is the other times an indicator (the other or
  // 0), or one >= the other that is not 0 when the other is not, rules that
  // out.
  if (prove_eq(a, b) || prove_not_one(a)) return x;
  if (prove_not_one(b)) return y;
  if (indicator_multiple(b, a)) return y;
  if (indicator_multiple(a, b)) return x;
  if (prove_ge(a, b) && prove_ge(min(b, one), min(a, one))) return x;
  if (prove_ge(b, a) && prove_ge(min(a, one), min(b, one))) return y;
  if (prove_ge(a, one) && prove_ge(b, one)) return SymbolicDim(max(a, b));
  return SymbolicDim(max(a, b) * min(min(a, b), one));
}

// Multidirectional (numpy) broadcasting of two shapes, dim by dim with
// broadcast_dim. Unknown rank when either rank is unknown; nullopt after an
// error.
inline std::optional<Shape> broadcast_shapes(Context& ctx, const Node& n, const Shape& a, const Shape& b) {
  if (!a.has_rank() || !b.has_rank()) return Shape();
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<SymbolicDim> out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const bool has_a = i + a.size() >= rank, has_b = i + b.size() >= rank;
    if (!has_a || !has_b) {
      out[i] = has_a ? a[i + a.size() - rank] : b[i + b.size() - rank];
      continue;
    }
    const SymbolicDim& x = a[i + a.size() - rank];
    const SymbolicDim& y = b[i + b.size() - rank];
    std::optional<SymbolicDim> d = broadcast_dim(ctx, n, x, y);
    if (!d) {
      ctx.record_error(n, {"cannot broadcast ", a, " with ", b, ": dim ", x.value(), " vs ", y.value()});
      return std::nullopt;
    }
    out[i] = std::move(*d);
  }
  return Shape(std::move(out));
}

// An integer list from an input: constant initializer or propagated value;
// nullopt (not an error) when its values are unknown.
inline std::optional<std::vector<int64_t>> input_ints(const Context& ctx, const Node& n, std::size_t i) {
  return ctx.int_values(n.input(i));
}
inline std::optional<std::vector<SymbolicDim>> input_dims(const Context& ctx, const Node& n, std::size_t i) {
  return ctx.symbolic_value(n.input(i));
}

// Product of dims[begin, end) (1 for none); unknown if any is unknown. All
// factors go to product_of at once, so the result does not depend on their
// order (a left fold may expand one pair of sums and not another).
inline SymbolicDim product(DimRange<const SymbolicDim> dims, std::size_t begin = 0, std::size_t end = SIZE_MAX) {
  end = std::min(end, dims.size());
  begin = std::min(begin, end);
  // The factors on the stack for most products (product_of multiplies
  // integers without building expressions).
  constexpr std::size_t kOnStack = 4;
  Expr on_stack[kOnStack];
  std::unique_ptr<Expr[]> on_heap(end - begin > kOnStack ? new Expr[end - begin] : nullptr);
  Expr* factors = on_heap ? on_heap.get() : on_stack;
  for (std::size_t i = begin; i < end; ++i) {
    if (dims[i].is_unknown()) return dims[i];  // (keeping an overflow mark)
    factors[i - begin] = dims[i].expr();
  }
  return SymbolicDim(product_of(factors, end - begin));
}
inline SymbolicDim product(DimRange<SymbolicDim> dims, std::size_t begin = 0, std::size_t end = SIZE_MAX) {
  return product(DimRange<const SymbolicDim>(dims), begin, end);
}
inline SymbolicDim product(const std::vector<SymbolicDim>& dims, std::size_t begin = 0, std::size_t end = SIZE_MAX) {
  return product(DimRange<const SymbolicDim>(dims.data(), dims.size()), begin, end);
}

// A computed dim in the shortest form the prover finds by taking its
// symbols' smallest values apart (simplified_by_cases, expr/prove.hpp).
inline SymbolicDim simplest_proven(const SymbolicDim& d) {
  return d.is_symbolic() ? SymbolicDim(simplified_by_cases(d.expr())) : d;
}

// max(a, b) and min(a, b) of computed values, settled by the prover when
// one side always wins. The expression builder drops a dominated argument
// by bounds alone, since it runs on every dim; a value such as the TF-SAME
// pad max(0, 2*((H+3)//4) - (H+1)//2 + 3) needs the linear proof to lose
// its max, and the dims built from it stay short.
inline SymbolicDim proven_extremum(const SymbolicDim& a, const SymbolicDim& b, bool is_max) {
  // (The built form may be a sum: max(h//2, (h-1)//2) is max((h+1)//2, h//2+1)-1.)
  SymbolicDim built = is_max ? dim_max(a, b) : dim_min(a, b);
  if (!built.is_symbolic() || built == a || built == b) return built;
  if (prove_ge(a.expr(), b.expr())) return is_max ? a : b;
  if (prove_ge(b.expr(), a.expr())) return is_max ? b : a;
  return simplest_proven(built);
}
inline SymbolicDim proven_max(const SymbolicDim& a, const SymbolicDim& b) { return proven_extremum(a, b, true); }
inline SymbolicDim proven_min(const SymbolicDim& a, const SymbolicDim& b) { return proven_extremum(a, b, false); }

// Output i gets the type of input j (shape and dtype passthrough).
inline void propagate_type(Context& ctx, Node& n, std::size_t out = 0, std::size_t in = 0) {
  if (n.output(out) && n.input(in)) ctx.set_type(n.output(out), n.input(in)->type);
}

}  // namespace symshape
