// com.microsoft (onnxruntime contrib) attention family: Attention,
// MultiHeadAttention, GroupQueryAttention, PackedAttention,
// PackedMultiHeadAttention, DecoderMaskedMultiHeadAttention,
// SparseAttention, LongformerAttention, GatedRelativePositionBias,
// RelativePositionBias, RemovePadding and RestorePadding.
//
// Sequence dims of the KV cache are expressions: present = past + new
// (Attention: [2, B, H, P+S, D]; MultiHeadAttention: [B, H, P+L, D]);
// GroupQueryAttention's present length is max(past, total_sequence_length)
// when total_sequence_length is a known value.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/microsoft_misc.hpp"

namespace symshape::ops {

namespace ms_detail {
// The required positive num_heads attribute; 0 after an error.
inline int64_t num_heads(Context& ctx, const Node& n, const char* name = "num_heads") {
  const Attribute* a = require_attr(ctx, n, name);
  if (!a) return 0;
  if (a->kind != Attribute::Kind::Int || a->i < 1) {
    ctx.record_error(n, std::string(name) + " must be a positive integer");
    return 0;
  }
  return a->i;
}
// A scalar or 1-element input's value (constant or propagated), else unknown.
inline SymbolicDim scalar_value(const Context& ctx, const Node& n, std::size_t i) {
  auto v = ctx.symbolic_value(n.input(i));
  return v && v->size() == 1 ? (*v)[0] : SymbolicDim();
}
inline bool require_rank(Context& ctx, const Node& n, const Shape* s, std::size_t lo, std::size_t hi, const char* what) {
  if (s && (s->size() < lo || s->size() > hi)) {
    ctx.record_error(n, std::string(what) + " has unexpected rank: " + s->to_string());
    return false;
  }
  return true;
}
}  // namespace ms_detail

// Attention: input [B, S, in_hidden], weights [in_hidden, q+k+v hidden],
// [bias], [mask_index], [past [2, B, H, P, D]], [attention_bias],
// [past_sequence_length] -> output [B, S, v_hidden], present [2, B, H, P+S, D].
inline void infer_ms_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 7)) return;
  const int64_t heads = ms_detail::num_heads(ctx, n);
  if (heads == 0) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* past = shape_of(n.input(4));
  if (!ms_detail::require_rank(ctx, n, x, 3, 3, "input") || !ms_detail::require_rank(ctx, n, w, 2, 2, "weights") ||
      !ms_detail::require_rank(ctx, n, past, 5, 5, "past"))
    return;
  const DataType dt = dtype_of(n.input(0));
  SymbolicDim qh, vh;
  if (auto q = n.attr_ints("qkv_hidden_sizes")) {
    if (q->size() != 3 || (*q)[0] < 1 || (*q)[1] < 1 || (*q)[2] < 1)
      return ctx.record_error(n, "qkv_hidden_sizes must have 3 positive values");
    qh = (*q)[0];
    vh = (*q)[2];
  } else if (w) {
    const SymbolicDim& t = (*w)[1];
    if (t.is_int() && t.value() % 3 != 0) return ctx.record_error(n, "weights dim 1 " + t.to_string() + " is not 3*hidden");
    qh = vh = t / SymbolicDim(3);
  }
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape({(*x)[0], (*x)[1], vh}), dt);
  }
  if (!n.output(1)) return;
  const SymbolicDim s = ms_detail::dim_at(x, 1);
  if (past) {
    ctx.set_shape_and_dtype(n.output(1), Shape({(*past)[0], (*past)[1], (*past)[2], (*past)[3] + s, (*past)[4]}), dt);
  } else {
    const SymbolicDim d = qh.is_known() ? qh / SymbolicDim(heads) : SymbolicDim();
    ctx.set_shape_and_dtype(n.output(1), Shape({2, ms_detail::dim_at(x, 0), heads, s, d}), dt);
  }
}

// MultiHeadAttention: query [B, S, D] or packed QKV [B, S, N, 3, H]; key
// [B, L, D], [B, N, L, H] or packed KV [B, L, N, 2, H]; value [B, L, Dv] or
// [B, N, L, Hv]; bias, key_padding_mask, attention_bias, past_key/past_value
// [B, N, P, H] -> output [B, S, Dv], present_key/value [B, N, P+L, H].
inline void infer_ms_multi_head_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 10)) return;
  const int64_t heads = ms_detail::num_heads(ctx, n);
  if (heads == 0) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* pk = shape_of(n.input(6));
  const Shape* pv = shape_of(n.input(7));
  if (!ms_detail::require_rank(ctx, n, q, 3, 5, "query") || !ms_detail::require_rank(ctx, n, k, 3, 5, "key") ||
      !ms_detail::require_rank(ctx, n, v, 3, 4, "value") || !ms_detail::require_rank(ctx, n, pk, 4, 4, "past_key") ||
      !ms_detail::require_rank(ctx, n, pv, 4, 4, "past_value"))
    return;
  if (q && q->size() == 4) return ctx.record_error(n, "query must be 3-D or 5-D, got " + q->to_string());
  const DataType dt = dtype_of(n.input(0));
  const SymbolicDim H(heads);
  // Hidden sizes and the new key/value length L.
  SymbolicDim qk_head, v_hidden, L;
  if (q && q->size() == 5) {  // packed QKV
    qk_head = (*q)[4];
    v_hidden = (*q)[2] * (*q)[4];
    L = (*q)[1];
  } else if (k && k->size() == 5) {  // packed KV
    qk_head = (*k)[4];
    v_hidden = (*k)[2] * (*k)[4];
    L = (*k)[1];
  } else {
    if (q) qk_head = (*q)[2] / H;
    if (k) L = k->size() == 3 ? (*k)[1] : (*k)[2];
    if (v) v_hidden = v->size() == 3 ? (*v)[2] : (*v)[1] * (*v)[3];
    else if (!k && q) v_hidden = (*q)[2];
  }
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], v_hidden}) : Shape(), dt);
  const SymbolicDim v_head = v_hidden.is_known() ? v_hidden / H : SymbolicDim();
  const SymbolicDim b = ms_detail::dim_at(q, 0);
  // A BNSH key of a cross attention is the whole cache already.
  const bool bnsh = k && k->size() == 4;
  auto present = [&](std::size_t out, const Shape* past, const Shape* cur, const SymbolicDim& head) {
    if (!n.output(out)) return;
    if (bnsh && cur && cur->size() == 4) return (void)ctx.set_shape_and_dtype(n.output(out), *cur, dt);
    if (past) {
      ctx.set_shape_and_dtype(n.output(out), Shape({(*past)[0], (*past)[1], (*past)[2] + L, (*past)[3]}), dt);
    } else {
      ctx.set_shape_and_dtype(n.output(out), Shape({b, H, L, head}), dt);
    }
  };
  present(1, pk, k, qk_head);
  present(2, pv, v, v_head);
}

// GroupQueryAttention: query [B, S, N*H] (or packed [B, S, (N+2*Nkv)*H] with
// key/value omitted), key/value [B, S, Nkv*H], past_key/past_value
// [B, Nkv, P, H], seqlens_k [B], total_sequence_length (scalar), ... ->
// output [B, S, N*H], present_key/value [B, Nkv, max(P, total), H].
inline void infer_ms_group_query_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 14)) return;
  for (std::size_t i : {5, 6})
    if (!n.input(i)) return ctx.usage_error(n, "missing required input " + std::to_string(i));
  const int64_t heads = ms_detail::num_heads(ctx, n);
  const int64_t kv_heads = heads ? ms_detail::num_heads(ctx, n, "kv_num_heads") : 0;
  if (heads == 0 || kv_heads == 0) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* pk = shape_of(n.input(3));
  const Shape* pv = shape_of(n.input(4));
  if (!ms_detail::require_rank(ctx, n, q, 3, 3, "query") || !ms_detail::require_rank(ctx, n, pk, 4, 4, "past_key") ||
      !ms_detail::require_rank(ctx, n, pv, 4, 4, "past_value"))
    return;
  const DataType dt = dtype_of(n.input(0));
  const bool packed = n.input(1) == nullptr;
  SymbolicDim head;
  if (q) {
    const SymbolicDim total_heads(packed ? heads + 2 * kv_heads : heads);
    const SymbolicDim& d = (*q)[2];
    if (d.is_int() && d.value() % total_heads.value() != 0)
      return ctx.record_error(n, "query hidden " + d.to_string() + " is not divisible by the head count");
    head = d / total_heads;
    ctx.set_shape_and_dtype(n.output(0), Shape({(*q)[0], (*q)[1], head * SymbolicDim(heads)}), dt);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  }
  const SymbolicDim total = ms_detail::scalar_value(ctx, n, 6);
  auto present = [&](std::size_t out, const Shape* past) {
    if (!n.output(out)) return;
    SymbolicDim len;
    if (past && total.is_known()) len = dim_max((*past)[2], total);
    else if (!past) len = total;
    const SymbolicDim b = past ? (*past)[0] : ms_detail::dim_at(q, 0);
    const SymbolicDim h = past ? (*past)[3] : head;
    ctx.set_shape_and_dtype(n.output(out), Shape({b, kv_heads, len, h}), dt);
  };
  present(1, pk);
  present(2, pv);
}

// PackedAttention: input [T, in_hidden], weights, bias, token_offset [B, S],
// cumulative_sequence_length, [attention_bias] -> output [T, v_hidden].
inline void infer_ms_packed_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 6)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  if (!ms_detail::require_rank(ctx, n, x, 2, 2, "input") || !ms_detail::require_rank(ctx, n, w, 2, 2, "weights")) return;
  SymbolicDim vh;
  if (auto q = n.attr_ints("qkv_hidden_sizes"); q && q->size() == 3) vh = (*q)[2];
  else if (w) vh = (*w)[1] / SymbolicDim(3);
  ctx.set_shape_and_dtype(n.output(0), x ? Shape({(*x)[0], vh}) : Shape(), dtype_of(n.input(0)));
}

// PackedMultiHeadAttention: query [T, D] or packed [T, N, 3, H], key, value
// [T, Dv], bias, token_offset, cumulative_sequence_length -> output [T, Dv].
inline void infer_ms_packed_multi_head_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 7)) return;
  if (!n.input(4) || !n.input(5)) return ctx.usage_error(n, "missing token_offset or cumulative_sequence_length");
  const Shape* q = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  if (!ms_detail::require_rank(ctx, n, q, 2, 4, "query")) return;
  SymbolicDim vh;
  if (q && q->size() == 4) vh = (*q)[1] * (*q)[3];
  else if (v && v->size() == 2) vh = (*v)[1];
  else if (q && !n.input(2)) vh = (*q)[1];
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], vh}) : Shape(), dtype_of(n.input(0)));
}

// DecoderMaskedMultiHeadAttention: query [B, 1, D], key, value, ...,
// past_key/past_value [B, N, max_seq, H] (shared buffers) -> output [B, 1, Dv],
// present_key/present_value with the past's shape, optional qk [B, N, 1, max_seq].
inline void infer_ms_decoder_masked_mha(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 12)) return;
  if (ms_detail::num_heads(ctx, n) == 0) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  if (!ms_detail::require_rank(ctx, n, q, 3, 3, "query")) return;
  const DataType dt = dtype_of(n.input(0));
  SymbolicDim vh = ms_detail::dim_at(q, 2);
  if (v && v->size() == 3) vh = (*v)[2];
  else if (v && v->size() == 4) vh = (*v)[1] * (*v)[3];
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], vh}) : Shape(), dt);
  if (n.input(5)) propagate_type(ctx, n, 1, 5);
  if (n.input(6)) propagate_type(ctx, n, 2, 6);
}

// SparseAttention: query [B, S, N*H] (or packed), past_key/past_value
// [B, Nkv, max_cache, H] -> output [B, S, N*H], present = past (shared buffer).
inline void infer_ms_sparse_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 11)) return;
  for (std::size_t i : {3, 4, 5, 6, 7, 8})
    if (!n.input(i)) return ctx.usage_error(n, "missing required input " + std::to_string(i));
  const int64_t heads = ms_detail::num_heads(ctx, n);
  const int64_t kv_heads = heads ? ms_detail::num_heads(ctx, n, "kv_num_heads") : 0;
  if (heads == 0 || kv_heads == 0) return;
  const Shape* q = shape_of(n.input(0));
  if (!ms_detail::require_rank(ctx, n, q, 3, 3, "query")) return;
  const bool packed = n.input(1) == nullptr;
  SymbolicDim hidden = ms_detail::dim_at(q, 2);
  if (packed && q) hidden = (*q)[2] / SymbolicDim(heads + 2 * kv_heads) * SymbolicDim(heads);
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], hidden}) : Shape(), dtype_of(n.input(0)));
  propagate_type(ctx, n, 1, 3);
  propagate_type(ctx, n, 2, 4);
}

// LongformerAttention: input [B, S, hidden], weight, bias, mask, global_weight,
// global_bias, global -> output [B, S, hidden].
inline void infer_ms_longformer_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 7, 7)) return;
  if (ms_detail::num_heads(ctx, n) == 0) return;
  const Shape* x = shape_of(n.input(0));
  if (!ms_detail::require_rank(ctx, n, x, 3, 3, "input")) return;
  propagate_type(ctx, n);
}

// GatedRelativePositionBias: query_layer [B, S, N*H] (or [T, N*H] with
// token_offset [B, S]), query_bias, rel_pos [1, N, S, S], weight, bias, eco_a
// -> output [B, N, S, S].
inline void infer_ms_gated_relative_position_bias(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 6, 7)) return;
  const int64_t heads = ms_detail::num_heads(ctx, n);
  if (heads == 0) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* off = shape_of(n.input(6));
  SymbolicDim b, s;
  if (off && off->size() == 2) {
    b = (*off)[0];
    s = (*off)[1];
  } else if (!n.input(6) && q) {
    if (q->size() != 3) return ctx.record_error(n, "query_layer must be 3-D, got " + q->to_string());
    b = (*q)[0];
    s = (*q)[1];
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({b, heads, s, s}), dtype_of(n.input(0)));
}

// RelativePositionBias: bias_table [buckets, N], query_length, key_length
// (int64 scalars) -> output [1, N, query_length, key_length].
inline void infer_ms_relative_position_bias(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3)) return;
  const Shape* t = shape_of(n.input(0));
  if (!ms_detail::require_rank(ctx, n, t, 2, 2, "bias_table")) return;
  ctx.set_shape_and_dtype(n.output(0),
                          Shape({1, ms_detail::dim_at(t, 1), ms_detail::scalar_value(ctx, n, 1),
                                 ms_detail::scalar_value(ctx, n, 2)}),
                          dtype_of(n.input(0)));
}

// RemovePadding: input [B, S, H], sequence_token_count [B] -> output [T, H]
// (T data dependent), token_offset [B, S], cumulated_seq_len [B+1],
// max_seq_len [1] (all INT32 but output).
inline void infer_ms_remove_padding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  if (!ms_detail::require_rank(ctx, n, x, 3, 3, "input")) return;
  const SymbolicDim b = ms_detail::dim_at(x, 0), s = ms_detail::dim_at(x, 1);
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(), ms_detail::dim_at(x, 2)}), dtype_of(n.input(0)));
  ctx.set_shape_and_dtype(n.output(1), Shape({b, s}), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(2), Shape({b + 1}), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(3), Shape({1}), DataType::INT32);
}

// RestorePadding: input [T, H], token_offset [B, S] -> output [B, S, H].
inline void infer_ms_restore_padding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* off = shape_of(n.input(1));
  if (!ms_detail::require_rank(ctx, n, x, 2, 2, "input") || !ms_detail::require_rank(ctx, n, off, 2, 2, "token_offset"))
    return;
  ctx.set_shape_and_dtype(n.output(0),
                          Shape({ms_detail::dim_at(off, 0), ms_detail::dim_at(off, 1), ms_detail::dim_at(x, 1)}),
                          dtype_of(n.input(0)));
}

inline constexpr auto kMicrosoftAttentionRules = make_rules({
    RuleEntry{"com.microsoft", "Attention", 1, &infer_ms_attention, "infer_ms_attention"},
    RuleEntry{"com.microsoft", "MultiHeadAttention", 1, &infer_ms_multi_head_attention, "infer_ms_multi_head_attention"},
    RuleEntry{"com.microsoft", "GroupQueryAttention", 1, &infer_ms_group_query_attention, "infer_ms_group_query_attention"},
    RuleEntry{"com.microsoft", "PackedAttention", 1, &infer_ms_packed_attention, "infer_ms_packed_attention"},
    RuleEntry{"com.microsoft", "PackedMultiHeadAttention", 1, &infer_ms_packed_multi_head_attention, "infer_ms_packed_multi_head_attention"},
    RuleEntry{"com.microsoft", "DecoderMaskedMultiHeadAttention", 1, &infer_ms_decoder_masked_mha, "infer_ms_decoder_masked_mha"},
    RuleEntry{"com.microsoft", "SparseAttention", 1, &infer_ms_sparse_attention, "infer_ms_sparse_attention"},
    RuleEntry{"com.microsoft", "LongformerAttention", 1, &infer_ms_longformer_attention, "infer_ms_longformer_attention"},
    RuleEntry{"com.microsoft", "GatedRelativePositionBias", 1, &infer_ms_gated_relative_position_bias, "infer_ms_gated_relative_position_bias"},
    RuleEntry{"com.microsoft", "RelativePositionBias", 1, &infer_ms_relative_position_bias, "infer_ms_relative_position_bias"},
    RuleEntry{"com.microsoft", "RemovePadding", 1, &infer_ms_remove_padding, "infer_ms_remove_padding"},
    RuleEntry{"com.microsoft", "RestorePadding", 1, &infer_ms_restore_padding, "infer_ms_restore_padding"},
});

}  // namespace symshape::ops
