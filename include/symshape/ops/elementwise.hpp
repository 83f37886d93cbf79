// Binary and variadic elementwise ops with numpy broadcasting: arithmetic,
// comparison (bool output), logic, and the variadic Max/Min/Sum/Mean.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace elementwise_detail {

// Broadcasts all present inputs (at least `min_inputs`); the output dtype is
// `out_type`, or the first input's when UNDEFINED.
inline void infer_broadcast(Context& ctx, Node& n, DataType out_type, std::size_t min_inputs) {
  if (!check_inputs(ctx, n, min_inputs)) return;
  DataType dtype = out_type != DataType::UNDEFINED ? out_type : dtype_of(n.input(0));
  // The shape so far is read in place until a broadcast makes one: no copy
  // of a shape other than the one the output keeps.
  const Shape unknown_rank;
  const Shape* so_far = nullptr;
  std::optional<Shape> made;
  for (const Value* in : n.inputs) {
    if (!in) continue;
    const Shape& s = in->type.is_tensor() ? in->type.shape() : unknown_rank;
    if (!so_far) {
      so_far = &s;
      continue;
    }
    made = broadcast_shapes(ctx, n, *so_far, s);
    if (!made) return;
    so_far = &*made;
  }
  if (made)
    ctx.set_shape_and_dtype(n.output(0), std::move(*made), dtype);
  else
    ctx.set_shape_and_dtype(n.output(0), so_far ? *so_far : unknown_rank, dtype);
}

// The operators whose values propagate, parsed once from the op type.
enum class ValueOp { Add, Sub, Mul, Div, Mod, Max, Min, Compare, Logic, None };
inline ValueOp value_op(std::string_view op) {
  static constexpr std::pair<std::string_view, ValueOp> ops[] = {
      {"Add", ValueOp::Add}, {"Sub", ValueOp::Sub}, {"Mul", ValueOp::Mul}, {"Div", ValueOp::Div},
      {"Mod", ValueOp::Mod}, {"Max", ValueOp::Max}, {"Min", ValueOp::Min}};
  if (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual")
    return ValueOp::Compare;
  if (op == "And" || op == "Or" || op == "Xor") return ValueOp::Logic;
  for (const auto& [name, v] : ops)
    if (op == name) return v;
  return ValueOp::None;
}

// Integral float values (common/tensor_values.hpp): Add, Sub, Mul, Div, Max
// and Min of known integers, when every result is an integer that the
// element type holds exactly (a Div that leaves a remainder gives no value).
inline std::optional<SymbolicDim> float_result(ValueOp op, const SymbolicDim& x, const SymbolicDim& y, int64_t limit) {
  if (!x.is_int() || !y.is_int()) return std::nullopt;
  const int64_t p = x.value(), q = y.value();
  int64_t r = 0;
  bool ok = true;
  switch (op) {
    case ValueOp::Add:
      ok = checked::add(p, q, r);
      break;
    case ValueOp::Sub:
      ok = checked::sub(p, q, r);
      break;
    case ValueOp::Mul:
      ok = checked::mul(p, q, r);
      break;
    case ValueOp::Div:
      ok = q != 0 && p % q == 0 && (r = p / q, true);
      break;
    case ValueOp::Max:
      r = std::max(p, q);
      break;
    case ValueOp::Min:
      r = std::min(p, q);
      break;
    default:
      ok = false;
  }
  if (!ok || r > limit || r < -limit) return std::nullopt;
  return SymbolicDim(r);
}

// Integer arithmetic on (possibly symbolic) values; unknown where the result
// cannot be expressed. `fmod`: Mod's attribute (C-style sign, not tracked).
inline SymbolicDim int_result(ValueOp op, const SymbolicDim& x, const SymbolicDim& y, bool fmod) {
  switch (op) {
    case ValueOp::Add:
      return x + y;
    case ValueOp::Sub:
      return x - y;
    case ValueOp::Mul:
      return x * y;
    case ValueOp::Div:
      // ONNX integer Div truncates toward zero (not floor: -7/2 is -3).
      if (!y.is_known()) return {};
      if (prove_ge(y.expr(), Expr(1))) return truncated_quotient(x, y);
      if (y.is_int() && y.value() < 0 && y.value() != INT64_MIN)
        return SymbolicDim(0) - truncated_quotient(x, SymbolicDim(-y.value()));
      return {};
    case ValueOp::Mod:
      if (!fmod) return x % y;  // Python-style: the sign of the divisor
      // fmod: the sign of the dividend, x - y * trunc(x / y), the same for -y.
      if (y.is_int() && y.value() < 0 && y.value() != INT64_MIN)
        return int_result(op, x, SymbolicDim(-y.value()), fmod);
      if (y.is_known() && prove_ge(y.expr(), Expr(1))) return x - y * truncated_quotient(x, y);
      return {};
    case ValueOp::Max:
      return proven_max(x, y);
    case ValueOp::Min:
      return proven_min(x, y);
    default:
      return {};
  }
}

// And/Or/Xor of booleans (0 or 1): a known false decides And and a known
// true decides Or whatever the other side is; else both must be known (an
// unknown element otherwise).
inline SymbolicDim logic_result(const std::string& op, const SymbolicDim& x, const SymbolicDim& y) {
  auto is = [](const SymbolicDim& d, bool v) { return d.is_int() && (d.value() != 0) == v; };
  if (op == "And" && (is(x, false) || is(y, false))) return SymbolicDim(0);
  if (op == "Or" && (is(x, true) || is(y, true))) return SymbolicDim(1);
  if (!x.is_int() || !y.is_int()) return SymbolicDim();
  const bool p = x.value() != 0, q = y.value() != 0;
  return SymbolicDim(op == "And" ? p && q : op == "Or" ? p || q : p != q);
}

// Float Add/Sub/Mul/Div whose values are not all whole numbers, as fractions
// (torch's computed Resize sizes: Cast(dim) * 2.5 -> Floor).
inline void propagate_fractions(Context& ctx, Node& n) {
  if (!is_float_type(dtype_of(n.input(0))) || !is_float_type(dtype_of(n.input(1)))) return;
  // A side without data has no value: then the other side's data (a bias of
  // zeros, say) is not decoded either.
  if (!Context::carries_data(n.input(0)) || !Context::carries_data(n.input(1))) return;
  auto a = ctx.rational_value(n.input(0));
  auto b = ctx.rational_value(n.input(1));
  if (!a || !b) return;
  auto r = rational_arithmetic(n.op_type, n.input(0), *a, n.input(1), *b);
  if (!r) return;
  // A known result must be a float of the type: |num / den| within the exact integers.
  int64_t bound = 0;
  if (!checked::mul(exact_integer_limit(dtype_of(n.input(0))), r->den, bound)) return;
  for (const SymbolicDim& x : r->num)
    if (x.is_int() && (x.value() > bound || x.value() < -bound)) return;
  ctx.set_rational_value(n.output(0), std::move(*r));
}

// Partial data propagation of arithmetic, comparisons and logic on small
// tensors of any rank (numpy broadcasting of their shapes). A comparison the
// prover cannot decide gives an unknown element.
inline void propagate_arithmetic(Context& ctx, Node& n) {
  if (n.inputs.size() < 2) return;
  auto a = ctx.symbolic_value(n.input(0));
  auto b = ctx.symbolic_value(n.input(1));
  if (!a && !b) return propagate_fractions(ctx, n);  // (most nodes: no values, whatever the op)
  const ValueOp op = value_op(n.op_type);
  if (op == ValueOp::Logic && (a || b)) {
    if (!a) a = unknown_elements(n.input(0));
    if (!b) b = unknown_elements(n.input(1));
  }
  if (!a || !b) return propagate_fractions(ctx, n);
  const DataType dtype = dtype_of(n.input(0));
  const auto broadcast = [&](auto f) { return broadcast_values_nd(n.input(0), *a, n.input(1), *b, f); };
  std::optional<Dims> out;
  if (op == ValueOp::Compare || op == ValueOp::Logic) {
    if (!is_float_type(dtype) && !is_integer_type(dtype)) return;
    out = broadcast([&](const SymbolicDim& x, const SymbolicDim& y) -> std::optional<SymbolicDim> {
      if (op == ValueOp::Logic) return std::optional<SymbolicDim>(logic_result(n.op_type, x, y));
      auto c = compare_values(n.op_type, x, y);
      return c ? SymbolicDim(*c ? 1 : 0) : SymbolicDim();  // undecided: unknown element
    });
  } else if (is_float_type(dtype)) {
    const int64_t limit = exact_integer_limit(dtype);
    out = broadcast([&](const SymbolicDim& x, const SymbolicDim& y) { return float_result(op, x, y, limit); });
  } else if (is_integer_type(dtype)) {
    const bool fmod = ctx.attr_int(n, "fmod", 0) != 0;
    out = broadcast([&](const SymbolicDim& x, const SymbolicDim& y) {
      return std::optional<SymbolicDim>(int_result(op, x, y, fmod));
    });
  }
  if (out) return ctx.set_symbolic_value(n.output(0), std::move(*out));
  if (is_float_type(dtype)) propagate_fractions(ctx, n);
}

}  // namespace elementwise_detail

inline void infer_arithmetic(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::UNDEFINED, 2);
  elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_arithmetic, ai_onnx("Add", 7, 13, 14).cost(count_elementwise),
               ai_onnx("Sub", 7, 13, 14).cost(count_elementwise), ai_onnx("Mul", 7, 13, 14).cost(count_elementwise),
               ai_onnx("Div", 7, 13, 14).cost(count_elementwise), ai_onnx("Mod", 10, 13).cost(count_elementwise),
               ai_onnx("Pow", 7, 12, 13, 15).cost(count_elementwise), ai_onnx("BitShift", 11).cost(count_elementwise),
               ai_onnx("BitwiseAnd", 18).cost(count_elementwise), ai_onnx("BitwiseOr", 18).cost(count_elementwise),
               ai_onnx("BitwiseXor", 18).cost(count_elementwise));

inline void infer_comparison(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::BOOL, 2);
  elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_comparison, ai_onnx("Equal", 7, 11, 13, 19).cost(count_elementwise),
               ai_onnx("Less", 7, 9, 13).cost(count_elementwise), ai_onnx("Greater", 7, 9, 13).cost(count_elementwise),
               ai_onnx("LessOrEqual", 12, 16).cost(count_elementwise),
               ai_onnx("GreaterOrEqual", 12, 16).cost(count_elementwise));

inline void infer_logical(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::BOOL, 2);
  elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_logical, ai_onnx("And", 7).cost(count_elementwise), ai_onnx("Or", 7).cost(count_elementwise),
               ai_onnx("Xor", 7).cost(count_elementwise));

inline void infer_variadic(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::UNDEFINED, 1);
  if (n.inputs.size() == 2) elementwise_detail::propagate_arithmetic(ctx, n);
}
// Sum/Max/Min over k inputs: k-1 per output element; Mean: k (the divide).
inline FlopCount count_variadic(const Node& n, const CountContext&) {
  const auto k = static_cast<int64_t>(present_inputs(n));
  return counted(per_element(n.output(0), n.op_type == "Mean" ? k : k - 1));
}
SYMSHAPE_RULES(infer_variadic, ai_onnx("Max", 8, 12, 13).cost(count_variadic),
               ai_onnx("Min", 8, 12, 13).cost(count_variadic), ai_onnx("Sum", 8, 13).cost(count_variadic),
               ai_onnx("Mean", 8, 13).cost(count_variadic));

// Before opset 7 (and Max/Min/Sum/Mean before 8), B was broadcast to A only
// when the `broadcast` attribute said so (else the shapes had to be equal):
// the output has A's shape either way.
inline void infer_legacy_broadcast(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const bool bool_out = n.op_type == "Less" || n.op_type == "Greater" || n.op_type == "Equal" || n.op_type == "And" ||
                        n.op_type == "Or" || n.op_type == "Xor";
  const Value* a = n.input(0);
  ctx.set_shape_and_dtype(n.output(0), a->type.is_tensor() ? a->type.shape() : Shape(),
                          bool_out ? DataType::BOOL : dtype_of(a));
  // With `axis`, B is aligned at that axis rather than at the end (not numpy).
  if (!n.attr("axis")) elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_legacy_broadcast, ai_onnx("Add", 1, 6).cost(count_elementwise),
               ai_onnx("Sub", 1, 6).cost(count_elementwise), ai_onnx("Mul", 1, 6).cost(count_elementwise),
               ai_onnx("Div", 1, 6).cost(count_elementwise), ai_onnx("Pow", 1).cost(count_elementwise),
               ai_onnx("Equal", 1).cost(count_elementwise), ai_onnx("Less", 1).cost(count_elementwise),
               ai_onnx("Greater", 1).cost(count_elementwise), ai_onnx("And", 1).cost(count_elementwise),
               ai_onnx("Or", 1).cost(count_elementwise), ai_onnx("Xor", 1).cost(count_elementwise),
               ai_onnx("Max", 1, 6).cost(count_variadic), ai_onnx("Min", 1, 6).cost(count_variadic),
               ai_onnx("Sum", 1, 6).cost(count_variadic), ai_onnx("Mean", 1, 6).cost(count_variadic));

// PRelu: slope is broadcast to X (unidirectionally): the output is X.
inline void infer_prelu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_prelu, ai_onnx("PRelu", 1, 6, 7, 9, 16).cost(count_elementwise));

inline constexpr auto kElementwiseRules =
    family_rules<infer_arithmetic_rules, infer_comparison_rules, infer_logical_rules, infer_variadic_rules,
                 infer_legacy_broadcast_rules, infer_prelu_rules>("symshape/ops/elementwise.hpp");

}  // namespace symshape::ops
