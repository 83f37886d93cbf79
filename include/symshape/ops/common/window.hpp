// Sliding windows, shared by Conv, ConvTranspose, the pooling ops and their
// quantized and com.microsoft variants: the window attributes read once into
// a WindowSpec, the output size of each spatial dim, and the output shapes of
// a convolution, a transposed convolution and a pooling op.
//
// Spatial output sizes are expressions of the input dims whenever kernel,
// strides, pads and dilations are known:
//   NOTSET/VALID: floor((in + pb + pe - d*(k-1) - 1) / s) + 1, written
//                 (in + pb + pe - d*(k-1) - 1 + s)//s; with ceil_mode
//                 (in + pb + pe - d*(k-1) - 1 + 2*s - 1)//s, less one when
//                 the last window would start in the right padding
//   SAME_UPPER/SAME_LOWER: ceil(in / s) = (in + s - 1)//s
// so that Conv k=3 s=2 p=1 maps H to (H+1)//2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/support/maybe.hpp"
#include "symshape/support/small_vector.hpp"

namespace symshape::ops {

// An ints attribute of `count` values (default: `fill` each) as a vector of
// int64_t (std::vector or SmallVector); nullopt after an error.
template <class Ints>
Maybe<Ints> spatial_ints(Context& ctx, const Node& n, const char* name, std::size_t count, int64_t fill) {
  const Attribute* a = n.attr(name);
  if (a && a->kind != Attribute::Kind::Ints) {
    ctx.usage_error(n, {"attribute '", name, "' must be a list of integers"});
    return std::nullopt;
  }
  if (a && a->ints.size() != count) {
    ctx.record_error(n, {"attribute '", name, "' has ", a->ints.size(), " values, expected ", count});
    return std::nullopt;
  }
  Maybe<Ints> out(Ints{});
  if (a) {
    out->assign(a->ints.begin(), a->ints.end());
  } else {
    out->resize(count, fill);
  }
  return out;
}

enum class AutoPad { NotSet, Valid, SameUpper, SameLower };

// The auto_pad attribute; NOTSET when missing or not a string (as
// Node::attr_string reads it). nullopt after an error (an unknown value).
inline Maybe<AutoPad> parse_auto_pad(Context& ctx, const Node& n) {
  const Attribute* a = n.attr("auto_pad");
  if (!a || a->kind != Attribute::Kind::String || a->s == "NOTSET") return AutoPad::NotSet;
  if (a->s == "VALID") return AutoPad::Valid;
  if (a->s == "SAME_UPPER") return AutoPad::SameUpper;
  if (a->s == "SAME_LOWER") return AutoPad::SameLower;
  ctx.record_error(n, {"unknown auto_pad '", std::string_view(a->s), "'"});
  return std::nullopt;
}

// The window of one Conv- or Pool-like node over k = kernel.size() spatial
// dims, read once by read_window_spec. Inline storage up to 3 spatial dims.
struct WindowSpec {
  std::vector<SymbolicDim> kernel;  // kernel_shape, else the weight's dims [2:]; unknown dims otherwise
  SmallVector<int64_t, 3> strides, dilations;
  SmallVector<int64_t, 6> pads;  // the pads attribute as given: all begins, then all ends
  // NotSet whenever pads are given: as in ONNX's reference inference, explicit pads take precedence.
  AutoPad auto_pad = AutoPad::NotSet;
  bool ceil_mode = false;

  std::size_t rank() const { return kernel.size(); }
  bool same_pads() const { return auto_pad == AutoPad::SameUpper || auto_pad == AutoPad::SameLower; }
  // The pads that apply to axis i: the attribute's under NOTSET, 0 under
  // VALID. SAME_* pads depend on the input size, so rules test same_pads()
  // first (0 here too).
  SymbolicDim pad_begin(std::size_t i) const {
    return auto_pad == AutoPad::NotSet ? SymbolicDim(pads[i]) : SymbolicDim(0);
  }
  SymbolicDim pad_end(std::size_t i) const {
    return auto_pad == AutoPad::NotSet ? SymbolicDim(pads[i + rank()]) : SymbolicDim(0);
  }
  SymbolicDim total_pads(std::size_t i) const { return pad_begin(i) + pad_end(i); }
  // The span of the dilated kernel: (k - 1)*d + 1; unknown when k is.
  SymbolicDim effective_kernel(std::size_t i) const { return (kernel[i] - 1) * SymbolicDim(dilations[i]) + 1; }
};

// The kernel_shape attribute (k values) or the weight's dims [2:]; unknown
// dims otherwise; nullopt after an error.
inline std::optional<std::vector<SymbolicDim>> kernel_dims(Context& ctx, const Node& n, const Shape* w, std::size_t k) {
  std::optional<std::vector<SymbolicDim>> kernel(std::in_place, k);
  const Attribute* a = n.attr("kernel_shape");
  if (!a) {
    if (w)
      for (std::size_t i = 0; i < k; ++i) (*kernel)[i] = (*w)[i + 2];
    return kernel;
  }
  if (a->kind != Attribute::Kind::Ints || a->ints.size() != k) {
    ctx.record_error(n, {"kernel_shape must have ", k, " values"});
    return std::nullopt;
  }
  for (std::size_t i = 0; i < k; ++i) {
    if (a->ints[i] < 1) {
      ctx.record_error(n, "kernel_shape values must be positive");
      return std::nullopt;
    }
    (*kernel)[i] = a->ints[i];
  }
  for (std::size_t i = 0; w && i < k; ++i) {
    const SymbolicDim& wd = (*w)[i + 2];
    if (wd.is_int() && wd != (*kernel)[i]) {
      ctx.record_error(n, {"kernel_shape does not match the weight shape ", *w});
      return std::nullopt;
    }
  }
  return kernel;
}

// The kernel (kernel_dims), strides, dilations, pads, auto_pad and ceil_mode
// of a node with k spatial dims, checked; nullopt after an error.
inline Maybe<WindowSpec> read_window_spec(Context& ctx, const Node& n, const Shape* w, std::size_t k) {
  auto kernel = kernel_dims(ctx, n, w, k);
  if (!kernel) return std::nullopt;
  auto strides = spatial_ints<SmallVector<int64_t, 3>>(ctx, n, "strides", k, 1);
  if (!strides) return std::nullopt;
  auto dilations = spatial_ints<SmallVector<int64_t, 3>>(ctx, n, "dilations", k, 1);
  if (!dilations) return std::nullopt;
  auto pads = spatial_ints<SmallVector<int64_t, 6>>(ctx, n, "pads", 2 * k, 0);
  if (!pads) return std::nullopt;
  for (std::size_t i = 0; i < k; ++i) {
    if ((*strides)[i] < 1 || (*dilations)[i] < 1) {
      ctx.record_error(n, "strides and dilations must be positive");
      return std::nullopt;
    }
  }
  const auto auto_pad = parse_auto_pad(ctx, n);
  if (!auto_pad) return std::nullopt;
  WindowSpec spec;
  spec.kernel = std::move(*kernel);
  spec.strides = std::move(*strides);
  spec.dilations = std::move(*dilations);
  spec.pads = std::move(*pads);
  spec.auto_pad = n.attr("pads") ? AutoPad::NotSet : *auto_pad;
  spec.ceil_mode = ctx.attr_int(n, "ceil_mode", 0) != 0;
  return spec;
}

// The output size of spatial dim i for input size `in` (see the top of this
// file); unknown when the kernel dim is unknown.
inline SymbolicDim window_out(const SymbolicDim& in, const WindowSpec& spec, std::size_t i) {
  const SymbolicDim s(spec.strides[i]);
  if (spec.same_pads()) return (in + s - 1) / s;
  const SymbolicDim eff_k = spec.effective_kernel(i);
  const SymbolicDim x = in + spec.total_pads(i) - eff_k;
  if (!spec.ceil_mode) return (x + s) / s;
  // ceil_mode: ceil(x / s) + 1, but a window may not start in the right
  // padding (ONNX >= 1.16 and PyTorch: "sliding windows that would start in
  // the right padded region are ignored"): (out - 1)*s < in + pb.
  // That can only happen when s > eff_k - pe.
  const SymbolicDim out = (x + s + s - 1) / s;
  const SymbolicDim slack = eff_k - spec.pad_end(i) - s;
  if (slack.is_int() && slack.value() >= 0) return out;
  const SymbolicDim bound = (in + spec.pad_begin(i) - 1) / s + 1;
  if (out.is_int() && bound.is_int()) return out.value() > bound.value() ? bound : out;
  return dim_min(out, bound);
}

// The output shape of a window over x [N, C, D...]: [N, channels, out...];
// with channels_last, x is [N, D..., C] and the output [N, out..., channels].
// nullopt after an error (an output size below 1).
inline std::optional<Shape> window_output(Context& ctx, const Node& n, const Shape& x, const WindowSpec& spec,
                                          const SymbolicDim& channels, bool channels_last = false) {
  const std::size_t k = spec.rank();
  const std::size_t first = channels_last ? 1 : 2;  // x's first spatial dim
  std::vector<SymbolicDim> out;
  out.reserve(k + 2);
  out.push_back(x[0]);
  if (!channels_last) out.push_back(channels);
  for (std::size_t i = 0; i < k; ++i) {
    const SymbolicDim& in = x[first + i];
    const SymbolicDim& o = out.emplace_back(window_out(in, spec, i));
    if (o.is_int() && o.value() < 1) {
      ctx.record_error(n, {"spatial dim ", i, " of size ", in, " is smaller than the kernel (", spec.kernel[i],
                           ", dilation ", spec.dilations[i], ", pads ", spec.pads[i], "+", spec.pads[i + k], ")"});
      return std::nullopt;
    }
  }
  if (channels_last) out.push_back(channels);
  return Shape(std::move(out));
}

// The group attribute of a convolution with X and W of the given rank
// (known, >= 3, equal when both are known); nullopt after an error.
inline std::optional<int64_t> conv_group(Context& ctx, const Node& n, const Shape* x, const Shape* w, int64_t rank) {
  if (x && w && x->rank() != w->rank()) {
    ctx.record_error(n, {"input ", *x, " and weight ", *w, " have different ranks"});
    return std::nullopt;
  }
  if (rank < 3) {
    ctx.record_error(n, {"input must have rank >= 3 (N, C, spatial...), got rank ", rank});
    return std::nullopt;
  }
  const int64_t group = ctx.attr_int(n, "group", 1);
  if (group < 1) {
    ctx.record_error(n, "group must be positive");
    return std::nullopt;
  }
  return group;
}

// Shared by Conv, ConvInteger, QLinearConv, DeformConv: X [N, C, D...] and
// W [M, C/group, k...] give [N, M, out...].
inline void conv_common(Context& ctx, Node& n, std::size_t ix, std::size_t iw, DataType dtype) {
  const Shape* x = shape_of(n.input(ix));
  const Shape* w = shape_of(n.input(iw));
  int64_t rank = x ? x->rank() : w ? w->rank() : -1;
  if (const Attribute* ks = n.attr("kernel_shape"); rank < 0 && ks && ks->kind == Attribute::Kind::Ints)
    rank = static_cast<int64_t>(ks->ints.size()) + 2;
  if (rank < 0) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
  const auto group = conv_group(ctx, n, x, w, rank);
  if (!group) return;
  const std::size_t k = static_cast<std::size_t>(rank - 2);
  if (x && w && (*x)[1].is_int() && (*w)[1].is_int()) {
    int64_t expected = 0;
    if (!checked::mul((*w)[1].value(), *group, expected) || expected != (*x)[1].value())
      return ctx.record_error(n, {"input channels ", (*x)[1], " do not match weight ", *w, " with group ", *group});
  }
  const auto spec = read_window_spec(ctx, n, w, k);
  if (!spec) return;
  if (!x) {
    Shape out = Shape::of_rank(static_cast<std::size_t>(rank));
    out[1] = dim_at(w, 0);
    return (void)ctx.set_shape_and_dtype(n.output(0), std::move(out), dtype);
  }
  auto out = window_output(ctx, n, *x, *spec, dim_at(w, 0));
  if (!out) return;
  ctx.set_shape_and_dtype(n.output(0), std::move(*out), dtype);
}

// NHWC convolution: X [N, D..., C], W [M, C/group, k...] -> [N, out..., M].
inline void nhwc_conv(Context& ctx, Node& n, std::size_t ix, std::size_t iw, DataType dt) {
  const Shape* x = shape_of(n.input(ix));
  const Shape* w = shape_of(n.input(iw));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  if (x->rank() < 3) return ctx.record_error(n, {"input must have rank >= 3, got ", *x});
  if (w && w->rank() != x->rank()) return ctx.record_error(n, "input and weight ranks differ");
  const auto spec = read_window_spec(ctx, n, w, x->size() - 2);
  if (!spec) return;
  auto out = window_output(ctx, n, *x, *spec, dim_at(w, 0), /*channels_last=*/true);
  if (!out) return;
  ctx.set_shape_and_dtype(n.output(0), std::move(*out), dt);
}

// ConvTranspose: X [N, C, D...], W [C, M/group, k...] -> [N, M, out...] with
// out = s*(in-1) + output_padding + d*(k-1) + 1 - pb - pe, in*s for SAME_*,
// or the output_shape attribute (as in the ONNX spec). `extra_pads`: pads
// given as an input (begins then ends; nullopt when their values are unknown)
// added to the pads attribute (com.microsoft ConvTransposeWithDynamicPads).
enum class ExtraPads { None, FromInput };  // pads also given as an input
inline void conv_transpose(Context& ctx, Node& n, ExtraPads pads_input,
                           const std::optional<std::vector<SymbolicDim>>& extra_pads) {
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const int64_t rank = x ? x->rank() : w ? w->rank() : -1;
  if (rank < 0) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
  const auto group = conv_group(ctx, n, x, w, rank);
  if (!group) return;
  const std::size_t k = static_cast<std::size_t>(rank - 2);
  if (x && w && (*x)[1].is_int() && (*w)[0].is_int() && (*x)[1] != (*w)[0])
    return ctx.record_error(n, {"input channels ", (*x)[1], " do not match weight ", *w});
  const auto spec = read_window_spec(ctx, n, w, k);
  if (!spec) return;
  const auto output_padding = spatial_ints<SmallVector<int64_t, 3>>(ctx, n, "output_padding", k, 0);
  if (!output_padding) return;
  std::vector<SymbolicDim> out;
  out.reserve(static_cast<std::size_t>(rank));
  out.push_back(dim_at(x, 0));
  out.push_back(w ? (*w)[1] * SymbolicDim(*group) : SymbolicDim());
  if (const Attribute* os = n.attr("output_shape")) {
    if (os->kind != Attribute::Kind::Ints || (os->ints.size() != k && os->ints.size() != k + 2))
      return ctx.record_error(n, {"output_shape must have ", k, " values"});
    for (std::size_t i = os->ints.size() - k; i < os->ints.size(); ++i) out.push_back(os->ints[i]);
  } else if (!x) {
    out.resize(static_cast<std::size_t>(rank));
  } else {
    for (std::size_t i = 0; i < k; ++i) {
      const SymbolicDim& in = (*x)[i + 2];
      const SymbolicDim s(spec->strides[i]);
      if (spec->same_pads()) {
        out.push_back(in * s);
        continue;
      }
      if (pads_input == ExtraPads::FromInput && !extra_pads) {
        out.emplace_back();
        continue;
      }
      SymbolicDim d =
          s * (in - 1) + SymbolicDim((*output_padding)[i]) + spec->effective_kernel(i) - spec->total_pads(i);
      if (pads_input == ExtraPads::FromInput) d = d - (*extra_pads)[i] - (*extra_pads)[i + k];
      if (d.is_int() && d.value() < 1) return ctx.record_error(n, {"output spatial dim ", i, " would be ", d});
      out.push_back(std::move(d));
    }
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}

// Shared by the pooling ops: kernel_shape is required; Y [N, C, out...].
// `max_inputs`: 2 for com.microsoft MaxpoolWithMask (X and its mask).
enum class PoolOutputs { ValuesOnly, WithIndices };  // WithIndices: output 1 is MaxPool's INT64 indices
inline void pool_common(Context& ctx, Node& n, PoolOutputs indices, std::size_t max_inputs = 1) {
  if (!check_inputs(ctx, n, 1, max_inputs)) return;
  const Attribute* ks = require_attr(ctx, n, "kernel_shape");
  if (!ks) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  Shape out_shape;
  if (x) {
    if (x->rank() < 3) return ctx.record_error(n, {"input must have rank >= 3 (N, C, spatial...), got ", *x});
    const auto spec = read_window_spec(ctx, n, nullptr, x->size() - 2);
    if (!spec) return;
    auto out = window_output(ctx, n, *x, *spec, (*x)[1]);
    if (!out) return;
    out_shape = std::move(*out);
  } else if (ks->kind == Attribute::Kind::Ints) {
    out_shape = Shape::of_rank(ks->ints.size() + 2);
  }
  ctx.set_shape_and_dtype(n.output(0), out_shape, dtype);
  if (indices == PoolOutputs::WithIndices && n.output(1))
    ctx.set_shape_and_dtype(n.output(1), out_shape, DataType::INT64);
}

}  // namespace symshape::ops
