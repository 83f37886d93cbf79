// Convolutions: Conv, ConvInteger (INT32), QLinearConv (type of
// y_zero_point), ConvTranspose, DeformConv, Col2Im and CausalConvWithState
// (27). Pooling is in pool.hpp; both read their windows with
// common/window.hpp, which also gives the spatial output sizes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/window.hpp"

namespace symshape::ops {

inline void infer_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  conv_common(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_conv, ai_onnx("Conv", 1, 11, 22).cost(count_conv));

// ConvInteger: x, w, optional zero points; INT32 output.
inline void infer_conv_integer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  conv_common(ctx, n, 0, 1, DataType::INT32);
}
SYMSHAPE_RULES(infer_conv_integer, ai_onnx("ConvInteger", 10).cost(count_conv));

// QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B.
inline void infer_qlinear_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 8, 9)) return;
  conv_common(ctx, n, 0, 3, dtype_of(n.input(7)));
}
SYMSHAPE_RULES(infer_qlinear_conv, ai_onnx("QLinearConv", 10).cost(count_conv));

// DeformConv: X, W, offset, B, mask; explicit pads only.
inline void infer_deform_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 5)) return;
  conv_common(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_deform_conv, ai_onnx("DeformConv", 19, 22));

// ConvTranspose: X, W, [B]; the shape is conv_transpose's (common/window.hpp).
inline void infer_conv_transpose(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  conv_transpose(ctx, n, ExtraPads::None, std::nullopt);
}
// Every input element is multiplied by a kernel of M/group x prod(kernel)
// outputs (W is [C, M/group, k...]): 2 x numel(X) x M/group x prod(kernel),
// plus numel(Y) for the bias.
inline FlopCount count_conv_transpose(const Node& n, const CountContext&) {
  SymbolicDim flops = SymbolicDim(2) * numel(n.input(0)) * dims_from(n.input(1), 1);
  if (n.input(2)) flops = flops + numel(n.output(0));
  return counted(flops);
}
SYMSHAPE_RULES(infer_conv_transpose, ai_onnx("ConvTranspose", 1, 11, 22).cost(count_conv_transpose));

// Col2Im: input [N, C*prod(block_shape), L], image_shape, block_shape -> [N, C, image_shape...].
inline void infer_col2im(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 3) return ctx.record_error(n, {"input must be 3-D [N, C*prod(block_shape), L], got ", *x});
  auto image = input_dims(ctx, n, 1);
  auto block = input_dims(ctx, n, 2);
  std::size_t k = 0;
  if (image)
    k = image->size();
  else if (block)
    k = block->size();
  else if (const Shape* s = shape_of(n.input(1)); s && s->rank() == 1 && (*s)[0].is_int())
    k = static_cast<std::size_t>((*s)[0].value());
  else {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  if (image && block && image->size() != block->size())
    return ctx.record_error(n, "image_shape and block_shape have different lengths");
  SymbolicDim channels;
  if (x && block) {
    const SymbolicDim p = product(*block);
    if (p.is_int() && p.value() <= 0) return ctx.record_error(n, "block_shape must have positive values");
    if ((*x)[1].is_int() && p.is_int() && (*x)[1].value() % p.value() != 0)
      return ctx.record_error(n, {"input dim 1 (", (*x)[1], ") is not a multiple of prod(block_shape) = ", p});
    channels = (*x)[1] / p;
  }
  std::vector<SymbolicDim> out{x ? (*x)[0] : SymbolicDim(), channels};
  for (std::size_t i = 0; i < k; ++i) out.push_back(image ? (*image)[i] : SymbolicDim());
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_col2im, ai_onnx("Col2Im", 18));

// CausalConvWithState (27): input [B, C, L], weight [C, 1, k], optional
// bias [C] and past_state [B, C, k-1]. Outputs: output (input's shape) and
// present_state [B, C, k-1].
inline void infer_causal_conv_with_state(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  if (x && x->rank() != 3) return ctx.record_error(n, {"input must be 3-D [B, C, L], got shape ", *x});
  if (w && w->rank() != 3) return ctx.record_error(n, {"weight must be 3-D [C, 1, k], got shape ", *w});
  const std::string act = ctx.attr_string(n, "activation", "none");
  if (act != "none" && act != "silu" && act != "swish")
    return ctx.record_error(n, {"activation must be 'silu', 'swish' or 'none', got '", act, "'"});
  if (x && w && (*x)[1].is_int() && (*w)[0].is_int() && (*x)[1] != (*w)[0])
    return ctx.record_error(n, {"weight has ", (*w)[0], " channels, input has ", (*x)[1]});
  propagate_type(ctx, n);
  const Shape* past = shape_of(n.input(3));
  SymbolicDim batch = dim_at(x, 0), channels = dim_at(x, 1), state;
  if (batch.is_unknown()) batch = dim_at(past, 0);
  if (channels.is_unknown()) channels = dim_at(w, 0);
  if (w) state = (*w)[2] - 1;
  if (state.is_unknown()) state = dim_at(past, 2);
  ctx.set_shape_and_dtype(n.output(1), Shape({batch, channels, state}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_causal_conv_with_state, ai_onnx("CausalConvWithState", 27));

inline constexpr auto kConvRules =
    family_rules<infer_conv_rules, infer_conv_integer_rules, infer_qlinear_conv_rules, infer_deform_conv_rules,
                 infer_conv_transpose_rules, infer_col2im_rules, infer_causal_conv_with_state_rules>(
        "symshape/ops/conv.hpp");

}  // namespace symshape::ops
