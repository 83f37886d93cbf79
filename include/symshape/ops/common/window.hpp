// Sliding windows, shared by Conv, ConvTranspose, the pooling ops and their
// quantized and com.microsoft variants: the window attributes (strides,
// dilations, pads, auto_pad, ceil_mode), the kernel and the output size of
// each spatial dim, and the output shape of a convolution.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/support/small_vector.hpp"

namespace symshape::ops {

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
  const SymbolicDim pads =
      w.auto_pad == "VALID" ? SymbolicDim(0) : SymbolicDim(w.pads[i]) + SymbolicDim(w.pads[i + rank]);
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

// NHWC convolution: X [N, H.., C], W [M, C/group, k...] -> [N, out..., M].
inline void nhwc_conv(Context& ctx, Node& n, std::size_t ix, std::size_t iw, DataType dt) {
  const Shape* x = shape_of(n.input(ix));
  const Shape* w = shape_of(n.input(iw));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  if (x->rank() < 3) return ctx.record_error(n, "input must have rank >= 3, got " + x->to_string());
  if (w && w->rank() != x->rank()) return ctx.record_error(n, "input and weight ranks differ");
  const std::size_t k = x->size() - 2;
  // Rearranged into NCHW for the shared spatial computation.
  std::vector<SymbolicDim> nchw{(*x)[0], (*x)[x->size() - 1]};
  for (std::size_t i = 1; i + 1 < x->size(); ++i) nchw.push_back((*x)[i]);
  const Shape xs(std::move(nchw));
  std::vector<SymbolicDim> kernel;
  if (!kernel_dims(ctx, n, w, k, kernel)) return;
  WindowAttrs wa;
  if (!read_window_attrs(ctx, n, k, wa)) return;
  std::vector<SymbolicDim> out{(*x)[0]};
  if (!window_output(ctx, n, xs, kernel, wa, out)) return;
  out.push_back(dim_at(w, 0));
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dt);
}

}  // namespace symshape::ops
