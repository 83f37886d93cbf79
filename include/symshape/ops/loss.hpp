// Loss functions: NegativeLogLikelihoodLoss (12, 13, 22) and
// SoftmaxCrossEntropyLoss (12, 13, with its optional log_prob output).
#pragma once

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

// NegativeLogLikelihoodLoss: input [N, C, d1..dk], target [N, d1..dk],
// weight [C]; reduction none -> target's shape, mean/sum -> scalar.
inline void infer_nll_loss(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const std::string reduction = n.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "mean" && reduction != "sum")
    return ctx.record_error(n, "reduction must be none, mean or sum, got '" + reduction + "'");
  const Shape* x = shape_of(n.input(0));
  const Shape* target = shape_of(n.input(1));
  if (x && x->rank() < 2)
    return ctx.record_error(n, "input must have rank >= 2 [N, C, ...], got shape " + x->to_string());
  if (x && target && target->rank() != x->rank() - 1)
    return ctx.record_error(
        n, "target rank must be input rank - 1: input " + x->to_string() + ", target " + target->to_string());
  if (const Shape* w = shape_of(n.input(2)); w && w->rank() != 1)
    return ctx.record_error(n, "weight must be 1-D [C], got shape " + w->to_string());
  const DataType t = dtype_of(n.input(0));
  if (reduction != "none") {
    ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), t);
    return;
  }
  if (target) {
    ctx.set_shape_and_dtype(n.output(0), *target, t);
  } else if (x) {
    std::vector<SymbolicDim> d = x->dims();
    d.erase(d.begin() + 1);
    ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), t);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape(), t);
  }
}
SYMSHAPE_RULES(infer_nll_loss, ai_onnx("NegativeLogLikelihoodLoss", 12, 13, 22));

// SoftmaxCrossEntropyLoss: the inputs, reduction and output rule of
// NegativeLogLikelihoodLoss (scores [N, C, d1..dk], labels [N, d1..dk]), plus
// the optional log_prob output with the scores' shape.
inline void infer_softmax_cross_entropy_loss(Context& ctx, Node& n) {
  const std::size_t diagnostics_before = ctx.report().diagnostics.size();
  infer_nll_loss(ctx, n);
  if (ctx.report().diagnostics.size() != diagnostics_before || !n.output(1)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(1), x ? *x : Shape(), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_softmax_cross_entropy_loss, ai_onnx("SoftmaxCrossEntropyLoss", 12, 13));

inline constexpr auto kLossRules =
    family_rules<infer_nll_loss_rules, infer_softmax_cross_entropy_loss_rules>("symshape/ops/loss.hpp");

}  // namespace symshape::ops
