// ai.onnx.preview.training: Adagrad, Momentum, Adam (outputs mirror the
// optimized tensors and their accumulators) and Gradient (one output per
// `xs` name, typed like that value).
#pragma once

#include <string>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

namespace training_detail {
// Inputs R, T, then `groups` groups of n tensors (X, G, then one or two
// accumulators); outputs: X_new (n), then one per accumulator group (n
// each), typed like X and the accumulators.
inline void optimizer(Context& ctx, Node& n, std::size_t groups) {
  if (!check_inputs(ctx, n, 2 + groups)) return;
  const std::size_t tensors = n.inputs.size() - 2;
  if (tensors % groups != 0)
    return ctx.record_error(
        n, {"expected R, T and ", groups, " groups of equally many tensors, got ", n.inputs.size(), " inputs"});
  const std::size_t count = tensors / groups;
  if (n.outputs.size() > count * (groups - 1))
    return ctx.record_error(n, {"expected at most ", count * (groups - 1), " outputs, got ", n.outputs.size()});
  for (std::size_t o = 0; o < n.outputs.size(); ++o) {
    const std::size_t group = o / count;  // 0: X, 1..: accumulators (input groups 2..)
    const std::size_t in = 2 + (group == 0 ? 0 : group + 1) * count + o % count;
    if (n.output(o) && n.input(in)) ctx.set_type(n.output(o), n.input(in)->type);
  }
}
}  // namespace training_detail

// Adagrad: R, T, X..., G..., H... -> X_new..., H_new...
inline void infer_adagrad(Context& ctx, Node& n) { training_detail::optimizer(ctx, n, 3); }
SYMSHAPE_RULES(infer_adagrad, ai_onnx_preview_training("Adagrad", 1));
// Momentum: R, T, X..., G..., V... -> X_new..., V_new...
inline void infer_momentum(Context& ctx, Node& n) { training_detail::optimizer(ctx, n, 3); }
SYMSHAPE_RULES(infer_momentum, ai_onnx_preview_training("Momentum", 1));
// Adam: R, T, X..., G..., V..., H... -> X_new..., V_new..., H_new...
inline void infer_adam(Context& ctx, Node& n) { training_detail::optimizer(ctx, n, 4); }
SYMSHAPE_RULES(infer_adam, ai_onnx_preview_training("Adam", 1));

// Gradient: output i is dY/dxs[i], typed like xs[i] (found among the node's
// inputs by name; otherwise left unknown).
inline void infer_gradient(Context& ctx, Node& n) {
  const Attribute* xs = require_attr(ctx, n, "xs", Attribute::Kind::Strings);
  if (!xs) return;
  if (!require_attr(ctx, n, "y")) return;
  if (n.outputs.size() > xs->strings.size())
    return ctx.record_error(n,
                            {"expected at most ", xs->strings.size(), " outputs (one per xs), got ", n.outputs.size()});
  for (std::size_t o = 0; o < n.outputs.size(); ++o) {
    if (!n.output(o)) continue;
    for (const Value* v : n.inputs)
      if (v && v->name == xs->strings[o]) {
        ctx.set_type(n.output(o), v->type);
        break;
      }
  }
}
SYMSHAPE_RULES(infer_gradient, ai_onnx_preview_training("Gradient", 1));

inline constexpr auto kTrainingRules =
    family_rules<infer_adagrad_rules, infer_momentum_rules, infer_adam_rules, infer_gradient_rules>(
        "symshape/ops/training.hpp");

}  // namespace symshape::ops
