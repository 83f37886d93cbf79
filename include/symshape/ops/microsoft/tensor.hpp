// com.microsoft (onnxruntime contrib) tensor operators: the contrib forms of
// ai.onnx ops (ExpandDims, Pad, Range, GatherND, GridSample, Trilu, Unique)
// and Inverse, CDist, UnfoldTensor, CropAndResize, TorchEmbedding, SampleOp,
// IsAllFinite, MurmurHash3, Rfft / Irfft, DynamicTimeWarping; EPContext and
// Snpe (outputs defined by an opaque payload: left unknown).
//
// Inputs, outputs and attributes: onnxruntime docs/ContribOperators.md; shapes
// from contrib_defs.cc and the CPU / CUDA kernels where the schema has no
// inference (Rfft / Irfft: n//2+1 complex bins and back, onesided only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/gather_nd_shape.hpp"
#include "symshape/ops/common/grid_sample.hpp"
#include "symshape/ops/common/pad_shape.hpp"
#include "symshape/ops/common/range_shape.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

// ExpandDims: X, axis (int32 scalar) in [-r-1, r] -> X with a 1 inserted there.
inline void infer_ms_expand_dims(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* a = shape_of(n.input(1));
  if (a && !is_scalar_like(*a)) return ctx.record_error(n, {"axis must be a scalar, got shape ", *a});
  if (!x) return set_like_input(ctx, n, 0, Shape());
  const SymbolicDim axis = scalar_value(ctx, n, 1);
  if (!axis.is_int()) return set_like_input(ctx, n, 0, Shape::of_rank(x->size() + 1));
  const int64_t r = x->rank();
  if (axis.value() < -r - 1 || axis.value() > r)
    return ctx.record_error(n, {"axis ", axis, " is out of range [", -r - 1, ", ", r, "]"});
  std::vector<SymbolicDim> d = x->dims();
  d.insert(d.begin() + (axis.value() < 0 ? axis.value() + r + 1 : axis.value()), SymbolicDim(1));
  set_like_input(ctx, n, 0, Shape(std::move(d)));
}
SYMSHAPE_RULES(infer_ms_expand_dims, com_microsoft("ExpandDims", 1));

// Pad: data, pads ([2*r] or [1, 2*r] int64), [value]; mode constant, reflect or edge.
inline void infer_ms_pad(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const std::string mode = ctx.attr_string(n, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return ctx.record_error(n, {"mode must be constant, reflect or edge, got '", mode, "'"});
  const Shape* p = shape_of(n.input(1));
  if (p && !(p->rank() == 1 || (p->rank() == 2 && (*p)[0].is_int(1))))
    return ctx.record_error(n, {"pads must be [2*rank] or [1, 2*rank], got shape ", *p});
  pad_shape(ctx, n, ctx.symbolic_value(n.input(1)), {});
}
SYMSHAPE_RULES(infer_ms_pad, com_microsoft("Pad", 1));

// Range: start, limit, [delta] (default 1).
inline void infer_ms_range(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  range_detail::range(ctx, n);
}
SYMSHAPE_RULES(infer_ms_range, com_microsoft("Range", 1));

// GatherND: ai.onnx GatherND 11 (no batch_dims).
inline void infer_ms_gather_nd(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  gather_nd_shape(ctx, n, 0);
}
SYMSHAPE_RULES(infer_ms_gather_nd, com_microsoft("GatherND", 1));

// GridSample: X [N, C, H, W], Grid [N, H_out, W_out, 2] -> [N, C, H_out, W_out].
inline void infer_ms_grid_sample(Context& ctx, Node& n) {
  grid_sample(ctx, n, GridRank::Only4D, {"bilinear", "nearest", "bicubic"});
}
SYMSHAPE_RULES(infer_ms_grid_sample, com_microsoft("GridSample", 1));

// Trilu: X [*, N, M], [k] -> X's type.
inline void infer_ms_trilu(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 2)) return;
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2, got ", *s});
  propagate_type(ctx, n, 0, 0);
}
SYMSHAPE_RULES(infer_ms_trilu, com_microsoft("Trilu", 1));

// Unique: x [N] -> y [U] (x's type), idx [N] and counts [U] (INT64).
inline void infer_ms_unique(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 1) return ctx.record_error(n, {"x must be 1-D, got shape ", *x});
  const SymbolicDim u = ctx.new_symbolic_dim();
  set_like_input(ctx, n, 0, Shape{u});
  ctx.set_shape_and_dtype(n.output(1), Shape{dim_at(x, 0)}, DataType::INT64);
  ctx.set_shape_and_dtype(n.output(2), Shape{u}, DataType::INT64);
}
SYMSHAPE_RULES(infer_ms_unique, com_microsoft("Unique", 1));

// Inverse: X [*, M, M] -> X's type.
inline void infer_ms_inverse(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  if (const Shape* s = shape_of(n.input(0))) {
    if (s->rank() < 2) return ctx.record_error(n, {"input must have rank >= 2, got shape ", *s});
    const SymbolicDim& a = (*s)[s->size() - 2];
    const SymbolicDim& b = (*s)[s->size() - 1];
    if (a.is_int() && b.is_int() && a != b)
      return ctx.record_error(n, {"the last two dims must be equal (square matrices), got ", *s});
  }
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_inverse, com_microsoft("Inverse", 1));

// CDist: A [M, N], B [K, N] -> [M, K].
inline void infer_ms_cdist(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  if (!require_rank(ctx, n, a, 2, 2, "A") || !require_rank(ctx, n, b, 2, 2, "B")) return;
  if (a && b && (*a)[1].is_int() && (*b)[1].is_int() && (*a)[1] != (*b)[1])
    return ctx.record_error(n, {"A ", *a, " and B ", *b, " differ in dim 1"});
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(a, 0), dim_at(b, 0)}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_cdist, com_microsoft("CDist", 1));

// UnfoldTensor: dim (default -1), size (required), step (default 1): dim d
// becomes (d - size) / step + 1 and a last dim of `size` is appended.
inline void infer_ms_unfold_tensor(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const auto size = required_int(ctx, n, "size");
  if (!size) return;
  const int64_t step = ctx.attr_int(n, "step", 1);
  if (*size < 1 || step < 1) return ctx.record_error(n, "size and step must be positive");
  const Shape* x = shape_of(n.input(0));
  if (!x) return set_like_input(ctx, n, 0, Shape());
  auto dim = normalize_axis(ctx, n, ctx.attr_int(n, "dim", -1), x->rank(), "dim");
  if (!dim) return;
  std::vector<SymbolicDim> d = x->dims();
  SymbolicDim& in = d[static_cast<std::size_t>(*dim)];
  if (in.is_int() && in.value() < *size) return ctx.record_error(n, {"size ", *size, " exceeds dim ", in});
  in = (in - *size) / SymbolicDim(step) + 1;
  d.emplace_back(*size);
  set_like_input(ctx, n, 0, Shape(std::move(d)));
}
SYMSHAPE_RULES(infer_ms_unfold_tensor, com_microsoft("UnfoldTensor", 1));

// CropAndResize: X [N, C, H, W], rois [R, 4], batch_indices [R], crop_size
// [2] -> [R, C, crop_height, crop_width].
inline void infer_ms_crop_and_resize(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 4)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* rois = shape_of(n.input(1));
  const Shape* idx = shape_of(n.input(2));
  const Shape* crop = shape_of(n.input(3));
  if (!require_rank(ctx, n, x, 4, 4, "X") || !require_rank(ctx, n, rois, 2, 2, "rois") ||
      !require_rank(ctx, n, idx, 1, 1, "batch_indices") || !require_rank(ctx, n, crop, 1, 1, "crop_size"))
    return;
  if (rois && (*rois)[1].is_int() && !(*rois)[1].is_int(4))
    return ctx.record_error(n, {"rois must be [num_rois, 4], got ", *rois});
  if (crop && (*crop)[0].is_int() && !(*crop)[0].is_int(2))
    return ctx.record_error(n, {"crop_size must have 2 elements, got shape ", *crop});
  SymbolicDim h, w;
  if (auto v = ctx.symbolic_value(n.input(3)); v && v->size() == 2) {
    for (const SymbolicDim& d : *v)
      if (d.is_int() && d.value() < 1) return ctx.record_error(n, "crop_size must be positive");
    h = (*v)[0];
    w = (*v)[1];
  }
  SymbolicDim r = dim_at(rois, 0);
  if (r.is_unknown()) r = dim_at(idx, 0);
  ctx.set_shape_and_dtype(n.output(0), Shape({r, dim_at(x, 1), h, w}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_crop_and_resize, com_microsoft("CropAndResize", 1));

// TorchEmbedding: weight [N, M], indices, [padding_idx], [scale_grad_by_freq] -> indices' shape + [M].
inline void infer_ms_torch_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  const Shape* w = shape_of(n.input(0));
  const Shape* idx = shape_of(n.input(1));
  if (!require_rank(ctx, n, w, 2, 2, "weight")) return;
  if (!idx) return set_like_input(ctx, n, 0, Shape());
  std::vector<SymbolicDim> d = idx->dims();
  d.push_back(dim_at(w, 1));
  set_like_input(ctx, n, 0, Shape(std::move(d)));
}
SYMSHAPE_RULES(infer_ms_torch_embedding, com_microsoft("TorchEmbedding", 1));

// SampleOp: X -> X's type (an echo).
inline void infer_ms_sample_op(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_sample_op, com_microsoft("SampleOp", 1));

// IsAllFinite: one or more float tensors -> a BOOL scalar.
inline void infer_ms_is_all_finite(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), DataType::BOOL);
}
SYMSHAPE_RULES(infer_ms_is_all_finite, com_microsoft("IsAllFinite", 1));

// MurmurHash3: X -> X's shape, UINT32 (positive=1, the default) or INT32.
inline void infer_ms_murmur_hash3(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const int64_t positive = ctx.attr_int(n, "positive", 1);
  if (positive != 0 && positive != 1) return ctx.record_error(n, "positive must be 0 or 1");
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), positive ? DataType::UINT32 : DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_murmur_hash3, com_microsoft("MurmurHash3", 1));

namespace ms_tensor_detail {
// Rfft / Irfft attributes: normalized must be 0 and onesided 1; signal_ndim
// in [1, 3] and at most the signal rank. nullopt after an error.
inline std::optional<int64_t> fft_signal_ndim(Context& ctx, const Node& n, int64_t ndim, const Shape* x,
                                              std::size_t extra) {
  if (ctx.attr_int(n, "normalized", 0) != 0 || ctx.attr_int(n, "onesided", 1) != 1) {
    ctx.record_error(n, "only normalized=0 and onesided=1 are supported");
    return std::nullopt;
  }
  if (ndim < 1 || ndim > 3 || (x && static_cast<std::size_t>(ndim) + extra > x->size())) {
    ctx.record_error(n, {"signal_ndim ", ndim, " does not fit input ", (x ? x->to_string() : std::string("?")),
                         " (1 to 3 signal dims)"});
    return std::nullopt;
  }
  return ndim;
}
}  // namespace ms_tensor_detail

// Rfft: X [..., n] (the last signal_ndim dims are the signal, default 1) ->
// [..., n//2 + 1, 2].
inline void infer_ms_rfft(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* x = shape_of(n.input(0));
  if (!ms_tensor_detail::fft_signal_ndim(ctx, n, ctx.attr_int(n, "signal_ndim", 1), x, 0)) return;
  if (!x) return set_like_input(ctx, n, 0, Shape());
  std::vector<SymbolicDim> d = x->dims();
  d.back() = d.back() / SymbolicDim(2) + 1;
  d.emplace_back(2);
  set_like_input(ctx, n, 0, Shape(std::move(d)));
}
SYMSHAPE_RULES(infer_ms_rfft, com_microsoft("Rfft", 1));

// Irfft: X [..., m, 2] (signal_ndim required) -> [..., 2*(m - 1)].
inline void infer_ms_irfft(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const auto ndim = required_int(ctx, n, "signal_ndim");
  if (!ndim) return;
  const Shape* x = shape_of(n.input(0));
  if (!ms_tensor_detail::fft_signal_ndim(ctx, n, *ndim, x, 1)) return;
  if (!x) return set_like_input(ctx, n, 0, Shape());
  if ((*x)[x->size() - 1].is_int() && !(*x)[x->size() - 1].is_int(2))
    return ctx.record_error(n, {"the last dim must be 2 (real and imaginary parts), got ", *x});
  std::vector<SymbolicDim> d(x->dims().begin(), x->dims().end() - 1);
  if (d.back().is_int() && d.back().value() < 1) return ctx.record_error(n, "the signal dim must be positive");
  d.back() = (d.back() - 1) * SymbolicDim(2);
  set_like_input(ctx, n, 0, Shape(std::move(d)));
}
SYMSHAPE_RULES(infer_ms_irfft, com_microsoft("Irfft", 1));

// DynamicTimeWarping: cost [M, N] or [1, M, N] -> INT32 [2, L] with
// max(M, N) <= L < M + N (a fresh dim).
inline void infer_ms_dynamic_time_warping(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && !(x->rank() == 2 || (x->rank() == 3 && ((*x)[0].is_int(1) || !(*x)[0].is_int()))))
    return ctx.record_error(n, {"input must be [M, N] or [1, M, N], got ", *x});
  ctx.set_shape_and_dtype(n.output(0), Shape({2, ctx.new_symbolic_dim()}), DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_dynamic_time_warping, com_microsoft("DynamicTimeWarping", 1));

// EPContext: a compiled partition of an execution provider; its outputs are
// described by the payload only (left unknown). embed_mode and main_context
// are 0 or 1.
inline void infer_ms_ep_context(Context& ctx, Node& n) {
  for (const char* a : {"embed_mode", "main_context"}) {
    const int64_t v = ctx.attr_int(n, a, 1);
    if (v != 0 && v != 1) return ctx.record_error(n, {a, " must be 0 or 1, got ", v});
  }
}
SYMSHAPE_RULES(infer_ms_ep_context, com_microsoft("EPContext", 1));

// Snpe: one or more inputs and the required DLC payload; outputs unknown.
inline void infer_ms_snpe(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  require_attr(ctx, n, "DLC", Attribute::Kind::String);
}
SYMSHAPE_RULES(infer_ms_snpe, com_microsoft("Snpe", 1));

inline constexpr auto kMicrosoftTensorRules =
    family_rules<infer_ms_expand_dims_rules, infer_ms_pad_rules, infer_ms_range_rules, infer_ms_gather_nd_rules,
                 infer_ms_grid_sample_rules, infer_ms_trilu_rules, infer_ms_unique_rules, infer_ms_inverse_rules,
                 infer_ms_cdist_rules, infer_ms_unfold_tensor_rules, infer_ms_crop_and_resize_rules,
                 infer_ms_torch_embedding_rules, infer_ms_sample_op_rules, infer_ms_is_all_finite_rules,
                 infer_ms_murmur_hash3_rules, infer_ms_rfft_rules, infer_ms_irfft_rules,
                 infer_ms_dynamic_time_warping_rules, infer_ms_ep_context_rules, infer_ms_snpe_rules>(
        "symshape/ops/microsoft/tensor.hpp");

}  // namespace symshape::ops
