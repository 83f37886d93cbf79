// Object detection: NonMaxSuppression (10, 11: selected indices
// [num_selected, 3]), and the region-of-interest pooling ops MaxRoiPool and
// RoiAlign ([num_rois, C, output_height, output_width]).
#pragma once

#include <cstdint>
#include <string>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

// NonMaxSuppression: boxes [B, S, 4], scores [B, C, S] -> INT64
// [num_selected (unknown), 3].
inline void infer_non_max_suppression(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 5)) return;
  const Shape* boxes = shape_of(n.input(0));
  const Shape* scores = shape_of(n.input(1));
  if (boxes && (boxes->rank() != 3 || ((*boxes)[2].is_int() && (*boxes)[2] != SymbolicDim(4))))
    return ctx.record_error(n, {"boxes must be [num_batches, spatial_dimension, 4], got shape ", *boxes});
  if (scores && scores->rank() != 3)
    return ctx.record_error(n, {"scores must be [num_batches, num_classes, spatial_dimension], got shape ", *scores});
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(), SymbolicDim(3)}), DataType::INT64);
}
SYMSHAPE_RULES(infer_non_max_suppression, ai_onnx("NonMaxSuppression", 10, 11));

// MaxRoiPool: X [N, C, H, W], rois [num_rois, 5] -> [num_rois, C, pooled_h, pooled_w].
inline void infer_max_roi_pool(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Attribute* ps = require_attr(ctx, n, "pooled_shape");
  if (!ps) return;
  if (ps->kind != Attribute::Kind::Ints || ps->ints.size() != 2)
    return ctx.record_error(n, "pooled_shape must have 2 values");
  const Shape* x = shape_of(n.input(0));
  const Shape* rois = shape_of(n.input(1));
  if (x && x->rank() != 4) return ctx.record_error(n, {"X must be 4-D, got ", *x});
  if (rois && (rois->rank() != 2 || ((*rois)[1].is_int() && !(*rois)[1].is_int(5))))
    return ctx.record_error(n, {"rois must have shape [num_rois, 5], got ", *rois});
  ctx.set_shape_and_dtype(
      n.output(0), Shape({rois ? (*rois)[0] : SymbolicDim(), x ? (*x)[1] : SymbolicDim(), ps->ints[0], ps->ints[1]}),
      dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_max_roi_pool, ai_onnx("MaxRoiPool", 1, 22));

// RoiAlign: X [N, C, H, W], rois [num_rois, 4], batch_indices [num_rois] -> [num_rois, C, oh, ow].
inline void infer_roi_align(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* rois = shape_of(n.input(1));
  const Shape* bi = shape_of(n.input(2));
  if (x && x->rank() != 4) return ctx.record_error(n, {"X must be 4-D, got ", *x});
  if (rois && (rois->rank() != 2 || ((*rois)[1].is_int() && !(*rois)[1].is_int(4))))
    return ctx.record_error(n, {"rois must have shape [num_rois, 4], got ", *rois});
  if (bi && bi->rank() != 1) return ctx.record_error(n, {"batch_indices must be 1-D, got ", *bi});
  SymbolicDim num = rois ? (*rois)[0] : SymbolicDim();
  if (bi && (num.is_unknown() || (!num.is_int() && (*bi)[0].is_int()))) num = (*bi)[0];
  if (rois && bi && (*rois)[0].is_int() && (*bi)[0].is_int() && (*rois)[0] != (*bi)[0])
    return ctx.record_error(n, {"rois ", *rois, " and batch_indices ", *bi, " disagree"});
  ctx.set_shape_and_dtype(n.output(0),
                          Shape({num, x ? (*x)[1] : SymbolicDim(), ctx.attr_int(n, "output_height", 1),
                                 ctx.attr_int(n, "output_width", 1)}),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_roi_align, ai_onnx("RoiAlign", 10, 16, 22));

inline constexpr auto kDetectionRules =
    family_rules<infer_non_max_suppression_rules, infer_max_roi_pool_rules, infer_roi_align_rules>(
        "symshape/ops/detection.hpp");

}  // namespace symshape::ops
