// Normalisation layers: BatchNormalization (inference and training
// variants), LayerNormalization (with Mean/InvStdDev), GroupNormalization,
// InstanceNormalization and RMSNormalization (23).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace normalization_detail {

// The channel dim C of X (dim 1; 1 for a 1-D X), else the first dim of a per-channel input.
inline SymbolicDim channel_dim(const Node& n, const Shape* x, std::size_t per_channel_input) {
  SymbolicDim c;
  if (x) c = x->rank() >= 2 ? (*x)[1] : SymbolicDim(1);
  const Shape* s = shape_of(n.input(per_channel_input));
  if (c.is_unknown() && s && s->rank() == 1) c = (*s)[0];
  return c;
}

// A per-channel input must be 1-D of `c` elements when both are known.
inline bool check_per_channel(Context& ctx, const Node& n, std::size_t i, const SymbolicDim& c, const char* what) {
  const Shape* s = shape_of(n.input(i));
  if (!s) return true;
  if (s->rank() != 1 || ((*s)[0].is_int() && c.is_int() && (*s)[0] != c)) {
    ctx.record_error(n, {what, " must have shape [", c, "], got ", *s});
    return false;
  }
  return true;
}

// The four per-channel inputs 1..4 of BatchNormalization, named `names`.
inline bool check_batch_norm_inputs(Context& ctx, const Node& n, const SymbolicDim& c,
                                    const std::array<const char*, 4>& names) {
  for (std::size_t i = 1; i < 5; ++i)
    if (!check_per_channel(ctx, n, i, c, names[i - 1])) return false;
  return true;
}

}  // namespace normalization_detail

// BatchNormalization 1..9: Y and the optional mean, var, saved_mean,
// saved_var of shape [C] (X[1:] with spatial=0 before 9), all of X's type.
inline void infer_batch_norm_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 5)) return;
  const Shape* x = shape_of(n.input(0));
  const SymbolicDim c = normalization_detail::channel_dim(n, x, 1);
  const bool spatial = ctx.attr_int(n, "spatial", 1) != 0;
  if (spatial && !normalization_detail::check_batch_norm_inputs(ctx, n, c, {"scale", "B", "mean", "var"})) return;
  propagate_type(ctx, n);
  Shape stats = Shape({c});
  if (!spatial)
    stats =
        x ? Shape(std::vector<SymbolicDim>(x->dims().begin() + (x->rank() >= 1 ? 1 : 0), x->dims().end())) : Shape();
  for (std::size_t o = 1; o < 5; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), stats, dtype_of(n.input(0)));
}
// (x - mean) / sqrt(var + eps) * scale + B with given statistics: 4 per element.
inline FlopCount count_batch_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 4)); }
SYMSHAPE_RULES(infer_batch_norm_1, ai_onnx("BatchNormalization", 1, 6, 7, 9).cost(count_batch_norm));

// BatchNormalization 14/15: training_mode; running_mean and running_var
// ([C], type of input_mean) only in training mode.
inline void infer_batch_norm_14(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 5)) return;
  const Shape* x = shape_of(n.input(0));
  const SymbolicDim c = normalization_detail::channel_dim(n, x, 1);
  if (!normalization_detail::check_batch_norm_inputs(ctx, n, c, {"scale", "B", "input_mean", "input_var"})) return;
  const bool training = ctx.attr_int(n, "training_mode", 0) != 0;
  if (!training && (n.output(1) || n.output(2)))
    return ctx.record_error(n, "running_mean and running_var are outputs only with training_mode=1");
  propagate_type(ctx, n);
  for (std::size_t o = 1; o < 3; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), Shape({c}), dtype_of(n.input(3)));
}
SYMSHAPE_RULES(infer_batch_norm_14, ai_onnx("BatchNormalization", 14, 15).cost(count_batch_norm));

// LayerNormalization 17: Y like X; Mean and InvStdDev of shape
// X[:axis] + [1]*(rank-axis) with the stash_type element type (FLOAT).
inline void infer_layer_norm(Context& ctx, Node& n) {
  const auto [input, scale] = ctx.inputs(n, "X", "Scale");
  if (!input) return;
  const Shape* x = shape_of(input);
  const int64_t stash_code = ctx.attr_int(n, "stash_type", static_cast<int64_t>(DataType::FLOAT));
  const auto stash = element_type_from_code(stash_code);
  if (!stash) return ctx.record_error(n, {"invalid stash_type ", stash_code});
  Shape stats;
  if (x) {
    auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), x->rank());
    if (!axis) return;
    std::vector<SymbolicDim> d(x->dims().begin(), x->dims().begin() + *axis);
    d.resize(x->size(), SymbolicDim(1));
    stats = Shape(std::move(d));
  }
  propagate_type(ctx, n);
  for (std::size_t o = 1; o < 3; ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), stats, *stash);
}
SYMSHAPE_RULES(infer_layer_norm, ai_onnx("LayerNormalization", 17).cost(count_layer_norm));

namespace normalization_detail {
// GroupNormalization: X [N, C, ...]; scale and bias have num_groups (18) or C (21) elements.
enum class GroupNormParams { PerGroup, PerChannel };
inline void group_norm(Context& ctx, Node& n, GroupNormParams per_channel) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Attribute* g = require_attr(ctx, n, "num_groups");
  if (!g) return;
  if (g->kind != Attribute::Kind::Int || g->i < 1) return ctx.record_error(n, "num_groups must be a positive integer");
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() < 2) return ctx.record_error(n, {"X must have rank >= 2 (N, C, ...), got ", *x});
  const SymbolicDim c = x ? (*x)[1] : SymbolicDim();
  if (c.is_int() && c.value() % g->i != 0)
    return ctx.record_error(n, {"channels ", c, " are not divisible by num_groups ", g->i});
  const SymbolicDim expected = per_channel == GroupNormParams::PerChannel ? c : SymbolicDim(g->i);
  if (!check_per_channel(ctx, n, 1, expected, "scale") || !check_per_channel(ctx, n, 2, expected, "bias")) return;
  propagate_type(ctx, n);
}
}  // namespace normalization_detail

inline void infer_group_norm_18(Context& ctx, Node& n) {
  normalization_detail::group_norm(ctx, n, normalization_detail::GroupNormParams::PerGroup);
}
SYMSHAPE_RULES(infer_group_norm_18, ai_onnx("GroupNormalization", 18).cost(count_instance_norm));
inline void infer_group_norm_21(Context& ctx, Node& n) {
  normalization_detail::group_norm(ctx, n, normalization_detail::GroupNormParams::PerChannel);
}
SYMSHAPE_RULES(infer_group_norm_21, ai_onnx("GroupNormalization", 21).cost(count_instance_norm));

// InstanceNormalization: input, scale [C], B [C]; Y like input.
inline void infer_instance_norm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2 (N, C, ...), got ", *x});
  const SymbolicDim c = x ? (*x)[1] : SymbolicDim();
  if (!normalization_detail::check_per_channel(ctx, n, 1, c, "scale") ||
      !normalization_detail::check_per_channel(ctx, n, 2, c, "B"))
    return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_instance_norm, ai_onnx("InstanceNormalization", 1, 6, 22).cost(count_instance_norm));

// RMSNormalization (23): Y has X's shape and the scale's element type;
// `axis` (default -1) must be in range.
inline void infer_rms_normalization(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && !normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), x->rank())) return;
  DataType t = dtype_of(n.input(1));
  if (t == DataType::UNDEFINED) t = dtype_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), t);
}
SYMSHAPE_RULES(infer_rms_normalization, ai_onnx("RMSNormalization", 23).cost(count_layer_norm));

inline constexpr auto kNormalizationRules =
    family_rules<infer_batch_norm_1_rules, infer_batch_norm_14_rules, infer_layer_norm_rules, infer_group_norm_18_rules,
                 infer_group_norm_21_rules, infer_instance_norm_rules, infer_rms_normalization_rules>(
        "symshape/ops/normalization.hpp");

}  // namespace symshape::ops
