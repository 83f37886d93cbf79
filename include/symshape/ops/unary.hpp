// Unary ops that keep the input's shape: math functions, activations, Clip,
// the bool-valued tests (Not, IsNaN, IsInf), Dropout (with its optional
// mask), and the axis-wise normalisers Softmax/LogSoftmax/Hardmax,
// LpNormalization, MeanVarianceNormalization and LRN.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/shape_ops.hpp"

namespace symshape::ops {

namespace unary_detail {

// floor(p / q) for q != 0.
inline int64_t floor_div(int64_t p, int64_t q) {
  const int64_t d = p / q;
  return (p % q != 0 && ((p < 0) != (q < 0))) ? d - 1 : d;
}

// Values through Relu (integers and integral floats, max(0, x)) and
// Ceil/Floor/Round (integral floats stay). Ceil/Floor of a float Div of
// known integers is the exactly rounded quotient (the expanded Range:
// Ceil((limit - start) / delta)), though the quotient itself has no value.
inline void propagate_values(Context& ctx, Node& n) {
  const std::string& op = n.op_type;
  const bool relu = op == "Relu", rounding = op == "Ceil" || op == "Floor" || op == "Round";
  if (!relu && !rounding) return;
  const DataType dt = dtype_of(n.input(0));
  const bool is_float = tensor_detail::is_float_type(dt);
  if (!is_float && !(relu && is_integer_type(dt) && dt != DataType::BOOL)) return;
  auto v = ctx.symbolic_value(n.input(0));
  bool complete = v.has_value();
  for (std::size_t i = 0; complete && i < v->size(); ++i) complete = (*v)[i].is_known();
  if (complete) {
    std::vector<SymbolicDim> out;
    for (const SymbolicDim& x : *v) {
      if (!relu) out.push_back(x);
      else if (x.is_int()) out.push_back(x.value() < 0 ? 0 : x.value());
      else out.push_back(prove_ge(x.expr(), Expr(0)) ? x : dim_max(x, 0));
    }
    ctx.set_symbolic_value(n.output(0), std::move(out));
    return;
  }
  if (!is_float || (op != "Ceil" && op != "Floor")) return;
  const Node* div = n.input(0)->producer;
  if (!div || div->op_type != "Div" || !tensor_detail::is_float_type(dtype_of(div->input(0)))) return;
  auto a = ctx.symbolic_value(div->input(0));
  auto b = ctx.symbolic_value(div->input(1));
  if (!a || !b || (a->size() != b->size() && a->size() != 1 && b->size() != 1)) return;
  std::vector<SymbolicDim> out;
  for (std::size_t i = 0; i < std::max(a->size(), b->size()); ++i) {
    const SymbolicDim& x = (*a)[a->size() == 1 ? 0 : i];
    const SymbolicDim& y = (*b)[b->size() == 1 ? 0 : i];
    if (!x.is_int() || !y.is_int() || y.value() == 0) return;
    const int64_t f = floor_div(x.value(), y.value());
    out.push_back(op == "Floor" || f * y.value() == x.value() ? f : f + 1);
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

}  // namespace unary_detail

// Output 0 has the type (shape and dtype) of input 0.
inline void infer_unary(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n);
  unary_detail::propagate_values(ctx, n);
}

// Neg and Abs also carry integer values (shape arithmetic such as -seq):
// Neg negates; Abs keeps values provably >= 0 and folds integers.
inline void infer_neg_abs(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n);
  auto v = ctx.symbolic_value(n.input(0));
  if (!v || !is_integer_type(dtype_of(n.input(0)))) return;
  const bool neg = n.op_type == "Neg";
  std::vector<SymbolicDim> out(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) {
    const SymbolicDim& x = (*v)[i];
    if (neg) out[i] = SymbolicDim(0) - x;
    else if (x.is_int()) out[i] = x.value() < 0 ? SymbolicDim(0) - x : x;
    else if (x.is_known() && prove_ge(x.expr(), Expr(0))) out[i] = x;
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}

// Same shape, BOOL elements (Not, IsNaN, IsInf).
inline void infer_unary_bool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), DataType::BOOL);
}

// Clip 1/6 (min/max attributes) and 11+ (min/max optional inputs, which must be scalars).
inline void infer_clip(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 3)) return;
  for (std::size_t i = 1; i < 3; ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && s->rank() != 0 && !(s->rank() == 1 && (*s)[0].is_int(1))) {
      ctx.record_error(n, std::string(i == 1 ? "min" : "max") + " must be a scalar, got shape " + s->to_string());
      return;
    }
  }
  propagate_type(ctx, n);
}

namespace nn_detail {
inline void infer_dropout(Context& ctx, Node& n, bool bool_mask, std::size_t max_inputs) {
  if (!check_inputs(ctx, n, 1, max_inputs)) return;
  propagate_type(ctx, n);
  if (n.output(1)) {
    const Shape* s = shape_of(n.input(0));
    ctx.set_shape_and_dtype(n.output(1), s ? *s : Shape(), bool_mask ? DataType::BOOL : dtype_of(n.input(0)));
  }
  if (n.inputs.size() > 1) {  // opset 12: ratio and training_mode are scalars
    for (std::size_t i = 1; i < 3; ++i) {
      const Shape* s = shape_of(n.input(i));
      if (s && s->rank() != 0) {
        ctx.record_error(n, std::string(i == 1 ? "ratio" : "training_mode") + " must be a scalar, got shape " +
                                s->to_string());
        return;
      }
    }
  }
}

// Checks an axis attribute against the input rank. `always`: also check the default.
inline bool check_axis_attr(Context& ctx, Node& n, int64_t default_axis, bool always) {
  const Shape* s = shape_of(n.input(0));
  if (!s) return true;
  if (!always && !n.attr("axis")) return true;
  return normalize_axis(ctx, n, n.attr_int("axis", default_axis), s->rank()).has_value();
}
}  // namespace nn_detail

// Dropout 1..7: the optional mask has the input's element type.
inline void infer_dropout_1(Context& ctx, Node& n) { nn_detail::infer_dropout(ctx, n, false, 1); }
// Dropout 10: BOOL mask.
inline void infer_dropout_10(Context& ctx, Node& n) { nn_detail::infer_dropout(ctx, n, true, 1); }
// Dropout 12: optional ratio and training_mode inputs.
inline void infer_dropout_12(Context& ctx, Node& n) { nn_detail::infer_dropout(ctx, n, true, 3); }

// Softmax, LogSoftmax, Hardmax 1 and 11: 2-D coercion at `axis` (default 1).
inline void infer_softmax_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!nn_detail::check_axis_attr(ctx, n, 1, false)) return;
  propagate_type(ctx, n);
}
// 13: along one axis (default -1); the shape is unchanged either way.
inline void infer_softmax_13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!nn_detail::check_axis_attr(ctx, n, -1, true)) return;
  propagate_type(ctx, n);
}

// LpNormalization: along `axis` (default -1).
inline void infer_lp_normalization(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!nn_detail::check_axis_attr(ctx, n, -1, false)) return;
  propagate_type(ctx, n);
}

// MeanVarianceNormalization: axes attribute (default {0, 2, 3}).
inline void infer_mvn(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (s) {
    if (auto axes = n.attr_ints("axes")) {
      if (!normalize_axes(ctx, n, *axes, s->rank())) return;
    }
  }
  propagate_type(ctx, n);
}

// LRN: `size` is required.
inline void infer_lrn(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* size = require_attr(ctx, n, "size");
  if (!size) return;
  if (size->kind != Attribute::Kind::Int || size->i < 1) {
    ctx.record_error(n, "size must be a positive integer");
    return;
  }
  propagate_type(ctx, n);
}

inline constexpr auto kUnaryRules = make_rules({
    RuleEntry{"", "Abs", 1, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Abs", 6, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Abs", 13, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Neg", 1, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Neg", 6, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Neg", 13, &infer_neg_abs, "infer_neg_abs"},
    RuleEntry{"", "Ceil", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Ceil", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Ceil", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Floor", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Floor", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Floor", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Round", 11, &infer_unary, "infer_unary"},
    RuleEntry{"", "Round", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Relu", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Relu", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Relu", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Relu", 14, &infer_unary, "infer_unary"},
    RuleEntry{"", "LeakyRelu", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "LeakyRelu", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "LeakyRelu", 16, &infer_unary, "infer_unary"},
    RuleEntry{"", "Elu", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Elu", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Elu", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Selu", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Selu", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Selu", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Celu", 12, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sigmoid", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sigmoid", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sigmoid", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "HardSigmoid", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "HardSigmoid", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "HardSigmoid", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "HardSwish", 14, &infer_unary, "infer_unary"},
    RuleEntry{"", "HardSwish", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Tanh", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Tanh", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Tanh", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Exp", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Exp", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Exp", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Log", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Log", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Log", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sqrt", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sqrt", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sqrt", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Reciprocal", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Reciprocal", 6, &infer_unary, "infer_unary"},
    RuleEntry{"", "Reciprocal", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sin", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sin", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Cos", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Cos", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Tan", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Tan", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Asin", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Asin", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Acos", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Acos", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Atan", 7, &infer_unary, "infer_unary"},
    RuleEntry{"", "Atan", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sinh", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sinh", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Cosh", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Cosh", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Asinh", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Asinh", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Acosh", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Acosh", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Atanh", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Atanh", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Erf", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Erf", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sign", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "Sign", 13, &infer_unary, "infer_unary"},
    RuleEntry{"", "Softplus", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Softplus", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Softsign", 1, &infer_unary, "infer_unary"},
    RuleEntry{"", "Softsign", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Shrink", 9, &infer_unary, "infer_unary"},
    RuleEntry{"", "ThresholdedRelu", 10, &infer_unary, "infer_unary"},
    RuleEntry{"", "ThresholdedRelu", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Mish", 18, &infer_unary, "infer_unary"},
    RuleEntry{"", "Mish", 22, &infer_unary, "infer_unary"},
    RuleEntry{"", "Swish", 24, &infer_unary, "infer_unary"},
    RuleEntry{"", "Gelu", 20, &infer_unary, "infer_unary"},
    RuleEntry{"", "BitwiseNot", 18, &infer_unary, "infer_unary"},
    RuleEntry{"", "Clip", 1, &infer_clip, "infer_clip"},
    RuleEntry{"", "Clip", 6, &infer_clip, "infer_clip"},
    RuleEntry{"", "Clip", 11, &infer_clip, "infer_clip"},
    RuleEntry{"", "Clip", 12, &infer_clip, "infer_clip"},
    RuleEntry{"", "Clip", 13, &infer_clip, "infer_clip"},
    RuleEntry{"", "Not", 1, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "IsNaN", 9, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "IsNaN", 13, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "IsNaN", 20, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "IsInf", 10, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "IsInf", 20, &infer_unary_bool, "infer_unary_bool"},
    RuleEntry{"", "Dropout", 1, &infer_dropout_1, "infer_dropout_1"},
    RuleEntry{"", "Dropout", 6, &infer_dropout_1, "infer_dropout_1"},
    RuleEntry{"", "Dropout", 7, &infer_dropout_1, "infer_dropout_1"},
    RuleEntry{"", "Dropout", 10, &infer_dropout_10, "infer_dropout_10"},
    RuleEntry{"", "Dropout", 12, &infer_dropout_12, "infer_dropout_12"},
    RuleEntry{"", "Dropout", 13, &infer_dropout_12, "infer_dropout_12"},
    RuleEntry{"", "Dropout", 22, &infer_dropout_12, "infer_dropout_12"},
    RuleEntry{"", "Softmax", 1, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "Softmax", 11, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "Softmax", 13, &infer_softmax_13, "infer_softmax_13"},
    RuleEntry{"", "LogSoftmax", 1, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "LogSoftmax", 11, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "LogSoftmax", 13, &infer_softmax_13, "infer_softmax_13"},
    RuleEntry{"", "Hardmax", 1, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "Hardmax", 11, &infer_softmax_1, "infer_softmax_1"},
    RuleEntry{"", "Hardmax", 13, &infer_softmax_13, "infer_softmax_13"},
    RuleEntry{"", "LpNormalization", 1, &infer_lp_normalization, "infer_lp_normalization"},
    RuleEntry{"", "LpNormalization", 22, &infer_lp_normalization, "infer_lp_normalization"},
    RuleEntry{"", "MeanVarianceNormalization", 9, &infer_mvn, "infer_mvn"},
    RuleEntry{"", "MeanVarianceNormalization", 13, &infer_mvn, "infer_mvn"},
    RuleEntry{"", "LRN", 1, &infer_lrn, "infer_lrn"},
    RuleEntry{"", "LRN", 13, &infer_lrn, "infer_lrn"},
});

}  // namespace symshape::ops
