// com.microsoft (onnxruntime contrib) text generation loops: GreedySearch,
// Sampling, BeamSearch and WhisperBeamSearch. Their outputs follow from the
// prompt's batch size and the max_length / num_beams / num_return_sequences
// inputs (scalars or [1], read when their values are known) and the
// vocab_size attribute; the decoder subgraphs are not inferred.
//
// Inputs, outputs and attributes: onnxruntime docs/ContribOperators.md;
// shapes as in GreedySearchShapeInference / BeamSearchShapeInference
// (contrib_defs.cc): sequences [B, max_length] or [B, num_return_sequences,
// max_length] of INT32, sequences_scores [B, num_return_sequences], scores
// [max_length - S, B, num_beams, vocab_size].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/microsoft/common.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace ms_generation_detail {

// The required attributes of every generation op: the decoder subgraph and the
// eos / pad token ids.
inline bool generation_attrs(Context& ctx, const Node& n) {
  return require_attr(ctx, n, "decoder", Attribute::Kind::Graph) && required_int(ctx, n, "eos_token_id") &&
         required_int(ctx, n, "pad_token_id");
}

// The value of the count input i (shape [1] or a scalar), unknown when not
// given or not known; nullopt after an error (not a scalar, or below `lo`).
inline std::optional<SymbolicDim> count_input(Context& ctx, const Node& n, std::size_t i, const char* what,
                                              int64_t lo) {
  const Shape* s = shape_of(n.input(i));
  if (s && !(s->rank() == 0 || (s->rank() == 1 && (!(*s)[0].is_int() || (*s)[0].is_int(1))))) {
    ctx.record_error(n, {what, " must have shape [1], got ", *s});
    return std::nullopt;
  }
  if (!n.input(i)) return SymbolicDim();
  const SymbolicDim v = scalar_value(ctx, n, i);
  if (v.is_int() && v.value() < lo) {
    ctx.record_error(n, {what, " must be at least ", lo, ", got ", v});
    return std::nullopt;
  }
  return v;
}

// The prompt input_ids [B, S] (or, for encoder-decoder models whose encoder
// takes features, [B, ...]); nullopt after an error.
enum class PromptForm { IdsOnly, IdsOrFeatures };
inline Maybe<const Shape*> prompt(Context& ctx, const Node& n, PromptForm features_allowed) {
  const Shape* ids = shape_of(n.input(0));
  if (ids && ids->rank() != 2 && !(features_allowed == PromptForm::IdsOrFeatures && ids->rank() == 3)) {
    ctx.record_error(n, {"input_ids must be [batch_size, sequence_length], got ", *ids});
    return std::nullopt;
  }
  return ids;
}

// GreedySearch / Sampling: sequences [B, max_length] (INT32).
inline bool greedy_sequences(Context& ctx, Node& n, std::size_t max_inputs) {
  if (!check_inputs(ctx, n, 2, max_inputs) || !generation_attrs(ctx, n)) return false;
  const auto ids = prompt(ctx, n, PromptForm::IdsOnly);
  if (!ids) return false;
  const auto max_length = count_input(ctx, n, 1, "max_length", 1);
  if (!max_length) return false;
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(*ids, 0), *max_length}), DataType::INT32);
  return true;
}

// The vocabulary size: the vocab_size attribute, else unknown.
inline SymbolicDim vocab(Context& ctx, const Node& n) {
  const int64_t v = ctx.attr_int(n, "vocab_size", -1);
  return v > 0 ? SymbolicDim(v) : SymbolicDim();
}

// BeamSearch / WhisperBeamSearch outputs 0 to 2; false after an error.
enum class BeamModel { Generic, Whisper };
inline bool beam_outputs(Context& ctx, Node& n, BeamModel model) {
  const bool whisper = model == BeamModel::Whisper;
  if (!generation_attrs(ctx, n)) return false;
  const auto ids = prompt(
      ctx, n, whisper || ctx.attr_int(n, "model_type", 0) != 0 ? PromptForm::IdsOrFeatures : PromptForm::IdsOnly);
  if (!ids) return false;
  const auto max_length = count_input(ctx, n, 1, "max_length", 1);
  const auto beams = max_length ? count_input(ctx, n, 3, "num_beams", 1) : std::nullopt;
  const auto ret = beams ? count_input(ctx, n, 4, "num_return_sequences", 1) : std::nullopt;
  if (!ret) return false;
  if (beams->is_int() && ret->is_int() && ret->value() > beams->value()) {
    ctx.record_error(n, {"num_return_sequences ", *ret, " exceeds num_beams ", *beams});
    return false;
  }
  // The scores' type T is that of length_penalty / repetition_penalty (else float).
  DataType t = dtype_of(n.input(5));
  if (t == DataType::UNDEFINED) t = dtype_of(n.input(6));
  if (t == DataType::UNDEFINED) t = DataType::FLOAT;
  const SymbolicDim b = dim_at(*ids, 0);
  ctx.set_shape_and_dtype(n.output(0), Shape({b, *ret, *max_length}), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(1), Shape({b, *ret}), t);
  // Generated steps: max_length - S for a decoder-only prompt.
  const bool decoder_only = !whisper && ctx.attr_int(n, "model_type", 0) == 0;
  SymbolicDim steps = decoder_only && max_length->is_known() && *ids ? *max_length - (**ids)[1] : SymbolicDim();
  if (n.output(2)) ctx.set_shape_and_dtype(n.output(2), Shape({steps, b, *beams, vocab(ctx, n)}), t);
  return true;
}

}  // namespace ms_generation_detail

// GreedySearch: input_ids [B, S], max_length, [min_length],
// [repetition_penalty], [vocab_mask], [prefix_vocab_mask], [attention_mask]
// -> sequences [B, max_length].
inline void infer_ms_greedy_search(Context& ctx, Node& n) { ms_generation_detail::greedy_sequences(ctx, n, 7); }
SYMSHAPE_RULES(infer_ms_greedy_search, com_microsoft("GreedySearch", 1));

// Sampling: GreedySearch's inputs and [presence_mask], [seed] -> sequences
// [B, max_length], filtered_logits [B, vocab_size] (float).
inline void infer_ms_sampling(Context& ctx, Node& n) {
  if (!ms_generation_detail::greedy_sequences(ctx, n, 9) || !n.output(1)) return;
  const Shape* ids = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(1), Shape({dim_at(ids, 0), ms_generation_detail::vocab(ctx, n)}), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_ms_sampling, com_microsoft("Sampling", 1));

// BeamSearch: input_ids, max_length, [min_length], num_beams,
// num_return_sequences, [length_penalty], [repetition_penalty], [vocab_mask],
// [prefix_vocab_mask], [attention_mask], [decoder_input_ids], [logits_processor].
inline void infer_ms_beam_search(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3, 4}, 12)) return;
  ms_generation_detail::beam_outputs(ctx, n, ms_generation_detail::BeamModel::Generic);
}
SYMSHAPE_RULES(infer_ms_beam_search, com_microsoft("BeamSearch", 1));

// WhisperBeamSearch: BeamSearch's inputs and [cross_qk_layer_head],
// [extra_decoding_ids], [temperature] -> BeamSearch's outputs, cross_qk
// [B, R, L*H or cross_qk_layer_head rows, T, F] (FLOAT) and non_speech_probs [B].
inline void infer_ms_whisper_beam_search(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 3, 4}, 15)) return;
  if (!ms_generation_detail::beam_outputs(ctx, n, ms_generation_detail::BeamModel::Whisper)) return;
  const Shape* ids = shape_of(n.input(0));
  const auto ret = ms_generation_detail::count_input(ctx, n, 4, "num_return_sequences", 1);
  const Shape* layer_head = shape_of(n.input(12));
  if (n.output(3))
    ctx.set_shape_and_dtype(n.output(3), Shape({dim_at(ids, 0), *ret, dim_at(layer_head, 0), {}, {}}), DataType::FLOAT);
  DataType t = dtype_of(n.input(5));
  if (t == DataType::UNDEFINED) t = DataType::FLOAT;
  if (n.output(4)) ctx.set_shape_and_dtype(n.output(4), Shape({dim_at(ids, 0)}), t);
}
SYMSHAPE_RULES(infer_ms_whisper_beam_search, com_microsoft("WhisperBeamSearch", 1));

inline constexpr auto kMicrosoftGenerationRules =
    family_rules<infer_ms_greedy_search_rules, infer_ms_sampling_rules, infer_ms_beam_search_rules,
                 infer_ms_whisper_beam_search_rules>("symshape/ops/microsoft/generation.hpp");

}  // namespace symshape::ops
