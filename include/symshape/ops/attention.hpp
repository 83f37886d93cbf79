// Attention ops of the newer opsets: Attention (23, 24 with
// nonpad_kv_seqlen), RotaryEmbedding (23) and LinearAttention (27). Sequence
// dims stay symbolic: the KV cache of Attention grows to
// past_sequence_length + kv_sequence_length. (RMSNormalization is in
// normalization.hpp, TensorScatter in gather_scatter.hpp, CausalConvWithState
// in conv.hpp.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

namespace attention_detail {

// A positive head-count attribute, or 0 when absent; -1 after an error.
inline int64_t heads_attr(Context& ctx, const Node& n, const char* name) {
  const Attribute* a = n.attr(name);
  if (!a) return 0;
  if (a->kind != Attribute::Kind::Int || a->i < 1) {
    ctx.record_error(n, std::string(name) + " must be a positive integer");
    return -1;
  }
  return a->i;
}

// hidden / heads, with an error when both are integers and do not divide.
inline bool split_heads(Context& ctx, const Node& n, const SymbolicDim& hidden, int64_t heads, const char* what,
                        SymbolicDim& out) {
  if (hidden.is_int() && hidden.value() % heads != 0) {
    ctx.record_error(n, std::string(what) + " " + hidden.to_string() + " is not divisible by " +
                            std::to_string(heads) + " heads");
    return false;
  }
  out = hidden / SymbolicDim(heads);
  return true;
}

}  // namespace attention_detail

// Attention (23/24). Q: [B, Hq, Sq, D] or [B, Sq, Hq*D]; K: [B, Hkv, Skv, D]
// or [B, Skv, Hkv*D]; V: [B, Hkv, Skv, Dv] or [B, Skv, Hkv*Dv]; optional
// attn_mask, past_key/past_value [B, Hkv, P, D|Dv] (and nonpad_kv_seqlen
// [B] at 24). Outputs: Y [B, Hq, Sq, Dv] (3-D: [B, Sq, Hq*Dv]),
// present_key/present_value [B, Hkv, P+Skv, D|Dv], qk_matmul_output
// [B, Hq, Sq, P+Skv].
namespace attention_detail {
inline void attention(Context& ctx, Node& n, std::size_t max_inputs) {
  if (!check_inputs(ctx, n, 3, max_inputs)) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* past_k = shape_of(n.input(4));
  const Shape* past_v = shape_of(n.input(5));
  if ((n.input(4) == nullptr) != (n.input(5) == nullptr))
    return ctx.usage_error(n, "past_key and past_value must be given together");
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{q, "Q"}, {k, "K"}, {v, "V"}}) {
    if (s && s->rank() != 3 && s->rank() != 4)
      return ctx.record_error(n, std::string(name) + " must be 3-D or 4-D, got shape " + s->to_string());
  }
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{past_k, "past_key"}, {past_v, "past_value"}}) {
    if (s && s->rank() != 4)
      return ctx.record_error(n, std::string(name) + " must be 4-D, got shape " + s->to_string());
  }
  const int64_t q_heads_attr = heads_attr(ctx, n, "q_num_heads");
  const int64_t kv_heads_attr = heads_attr(ctx, n, "kv_num_heads");
  if (q_heads_attr < 0 || kv_heads_attr < 0) return;
  const bool q3 = q && q->rank() == 3, k3 = k && k->rank() == 3, v3 = v && v->rank() == 3;
  if ((q3 && q_heads_attr == 0) || ((k3 || v3) && kv_heads_attr == 0))
    return ctx.usage_error(n, "3-D Q, K and V need the q_num_heads and kv_num_heads attributes");

  SymbolicDim batch = dim_at(q, 0), q_heads, q_seq, head_size, kv_heads, kv_seq, v_head_size;
  if (batch.is_unknown()) batch = dim_at(k, 0);
  if (q3) {
    q_heads = q_heads_attr;
    q_seq = (*q)[1];
    if (!split_heads(ctx, n, (*q)[2], q_heads_attr, "Q hidden size", head_size)) return;
  } else if (q) {
    q_heads = (*q)[1];
    q_seq = (*q)[2];
    head_size = (*q)[3];
  } else if (q_heads_attr > 0) {
    q_heads = q_heads_attr;
  }
  if (k3) {
    kv_heads = kv_heads_attr;
    kv_seq = (*k)[1];
    SymbolicDim k_head;
    if (!split_heads(ctx, n, (*k)[2], kv_heads_attr, "K hidden size", k_head)) return;
    if (head_size.is_unknown()) head_size = k_head;
  } else if (k) {
    kv_heads = (*k)[1];
    kv_seq = (*k)[2];
    if (head_size.is_unknown()) head_size = (*k)[3];
  } else if (kv_heads_attr > 0) {
    kv_heads = kv_heads_attr;
  }
  if (v3) {
    if (!split_heads(ctx, n, (*v)[2], kv_heads_attr, "V hidden size", v_head_size)) return;
    if (kv_seq.is_unknown()) kv_seq = (*v)[1];
  } else if (v) {
    v_head_size = (*v)[3];
    if (kv_heads.is_unknown()) kv_heads = (*v)[1];
    if (kv_seq.is_unknown()) kv_seq = (*v)[2];
  }
  if (q_heads.is_int() && kv_heads.is_int() && kv_heads.value() > 0 && q_heads.value() % kv_heads.value() != 0)
    return ctx.record_error(
        n, "q_num_heads " + q_heads.to_string() + " is not a multiple of kv_num_heads " + kv_heads.to_string());
  if (kv_heads.is_unknown() && past_k) kv_heads = (*past_k)[1];
  SymbolicDim total = kv_seq;
  if (n.input(4)) total = past_k ? (*past_k)[2] + kv_seq : SymbolicDim();
  if (past_k && head_size.is_int() && (*past_k)[3].is_int() && (*past_k)[3] != head_size)
    return ctx.record_error(
        n, "past_key head size " + (*past_k)[3].to_string() + " differs from " + head_size.to_string());
  if (const Shape* lens = shape_of(n.input(6)); lens && lens->rank() != 1)
    return ctx.record_error(n, "nonpad_kv_seqlen must be 1-D [batch], got shape " + lens->to_string());

  const DataType qt = dtype_of(n.input(0));
  if (!q) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), qt);
  } else if (q3) {
    ctx.set_shape_and_dtype(n.output(0), Shape({batch, q_seq, q_heads * v_head_size}), qt);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape({batch, q_heads, q_seq, v_head_size}), qt);
  }
  ctx.set_shape_and_dtype(n.output(1), Shape({batch, kv_heads, total, head_size}), dtype_of(n.input(1)));
  ctx.set_shape_and_dtype(n.output(2), Shape({batch, kv_heads, total, v_head_size}), dtype_of(n.input(2)));
  ctx.set_shape_and_dtype(n.output(3), Shape({batch, q_heads, q_seq, total}), qt);
}
}  // namespace attention_detail

inline void infer_attention_23(Context& ctx, Node& n) { attention_detail::attention(ctx, n, 6); }
SYMSHAPE_RULES(infer_attention_23, ai_onnx("Attention", 23));
inline void infer_attention_24(Context& ctx, Node& n) { attention_detail::attention(ctx, n, 7); }
SYMSHAPE_RULES(infer_attention_24, ai_onnx("Attention", 24));

// RotaryEmbedding (23): X is [B, H, S, D] or [B, S, H*D] (then num_heads is
// required); Y has X's type.
inline void infer_rotary_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 3 && x->rank() != 4)
    return ctx.record_error(n, "X must be 3-D or 4-D, got shape " + x->to_string());
  if (x && x->rank() == 3) {
    const int64_t heads = attention_detail::heads_attr(ctx, n, "num_heads");
    if (heads < 0) return;
    if (heads == 0) return ctx.usage_error(n, "a 3-D input needs the num_heads attribute");
    SymbolicDim head;
    if (!attention_detail::split_heads(ctx, n, (*x)[2], heads, "hidden size", head)) return;
  }
  const Shape* pos = shape_of(n.input(3));
  if (pos && pos->rank() != 2)
    return ctx.record_error(n, "position_ids must be 2-D [batch, sequence], got shape " + pos->to_string());
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_rotary_embedding, ai_onnx("RotaryEmbedding", 23));

// LinearAttention (27): query [B, T, Hq*dk], key [B, T, Hkv*dk], value
// [B, T, Hkv*dv], optional past_state [B, Hkv, dk, dv]. Outputs: output
// [B, T, Hq*dv] and present_state [B, Hkv, dk, dv].
inline void infer_linear_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 6)) return;
  const Attribute* qa = require_attr(ctx, n, "q_num_heads");
  const Attribute* ka = qa ? require_attr(ctx, n, "kv_num_heads") : nullptr;
  if (!qa || !ka) return;
  const int64_t qh = attention_detail::heads_attr(ctx, n, "q_num_heads");
  const int64_t kh = attention_detail::heads_attr(ctx, n, "kv_num_heads");
  if (qh < 0 || kh < 0) return;
  if (qh % kh != 0)
    return ctx.record_error(
        n, "q_num_heads " + std::to_string(qh) + " is not a multiple of kv_num_heads " + std::to_string(kh));
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* past = shape_of(n.input(3));
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{q, "query"}, {k, "key"}, {v, "value"}}) {
    if (s && s->rank() != 3)
      return ctx.record_error(n, std::string(name) + " must be 3-D [B, T, H*D], got shape " + s->to_string());
  }
  if (past && past->rank() != 4)
    return ctx.record_error(n, "past_state must be 4-D [B, H_kv, d_k, d_v], got shape " + past->to_string());
  SymbolicDim batch = dim_at(q, 0), seq = dim_at(q, 1), dk, dv;
  if (batch.is_unknown()) batch = dim_at(past, 0);
  if (q && !attention_detail::split_heads(ctx, n, (*q)[2], qh, "query hidden size", dk)) return;
  if (k && dk.is_unknown() && !attention_detail::split_heads(ctx, n, (*k)[2], kh, "key hidden size", dk)) return;
  if (v && !attention_detail::split_heads(ctx, n, (*v)[2], kh, "value hidden size", dv)) return;
  if (dk.is_unknown()) dk = dim_at(past, 2);
  if (dv.is_unknown()) dv = dim_at(past, 3);
  const DataType t = dtype_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({batch, seq, SymbolicDim(qh) * dv}) : Shape(), t);
  const DataType st = n.input(3) ? dtype_of(n.input(3)) : t;
  ctx.set_shape_and_dtype(n.output(1), Shape({batch, SymbolicDim(kh), dk, dv}), st);
}
SYMSHAPE_RULES(infer_linear_attention, ai_onnx("LinearAttention", 27));

inline constexpr auto kAttentionRules =
    family_rules<infer_attention_23_rules, infer_attention_24_rules, infer_rotary_embedding_rules,
                 infer_linear_attention_rules>("symshape/ops/attention.hpp");

}  // namespace symshape::ops
