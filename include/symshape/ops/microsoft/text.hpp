// com.microsoft (onnxruntime contrib) text operators: Tokenizer,
// WordConvEmbedding, NGramRepeatBlock, NGramHashMapping,
// VarlenNGramHashMapping and BifurcationDetector.
//
// Inputs, outputs and attributes: onnxruntime docs/ContribOperators.md;
// shapes from the contrib schemas (contrib_defs.cc) and, where they give none,
// the output shapes the documentation states.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/ops/microsoft/common.hpp"
#include "symshape/support/checked_int.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

// Tokenizer: X [C] or [N, C] strings -> [C, D] or [N, C, D] with D the most
// tokens of a string (a fresh dim); an empty input ([0] or [N, 0]) stays as
// it is. mark, mincharnum and pad_value are required; exactly one of
// separators and tokenexp is given.
inline void infer_ms_tokenizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1) || !required_int(ctx, n, "mark") || !required_int(ctx, n, "mincharnum") ||
      !require_attr(ctx, n, "pad_value", Attribute::Kind::String))
    return;
  if ((n.attr("separators") != nullptr) == (n.attr("tokenexp") != nullptr))
    return ctx.record_error(n, "exactly one of 'separators' and 'tokenexp' must be given");
  const Shape* x = shape_of(n.input(0));
  if (!x) return (void)ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::STRING);
  if (x->rank() != 1 && x->rank() != 2) return ctx.record_error(n, {"input must be [C] or [N, C], got ", *x});
  if ((*x)[x->size() - 1].is_int(0)) return (void)ctx.set_shape_and_dtype(n.output(0), *x, DataType::STRING);
  std::vector<SymbolicDim> d = x->dims();
  d.push_back(ctx.new_symbolic_dim());
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), DataType::STRING);
}
SYMSHAPE_RULES(infer_ms_tokenizer, com_microsoft("Tokenizer", 1));

// WordConvEmbedding: Sequence [S, word_length] (char ids), W [filters, 1,
// window, char_embedding], B [filters], C [chars, char_embedding] -> [S,
// embedding_size] (float), embedding_size defaulting to W's filter count.
inline void infer_ms_word_conv_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 4)) return;
  const Shape* seq = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  if (!require_rank(ctx, n, seq, 2, 2, "Sequence") || !require_rank(ctx, n, w, 4, 4, "W")) return;
  SymbolicDim emb = dim_at(w, 0);
  if (const int64_t e = ctx.attr_int(n, "embedding_size", -1); e > 0) {
    if (emb.is_int() && emb.value() != e)
      return ctx.record_error(n, {"embedding_size ", e, " differs from W's filters ", emb});
    emb = SymbolicDim(e);
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(seq, 0), emb}), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_ms_word_conv_embedding, com_microsoft("WordConvEmbedding", 1));

// NGramRepeatBlock: input_ids [B, S], scores [B, V] -> scores' type.
inline void infer_ms_ngram_repeat_block(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const auto size = required_int(ctx, n, "ngram_size");
  if (!size) return;
  if (*size < 1) return ctx.record_error(n, {"ngram_size must be positive, got ", *size});
  const Shape* ids = shape_of(n.input(0));
  const Shape* scores = shape_of(n.input(1));
  if (!require_rank(ctx, n, ids, 2, 2, "input_ids") || !require_rank(ctx, n, scores, 2, 2, "scores")) return;
  if (ids && scores && (*ids)[0].is_int() && (*scores)[0].is_int() && (*ids)[0] != (*scores)[0])
    return ctx.record_error(n, {"input_ids ", *ids, " and scores ", *scores, " differ in batch size"});
  propagate_type(ctx, n, 0, 1);
}
SYMSHAPE_RULES(infer_ms_ngram_repeat_block, com_microsoft("NGramRepeatBlock", 1));

namespace ms_text_detail {
// max_ngram_size (>= 2), n_head_per_ngram (>= 1) and pad_id (required):
// the hash heads (max_ngram_size - 1) * n_head_per_ngram and the history
// length max_ngram_size - 1; nullopt after an error.
inline Maybe<std::pair<int64_t, int64_t>> ngram_hash_sizes(Context& ctx, const Node& n) {
  const auto max_n = required_int(ctx, n, "max_ngram_size");
  const auto heads = max_n ? required_int(ctx, n, "n_head_per_ngram") : std::nullopt;
  if (!heads || !required_int(ctx, n, "pad_id")) return std::nullopt;
  int64_t total = 0;
  if (*max_n < 2 || *heads < 1 || !checked::mul(*max_n - 1, *heads, total)) {
    ctx.record_error(n, "max_ngram_size must be at least 2 and n_head_per_ngram positive");
    return std::nullopt;
  }
  return std::make_pair(total, *max_n - 1);
}
}  // namespace ms_text_detail

// NGramHashMapping: input_ids [B, S], multipliers, vocab_sizes, [past_ids],
// [head_offsets], [eos_token_id], [segment_ids] -> hash_ids [B, S, heads],
// present_ids [B, max_ngram_size - 1] (input_ids' type).
inline void infer_ms_ngram_hash_mapping(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 7)) return;
  const auto sizes = ms_text_detail::ngram_hash_sizes(ctx, n);
  if (!sizes) return;
  const Shape* ids = shape_of(n.input(0));
  if (!require_rank(ctx, n, ids, 2, 2, "input_ids")) return;
  const DataType t = dtype_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(ids, 0), dim_at(ids, 1), sizes->first}), t);
  ctx.set_shape_and_dtype(n.output(1), Shape({dim_at(ids, 0), sizes->second}), t);
}
SYMSHAPE_RULES(infer_ms_ngram_hash_mapping, com_microsoft("NGramHashMapping", 1));

// VarlenNGramHashMapping: input_ids [T], multipliers, vocab_sizes,
// cumulative_sequence_length [B + 1], [past_ids], [head_offsets],
// [eos_token_id], [segment_ids], [past_segment_ids] -> hash_ids [T, heads],
// present_ids [B, max_ngram_size - 1], present_segment_ids (INT32) likewise.
inline void infer_ms_varlen_ngram_hash_mapping(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 9)) return;
  const auto sizes = ms_text_detail::ngram_hash_sizes(ctx, n);
  if (!sizes) return;
  const Shape* ids = shape_of(n.input(0));
  const Shape* cu = shape_of(n.input(3));
  if (!require_rank(ctx, n, ids, 1, 1, "input_ids") || !require_rank(ctx, n, cu, 1, 1, "cumulative_sequence_length"))
    return;
  if (cu && (*cu)[0].is_int() && (*cu)[0].value() < 2)
    return ctx.record_error(n, "cumulative_sequence_length must have batch_size + 1 >= 2 elements");
  const DataType t = dtype_of(n.input(0));
  const SymbolicDim batch = cu ? (*cu)[0] - 1 : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(ids, 0), sizes->first}), t);
  ctx.set_shape_and_dtype(n.output(1), Shape({batch, sizes->second}), t);
  ctx.set_shape_and_dtype(n.output(2), Shape({batch, sizes->second}), DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_varlen_ngram_hash_mapping, com_microsoft("VarlenNGramHashMapping", 1));

// BifurcationDetector: src_tokens, cur_tokens, prev_suffix_match_idx,
// [pred_tokens] (INT64) -> tokens [L] (a fresh length) and the scalar
// suffix_match_idx; 1 <= min_ngram_size <= max_ngram_size (defaults 1, 3).
inline void infer_ms_bifurcation_detector(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  const int64_t lo = ctx.attr_int(n, "min_ngram_size", 1), hi = ctx.attr_int(n, "max_ngram_size", 3);
  if (lo < 1 || lo > hi)
    return ctx.record_error(n, {"need 1 <= min_ngram_size <= max_ngram_size, got ", lo, " and ", hi});
  ctx.set_shape_and_dtype(n.output(0), Shape({ctx.new_symbolic_dim()}), DataType::INT64);
  ctx.set_shape_and_dtype(n.output(1), Shape::scalar(), DataType::INT64);
}
SYMSHAPE_RULES(infer_ms_bifurcation_detector, com_microsoft("BifurcationDetector", 1));

inline constexpr auto kMicrosoftTextRules =
    family_rules<infer_ms_tokenizer_rules, infer_ms_word_conv_embedding_rules, infer_ms_ngram_repeat_block_rules,
                 infer_ms_ngram_hash_mapping_rules, infer_ms_varlen_ngram_hash_mapping_rules,
                 infer_ms_bifurcation_detector_rules>("symshape/ops/microsoft/text.hpp");

}  // namespace symshape::ops
