// Attention ops of the newer opsets: Attention (23, 24 with
// nonpad_kv_seqlen), RotaryEmbedding (23) and LinearAttention (27). Sequence
// dims stay symbolic: the KV cache of Attention grows to
// past_sequence_length + kv_sequence_length. (RMSNormalization is in
// normalization.hpp, TensorScatter in gather_scatter.hpp, CausalConvWithState
// in conv.hpp.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace attention_detail {

// A positive head-count attribute, or 0 when absent; nullopt after an error.
inline std::optional<int64_t> heads_attr(Context& ctx, const Node& n, const char* name) {
  const Attribute* a = n.attr(name);
  if (!a) return 0;
  if (a->kind != Attribute::Kind::Int || a->i < 1) {
    ctx.record_error(n, {name, " must be a positive integer"});
    return std::nullopt;
  }
  return a->i;
}

// hidden / heads; nullopt after an error (both integers, not divisible).
inline std::optional<SymbolicDim> split_heads(Context& ctx, const Node& n, const SymbolicDim& hidden, int64_t heads,
                                              const char* what) {
  if (hidden.is_int() && hidden.value() % heads != 0) {
    ctx.record_error(n, {what, " ", hidden, " is not divisible by ", heads, " heads"});
    return std::nullopt;
  }
  return hidden / SymbolicDim(heads);
}

// Ranks of Q, K, V and the past key and value; false after an error.
inline bool check_attention_ranks(Context& ctx, const Node& n, const Shape* q, const Shape* k, const Shape* v,
                                  const Shape* past_k, const Shape* past_v) {
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{q, "Q"}, {k, "K"}, {v, "V"}}) {
    if (s && s->rank() != 3 && s->rank() != 4) {
      ctx.record_error(n, {name, " must be 3-D or 4-D, got shape ", *s});
      return false;
    }
  }
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{past_k, "past_key"}, {past_v, "past_value"}}) {
    if (s && s->rank() != 4) {
      ctx.record_error(n, {name, " must be 4-D, got shape ", *s});
      return false;
    }
  }
  return true;
}

// Q's heads, sequence length and head size, as far as known.
struct QueryDims {
  SymbolicDim heads, seq, head_size;
};

// `heads`: the q_num_heads attribute (0 when absent), which splits a 3-D Q's
// hidden size; nullopt after an error.
inline Maybe<QueryDims> query_dims(Context& ctx, const Node& n, const Shape* q, int64_t heads) {
  QueryDims d;
  if (q && q->rank() == 3) {
    auto head_size = split_heads(ctx, n, (*q)[2], heads, "Q hidden size");
    if (!head_size) return std::nullopt;
    d = {heads, (*q)[1], *head_size};
  } else if (q) {
    d = {(*q)[1], (*q)[2], (*q)[3]};
  } else if (heads > 0) {
    d.heads = heads;
  }
  return d;
}

// K's and V's heads, sequence length and head sizes, as far as known.
struct KeyValueDims {
  SymbolicDim heads, seq, head_size, v_head_size;
};

// `heads`: the kv_num_heads attribute (0 when absent), which splits the
// hidden size of a 3-D K and V; nullopt after an error.
inline Maybe<KeyValueDims> key_value_dims(Context& ctx, const Node& n, const Shape* k, const Shape* v, int64_t heads) {
  KeyValueDims d;
  if (k && k->rank() == 3) {
    auto head_size = split_heads(ctx, n, (*k)[2], heads, "K hidden size");
    if (!head_size) return std::nullopt;
    d.heads = heads;
    d.seq = (*k)[1];
    d.head_size = *head_size;
  } else if (k) {
    d.heads = (*k)[1];
    d.seq = (*k)[2];
    d.head_size = (*k)[3];
  } else if (heads > 0) {
    d.heads = heads;
  }
  if (v && v->rank() == 3) {
    auto v_head_size = split_heads(ctx, n, (*v)[2], heads, "V hidden size");
    if (!v_head_size) return std::nullopt;
    d.v_head_size = *v_head_size;
    if (d.seq.is_unknown()) d.seq = (*v)[1];
  } else if (v) {
    d.v_head_size = (*v)[3];
    if (d.heads.is_unknown()) d.heads = (*v)[1];
    if (d.seq.is_unknown()) d.seq = (*v)[2];
  }
  return d;
}

// Y, present_key, present_value and qk_matmul_output; `total` is the
// sequence length of the KV cache (past + new).
inline void set_attention_outputs(Context& ctx, Node& n, const SymbolicDim& batch, const QueryDims& qd,
                                  const SymbolicDim& head_size, const KeyValueDims& kv, const SymbolicDim& total) {
  const Shape* q = shape_of(n.input(0));
  const DataType qt = dtype_of(n.input(0));
  if (!q) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), qt);
  } else if (q->rank() == 3) {
    ctx.set_shape_and_dtype(n.output(0), Shape({batch, qd.seq, qd.heads * kv.v_head_size}), qt);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape({batch, qd.heads, qd.seq, kv.v_head_size}), qt);
  }
  ctx.set_shape_and_dtype(n.output(1), Shape({batch, kv.heads, total, head_size}), dtype_of(n.input(1)));
  ctx.set_shape_and_dtype(n.output(2), Shape({batch, kv.heads, total, kv.v_head_size}), dtype_of(n.input(2)));
  ctx.set_shape_and_dtype(n.output(3), Shape({batch, qd.heads, qd.seq, total}), qt);
}

// Attention (23/24). Q: [B, Hq, Sq, D] or [B, Sq, Hq*D]; K: [B, Hkv, Skv, D]
// or [B, Skv, Hkv*D]; V: [B, Hkv, Skv, Dv] or [B, Skv, Hkv*Dv]; optional
// attn_mask, past_key/past_value [B, Hkv, P, D|Dv] (and nonpad_kv_seqlen
// [B] at 24). Outputs: Y [B, Hq, Sq, Dv] (3-D: [B, Sq, Hq*Dv]),
// present_key/present_value [B, Hkv, P+Skv, D|Dv], qk_matmul_output
// [B, Hq, Sq, P+Skv].
inline void attention(Context& ctx, Node& n, std::size_t max_inputs) {
  if (!check_inputs(ctx, n, 3, max_inputs)) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* past_k = shape_of(n.input(4));
  if ((n.input(4) == nullptr) != (n.input(5) == nullptr))
    return ctx.usage_error(n, "past_key and past_value must be given together");
  if (!check_attention_ranks(ctx, n, q, k, v, past_k, shape_of(n.input(5)))) return;
  const auto q_heads_attr = heads_attr(ctx, n, "q_num_heads");
  const auto kv_heads_attr = heads_attr(ctx, n, "kv_num_heads");
  if (!q_heads_attr || !kv_heads_attr) return;
  const bool q3 = q && q->rank() == 3, k3 = k && k->rank() == 3, v3 = v && v->rank() == 3;
  if ((q3 && *q_heads_attr == 0) || ((k3 || v3) && *kv_heads_attr == 0))
    return ctx.usage_error(n, "3-D Q, K and V need the q_num_heads and kv_num_heads attributes");
  const auto qd = query_dims(ctx, n, q, *q_heads_attr);
  if (!qd) return;
  auto kv = key_value_dims(ctx, n, k, v, *kv_heads_attr);
  if (!kv) return;
  const SymbolicDim batch = dim_at(q, 0).is_unknown() ? dim_at(k, 0) : dim_at(q, 0);
  const SymbolicDim head_size = qd->head_size.is_unknown() ? kv->head_size : qd->head_size;
  if (qd->heads.is_int() && kv->heads.is_int() && kv->heads.value() > 0 && qd->heads.value() % kv->heads.value() != 0)
    return ctx.record_error(n, {"q_num_heads ", qd->heads, " is not a multiple of kv_num_heads ", kv->heads});
  if (kv->heads.is_unknown() && past_k) kv->heads = (*past_k)[1];
  SymbolicDim total = kv->seq;
  if (n.input(4)) total = past_k ? (*past_k)[2] + kv->seq : SymbolicDim();
  if (past_k && head_size.is_int() && (*past_k)[3].is_int() && (*past_k)[3] != head_size)
    return ctx.record_error(n, {"past_key head size ", (*past_k)[3], " differs from ", head_size});
  if (const Shape* lens = shape_of(n.input(6)); lens && lens->rank() != 1)
    return ctx.record_error(n, {"nonpad_kv_seqlen must be 1-D [batch], got shape ", *lens});
  set_attention_outputs(ctx, n, batch, *qd, head_size, *kv, total);
}

}  // namespace attention_detail

// ai.onnx Attention (opset 23): Q [B,N,S,H] or [B,S,N*H]; T from present_key,
// else K's sequence dim.
inline FlopCount count_onnx_attention(const Node& n, const CountContext&) {
  const Value* q = n.input(0);
  const Value* k = n.input(1);
  const Shape* qs = shape_of(q);
  const Shape* ks = shape_of(k);
  if (!qs || !ks) return counted(SymbolicDim());
  const bool four_d = qs->rank() == 4;
  const SymbolicDim rows =
      four_d ? dim(q, 0) * dim(q, 1) * dim(q, 2) : dim(q, 0) * dim(q, 1) * SymbolicDim(n.attr_int("q_num_heads", 0));
  const SymbolicDim t = attention_keys(n, 1, ks->rank() == 4 ? dim(k, 2) : dim(k, 1));
  return counted(attention_core(numel(q), numel(n.output(0)), rows, t));
}

inline void infer_attention_23(Context& ctx, Node& n) { attention_detail::attention(ctx, n, 6); }
SYMSHAPE_RULES(infer_attention_23, ai_onnx("Attention", 23).cost(count_onnx_attention));
inline void infer_attention_24(Context& ctx, Node& n) { attention_detail::attention(ctx, n, 7); }
SYMSHAPE_RULES(infer_attention_24, ai_onnx("Attention", 24).cost(count_onnx_attention));

// RotaryEmbedding (23): X is [B, H, S, D] or [B, S, H*D] (then num_heads is
// required); Y has X's type.
inline void infer_rotary_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 3 && x->rank() != 4) return ctx.record_error(n, {"X must be 3-D or 4-D, got shape ", *x});
  if (x && x->rank() == 3) {
    const auto heads = attention_detail::heads_attr(ctx, n, "num_heads");
    if (!heads) return;
    if (*heads == 0) return ctx.usage_error(n, "a 3-D input needs the num_heads attribute");
    if (!attention_detail::split_heads(ctx, n, (*x)[2], *heads, "hidden size")) return;
  }
  const Shape* pos = shape_of(n.input(3));
  if (pos && pos->rank() != 2)
    return ctx.record_error(n, {"position_ids must be 2-D [batch, sequence], got shape ", *pos});
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_rotary_embedding, ai_onnx("RotaryEmbedding", 23).cost(count_rotary));

// LinearAttention (27): query [B, T, Hq*dk], key [B, T, Hkv*dk], value
// [B, T, Hkv*dv], optional past_state [B, Hkv, dk, dv]. Outputs: output
// [B, T, Hq*dv] and present_state [B, Hkv, dk, dv].
inline void infer_linear_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 6)) return;
  const Attribute* qa = require_attr(ctx, n, "q_num_heads");
  const Attribute* ka = qa ? require_attr(ctx, n, "kv_num_heads") : nullptr;
  if (!qa || !ka) return;
  const auto q_heads = attention_detail::heads_attr(ctx, n, "q_num_heads");
  const auto kv_heads = attention_detail::heads_attr(ctx, n, "kv_num_heads");
  if (!q_heads || !kv_heads) return;
  const int64_t qh = *q_heads, kh = *kv_heads;
  if (qh % kh != 0) return ctx.record_error(n, {"q_num_heads ", qh, " is not a multiple of kv_num_heads ", kh});
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* past = shape_of(n.input(3));
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{q, "query"}, {k, "key"}, {v, "value"}}) {
    if (s && s->rank() != 3) return ctx.record_error(n, {name, " must be 3-D [B, T, H*D], got shape ", *s});
  }
  if (past && past->rank() != 4)
    return ctx.record_error(n, {"past_state must be 4-D [B, H_kv, d_k, d_v], got shape ", *past});
  SymbolicDim batch = dim_at(q, 0), seq = dim_at(q, 1), dk, dv;
  if (batch.is_unknown()) batch = dim_at(past, 0);
  if (q) {
    auto d = attention_detail::split_heads(ctx, n, (*q)[2], qh, "query hidden size");
    if (!d) return;
    dk = *d;
  }
  if (k && dk.is_unknown()) {
    auto d = attention_detail::split_heads(ctx, n, (*k)[2], kh, "key hidden size");
    if (!d) return;
    dk = *d;
  }
  if (v) {
    auto d = attention_detail::split_heads(ctx, n, (*v)[2], kh, "value hidden size");
    if (!d) return;
    dv = *d;
  }
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
