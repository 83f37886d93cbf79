// Loss functions: NegativeLogLikelihoodLoss (12, 13, 22) and
// SoftmaxCrossEntropyLoss (12, 13, with its optional log_prob output).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace loss_detail {

enum class Reduction { None, Mean, Sum };

// The `reduction` attribute (default mean); nullopt after the error for
// another word.
inline Maybe<Reduction> reduction_attr(Context& ctx, const Node& n) {
  const std::string reduction = ctx.attr_string(n, "reduction", "mean");
  if (reduction == "none") return Reduction::None;
  if (reduction == "mean") return Reduction::Mean;
  if (reduction == "sum") return Reduction::Sum;
  ctx.record_error(n, {"reduction must be none, mean or sum, got '", reduction, "'"});
  return std::nullopt;
}

// The loss output (output 0) shared by both losses: input [N, C, d1..dk],
// target [N, d1..dk], weight [C]; reduction none -> target's shape,
// mean/sum -> scalar. False after an error in the inputs.
inline bool loss_output(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return false;
  auto reduction = reduction_attr(ctx, n);
  if (!reduction) return false;
  const Shape* x = shape_of(n.input(0));
  const Shape* target = shape_of(n.input(1));
  if (x && x->rank() < 2) {
    ctx.record_error(n, {"input must have rank >= 2 [N, C, ...], got shape ", *x});
    return false;
  }
  if (x && target && target->rank() != x->rank() - 1) {
    ctx.record_error(n, {"target rank must be input rank - 1: input ", *x, ", target ", *target});
    return false;
  }
  if (const Shape* w = shape_of(n.input(2)); w && w->rank() != 1) {
    ctx.record_error(n, {"weight must be 1-D [C], got shape ", *w});
    return false;
  }
  const DataType t = dtype_of(n.input(0));
  Shape out;
  if (*reduction != Reduction::None) {
    out = Shape::scalar();
  } else if (target) {
    out = *target;
  } else if (x) {
    std::vector<SymbolicDim> d = x->dims();
    d.erase(d.begin() + 1);
    out = Shape(std::move(d));
  }
  ctx.set_shape_and_dtype(n.output(0), std::move(out), t);
  return true;
}

}  // namespace loss_detail

// NegativeLogLikelihoodLoss: the loss output alone.
inline void infer_nll_loss(Context& ctx, Node& n) { loss_detail::loss_output(ctx, n); }
SYMSHAPE_RULES(infer_nll_loss, ai_onnx("NegativeLogLikelihoodLoss", 12, 13, 22));

// SoftmaxCrossEntropyLoss: the inputs, reduction and output rule of
// NegativeLogLikelihoodLoss (scores [N, C, d1..dk], labels [N, d1..dk]), plus
// the optional log_prob output with the scores' shape.
inline void infer_softmax_cross_entropy_loss(Context& ctx, Node& n) {
  if (!loss_detail::loss_output(ctx, n) || !n.output(1)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(1), x ? *x : Shape(), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_softmax_cross_entropy_loss, ai_onnx("SoftmaxCrossEntropyLoss", 12, 13));

inline constexpr auto kLossRules =
    family_rules<infer_nll_loss_rules, infer_softmax_cross_entropy_loss_rules>("symshape/ops/loss.hpp");

}  // namespace symshape::ops
