// Binary and variadic elementwise ops with numpy broadcasting: arithmetic,
// comparison (bool output), logic, and the variadic Max/Min/Sum/Mean.
#pragma once

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/shape_ops.hpp"

namespace symshape::ops {

namespace detail {

// Broadcasts all present inputs; the output dtype is `out_type`, or the
// first input's when UNDEFINED.
inline void infer_broadcast(Context& ctx, Node& n, DataType out_type) {
  if (!check_inputs(ctx, n, n.op_type == "Max" || n.op_type == "Min" || n.op_type == "Sum" || n.op_type == "Mean" ? 1 : 2))
    return;
  DataType dtype = out_type != DataType::UNDEFINED ? out_type : dtype_of(n.input(0));
  Shape shape;
  bool first = true;
  for (const Value* in : n.inputs) {
    if (!in) continue;
    const Shape& s = in->type.is_tensor() ? in->type.shape() : Shape();
    if (first) {
      shape = s;
      first = false;
      continue;
    }
    auto b = broadcast_shapes(ctx, n, shape, s);
    if (!b) return;
    shape = *b;
  }
  ctx.set_shape_and_dtype(n.output(0), shape, dtype);
}

// Integral float values (shape_ops.hpp): Add, Sub, Mul, Div, Max and Min
// of known integers, when every result is an integer that the element type
// holds exactly (a Div that leaves a remainder gives no value).
inline void propagate_float_arithmetic(Context& ctx, Node& n, const std::vector<SymbolicDim>& a,
                                       const std::vector<SymbolicDim>& b) {
  const int64_t limit = tensor_detail::exact_integer_limit(dtype_of(n.input(0)));
  const std::size_t len = std::max(a.size(), b.size());
  std::vector<SymbolicDim> out;
  for (std::size_t i = 0; i < len; ++i) {
    const SymbolicDim& x = a[a.size() == 1 ? 0 : i];
    const SymbolicDim& y = b[b.size() == 1 ? 0 : i];
    if (!x.is_int() || !y.is_int()) return;
    const int64_t p = x.value(), q = y.value();
    int64_t r = 0;
    const std::string& op = n.op_type;
    bool ok = true;
    if (op == "Add") ok = checked::add(p, q, r);
    else if (op == "Sub") ok = checked::sub(p, q, r);
    else if (op == "Mul") ok = checked::mul(p, q, r);
    else if (op == "Div") ok = q != 0 && p % q == 0 && (r = p / q, true);
    else if (op == "Max") r = std::max(p, q);
    else if (op == "Min") r = std::min(p, q);
    else ok = false;
    if (!ok || r > limit || r < -limit) return;
    out.push_back(r);
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

// Partial data propagation of integer arithmetic on small 1-D tensors.
inline void propagate_arithmetic(Context& ctx, Node& n) {
  if (n.inputs.size() < 2) return;
  auto a = ctx.symbolic_value(n.input(0));
  auto b = ctx.symbolic_value(n.input(1));
  if (!a || !b) return;
  if (a->size() != b->size() && a->size() != 1 && b->size() != 1) return;
  if (tensor_detail::is_float_type(dtype_of(n.input(0)))) {
    propagate_float_arithmetic(ctx, n, *a, *b);
    return;
  }
  if (!is_integer_type(dtype_of(n.input(0)))) return;
  const std::size_t len = std::max(a->size(), b->size());
  std::vector<SymbolicDim> out(len);
  for (std::size_t i = 0; i < len; ++i) {
    const SymbolicDim& x = (*a)[a->size() == 1 ? 0 : i];
    const SymbolicDim& y = (*b)[b->size() == 1 ? 0 : i];
    const std::string& op = n.op_type;
    if (op == "Add") out[i] = x + y;
    else if (op == "Sub") out[i] = x - y;
    else if (op == "Mul") out[i] = x * y;
    else if (op == "Div") {
      // ONNX integer Div truncates; it equals floor division when both are >= 0.
      if (x.is_known() && y.is_known() && prove_ge(x.expr(), 0) && prove_ge(y.expr(), 1)) out[i] = x / y;
    } else if (op == "Mod") {
      if (n.attr_int("fmod", 0) == 0) out[i] = x % y;  // Python-style sign of the divisor
    } else if (op == "Max") out[i] = dim_max(x, y);
    else if (op == "Min") out[i] = dim_min(x, y);
    else if (op == "Equal") {
      if (x.is_known() && y.is_known() && x == y) out[i] = 1;
      else if (x.is_int() && y.is_int()) out[i] = 0;
    }
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

}  // namespace detail

inline void infer_arithmetic(Context& ctx, Node& n) {
  detail::infer_broadcast(ctx, n, DataType::UNDEFINED);
  detail::propagate_arithmetic(ctx, n);
}

inline void infer_comparison(Context& ctx, Node& n) {
  detail::infer_broadcast(ctx, n, DataType::BOOL);
  if (n.op_type == "Equal") detail::propagate_arithmetic(ctx, n);
}

inline void infer_logical(Context& ctx, Node& n) { detail::infer_broadcast(ctx, n, DataType::BOOL); }

inline void infer_variadic(Context& ctx, Node& n) {
  detail::infer_broadcast(ctx, n, DataType::UNDEFINED);
  if (n.inputs.size() == 2) detail::propagate_arithmetic(ctx, n);
}

// Before opset 7 (and Max/Min/Sum/Mean before 8), B was broadcast to A only
// when the `broadcast` attribute said so (else the shapes had to be equal):
// the output has A's shape either way.
inline void infer_legacy_broadcast(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const bool bool_out = n.op_type == "Less" || n.op_type == "Greater" || n.op_type == "Equal" ||
                        n.op_type == "And" || n.op_type == "Or" || n.op_type == "Xor";
  const Value* a = n.input(0);
  ctx.set_shape_and_dtype(n.output(0), a->type.is_tensor() ? a->type.shape() : Shape(),
                          bool_out ? DataType::BOOL : dtype_of(a));
  detail::propagate_arithmetic(ctx, n);
}

// PRelu: slope is broadcast to X (unidirectionally): the output is X.
inline void infer_prelu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  propagate_type(ctx, n);
}

inline constexpr auto kElementwiseRules = make_rules({
    RuleEntry{"", "Add", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Add", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Add", 7, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Add", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Add", 14, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Sub", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Sub", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Sub", 7, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Sub", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Sub", 14, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Mul", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Mul", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Mul", 7, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Mul", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Mul", 14, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Div", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Div", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Div", 7, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Div", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Div", 14, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Mod", 10, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Mod", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Pow", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Pow", 7, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Pow", 12, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Pow", 13, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "Pow", 15, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "BitShift", 11, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "BitwiseAnd", 18, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "BitwiseOr", 18, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "BitwiseXor", 18, &infer_arithmetic, "infer_arithmetic"},
    RuleEntry{"", "PRelu", 1, &infer_prelu, "infer_prelu"},
    RuleEntry{"", "PRelu", 6, &infer_prelu, "infer_prelu"},
    RuleEntry{"", "PRelu", 7, &infer_prelu, "infer_prelu"},
    RuleEntry{"", "PRelu", 9, &infer_prelu, "infer_prelu"},
    RuleEntry{"", "PRelu", 16, &infer_prelu, "infer_prelu"},
    RuleEntry{"", "Equal", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Equal", 7, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Equal", 11, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Equal", 13, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Equal", 19, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Less", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Less", 7, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Less", 9, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Less", 13, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Greater", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Greater", 7, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Greater", 9, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "Greater", 13, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "LessOrEqual", 12, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "LessOrEqual", 16, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "GreaterOrEqual", 12, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "GreaterOrEqual", 16, &infer_comparison, "infer_comparison"},
    RuleEntry{"", "And", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "And", 7, &infer_logical, "infer_logical"},
    RuleEntry{"", "Or", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Or", 7, &infer_logical, "infer_logical"},
    RuleEntry{"", "Xor", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Xor", 7, &infer_logical, "infer_logical"},
    RuleEntry{"", "Max", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Max", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Max", 8, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Max", 12, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Max", 13, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Min", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Min", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Min", 8, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Min", 12, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Min", 13, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Sum", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Sum", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Sum", 8, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Sum", 13, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Mean", 1, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Mean", 6, &infer_legacy_broadcast, "infer_legacy_broadcast"},
    RuleEntry{"", "Mean", 8, &infer_variadic, "infer_variadic"},
    RuleEntry{"", "Mean", 13, &infer_variadic, "infer_variadic"},
});

}  // namespace symshape::ops
