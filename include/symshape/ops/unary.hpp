// Unary ops that keep the input's shape: Identity (any type, values pass
// through), math functions, activations, Clip,
// the bool-valued tests (Not, IsNaN, IsInf), Dropout (with its optional
// mask), and the axis-wise normalisers Softmax/LogSoftmax/Hardmax,
// LpNormalization, MeanVarianceNormalization and LRN.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace unary_detail {

// floor(p / q) for q != 0.
inline int64_t floor_div(int64_t p, int64_t q) {
  const int64_t d = p / q;
  return (p % q != 0 && ((p < 0) != (q < 0))) ? d - 1 : d;
}

// The unary ops whose values propagate, parsed once from the op type.
enum class ValueOp { Relu, Ceil, Floor, Round, None };
inline ValueOp value_op(const std::string& op) {
  if (op == "Relu") return ValueOp::Relu;
  if (op == "Ceil") return ValueOp::Ceil;
  if (op == "Floor") return ValueOp::Floor;
  if (op == "Round") return ValueOp::Round;
  return ValueOp::None;
}

// max(0, x) of a known value.
inline SymbolicDim relu(const SymbolicDim& x) { return proven_max(x, 0); }

// Ceil/Floor of a float Div of known integers is the exactly rounded
// quotient (the expanded Range: Ceil((limit - start) / delta)), though the
// quotient itself has no value; nullopt when the input is no such Div.
inline std::optional<Dims> rounded_quotient(const Context& ctx, const Value* in, bool floor) {
  const Node* div = in->producer;
  if (!div || div->op_type != "Div" || !is_float_type(dtype_of(div->input(0)))) return std::nullopt;
  auto a = ctx.symbolic_value(div->input(0));
  auto b = ctx.symbolic_value(div->input(1));
  if (!a || !b) return std::nullopt;
  return broadcast_values(*a, *b, [floor](const SymbolicDim& x, const SymbolicDim& y) -> std::optional<SymbolicDim> {
    if (!x.is_int() || !y.is_int() || y.value() == 0) return std::nullopt;
    const int64_t f = floor_div(x.value(), y.value());
    return SymbolicDim(floor || f * y.value() == x.value() ? f : f + 1);
  });
}

// Round (half to even) of fractions num / den: an odd den has no ties, so
// it is floor((2*num + den) / (2*den)); with an even den only integers are
// rounded (a symbolic num may land on a tie).
inline Dims round_half_even(const Rationals& r) {
  Dims out;
  for (const auto& x : r.num) {
    int64_t twice = 0, below = 0;
    if (r.den % 2 == 1 && x.is_known() && checked::mul(r.den, 2, twice)) {
      out.push_back((x * SymbolicDim(2) + SymbolicDim(r.den)) / SymbolicDim(twice));
    } else if (x.is_int() && checked::mul(floor_div(x.value(), r.den), r.den, below)) {
      int64_t f = floor_div(x.value(), r.den);
      const int64_t rem = x.value() - below;  // in [0, den)
      if (rem > r.den - rem || (rem == r.den - rem && f % 2 != 0)) ++f;
      out.emplace_back(f);
    } else {
      out.emplace_back();
    }
  }
  return out;
}

// Values through Relu (integers and integral floats, max(0, x)) and
// Ceil/Floor/Round (integral floats stay the same), or the rounded quotient.
inline void propagate_values(Context& ctx, Node& n) {
  const ValueOp op = value_op(n.op_type);
  if (op == ValueOp::None) return;
  const DataType dt = dtype_of(n.input(0));
  const bool is_float = is_float_type(dt);
  if (!is_float && !(op == ValueOp::Relu && is_integer_type(dt) && dt != DataType::BOOL)) return;
  auto v = ctx.symbolic_value(n.input(0));
  bool complete = v.has_value();
  for (std::size_t i = 0; complete && i < v->size(); ++i) complete = (*v)[i].is_known();
  if (complete) {
    Dims out;
    for (const SymbolicDim& x : *v) out.push_back(op == ValueOp::Relu ? relu(x) : x);
    ctx.set_symbolic_value(n.output(0), std::move(out));
    return;
  }
  if (!is_float || op == ValueOp::Relu) return;
  if (auto r = ctx.rational_value(n.input(0)); r && r->den != 1)
    return ctx.set_symbolic_value(
        n.output(0), op == ValueOp::Round ? round_half_even(*r) : round_rationals(*r, op == ValueOp::Floor));
  if (op == ValueOp::Round) return;
  if (auto q = rounded_quotient(ctx, n.input(0), op == ValueOp::Floor))
    ctx.set_symbolic_value(n.output(0), std::move(*q));
}

}  // namespace unary_detail

// Output 0 has the type (shape and dtype) of input 0.
inline void infer_unary(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n);
  unary_detail::propagate_values(ctx, n);
}
SYMSHAPE_RULES(infer_unary, ai_onnx("Ceil", 1, 6, 13).cost(count_elementwise),
               ai_onnx("Floor", 1, 6, 13).cost(count_elementwise), ai_onnx("Round", 11, 22).cost(count_elementwise),
               ai_onnx("Relu", 1, 6, 13, 14).cost(count_elementwise),
               ai_onnx("LeakyRelu", 1, 6, 16).cost(count_elementwise), ai_onnx("Elu", 1, 6, 22).cost(count_elementwise),
               ai_onnx("Selu", 1, 6, 22).cost(count_elementwise), ai_onnx("Celu", 12).cost(count_elementwise),
               ai_onnx("Sigmoid", 1, 6, 13).cost(count_elementwise),
               ai_onnx("HardSigmoid", 1, 6, 22).cost(count_elementwise),
               ai_onnx("HardSwish", 14, 22).cost(count_elementwise), ai_onnx("Tanh", 1, 6, 13).cost(count_elementwise),
               ai_onnx("Exp", 1, 6, 13).cost(count_elementwise), ai_onnx("Log", 1, 6, 13).cost(count_elementwise),
               ai_onnx("Sqrt", 1, 6, 13).cost(count_elementwise),
               ai_onnx("Reciprocal", 1, 6, 13).cost(count_elementwise), ai_onnx("Sin", 7, 22).cost(count_elementwise),
               ai_onnx("Cos", 7, 22).cost(count_elementwise), ai_onnx("Tan", 7, 22).cost(count_elementwise),
               ai_onnx("Asin", 7, 22).cost(count_elementwise), ai_onnx("Acos", 7, 22).cost(count_elementwise),
               ai_onnx("Atan", 7, 22).cost(count_elementwise), ai_onnx("Sinh", 9, 22).cost(count_elementwise),
               ai_onnx("Cosh", 9, 22).cost(count_elementwise), ai_onnx("Asinh", 9, 22).cost(count_elementwise),
               ai_onnx("Acosh", 9, 22).cost(count_elementwise), ai_onnx("Atanh", 9, 22).cost(count_elementwise),
               ai_onnx("Erf", 9, 13).cost(count_elementwise), ai_onnx("Sign", 9, 13).cost(count_elementwise),
               ai_onnx("Softplus", 1, 22).cost(count_elementwise), ai_onnx("Softsign", 1, 22).cost(count_elementwise),
               ai_onnx("Shrink", 9).cost(count_elementwise), ai_onnx("ThresholdedRelu", 10, 22).cost(count_elementwise),
               ai_onnx("Mish", 18, 22).cost(count_elementwise), ai_onnx("Swish", 24),
               ai_onnx("Gelu", 20).cost(count_elementwise), ai_onnx("BitwiseNot", 18).cost(count_elementwise));

// Neg and Abs also carry values (shape arithmetic such as -seq, in integers
// or in floats: arange(seq - 1, -seq, -1.0)): Neg negates; Abs is max(x,-x)
// unless x is provably >= 0.
inline void infer_neg_abs(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n);
  const DataType dt = dtype_of(n.input(0));
  if (!(is_integer_type(dt) && dt != DataType::BOOL) && !is_float_type(dt)) return;
  auto v = ctx.rational_value(n.input(0));
  if (!v) return;
  const bool neg = n.op_type == "Neg";
  Dims out(v->num.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const SymbolicDim& x = v->num[i];
    if (neg)
      out[i] = SymbolicDim(0) - x;
    else if (x.is_int())
      out[i] = x.value() < 0 ? SymbolicDim(0) - x : x;
    else if (x.is_known())
      out[i] = prove_ge(x.expr(), Expr(0)) ? x : dim_max(x, SymbolicDim(0) - x);
  }
  ctx.set_rational_value(n.output(0), {std::move(out), v->den});
}
SYMSHAPE_RULES(infer_neg_abs, ai_onnx("Abs", 1, 6, 13).cost(count_elementwise),
               ai_onnx("Neg", 1, 6, 13).cost(count_elementwise));

// Same shape, BOOL elements (Not, IsNaN, IsInf); Not negates known booleans.
inline void infer_unary_bool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), DataType::BOOL);
  auto v = ctx.symbolic_value(n.input(0));
  if (n.op_type != "Not" || !v) return;
  Dims out;
  for (const SymbolicDim& x : *v) out.push_back(x.is_int() ? SymbolicDim(x.value() == 0 ? 1 : 0) : SymbolicDim());
  ctx.set_symbolic_value(n.output(0), std::move(out));
}
SYMSHAPE_RULES(infer_unary_bool, ai_onnx("Not", 1).cost(count_elementwise),
               ai_onnx("IsNaN", 9, 13, 20).cost(count_elementwise), ai_onnx("IsInf", 10, 20).cost(count_elementwise));

// Clip 1/6 (min/max attributes) and 11+ (min/max optional inputs, which must be scalars).
namespace unary_detail {
// The bound of Clip given by input `i` (opset 11) or attribute `name` (before):
// absent is no bound (nullopt in `bound`); false when it is given but its value
// is unknown or not a whole number.
inline bool clip_bound(const Context& ctx, const Node& n, std::size_t i, const char* name,
                       std::optional<SymbolicDim>& bound) {
  if (i < n.inputs.size() && n.input(i)) {
    auto v = ctx.symbolic_value(n.input(i));
    if (!v || v->size() != 1 || !(*v)[0].is_known()) return false;
    bound = (*v)[0];
    return true;
  }
  const Attribute* a = n.attr(name);
  if (!a) return true;
  if (a->kind != Attribute::Kind::Float || a->f != std::floor(a->f) || std::fabs(a->f) > 9.0e15) return false;
  bound = SymbolicDim(static_cast<int64_t>(a->f));
  return true;
}

// Clip of known values (a computed pad `clamp(k - L, min=0)`): each element is
// min(max(x, lo), hi), an absent bound leaving that side alone.
inline void clip_values(Context& ctx, Node& n) {
  auto v = ctx.symbolic_value(n.input(0));
  if (!v) return;
  std::optional<SymbolicDim> lo, hi;
  if (!clip_bound(ctx, n, 1, "min", lo) || !clip_bound(ctx, n, 2, "max", hi)) return;
  Dims out;
  for (const SymbolicDim& x : *v) {
    SymbolicDim y = x;
    if (lo) y = proven_max(y, *lo);
    if (hi) y = proven_min(y, *hi);
    out.push_back(std::move(y));
  }
  ctx.set_symbolic_value(n.output(0), std::move(out));
}
}  // namespace unary_detail

inline void infer_clip(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 3)) return;
  for (std::size_t i = 1; i < 3; ++i) {
    const Shape* s = shape_of(n.input(i));
    if (s && !is_scalar_like(*s))
      return ctx.record_error(n, {(i == 1 ? "min" : "max"), " must be a scalar, got shape ", *s});
  }
  propagate_type(ctx, n);
  unary_detail::clip_values(ctx, n);
}
SYMSHAPE_RULES(infer_clip, ai_onnx("Clip", 1, 6, 11, 12, 13).cost(count_elementwise));

namespace unary_detail {
enum class DropoutMask { InputType, Bool };  // the mask's element type
inline void infer_dropout(Context& ctx, Node& n, DropoutMask mask, std::size_t max_inputs) {
  if (!check_inputs(ctx, n, 1, max_inputs)) return;
  propagate_type(ctx, n);
  if (n.output(1)) {
    const Shape* s = shape_of(n.input(0));
    ctx.set_shape_and_dtype(n.output(1), s ? *s : Shape(),
                            mask == DropoutMask::Bool ? DataType::BOOL : dtype_of(n.input(0)));
  }
  if (n.inputs.size() > 1) {  // opset 12: ratio and training_mode are scalars
    for (std::size_t i = 1; i < 3; ++i) {
      const Shape* s = shape_of(n.input(i));
      if (s && s->rank() != 0)
        return ctx.record_error(n, {(i == 1 ? "ratio" : "training_mode"), " must be a scalar, got shape ", *s});
    }
  }
}

// Checks an axis attribute against the input rank; Always: also the default.
enum class AxisCheck { WhenGiven, Always };
inline bool check_axis_attr(Context& ctx, Node& n, int64_t default_axis, AxisCheck always) {
  const Shape* s = shape_of(n.input(0));
  if (!s) return true;
  if (always == AxisCheck::WhenGiven && !n.attr("axis")) return true;
  return normalize_axis(ctx, n, ctx.attr_int(n, "axis", default_axis), s->rank()).has_value();
}
}  // namespace unary_detail

// Dropout 1..7: the optional mask has the input's element type.
inline void infer_dropout_1(Context& ctx, Node& n) {
  unary_detail::infer_dropout(ctx, n, unary_detail::DropoutMask::InputType, 1);
}
SYMSHAPE_RULES(infer_dropout_1, ai_onnx("Dropout", 1, 6, 7).cost(count_none));
// Dropout 10: BOOL mask.
inline void infer_dropout_10(Context& ctx, Node& n) {
  unary_detail::infer_dropout(ctx, n, unary_detail::DropoutMask::Bool, 1);
}
SYMSHAPE_RULES(infer_dropout_10, ai_onnx("Dropout", 10).cost(count_none));
// Dropout 12: optional ratio and training_mode inputs.
inline void infer_dropout_12(Context& ctx, Node& n) {
  unary_detail::infer_dropout(ctx, n, unary_detail::DropoutMask::Bool, 3);
}
SYMSHAPE_RULES(infer_dropout_12, ai_onnx("Dropout", 12, 13, 22).cost(count_none));

// Softmax, LogSoftmax, Hardmax 1 and 11: 2-D coercion at `axis` (default 1).
inline void infer_softmax_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!unary_detail::check_axis_attr(ctx, n, 1, unary_detail::AxisCheck::WhenGiven)) return;
  propagate_type(ctx, n);
}
// max, subtract, exp, sum, divide: 5 per element.
inline FlopCount count_softmax(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 5)); }
SYMSHAPE_RULES(infer_softmax_1, ai_onnx("Softmax", 1, 11).cost(count_softmax),
               ai_onnx("LogSoftmax", 1, 11).cost(count_softmax), ai_onnx("Hardmax", 1, 11).cost(count_per_input));
// 13: along one axis (default -1); the shape is unchanged either way.
inline void infer_softmax_13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!unary_detail::check_axis_attr(ctx, n, -1, unary_detail::AxisCheck::Always)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_softmax_13, ai_onnx("Softmax", 13).cost(count_softmax),
               ai_onnx("LogSoftmax", 13).cost(count_softmax), ai_onnx("Hardmax", 13).cost(count_per_input));

// LpNormalization: along `axis` (default -1).
inline void infer_lp_normalization(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  if (!unary_detail::check_axis_attr(ctx, n, -1, unary_detail::AxisCheck::WhenGiven)) return;
  propagate_type(ctx, n);
}
// Square, add, divide per element.
inline FlopCount count_lp_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 3)); }
SYMSHAPE_RULES(infer_lp_normalization, ai_onnx("LpNormalization", 1, 22).cost(count_lp_norm));

// MeanVarianceNormalization: axes attribute (default {0, 2, 3}).
inline void infer_mvn(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (s) {
    if (auto axes = ctx.attr_ints(n, "axes")) {
      if (!normalize_axes(ctx, n, *axes, s->rank())) return;
    }
  }
  propagate_type(ctx, n);
}
inline FlopCount count_mvn(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 5)); }
SYMSHAPE_RULES(infer_mvn, ai_onnx("MeanVarianceNormalization", 9, 13).cost(count_mvn));

// LRN: `size` is required.
inline void infer_lrn(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* size = require_attr(ctx, n, "size");
  if (!size) return;
  if (size->kind != Attribute::Kind::Int || size->i < 1) return ctx.record_error(n, "size must be a positive integer");
  propagate_type(ctx, n);
}
// A square-sum over `size` channels, then a scale, power and divide.
inline FlopCount count_lrn(const Node& n, const CountContext&) {
  return counted(per_element(n.input(0), n.attr_int("size", 1) + 3));
}
SYMSHAPE_RULES(infer_lrn, ai_onnx("LRN", 1, 13).cost(count_lrn));

inline void infer_identity(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  propagate_type(ctx, n, 0, 0);
  copy_value(ctx, n);
}
SYMSHAPE_RULES(infer_identity, ai_onnx("Identity", 1, 13, 14, 16, 19, 21, 23, 24, 25).cost(count_none));

inline constexpr auto kUnaryRules =
    family_rules<infer_unary_rules, infer_neg_abs_rules, infer_unary_bool_rules, infer_clip_rules,
                 infer_dropout_1_rules, infer_dropout_10_rules, infer_dropout_12_rules, infer_softmax_1_rules,
                 infer_softmax_13_rules, infer_lp_normalization_rules, infer_mvn_rules, infer_lrn_rules,
                 infer_identity_rules>("symshape/ops/unary.hpp");

}  // namespace symshape::ops
