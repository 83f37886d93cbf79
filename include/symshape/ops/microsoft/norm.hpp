// onnxruntime contrib normalizations:
// LayerNormalization / SimplifiedLayerNormalization (onnxruntime registers
// these contrib schemas in the ai.onnx domain at version 1, not in
// com.microsoft; axis attr; Mean and InvStdDev keep the leading dims and have
// 1s from axis on, as onnxruntime's kernels allocate them),
// SkipLayerNormalization / SkipSimplifiedLayerNormalization (output,
// mean, inv_std_var [.., 1], input_skip_bias_sum), EmbedLayerNormalization
// (output [B, S, hidden], mask_index [B] INT32, embedding_sum).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

namespace ms_norm_detail {
// [d0, .., d_{axis-1}, 1, .., 1] for the statistics outputs.
inline Shape stats_shape(const Shape& x, std::size_t axis) {
  std::vector<SymbolicDim> d = x.dims();
  for (std::size_t i = axis; i < d.size(); ++i) d[i] = 1;
  return Shape(std::move(d));
}
}  // namespace ms_norm_detail

// LayerNormalization (contrib, ai.onnx v1-16): X, Scale, [B] -> Y, Mean, InvStdDev.
// Statistics are of stash_type (FLOAT by default; onnxruntime uses float for them).
// onnxruntime's inference function (contrib_defs.cc) copies X's shape and sets
// only dim `axis` to 1, but its CPU/CUDA kernels (layer_norm_impl) allocate
// [d0, .., d_{axis-1}, 1, .., 1]; the rule follows the kernels (they agree for
// the default axis -1).
inline void infer_ms_layer_norm(Context& ctx, Node& n) {
  const bool simplified = n.op_type == "SimplifiedLayerNormalization";
  if (!check_inputs(ctx, n, 2, simplified ? 2 : 3)) return;
  propagate_type(ctx, n);
  const int64_t stash = ctx.attr_int(n, "stash_type", 1);
  const DataType sdt = stash == 1 ? DataType::FLOAT : static_cast<DataType>(stash);
  const Shape* x = shape_of(n.input(0));
  const std::size_t inv_out = simplified ? 1 : 2;
  if (!x) {
    if (!simplified) ctx.set_shape_and_dtype(n.output(1), Shape(), sdt);
    ctx.set_shape_and_dtype(n.output(inv_out), Shape(), sdt);
    return;
  }
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", -1), x->rank());
  if (!axis) return;
  const Shape st = ms_norm_detail::stats_shape(*x, static_cast<std::size_t>(*axis));
  if (!simplified) ctx.set_shape_and_dtype(n.output(1), st, sdt);
  ctx.set_shape_and_dtype(n.output(inv_out), st, sdt);
}
// onnxruntime's contrib LayerNormalization / SimplifiedLayerNormalization
// are ai.onnx v1 schemas (contrib_defs.cc: SetDomain(kOnnxDomain)); ONNX's
// own LayerNormalization-17 takes over from opset 17.
SYMSHAPE_RULES(infer_ms_layer_norm, ai_onnx("LayerNormalization", 1).cost(count_layer_norm),
               ai_onnx("SimplifiedLayerNormalization", 1).cost(count_layer_norm));

// SkipLayerNormalization: input [B, S, H] (or 2-D), skip, gamma, [beta], [bias]
// -> output, mean [B, S, 1], inv_std_var [B, S, 1] (FLOAT), input_skip_bias_sum.
// SkipSimplifiedLayerNormalization has no beta (inputs: input, skip, gamma,
// [bias]). onnxruntime: SkipLayerNormalizationShapeInference; the 2-D/3-D
// input check is the kernels' (skip_layer_norm_helper).
inline void infer_ms_skip_layer_norm(Context& ctx, Node& n) {
  const bool simplified = n.op_type == "SkipSimplifiedLayerNormalization";
  if (!check_inputs(ctx, n, 3, simplified ? 4 : 5)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 2 && x->rank() != 3) return ctx.record_error(n, {"input must be 2-D or 3-D, got ", *x});
  propagate_type(ctx, n, 0, 0);
  const Shape st = x ? ms_norm_detail::stats_shape(*x, x->size() - 1) : Shape();
  ctx.set_shape_and_dtype(n.output(1), st, DataType::FLOAT);
  ctx.set_shape_and_dtype(n.output(2), st, DataType::FLOAT);
  propagate_type(ctx, n, 3, 0);
}
SYMSHAPE_RULES(infer_ms_skip_layer_norm, com_microsoft("SkipLayerNormalization", 1).cost(count_layer_norm),
               com_microsoft("SkipSimplifiedLayerNormalization", 1).cost(count_layer_norm));

// EmbedLayerNormalization: input_ids [B, S], segment_ids, word_embedding [V, H],
// position_embedding, segment_embedding, gamma, beta, [mask], [position_ids]
// -> output [B, S, H] (embedding dtype), mask_index [B] INT32, embedding_sum [B, S, H].
// onnxruntime: EmbedLayerNormalizationShapeInference (rank checks, equal hidden
// sizes, segment_embedding read when segment_ids is given). That function
// gives embedding_sum input_ids' element type, which contradicts the schema
// (type T, the embeddings'); the rule keeps the schema's T.
inline void infer_ms_embed_layer_norm(Context& ctx, Node& n) {
  // segment_ids (1) and segment_embedding (4) are optional.
  if (!check_present(ctx, n, {2, 3, 5, 6}, 9, /*min_count=*/1)) return;
  if (n.input(1) && !n.input(4)) return ctx.usage_error(n, "segment_ids is given without segment_embedding");
  const Shape* ids = shape_of(n.input(0));
  const Shape* seg = shape_of(n.input(1));
  const Shape* we = shape_of(n.input(2));
  if (ids && ids->rank() != 2) return ctx.record_error(n, {"input_ids must be 2-D, got ", *ids});
  if (seg && seg->rank() != 2) return ctx.record_error(n, {"segment_ids must be 2-D, got ", *seg});
  if (we && we->rank() != 2) return ctx.record_error(n, {"word_embedding must be 2-D, got ", *we});
  const SymbolicDim h = we ? (*we)[1] : SymbolicDim();
  // position/segment embeddings [*, hidden], gamma/beta [hidden], with
  // word_embedding's hidden size.
  const std::pair<std::size_t, std::size_t> checks[] = {{3, 2}, {4, 2}, {5, 1}, {6, 1}};
  const char* names[] = {"position_embedding", "segment_embedding", "gamma", "beta"};
  for (std::size_t c = 0; c < 4; ++c) {
    const Shape* e = shape_of(n.input(checks[c].first));
    if (!e || (checks[c].first == 4 && !n.input(1))) continue;
    if (e->size() != checks[c].second)
      return ctx.record_error(n, {names[c], " must be ", checks[c].second, "-D, got ", *e});
    if (!same_hidden(ctx, n, h, (*e)[e->size() - 1], names[c])) return;
  }
  const DataType dt = dtype_of(n.input(2));
  const SymbolicDim b = ids ? (*ids)[0] : SymbolicDim(), s = ids ? (*ids)[1] : SymbolicDim();
  const Shape out = ids ? Shape({b, s, h}) : Shape();
  ctx.set_shape_and_dtype(n.output(0), out, dt);
  ctx.set_shape_and_dtype(n.output(1), ids ? Shape({b}) : Shape(), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(2), out, dt);
}
SYMSHAPE_RULES(infer_ms_embed_layer_norm, com_microsoft("EmbedLayerNormalization", 1));

inline constexpr auto kMicrosoftNormRules =
    family_rules<infer_ms_layer_norm_rules, infer_ms_skip_layer_norm_rules, infer_ms_embed_layer_norm_rules>(
        "symshape/ops/microsoft/norm.hpp");

}  // namespace symshape::ops
