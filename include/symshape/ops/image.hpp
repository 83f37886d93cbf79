// Image ops: CenterCropPad (18), GridSample (16: 4-D; 20/22: N-D),
// AffineGrid (20) and ImageDecoder (20). Output sizes come from the values
// of the shape/size inputs when they are known (constants or propagated).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/grid_sample.hpp"

namespace symshape::ops {

// CenterCropPad: the dims at `axes` (default: all) become the values of
// `shape` (1-D, one per axis); the others are kept.
inline void infer_center_crop_pad(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* shape_shape = shape_of(n.input(1));
  if (shape_shape && shape_shape->rank() != 1)
    return ctx.record_error(n, {"shape must be 1-D, got shape ", *shape_shape});
  const DataType t = dtype_of(n.input(0));
  auto values = input_dims(ctx, n, 1);
  std::optional<int64_t> count;
  if (values)
    count = static_cast<int64_t>(values->size());
  else if (shape_shape && (*shape_shape)[0].is_int())
    count = (*shape_shape)[0].value();
  auto axes_attr = ctx.attr_ints(n, "axes");
  if (!x) {
    if (!axes_attr && values)
      ctx.set_shape_and_dtype(n.output(0), Shape(*values), t);
    else
      ctx.set_shape_and_dtype(n.output(0), Shape(), t);
    return;
  }
  std::vector<int64_t> axes;
  if (axes_attr) {
    auto norm = normalize_axes(ctx, n, *axes_attr, x->rank());
    if (!norm) return;
    axes = *norm;
    for (std::size_t i = 0; i < axes.size(); ++i)
      for (std::size_t j = i + 1; j < axes.size(); ++j)
        if (axes[i] == axes[j]) return ctx.record_error(n, {"axes contains ", axes[i], " twice"});
  } else {
    for (int64_t i = 0; i < x->rank(); ++i) axes.push_back(i);
  }
  if (count && *count != static_cast<int64_t>(axes.size()))
    return ctx.record_error(n, {"shape has ", *count, " values for ", axes.size(), " axes of input ", *x});
  std::vector<SymbolicDim> out = x->dims();
  for (std::size_t i = 0; i < axes.size(); ++i) out[axes[i]] = values ? (*values)[i] : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), t);
}
SYMSHAPE_RULES(infer_center_crop_pad, ai_onnx("CenterCropPad", 18));

// GridSample 16: X [N, C, H, W], grid [N, H_out, W_out, 2] -> [N, C, H_out, W_out].
inline void infer_grid_sample_16(Context& ctx, Node& n) {
  grid_sample(ctx, n, GridRank::Only4D, {"bilinear", "nearest", "bicubic"});
}
SYMSHAPE_RULES(infer_grid_sample_16, ai_onnx("GridSample", 16));
// GridSample 20/22: X [N, C, D1..Dr], grid [N, D1_out..Dr_out, r] -> [N, C, D1_out..Dr_out].
inline void infer_grid_sample_20(Context& ctx, Node& n) {
  grid_sample(ctx, n, GridRank::AtLeast3D, {"linear", "nearest", "cubic"});
}
SYMSHAPE_RULES(infer_grid_sample_20, ai_onnx("GridSample", 20, 22));

// AffineGrid: theta [N, 2, 3] or [N, 3, 4]; size = (N, C, H, W) or
// (N, C, D, H, W) -> grid [N, H, W, 2] or [N, D, H, W, 3].
inline void infer_affine_grid(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* theta = shape_of(n.input(0));
  const Shape* size_shape = shape_of(n.input(1));
  if (theta && theta->rank() != 3) return ctx.record_error(n, {"theta must be 3-D, got shape ", *theta});
  auto size = input_dims(ctx, n, 1);
  // The number of size values (4 or 5), when known.
  std::optional<int64_t> count;
  if (size)
    count = static_cast<int64_t>(size->size());
  else if (size_shape && size_shape->rank() == 1 && (*size_shape)[0].is_int())
    count = (*size_shape)[0].value();
  if (!count && theta && (*theta)[1].is_int()) count = (*theta)[1].value() == 2 ? 4 : 5;
  if (count && *count != 4 && *count != 5)
    return ctx.record_error(n, {"size must have 4 (2-D) or 5 (3-D) values, got ", *count});
  const DataType t = dtype_of(n.input(0));
  if (!count) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), t);
    return;
  }
  const int64_t spatial = *count - 2;
  if (theta && (*theta)[1].is_int() && (*theta)[1].value() != spatial)
    return ctx.record_error(n, {"theta ", *theta, " does not match a ", spatial, "-D size"});
  if (theta && (*theta)[2].is_int() && (*theta)[2].value() != spatial + 1)
    return ctx.record_error(n, {"theta ", *theta, " must be [N, ", spatial, ", ", spatial + 1, "]"});
  std::vector<SymbolicDim> out;
  out.push_back(size ? (*size)[0] : SymbolicDim());
  if (out[0].is_unknown() && theta) out[0] = (*theta)[0];
  for (int64_t i = 2; i < *count; ++i) out.push_back(size ? (*size)[i] : SymbolicDim());
  out.emplace_back(spatial);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), t);
}
SYMSHAPE_RULES(infer_affine_grid, ai_onnx("AffineGrid", 20));

// ImageDecoder: a 1-D UINT8 byte stream -> UINT8 [H, W, C], H and W unknown,
// C = 3 for RGB/BGR (default RGB) and 1 for Grayscale.
inline void infer_image_decoder(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() != 1) return ctx.record_error(n, {"encoded_stream must be 1-D, got shape ", *s});
  const std::string format = ctx.attr_string(n, "pixel_format", "RGB");
  int64_t channels = 0;
  if (format == "RGB" || format == "BGR")
    channels = 3;
  else if (format == "Grayscale")
    channels = 1;
  else {
    return ctx.record_error(n, {"pixel_format must be RGB, BGR or Grayscale, got '", format, "'"});
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(), SymbolicDim(), SymbolicDim(channels)}), DataType::UINT8);
}
SYMSHAPE_RULES(infer_image_decoder, ai_onnx("ImageDecoder", 20));

inline constexpr auto kImageRules =
    family_rules<infer_center_crop_pad_rules, infer_grid_sample_16_rules, infer_grid_sample_20_rules,
                 infer_affine_grid_rules, infer_image_decoder_rules>("symshape/ops/image.hpp");

}  // namespace symshape::ops
