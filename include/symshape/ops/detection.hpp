// Operators without a family elsewhere: NonMaxSuppression (10, 11),
// TfIdfVectorizer (9), SoftmaxCrossEntropyLoss (12, 13) and the
// experimental Upsample 1 (height_scale/width_scale attributes).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/random_loss.hpp"

namespace symshape::ops {

// NonMaxSuppression: boxes [B, S, 4], scores [B, C, S] -> INT64
// [num_selected (unknown), 3].
inline void infer_non_max_suppression(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 5)) return;
  const Shape* boxes = shape_of(n.input(0));
  const Shape* scores = shape_of(n.input(1));
  if (boxes && (boxes->rank() != 3 || ((*boxes)[2].is_int() && (*boxes)[2] != SymbolicDim(4))))
    return ctx.record_error(n, "boxes must be [num_batches, spatial_dimension, 4], got shape " + boxes->to_string());
  if (scores && scores->rank() != 3)
    return ctx.record_error(n, "scores must be [num_batches, num_classes, spatial_dimension], got shape " +
           scores->to_string());
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(), SymbolicDim(3)}), DataType::INT64);
}
SYMSHAPE_RULES(infer_non_max_suppression, ai_onnx("NonMaxSuppression", 10, 11));

// TfIdfVectorizer: [C] -> [E], [N, C] -> [N, E], E = max(ngram_indexes)+1; FLOAT.
inline void infer_tfidf_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* idx = require_attr(ctx, n, "ngram_indexes");
  if (!idx) return;
  int64_t max_index = -1;
  for (int64_t i : idx->ints) {
    if (i < 0) return ctx.record_error(n, "ngram_indexes has a negative entry " + std::to_string(i));
    max_index = std::max(max_index, i);
  }
  if (max_index < 0) return ctx.record_error(n, "ngram_indexes is empty");
  const SymbolicDim e(max_index + 1);
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::FLOAT);
    return;
  }
  if (s->rank() == 1) {
    ctx.set_shape_and_dtype(n.output(0), Shape({e}), DataType::FLOAT);
  } else if (s->rank() == 2) {
    ctx.set_shape_and_dtype(n.output(0), Shape({(*s)[0], e}), DataType::FLOAT);
  } else {
    ctx.record_error(n, "input must be [C] or [N, C], got shape " + s->to_string());
  }
}
SYMSHAPE_RULES(infer_tfidf_vectorizer, ai_onnx("TfIdfVectorizer", 9));

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

// Upsample 1: 4-D [N, C, H, W] -> [N, C, floor(H*height_scale), floor(W*width_scale)].
inline void infer_upsample_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* hs = require_attr(ctx, n, "height_scale");
  if (!hs) return;
  const Attribute* ws = require_attr(ctx, n, "width_scale");
  if (!ws) return;
  if (!(hs->f >= 1.0) || !(ws->f >= 1.0) || hs->f > 1e9 || ws->f > 1e9)
    return ctx.record_error(n, "height_scale and width_scale must be >= 1");
  const Shape* s = shape_of(n.input(0));
  const DataType t = dtype_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(std::vector<SymbolicDim>(4)), t);
    return;
  }
  if (s->rank() != 4) return ctx.record_error(n, "input must be 4-D [N, C, H, W], got shape " + s->to_string());
  auto scaled = [](const SymbolicDim& d, double scale) {
    if (scale == std::floor(scale)) return d * SymbolicDim(static_cast<int64_t>(scale));
    if (d.is_int() && d.value() <= (int64_t{1} << 40))
      return SymbolicDim(static_cast<int64_t>(std::floor(static_cast<double>(d.value()) * scale)));
    return SymbolicDim();
  };
  ctx.set_shape_and_dtype(n.output(0), Shape({(*s)[0], (*s)[1], scaled((*s)[2], hs->f), scaled((*s)[3], ws->f)}), t);
}
SYMSHAPE_RULES(infer_upsample_1, ai_onnx("Upsample", 1));

inline constexpr auto kDetectionRules = family_rules<
    infer_non_max_suppression_rules, infer_softmax_cross_entropy_loss_rules, infer_tfidf_vectorizer_rules,
    infer_upsample_1_rules>("symshape/ops/detection.hpp");

}  // namespace symshape::ops
