// Convolutions and pooling: Conv, ConvInteger (INT32), QLinearConv (type of
// y_zero_point), ConvTranspose, DeformConv, MaxPool (+ INT64 Indices),
// AveragePool, LpPool, the Global*Pool ops, MaxRoiPool, RoiAlign,
// MaxUnpool and Col2Im.
//
// Spatial output sizes are expressions of the input dims whenever kernel,
// strides, pads and dilations are known:
//   NOTSET/VALID: floor((in + pb + pe - d*(k-1) - 1) / s) + 1, written
//                 (in + pb + pe - d*(k-1) - 1 + s)//s; with ceil_mode
//                 (in + pb + pe - d*(k-1) - 1 + 2*s - 1)//s
//   SAME_UPPER/SAME_LOWER: ceil(in / s) = (in + s - 1)//s
// so that Conv k=3 s=2 p=1 maps H to (H+1)//2.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/support/small_vector.hpp"

namespace symshape::ops {

namespace nn_detail {

// An ints attribute of `count` values (default: `fill` each) into a vector
// of int64_t (std::vector or SmallVector); false after an error.
template <class Ints>
bool spatial_ints(Context& ctx, const Node& n, const char* name, std::size_t count, int64_t fill, Ints& out) {
  out.clear();
  out.resize(count, fill);
  const Attribute* a = n.attr(name);
  if (!a) return true;
  if (a->kind != Attribute::Kind::Ints) {
    ctx.usage_error(n, std::string("attribute '") + name + "' must be a list of integers");
    return false;
  }
  if (a->ints.size() != count) {
    ctx.record_error(n, std::string("attribute '") + name + "' has " + std::to_string(a->ints.size()) +
                            " values, expected " + std::to_string(count));
    return false;
  }
  out.assign(a->ints.begin(), a->ints.end());
  return true;
}

struct WindowAttrs {
  // pads: all begins, then all ends; inline up to 3 spatial dims.
  SmallVector<int64_t, 3> strides, dilations;
  SmallVector<int64_t, 6> pads;
  std::string auto_pad = "NOTSET";
  bool pads_given = false;
  bool ceil_mode = false;
};

// strides, dilations, pads, auto_pad and ceil_mode for `k` spatial dims.
inline bool read_window_attrs(Context& ctx, const Node& n, std::size_t k, WindowAttrs& w) {
  if (!spatial_ints(ctx, n, "strides", k, 1, w.strides) || !spatial_ints(ctx, n, "dilations", k, 1, w.dilations) ||
      !spatial_ints(ctx, n, "pads", 2 * k, 0, w.pads))
    return false;
  for (std::size_t i = 0; i < k; ++i) {
    if (w.strides[i] < 1 || w.dilations[i] < 1) {
      ctx.record_error(n, "strides and dilations must be positive");
      return false;
    }
  }
  w.pads_given = n.attr("pads") != nullptr;
  w.auto_pad = n.attr_string("auto_pad", "NOTSET");
  if (w.auto_pad != "NOTSET" && w.auto_pad != "VALID" && w.auto_pad != "SAME_UPPER" && w.auto_pad != "SAME_LOWER") {
    ctx.record_error(n, "unknown auto_pad '" + w.auto_pad + "'");
    return false;
  }
  // As in ONNX's reference inference, explicit pads take precedence over auto_pad.
  if (w.pads_given) w.auto_pad = "NOTSET";
  w.ceil_mode = n.attr_int("ceil_mode", 0) != 0;
  return true;
}

// One sliding-window output size; unknown when the kernel dim is unknown.
inline SymbolicDim window_out(const SymbolicDim& in, const SymbolicDim& k, const WindowAttrs& w, std::size_t i,
                              std::size_t rank) {
  const SymbolicDim s(w.strides[i]);
  if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") return (in + s - 1) / s;
  const SymbolicDim eff_k = (k - 1) * SymbolicDim(w.dilations[i]) + 1;
  const SymbolicDim pads = w.auto_pad == "VALID" ? SymbolicDim(0) : SymbolicDim(w.pads[i]) + SymbolicDim(w.pads[i + rank]);
  const SymbolicDim x = in + pads - eff_k;
  if (!w.ceil_mode) return (x + s) / s;
  // ceil_mode: ceil(x / s) + 1, but a window may not start in the right
  // padding (ONNX >= 1.16 and PyTorch: "sliding windows that would start in
  // the right padded region are ignored"): (out - 1)*s < in + pb.
  // That can only happen when s > eff_k - pe.
  const SymbolicDim out = (x + s + s - 1) / s;
  const SymbolicDim pe = w.auto_pad == "VALID" ? SymbolicDim(0) : SymbolicDim(w.pads[i + rank]);
  const SymbolicDim slack = eff_k - pe - s;
  if (slack.is_int() && slack.value() >= 0) return out;
  const SymbolicDim pb = w.auto_pad == "VALID" ? SymbolicDim(0) : SymbolicDim(w.pads[i]);
  const SymbolicDim bound = (in + pb - 1) / s + 1;
  if (out.is_int() && bound.is_int()) return out.value() > bound.value() ? bound : out;
  return dim_min(out, bound);
}

// Spatial output dims for input dims x[2:] and the kernel; nullopt after an error.
// Appends the spatial output sizes to `out`; false after an error.
inline bool window_output(Context& ctx, const Node& n, const Shape& x, const std::vector<SymbolicDim>& kernel,
                          const WindowAttrs& w, std::vector<SymbolicDim>& out) {
  const std::size_t k = kernel.size();
  for (std::size_t i = 0; i < k; ++i) {
    const SymbolicDim& o = out.emplace_back(window_out(x[i + 2], kernel[i], w, i, k));
    if (o.is_int() && o.value() < 1) {
      ctx.record_error(n, "spatial dim " + std::to_string(i) + " of size " + x[i + 2].to_string() +
                              " is smaller than the kernel (" + kernel[i].to_string() + ", dilation " +
                              std::to_string(w.dilations[i]) + ", pads " + std::to_string(w.pads[i]) + "+" +
                              std::to_string(w.pads[i + k]) + ")");
      return false;
    }
  }
  return true;
}

// The kernel_shape attribute (k values) or the weight's dims [2:]; unknown dims otherwise.
inline bool kernel_dims(Context& ctx, const Node& n, const Shape* w, std::size_t k, std::vector<SymbolicDim>& kernel) {
  kernel.assign(k, SymbolicDim());
  if (const Attribute* a = n.attr("kernel_shape")) {
    if (a->kind != Attribute::Kind::Ints || a->ints.size() != k) {
      ctx.record_error(n, "kernel_shape must have " + std::to_string(k) + " values");
      return false;
    }
    for (std::size_t i = 0; i < k; ++i) {
      if (a->ints[i] < 1) {
        ctx.record_error(n, "kernel_shape values must be positive");
        return false;
      }
      kernel[i] = a->ints[i];
    }
    if (w) {
      for (std::size_t i = 0; i < k; ++i) {
        const SymbolicDim& wd = (*w)[i + 2];
        if (wd.is_int() && wd != kernel[i]) {
          ctx.record_error(n, "kernel_shape does not match the weight shape " + w->to_string());
          return false;
        }
      }
    }
    return true;
  }
  if (w)
    for (std::size_t i = 0; i < k; ++i) kernel[i] = (*w)[i + 2];
  return true;
}

// Checks shared by the convolution family: an unknown rank gives an output
// of unknown rank; X and W of equal rank >= 3; a positive group.
inline bool check_conv_rank_and_group(Context& ctx, Node& n, const Shape* x, const Shape* w, int64_t rank,
                                      DataType dtype, int64_t& group) {
  if (rank < 0) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return false;
  }
  if (x && w && x->rank() != w->rank()) {
    ctx.record_error(n, "input " + x->to_string() + " and weight " + w->to_string() + " have different ranks");
    return false;
  }
  if (rank < 3) {
    ctx.record_error(n, "input must have rank >= 3 (N, C, spatial...), got rank " + std::to_string(rank));
    return false;
  }
  group = n.attr_int("group", 1);
  if (group < 1) {
    ctx.record_error(n, "group must be positive");
    return false;
  }
  return true;
}

// Shared by Conv, ConvInteger, QLinearConv, DeformConv: X [N, C, D...] and
// W [M, C/group, k...] give [N, M, out...].
inline void conv_common(Context& ctx, Node& n, std::size_t ix, std::size_t iw, DataType dtype) {
  const Shape* x = shape_of(n.input(ix));
  const Shape* w = shape_of(n.input(iw));
  int64_t rank = x ? x->rank() : w ? w->rank() : -1;
  if (const Attribute* ks = n.attr("kernel_shape"); rank < 0 && ks && ks->kind == Attribute::Kind::Ints)
    rank = static_cast<int64_t>(ks->ints.size()) + 2;
  int64_t group = 1;
  if (!check_conv_rank_and_group(ctx, n, x, w, rank, dtype, group)) return;
  const std::size_t k = static_cast<std::size_t>(rank - 2);
  if (x && w && (*x)[1].is_int() && (*w)[1].is_int()) {
    int64_t expected = 0;
    if (!checked::mul((*w)[1].value(), group, expected) || expected != (*x)[1].value())
      return ctx.record_error(n, "input channels " + (*x)[1].to_string() + " do not match weight " + w->to_string() +
             " with group " + std::to_string(group));
  }
  std::vector<SymbolicDim> kernel;
  if (!kernel_dims(ctx, n, w, k, kernel)) return;
  WindowAttrs wa;
  if (!read_window_attrs(ctx, n, k, wa)) return;
  std::vector<SymbolicDim> out;
  out.reserve(static_cast<std::size_t>(rank));
  out.push_back(x ? (*x)[0] : SymbolicDim());
  out.push_back(w ? (*w)[0] : SymbolicDim());
  if (x) {
    if (!window_output(ctx, n, *x, kernel, wa, out)) return;
  } else {
    out.resize(static_cast<std::size_t>(rank));
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}

// Shared by the pooling ops: kernel_shape is required; Y [N, C, out...].
inline void pool_common(Context& ctx, Node& n, bool indices) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* ks = require_attr(ctx, n, "kernel_shape");
  if (!ks) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  Shape out_shape;
  if (x) {
    if (x->rank() < 3)
      return ctx.record_error(n, "input must have rank >= 3 (N, C, spatial...), got " + x->to_string());
    const std::size_t k = x->size() - 2;
    std::vector<SymbolicDim> kernel;
    if (!kernel_dims(ctx, n, nullptr, k, kernel)) return;
    WindowAttrs wa;
    if (!read_window_attrs(ctx, n, k, wa)) return;
    std::vector<SymbolicDim> out;
    out.reserve(k + 2);
    out.push_back((*x)[0]);
    out.push_back((*x)[1]);
    if (!window_output(ctx, n, *x, kernel, wa, out)) return;
    out_shape = Shape(std::move(out));
  } else if (ks->kind == Attribute::Kind::Ints) {
    out_shape = Shape::of_rank(ks->ints.size() + 2);
  }
  ctx.set_shape_and_dtype(n.output(0), out_shape, dtype);
  if (indices && n.output(1)) ctx.set_shape_and_dtype(n.output(1), out_shape, DataType::INT64);
}

}  // namespace nn_detail

inline void infer_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  nn_detail::conv_common(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_conv, ai_onnx("Conv", 1, 11, 22));

// ConvInteger: x, w, optional zero points; INT32 output.
inline void infer_conv_integer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  nn_detail::conv_common(ctx, n, 0, 1, DataType::INT32);
}
SYMSHAPE_RULES(infer_conv_integer, ai_onnx("ConvInteger", 10));

// QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B.
inline void infer_qlinear_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 8, 9)) return;
  nn_detail::conv_common(ctx, n, 0, 3, dtype_of(n.input(7)));
}
SYMSHAPE_RULES(infer_qlinear_conv, ai_onnx("QLinearConv", 10));

// DeformConv: X, W, offset, B, mask; explicit pads only.
inline void infer_deform_conv(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 5)) return;
  nn_detail::conv_common(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_deform_conv, ai_onnx("DeformConv", 19, 22));

// ConvTranspose: X [N, C, D...], W [C, M/group, k...] -> [N, M, out...] with
// out = s*(in-1) + output_padding + d*(k-1) + 1 - pb - pe, in*s for SAME_*,
// or the output_shape attribute.
inline void infer_conv_transpose(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const int64_t rank = x ? x->rank() : w ? w->rank() : -1;
  int64_t group = 1;
  if (!nn_detail::check_conv_rank_and_group(ctx, n, x, w, rank, dtype, group)) return;
  const std::size_t k = static_cast<std::size_t>(rank - 2);
  if (x && w && (*x)[1].is_int() && (*w)[0].is_int() && (*x)[1] != (*w)[0])
    return ctx.record_error(n, "input channels " + (*x)[1].to_string() + " do not match weight " + w->to_string());
  std::vector<SymbolicDim> kernel;
  if (!nn_detail::kernel_dims(ctx, n, w, k, kernel)) return;
  nn_detail::WindowAttrs wa;
  if (!nn_detail::read_window_attrs(ctx, n, k, wa)) return;
  std::vector<int64_t> output_padding;
  if (!nn_detail::spatial_ints(ctx, n, "output_padding", k, 0, output_padding)) return;
  std::vector<SymbolicDim> out;
  out.push_back(x ? (*x)[0] : SymbolicDim());
  out.push_back(w ? (*w)[1] * SymbolicDim(group) : SymbolicDim());
  if (const Attribute* os = n.attr("output_shape")) {
    if (os->kind != Attribute::Kind::Ints || (os->ints.size() != k && os->ints.size() != k + 2))
      return ctx.record_error(n, "output_shape must have " + std::to_string(k) + " values");
    for (std::size_t i = os->ints.size() - k; i < os->ints.size(); ++i) out.push_back(os->ints[i]);
  } else if (!x) {
    out.resize(static_cast<std::size_t>(rank));
  } else {
    for (std::size_t i = 0; i < k; ++i) {
      const SymbolicDim& in = (*x)[i + 2];
      const SymbolicDim s(wa.strides[i]);
      if (wa.auto_pad == "SAME_UPPER" || wa.auto_pad == "SAME_LOWER") {
        out.push_back(in * s);
        continue;
      }
      const SymbolicDim eff_k = (kernel[i] - 1) * SymbolicDim(wa.dilations[i]) + 1;
      const SymbolicDim pads =
          wa.auto_pad == "VALID" ? SymbolicDim(0) : SymbolicDim(wa.pads[i]) + SymbolicDim(wa.pads[i + k]);
      SymbolicDim d = s * (in - 1) + SymbolicDim(output_padding[i]) + eff_k - pads;
      if (d.is_int() && d.value() < 1)
        return ctx.record_error(n, "output spatial dim " + std::to_string(i) + " would be " + d.to_string());
      out.push_back(d);
    }
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_conv_transpose, ai_onnx("ConvTranspose", 1, 11, 22));

// MaxPool: Y and the optional INT64 Indices (8+); ceil_mode and dilations (10+).
inline void infer_max_pool(Context& ctx, Node& n) { nn_detail::pool_common(ctx, n, true); }
SYMSHAPE_RULES(infer_max_pool, ai_onnx("MaxPool", 1, 8, 10, 11, 12, 22));
// AveragePool (count_include_pad 7+, ceil_mode 10+, dilations 19+) and LpPool (ceil_mode, dilations 18+).
inline void infer_avg_pool(Context& ctx, Node& n) { nn_detail::pool_common(ctx, n, false); }
SYMSHAPE_RULES(infer_avg_pool, ai_onnx("AveragePool", 1, 7, 10, 11, 19, 22), ai_onnx("LpPool", 1, 2, 11, 18, 22));

// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: [N, C, 1, ...].
inline void infer_global_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  if (x->rank() < 2) return ctx.record_error(n, "input must have rank >= 2 (N, C, ...), got " + x->to_string());
  std::vector<SymbolicDim> out{(*x)[0], (*x)[1]};
  out.resize(x->size(), SymbolicDim(1));
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_global_pool,
               ai_onnx("GlobalAveragePool", 1, 22),
               ai_onnx("GlobalMaxPool", 1, 22),
               ai_onnx("GlobalLpPool", 1, 2, 22));

// MaxRoiPool: X [N, C, H, W], rois [num_rois, 5] -> [num_rois, C, pooled_h, pooled_w].
inline void infer_max_roi_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Attribute* ps = require_attr(ctx, n, "pooled_shape");
  if (!ps) return;
  if (ps->kind != Attribute::Kind::Ints || ps->ints.size() != 2)
    return ctx.record_error(n, "pooled_shape must have 2 values");
  const Shape* x = shape_of(n.input(0));
  const Shape* rois = shape_of(n.input(1));
  if (x && x->rank() != 4) return ctx.record_error(n, "X must be 4-D, got " + x->to_string());
  if (rois && (rois->rank() != 2 || ((*rois)[1].is_int() && !(*rois)[1].is_int(5))))
    return ctx.record_error(n, "rois must have shape [num_rois, 5], got " + rois->to_string());
  ctx.set_shape_and_dtype(n.output(0),
                          Shape({rois ? (*rois)[0] : SymbolicDim(), x ? (*x)[1] : SymbolicDim(), ps->ints[0], ps->ints[1]}),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_max_roi_pool, ai_onnx("MaxRoiPool", 1, 22));

// RoiAlign: X [N, C, H, W], rois [num_rois, 4], batch_indices [num_rois] -> [num_rois, C, oh, ow].
inline void infer_roi_align(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* rois = shape_of(n.input(1));
  const Shape* bi = shape_of(n.input(2));
  if (x && x->rank() != 4) return ctx.record_error(n, "X must be 4-D, got " + x->to_string());
  if (rois && (rois->rank() != 2 || ((*rois)[1].is_int() && !(*rois)[1].is_int(4))))
    return ctx.record_error(n, "rois must have shape [num_rois, 4], got " + rois->to_string());
  if (bi && bi->rank() != 1) return ctx.record_error(n, "batch_indices must be 1-D, got " + bi->to_string());
  SymbolicDim num = rois ? (*rois)[0] : SymbolicDim();
  if (bi && (num.is_unknown() || (!num.is_int() && (*bi)[0].is_int()))) num = (*bi)[0];
  if (rois && bi && (*rois)[0].is_int() && (*bi)[0].is_int() && (*rois)[0] != (*bi)[0])
    return ctx.record_error(n, "rois " + rois->to_string() + " and batch_indices " + bi->to_string() + " disagree");
  ctx.set_shape_and_dtype(n.output(0),
                          Shape({num, x ? (*x)[1] : SymbolicDim(), n.attr_int("output_height", 1),
                                 n.attr_int("output_width", 1)}),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_roi_align, ai_onnx("RoiAlign", 10, 16, 22));

// MaxUnpool: the output_shape input when given, else (in-1)*s + k - pb - pe.
inline void infer_max_unpool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const Attribute* ks = require_attr(ctx, n, "kernel_shape");
  if (!ks) return;
  const DataType dtype = dtype_of(n.input(0));
  if (n.input(2)) {
    if (auto v = input_dims(ctx, n, 2)) {
      ctx.set_shape_and_dtype(n.output(0), Shape(*v), dtype);
      return;
    }
    const Shape* s = shape_of(n.input(2));
    if (s && s->rank() == 1 && (*s)[0].is_int()) {
      ctx.set_shape_and_dtype(n.output(0), Shape::of_rank(static_cast<std::size_t>((*s)[0].value())), dtype);
    } else {
      ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    }
    return;
  }
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  if (x->rank() < 3) return ctx.record_error(n, "input must have rank >= 3 (N, C, spatial...), got " + x->to_string());
  const std::size_t k = x->size() - 2;
  std::vector<SymbolicDim> kernel;
  if (!nn_detail::kernel_dims(ctx, n, nullptr, k, kernel)) return;
  std::vector<int64_t> strides, pads;
  if (!nn_detail::spatial_ints(ctx, n, "strides", k, 1, strides) || !nn_detail::spatial_ints(ctx, n, "pads", 2 * k, 0, pads))
    return;
  std::vector<SymbolicDim> out{(*x)[0], (*x)[1]};
  for (std::size_t i = 0; i < k; ++i)
    out.push_back(((*x)[i + 2] - 1) * SymbolicDim(strides[i]) + kernel[i] - SymbolicDim(pads[i]) -
                  SymbolicDim(pads[i + k]));
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_max_unpool, ai_onnx("MaxUnpool", 9, 11, 22));

// Col2Im: input [N, C*prod(block_shape), L], image_shape, block_shape -> [N, C, image_shape...].
inline void infer_col2im(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 3)
    return ctx.record_error(n, "input must be 3-D [N, C*prod(block_shape), L], got " + x->to_string());
  auto image = input_dims(ctx, n, 1);
  auto block = input_dims(ctx, n, 2);
  std::size_t k = 0;
  if (image) k = image->size();
  else if (block) k = block->size();
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
      return ctx.record_error(n, "input dim 1 (" + (*x)[1].to_string() + ") is not a multiple of prod(block_shape) = " +
             p.to_string());
    channels = (*x)[1] / p;
  }
  std::vector<SymbolicDim> out{x ? (*x)[0] : SymbolicDim(), channels};
  for (std::size_t i = 0; i < k; ++i) out.push_back(image ? (*image)[i] : SymbolicDim());
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_col2im, ai_onnx("Col2Im", 18));

inline constexpr auto kConvRules = family_rules<
    infer_conv_rules, infer_conv_integer_rules, infer_qlinear_conv_rules, infer_deform_conv_rules,
    infer_conv_transpose_rules, infer_max_pool_rules, infer_avg_pool_rules, infer_global_pool_rules,
    infer_max_roi_pool_rules, infer_roi_align_rules, infer_max_unpool_rules, infer_col2im_rules>("symshape/ops/conv.hpp");

}  // namespace symshape::ops
