// Binary and variadic elementwise ops with numpy broadcasting: arithmetic,
// comparison (bool output), logic, and the variadic Max/Min/Sum/Mean.
#pragma once

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace elementwise_detail {

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

// Integral float values (common/tensor_values.hpp): Add, Sub, Mul, Div, Max and Min
// of known integers, when every result is an integer that the element type
// holds exactly (a Div that leaves a remainder gives no value).
inline void propagate_float_arithmetic(Context& ctx, Node& n, const std::vector<SymbolicDim>& a,
                                       const std::vector<SymbolicDim>& b) {
  const int64_t limit = exact_integer_limit(dtype_of(n.input(0)));
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
  if (is_float_type(dtype_of(n.input(0)))) {
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

}  // namespace elementwise_detail

inline void infer_arithmetic(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::UNDEFINED);
  elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_arithmetic, ai_onnx("Add", 7, 13, 14), ai_onnx("Sub", 7, 13, 14), ai_onnx("Mul", 7, 13, 14),
               ai_onnx("Div", 7, 13, 14), ai_onnx("Mod", 10, 13), ai_onnx("Pow", 7, 12, 13, 15),
               ai_onnx("BitShift", 11), ai_onnx("BitwiseAnd", 18), ai_onnx("BitwiseOr", 18), ai_onnx("BitwiseXor", 18));

inline void infer_comparison(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::BOOL);
  if (n.op_type == "Equal") elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_comparison, ai_onnx("Equal", 7, 11, 13, 19), ai_onnx("Less", 7, 9, 13),
               ai_onnx("Greater", 7, 9, 13), ai_onnx("LessOrEqual", 12, 16), ai_onnx("GreaterOrEqual", 12, 16));

inline void infer_logical(Context& ctx, Node& n) { elementwise_detail::infer_broadcast(ctx, n, DataType::BOOL); }
SYMSHAPE_RULES(infer_logical, ai_onnx("And", 7), ai_onnx("Or", 7), ai_onnx("Xor", 7));

inline void infer_variadic(Context& ctx, Node& n) {
  elementwise_detail::infer_broadcast(ctx, n, DataType::UNDEFINED);
  if (n.inputs.size() == 2) elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_variadic, ai_onnx("Max", 8, 12, 13), ai_onnx("Min", 8, 12, 13), ai_onnx("Sum", 8, 13),
               ai_onnx("Mean", 8, 13));

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
  elementwise_detail::propagate_arithmetic(ctx, n);
}
SYMSHAPE_RULES(infer_legacy_broadcast, ai_onnx("Add", 1, 6), ai_onnx("Sub", 1, 6), ai_onnx("Mul", 1, 6),
               ai_onnx("Div", 1, 6), ai_onnx("Pow", 1), ai_onnx("Equal", 1), ai_onnx("Less", 1), ai_onnx("Greater", 1),
               ai_onnx("And", 1), ai_onnx("Or", 1), ai_onnx("Xor", 1), ai_onnx("Max", 1, 6), ai_onnx("Min", 1, 6),
               ai_onnx("Sum", 1, 6), ai_onnx("Mean", 1, 6));

// PRelu: slope is broadcast to X (unidirectionally): the output is X.
inline void infer_prelu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_prelu, ai_onnx("PRelu", 1, 6, 7, 9, 16));

inline constexpr auto kElementwiseRules =
    family_rules<infer_legacy_broadcast_rules, infer_arithmetic_rules, infer_prelu_rules, infer_comparison_rules,
                 infer_logical_rules, infer_variadic_rules>("symshape/ops/elementwise.hpp");

}  // namespace symshape::ops
