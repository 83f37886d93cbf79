// com.microsoft (onnxruntime contrib) attention family: Attention,
// MultiHeadAttention, GroupQueryAttention, PackedAttention,
// PackedMultiHeadAttention, DecoderMaskedMultiHeadAttention,
// SparseAttention, LongformerAttention, GatedRelativePositionBias,
// RelativePositionBias, RemovePadding and RestorePadding; DecoderMaskedSelfAttention,
// DecoderAttention, PagedAttention, GemmaRotaryEmbedding and MRotaryEmbedding.
//
// Checked against onnxruntime's contrib schemas and their type and shape
// inference functions (core/graph/contrib_ops/bert_defs.cc and
// shape_inference_functions.cc). Sequence dims of the KV cache are
// expressions: present = past + new (Attention: [2, B, H, P+S, D];
// MultiHeadAttention: [B, H, P+L, D]) unless past and present share one
// buffer, when present has the past's shape; GroupQueryAttention's present
// length is max(past, total_sequence_length) when total_sequence_length is a
// known value. Where onnxruntime leaves a dim unknown but the inputs
// determine it, the rule gives the expression.
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

// Attention: input [B, S, in_hidden], weights [in_hidden, q+k+v hidden],
// [bias], [mask_index], [past [2, B, H, P, D]], [attention_bias],
// [past_sequence_length] -> output [B, S, v_hidden], present [2, B, H, P+S, D]
// (the past's shape when past_present_share_buffer is set).
// onnxruntime: AttentionTypeAndShapeInference (v_hidden from
// qkv_hidden_sizes[2] or bias/3; "qkv_hidden_sizes should have 3 elements",
// "Invalid bias shape", "The past input shall be 5 dimensions").
namespace ms_attention_detail {
// Attention's (and DecoderMaskedSelfAttention's) outputs from input 0,
// weights (1), bias (2) and past (4).
inline void attention_outputs(Context& ctx, Node& n) {
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* bias = shape_of(n.input(2));
  const Shape* past = shape_of(n.input(4));
  if (!require_rank(ctx, n, x, 3, 3, "input") || !require_rank(ctx, n, w, 2, 2, "weights") ||
      !require_rank(ctx, n, bias, 1, 1, "bias") || !require_rank(ctx, n, past, 5, 5, "past"))
    return;
  const DataType dt = dtype_of(n.input(0));
  SymbolicDim qh, vh;
  if (auto q = ctx.attr_ints(n, "qkv_hidden_sizes")) {
    if (q->size() != 3 || (*q)[0] < 1 || (*q)[1] < 1 || (*q)[2] < 1)
      return ctx.record_error(n, "qkv_hidden_sizes must have 3 positive values");
    qh = (*q)[0];
    vh = (*q)[2];
  } else if (bias || w) {
    // bias is [q+k+v hidden], the same as weights dim 1.
    const SymbolicDim& t = bias ? (*bias)[0] : (*w)[1];
    if (t.is_int() && t.value() % 3 != 0) return ctx.record_error(n, {"q+k+v hidden size ", t, " is not 3*hidden"});
    qh = vh = t / SymbolicDim(3);
  }
  ctx.set_shape_and_dtype(n.output(0), x ? Shape({(*x)[0], (*x)[1], vh}) : Shape(), dt);
  if (!n.output(1)) return;
  const bool share = past && ctx.attr_int(n, "past_present_share_buffer", 0) != 0;
  ctx.set_shape_and_dtype(n.output(1), share ? *past : attention_present(x, past, *heads, qh), dt);
}
}  // namespace ms_attention_detail

inline void infer_ms_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 7)) return;
  ms_attention_detail::attention_outputs(ctx, n);
}
// com.microsoft Attention: input [B,S,In] x weights [In,W] (+ bias [W]), then
// the core with Dq = qkv_hidden_sizes[0] or W/3 and T = present's dim 3.
inline FlopCount count_ms_attention(const Node& n, const CountContext&) {
  const Value* x = n.input(0);
  const SymbolicDim w = dim(n.input(1), 1);
  const SymbolicDim bs = dim(x, 0) * dim(x, 1);
  SymbolicDim flops = SymbolicDim(2) * numel(x) * w;
  if (n.input(2)) flops = flops + bs * w;
  const auto sizes = n.attr_ints("qkv_hidden_sizes");
  const SymbolicDim dq = sizes && sizes->size() == 3 ? SymbolicDim((*sizes)[0]) : w / SymbolicDim(3);
  SymbolicDim t = dim(x, 1);
  if (n.output(1)) {
    t = dim(n.output(1), 3);
  } else if (n.input(4)) {
    t = t + dim(n.input(4), 3);
  }
  const SymbolicDim rows = bs * SymbolicDim(n.attr_int("num_heads", 0));
  return counted(flops + attention_core(bs * dq, numel(n.output(0)), rows, t));
}
SYMSHAPE_RULES(infer_ms_attention, com_microsoft("Attention", 1).cost(count_ms_attention));

// DecoderMaskedSelfAttention: input [B, 1, in_hidden], weights, bias,
// [mask_index], past [2, B, N, P, H], [attention_bias], past_sequence_length,
// [beam_width], [cache_indirection] -> output [B, 1, v_hidden], present: the
// past's shape with past_present_share_buffer, else [2, B, N, P+1, H].
// onnxruntime: AttentionTypeAndShapeInference (past input index 4).
inline void infer_ms_decoder_masked_self_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 4, 6}, 9)) return;
  ms_attention_detail::attention_outputs(ctx, n);
}
SYMSHAPE_RULES(infer_ms_decoder_masked_self_attention, com_microsoft("DecoderMaskedSelfAttention", 1));

namespace ms_attention_detail {
// MultiHeadAttention's query/key head size, value hidden size and new
// key/value length, read from the packed QKV, packed KV or separate layout.
struct MhaDims {
  SymbolicDim qk_head, v_hidden, kv_len;
};
inline MhaDims mha_dims(const Shape* q, const Shape* k, const Shape* v, const SymbolicDim& heads) {
  MhaDims d;
  if (q && q->size() == 5) {  // packed QKV [B, S, N, 3, H]
    d.qk_head = (*q)[4];
    d.v_hidden = (*q)[2] * (*q)[4];
    d.kv_len = (*q)[1];
  } else if (k && k->size() == 5) {  // packed KV: output has the query's shape
    d.qk_head = (*k)[4];
    if (q) d.v_hidden = (*q)[2];
    d.kv_len = (*k)[1];
  } else {
    if (q) d.qk_head = (*q)[2] / heads;
    if (k) d.kv_len = k->size() == 3 ? (*k)[1] : (*k)[2];
    if (v) d.v_hidden = v->size() == 3 ? (*v)[2] : (*v)[1] * (*v)[3];
  }
  return d;
}
}  // namespace ms_attention_detail

// MultiHeadAttention: query [B, S, D] or packed QKV [B, S, N, 3, H]; key
// [B, L, D], [B, N, L, H] or packed KV [B, L, N, 2, H]; value [B, L, Dv] or
// [B, N, L, Hv]; bias, key_padding_mask, attention_bias, past_key/past_value
// [B, N, P, H], past_sequence_length, cache_indirection -> output [B, S, Dv],
// present_key/value [B, N, P+L, H] (the past's shape when past_sequence_length
// is given: shared buffers), qk [B, N, S, P+L].
// onnxruntime: MultiHeadAttentionTypeAndShapeInference (past_key_index 6):
// packed QKV -> [B, S, N*H]; value 3-D/4-D -> [B, S, v[2] or v[1]*v[3]];
// packed KV -> the query's shape; past_key with past_sequence_length (inputs
// 6 and 8) shares the buffer. The qk output's element type is the separate
// type parameter QK, so only its shape is set (the CUDA kernel allocates it
// as [B, N, S, total_sequence_length]).
inline void infer_ms_multi_head_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 10)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* pk = shape_of(n.input(6));
  const Shape* pv = shape_of(n.input(7));
  if (!require_rank(ctx, n, q, 3, 5, "query") || !require_rank(ctx, n, k, 3, 5, "key") ||
      !require_rank(ctx, n, v, 3, 4, "value") || !require_rank(ctx, n, pk, 4, 4, "past_key") ||
      !require_rank(ctx, n, pv, 4, 4, "past_value"))
    return;
  if (q && q->size() == 4) return ctx.record_error(n, {"query must be 3-D or 5-D, got ", *q});
  const DataType dt = dtype_of(n.input(0));
  const SymbolicDim H(*heads);
  const ms_attention_detail::MhaDims d = ms_attention_detail::mha_dims(q, k, v, H);
  const SymbolicDim& L = d.kv_len;
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], d.v_hidden}) : Shape(), dt);
  const SymbolicDim b = dim_at(q, 0);
  // past_key with past_sequence_length: past and present share one buffer.
  const bool share = pk && n.input(8);
  // A BNSH key of a cross attention is the whole cache already.
  const bool bnsh = k && k->size() == 4;
  auto present = [&](std::size_t out, const Shape* past, const Shape* cur, const SymbolicDim& head) {
    if (!n.output(out)) return;
    if (share && past) return (void)ctx.set_shape_and_dtype(n.output(out), *past, dt);
    if (bnsh && cur && cur->size() == 4) return (void)ctx.set_shape_and_dtype(n.output(out), *cur, dt);
    ctx.set_shape_and_dtype(n.output(out), past ? grow_dim(*past, 2, L) : Shape({b, H, L, head}), dt);
  };
  present(1, pk, k, d.qk_head);
  present(2, pv, v, d.v_hidden / H);
  if (!n.output(3)) return;
  SymbolicDim total = L;  // no past, or a BNSH key
  if (share) {
    total = scalar_value(ctx, n, 8) + L;
  } else if (pk && !bnsh) {
    total = (*pk)[2] + L;
  }
  ctx.set_shape(n.output(3), Shape({b, H, dim_at(q, 1), total}));
}
// com.microsoft MultiHeadAttention (query [B,S,D] or packed [B,S,N,3,H]) and
// GroupQueryAttention (query [B,S,D], packed QKV too): the core only (bias
// adds, rotary and masks not counted).
inline FlopCount count_ms_mha(const Node& n, const CountContext&) {
  const Value* q = n.input(0);
  const Value* k = n.input(1);
  const Shape* qs = shape_of(q);
  if (!qs) return counted(SymbolicDim());
  const bool gqa = n.op_type == "GroupQueryAttention";
  SymbolicDim from_key = dim(q, 1);  // packed QKV: the query's own sequence
  if (k && shape_of(k)) from_key = shape_of(k)->rank() == 4 && !gqa ? dim(k, 2) : dim(k, 1);
  const SymbolicDim t = attention_keys(n, 1, from_key);
  const SymbolicDim heads(n.attr_int("num_heads", 0));
  const SymbolicDim y = numel(n.output(0));
  const SymbolicDim q_elems = qs->rank() == 5 ? dim(q, 0) * dim(q, 1) * dim(q, 2) * dim(q, 4) : (gqa ? y : numel(q));
  return counted(attention_core(q_elems, y, dim(q, 0) * dim(q, 1) * heads, t));
}
SYMSHAPE_RULES(infer_ms_multi_head_attention, com_microsoft("MultiHeadAttention", 1).cost(count_ms_mha));

// GroupQueryAttention: query [B, S, N*H] (or packed [B, S, (N+2*Nkv)*H] with
// key/value omitted), key/value [B, S, Nkv*H], past_key/past_value
// [B, Nkv, P, H], seqlens_k [B], total_sequence_length (scalar), cos/sin
// caches, position_ids, attention_bias, head_sink, k_scale, v_scale,
// q_norm_weight, k_norm_weight -> output [B, S, N*H], present_key/value
// [B, Nkv, max(P, total), H] of the past's element type (a quantized cache
// stays quantized), output_qk [B, N, S, total].
// onnxruntime: GroupQueryAttentionTypeAndShapeInference /
// BaseGroupQueryAttentionTypeAndShapeInference: unpacked output has the
// query's shape; with sliding_window_cache=1 present has the past's shape;
// without past, present is [B, Nkv, total (else S), H]; output_qk needs the
// qk_output attribute and is [B, N, S, total] of the query's type.
inline void infer_ms_group_query_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {5, 6}, 16, /*min_count=*/1)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const auto kv_heads = num_heads(ctx, n, "kv_num_heads");
  if (!kv_heads) return;
  const int64_t qk_output = ctx.attr_int(n, "qk_output", 0);
  if (n.output(3) && qk_output == 0) return ctx.record_error(n, "output_qk is given but the qk_output attribute is 0");
  if (!n.output(3) && qk_output != 0 && n.outputs.size() > 3)
    return ctx.record_error(n, "qk_output is set but the output_qk output is not given");
  const Shape* q = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  const Shape* pk = shape_of(n.input(3));
  const Shape* pv = shape_of(n.input(4));
  if (!require_rank(ctx, n, q, 3, 3, "query") || !require_rank(ctx, n, pk, 4, 4, "past_key") ||
      !require_rank(ctx, n, pv, 4, 4, "past_value"))
    return;
  const DataType dt = dtype_of(n.input(0));
  const bool packed = n.input(1) == nullptr;
  SymbolicDim head;
  if (q) {
    const SymbolicDim total_heads(packed ? *heads + 2 * *kv_heads : *heads);
    const SymbolicDim& d = (*q)[2];
    if (d.is_int() && d.value() % total_heads.value() != 0)
      return ctx.record_error(n, {"query hidden ", d, " is not divisible by the head count"});
    head = d / total_heads;
    ctx.set_shape_and_dtype(n.output(0), packed ? Shape({(*q)[0], (*q)[1], head * SymbolicDim(*heads)}) : *q, dt);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dt);
  }
  const SymbolicDim total = scalar_value(ctx, n, 6);
  const bool window_cache = ctx.attr_int(n, "sliding_window_cache", 0) == 1;
  auto present = [&](std::size_t out, const Value* past_value, const Shape* past) {
    if (!n.output(out)) return;
    const DataType pdt = past_value ? dtype_of(past_value) : dt;
    if (past && window_cache) return (void)ctx.set_shape_and_dtype(n.output(out), *past, pdt);
    if (past) {
      // dim_max with an unknown total is unknown.
      ctx.set_shape_and_dtype(n.output(out), Shape({(*past)[0], (*past)[1], dim_max((*past)[2], total), (*past)[3]}),
                              pdt);
      return;
    }
    SymbolicDim len = total;
    if (!len.is_known()) len = v && v->size() == 3 ? (*v)[1] : dim_at(q, 1);
    ctx.set_shape_and_dtype(n.output(out), Shape({dim_at(q, 0), *kv_heads, len, head}), pdt);
  };
  present(1, n.input(3), pk);
  present(2, n.input(4), pv);
  if (n.output(3)) ctx.set_shape_and_dtype(n.output(3), Shape({dim_at(q, 0), *heads, dim_at(q, 1), total}), dt);
}
SYMSHAPE_RULES(infer_ms_group_query_attention, com_microsoft("GroupQueryAttention", 1).cost(count_ms_mha));

// PackedAttention: input [T, in_hidden], weights, bias, token_offset [B, S],
// cumulative_sequence_length, [attention_bias] -> output [T, v_hidden].
// onnxruntime: PackedAttentionTypeAndShapeInference (v_hidden from
// qkv_hidden_sizes[2] or bias/3; "Inputs 0 shall be 2 dimensions", "Invalid
// bias shape", "qkv_hidden_sizes should have 3 elements").
inline void infer_ms_packed_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 6)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* bias = shape_of(n.input(2));
  if (!require_rank(ctx, n, x, 2, 2, "input") || !require_rank(ctx, n, w, 2, 2, "weights") ||
      !require_rank(ctx, n, bias, 1, 1, "bias"))
    return;
  SymbolicDim vh;
  if (auto q = ctx.attr_ints(n, "qkv_hidden_sizes")) {
    if (q->size() != 3) return ctx.record_error(n, "qkv_hidden_sizes must have 3 values");
    vh = (*q)[2];
  } else if (bias) {
    vh = (*bias)[0] / SymbolicDim(3);
  } else if (w) {
    vh = (*w)[1] / SymbolicDim(3);
  }
  ctx.set_shape_and_dtype(n.output(0), x ? Shape({(*x)[0], vh}) : Shape(), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_packed_attention, com_microsoft("PackedAttention", 1));

// PackedMultiHeadAttention: query [T, D] or packed [T, N, 3, H], key, value
// [T, Dv], bias, token_offset, cumulative_sequence_length, attention_bias
// -> output [T, Dv].
// onnxruntime: PackedMultiHeadAttentionTypeAndShapeInference ("Inputs 0
// (query) shall be 2 or 4 dimensions", "Inputs 2 (value) shall be 2
// dimensions").
inline void infer_ms_packed_multi_head_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 7)) return;
  if (!n.input(4) || !n.input(5)) return ctx.usage_error(n, "missing token_offset or cumulative_sequence_length");
  const Shape* q = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  if (!require_rank(ctx, n, q, 2, 4, "query") || !require_rank(ctx, n, v, 2, 2, "value")) return;
  if (q && q->size() == 3) return ctx.record_error(n, {"query must be 2-D or 4-D, got ", *q});
  SymbolicDim vh;
  if (q && q->size() == 4)
    vh = (*q)[1] * (*q)[3];
  else if (v)
    vh = (*v)[1];
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], vh}) : Shape(), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_packed_multi_head_attention, com_microsoft("PackedMultiHeadAttention", 1));

// DecoderMaskedMultiHeadAttention: query [B, 1, D] (or packed QKV
// [B, 1, 2*D+Dv] with key/value omitted), key/value [B, 1, D] (self) or
// [B, N, L, H] (cross), mask_index, attention_bias, past_key/past_value
// [B, N, P, H], past_sequence_length, beam_width, cache_indirection, bias ->
// output [B, 1, Dv], present_key/present_value [B, N, P+1, H] (the past's
// shape when past_present_share_buffer is set), qk [B, N, 1, total].
// onnxruntime: MultiHeadAttentionTypeAndShapeInference (past_key_index 5):
// output from the value's shape (unknown for packed QKV, where hidden and
// v_hidden cannot be told apart); present from the past when the buffer is
// shared (past_present_share_buffer, or inputs 6 and 8 given), else past+L.
// qk has the separate type parameter QK, so only its shape is set.
inline void infer_ms_decoder_masked_mha(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 11)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  const Shape* pk = shape_of(n.input(5));
  const Shape* pv = shape_of(n.input(6));
  if (!require_rank(ctx, n, q, 3, 3, "query") || !require_rank(ctx, n, v, 3, 4, "value") ||
      !require_rank(ctx, n, pk, 4, 4, "past_key") || !require_rank(ctx, n, pv, 4, 4, "past_value"))
    return;
  const DataType dt = dtype_of(n.input(0));
  SymbolicDim vh;
  if (v && v->size() == 3)
    vh = (*v)[2];
  else if (v && v->size() == 4)
    vh = (*v)[1] * (*v)[3];
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], vh}) : Shape(), dt);
  const bool share = ctx.attr_int(n, "past_present_share_buffer", 0) != 0 || (n.input(6) && n.input(8));
  // New key/value length: 1 for self attention (value [B, 1, Dv]).
  const SymbolicDim L = v && v->size() == 3 ? (*v)[1] : SymbolicDim();
  auto present = [&](std::size_t out, std::size_t in, const Shape* past) {
    if (!n.output(out) || !n.input(in)) return;
    if (share) return propagate_type(ctx, n, out, in);
    if (past) ctx.set_shape_and_dtype(n.output(out), grow_dim(*past, 2, L), dt);
  };
  present(1, 5, pk);
  present(2, 6, pv);
  if (!n.output(3)) return;
  SymbolicDim total;  // unknown when any part is
  if (k && k->size() == 4) {
    total = (*k)[2];  // cross attention: the whole key
  } else if (share) {
    total = scalar_value(ctx, n, 7) + L;
  } else if (pk) {
    total = (*pk)[2] + L;
  }
  ctx.set_shape(n.output(3), Shape({dim_at(q, 0), *heads, dim_at(q, 1), total}));
}
SYMSHAPE_RULES(infer_ms_decoder_masked_mha, com_microsoft("DecoderMaskedMultiHeadAttention", 1));

// SparseAttention: query [B, S, N*H] (or packed), past_key/past_value
// [B, Nkv, max_cache, H] -> output [B, S, N*H], present = past (shared buffer).
// onnxruntime: SparseAttentionTypeAndShapeInference (the GroupQueryAttention
// helper with use_max_past_present_buffer = 1; "The past_key input shall be
// 4 dimensions"); sparse_block_size is a required attribute.
inline void infer_ms_sparse_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {3, 4, 5, 6, 7, 8}, 11, /*min_count=*/1)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const auto kv_heads = num_heads(ctx, n, "kv_num_heads");
  if (!kv_heads || !require_attr(ctx, n, "sparse_block_size")) return;
  const Shape* q = shape_of(n.input(0));
  if (!require_rank(ctx, n, q, 3, 3, "query") || !require_rank(ctx, n, shape_of(n.input(3)), 4, 4, "past_key")) return;
  const bool packed = n.input(1) == nullptr;
  SymbolicDim hidden = dim_at(q, 2);
  if (packed && q) hidden = (*q)[2] / SymbolicDim(*heads + 2 * *kv_heads) * SymbolicDim(*heads);
  ctx.set_shape_and_dtype(n.output(0), q ? Shape({(*q)[0], (*q)[1], hidden}) : Shape(), dtype_of(n.input(0)));
  propagate_type(ctx, n, 1, 3);
  propagate_type(ctx, n, 2, 4);
}
SYMSHAPE_RULES(infer_ms_sparse_attention, com_microsoft("SparseAttention", 1));

// LongformerAttention: input [B, S, hidden], weight, bias, mask, global_weight,
// global_bias, global -> output [B, S, hidden]; num_heads and window are
// required attributes. onnxruntime: propagateShapeAndTypeFromFirstInput.
inline void infer_ms_longformer_attention(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 7, 7)) return;
  if (!num_heads(ctx, n) || !require_attr(ctx, n, "window")) return;
  const Shape* x = shape_of(n.input(0));
  if (!require_rank(ctx, n, x, 3, 3, "input")) return;
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_longformer_attention, com_microsoft("LongformerAttention", 1));

// GatedRelativePositionBias: query_layer [B, S, N*H] (or [T, N*H] with
// token_offset [B, S]), query_bias, rel_pos [1, N, S, S], weight, bias, eco_a
// -> output [B, N, S, S]. onnxruntime (inline in bert_defs.cc): from
// token_offset dims 0 and 1 ("token_offset must have rank >= 2"), else from
// a 3-D query_layer.
inline void infer_ms_gated_relative_position_bias(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 6, 7)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* off = shape_of(n.input(6));
  SymbolicDim b, s;
  if (off && off->size() < 2) return ctx.record_error(n, {"token_offset must have rank >= 2, got ", *off});
  if (off) {
    b = (*off)[0];
    s = (*off)[1];
  } else if (!n.input(6) && q) {
    if (q->size() != 3) return ctx.record_error(n, {"query_layer must be 3-D, got ", *q});
    b = (*q)[0];
    s = (*q)[1];
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({b, *heads, s, s}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_gated_relative_position_bias, com_microsoft("GatedRelativePositionBias", 1));

// RelativePositionBias: bias_table [buckets, N], query_length, key_length
// (int64 scalars) -> output [1, N, query_length, key_length]; max_distance is
// required. onnxruntime (inline in bert_defs.cc) gives [1, N, ?, ?] and
// fails for a bias_table of rank < 2; the lengths are the inputs' values.
inline void infer_ms_relative_position_bias(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 3) || !require_attr(ctx, n, "max_distance")) return;
  const Shape* t = shape_of(n.input(0));
  if (t && t->size() < 2) return ctx.record_error(n, {"bias_table must have rank >= 2, got ", *t});
  ctx.set_shape_and_dtype(n.output(0), Shape({1, dim_at(t, 1), scalar_value(ctx, n, 1), scalar_value(ctx, n, 2)}),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_relative_position_bias, com_microsoft("RelativePositionBias", 1));

// RemovePadding: input [B, S, H], sequence_token_count [B] -> output [T, H]
// (T data dependent), token_offset [B, S], cumulated_seq_len [B+1],
// max_seq_len [1] (all INT32 but output).
inline void infer_ms_remove_padding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  if (!require_rank(ctx, n, x, 3, 3, "input")) return;
  const SymbolicDim b = dim_at(x, 0), s = dim_at(x, 1);
  ctx.set_shape_and_dtype(n.output(0), Shape({SymbolicDim(), dim_at(x, 2)}), dtype_of(n.input(0)));
  ctx.set_shape_and_dtype(n.output(1), Shape({b, s}), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(2), Shape({b + 1}), DataType::INT32);
  ctx.set_shape_and_dtype(n.output(3), Shape({1}), DataType::INT32);
}
SYMSHAPE_RULES(infer_ms_remove_padding, com_microsoft("RemovePadding", 1));

// RestorePadding: input [T, H], token_offset [B, S] -> output [B, S, H].
inline void infer_ms_restore_padding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Shape* x = shape_of(n.input(0));
  const Shape* off = shape_of(n.input(1));
  if (!require_rank(ctx, n, x, 2, 2, "input") || !require_rank(ctx, n, off, 2, 2, "token_offset")) return;
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(off, 0), dim_at(off, 1), dim_at(x, 1)}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_restore_padding, com_microsoft("RestorePadding", 1));

// DecoderAttention: query [S, B, hidden], key [T, B, hidden], q_weight,
// kv_weight, bias, [key_padding_mask], [key_cache], [value_cache], static_kv,
// use_past, has_layer_state, has_key_padding_mask -> output (query's shape),
// new_key_cache / new_value_cache [B, N, L, hidden/N] (L follows the runtime
// flags: left to a fresh dim).
inline void infer_ms_decoder_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 1, 2, 3, 4, 8, 9, 10, 11}, 12)) return;
  const auto heads = num_heads(ctx, n);
  if (!heads) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  if (!require_rank(ctx, n, q, 3, 3, "query") || !require_rank(ctx, n, k, 3, 3, "key")) return;
  const SymbolicDim hidden = dim_at(q, 2);
  if (hidden.is_int() && hidden.value() % *heads != 0)
    return ctx.record_error(n, {"hidden size ", hidden, " is not a multiple of num_heads"});
  propagate_type(ctx, n);
  const SymbolicDim head = hidden.is_known() ? hidden / SymbolicDim(*heads) : SymbolicDim();
  const Shape cache({dim_at(q, 1), *heads, SymbolicDim(), head});
  for (std::size_t o = 1; o < 3; ++o) ctx.set_shape_and_dtype(n.output(o), cache, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_decoder_attention, com_microsoft("DecoderAttention", 1));

// PagedAttention: query [T, N*H] (or packed [T, (N + 2*Nkv)*H] without
// key/value), key_cache [blocks, block_size, Nkv, H'], [value_cache],
// cumulative_sequence_length, past_seqlens, block_table, ... -> output
// [T, N * v_head_size] (v_head_size: the attribute, else H), key_cache_out /
// value_cache_out with the caches' types.
inline void infer_ms_paged_attention(Context& ctx, Node& n) {
  if (!check_present(ctx, n, {0, 3, 5, 6, 7}, 17)) return;
  const auto heads = num_heads(ctx, n);
  const auto kv_heads = heads ? num_heads(ctx, n, "kv_num_heads") : std::nullopt;
  if (!kv_heads) return;
  const Shape* q = shape_of(n.input(0));
  if (!require_rank(ctx, n, q, 2, 2, "query") || !require_rank(ctx, n, shape_of(n.input(3)), 4, 4, "key_cache")) return;
  const bool latent = ctx.attr_string(n, "kv_cache_layout", "SEPARATE") == "LATENT";
  const bool packed = !n.input(1) && !latent;
  SymbolicDim head;
  if (q) head = (*q)[1] / SymbolicDim(packed ? *heads + 2 * *kv_heads : *heads);
  if (const int64_t v = ctx.attr_int(n, "v_head_size", 0); v > 0) head = SymbolicDim(v);
  const SymbolicDim width = head.is_known() ? head * SymbolicDim(*heads) : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(q, 0), width}), dtype_of(n.input(0)));
  propagate_type(ctx, n, 1, 3);
  propagate_type(ctx, n, 2, 4);
}
SYMSHAPE_RULES(infer_ms_paged_attention, com_microsoft("PagedAttention", 1));

// GemmaRotaryEmbedding: emb [B, S, D], q, q_rot, k, k_rot [B, N, S, D] ->
// output1 (q's type), output2 (k's type).
inline void infer_ms_gemma_rotary_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 5)) return;
  if (!require_rank(ctx, n, shape_of(n.input(0)), 3, 3, "emb")) return;
  for (std::size_t i = 1; i < 5; ++i)
    if (!require_rank(ctx, n, shape_of(n.input(i)), 4, 4, i < 3 ? "q" : "k")) return;
  propagate_type(ctx, n, 0, 1);
  propagate_type(ctx, n, 1, 3);
}
SYMSHAPE_RULES(infer_ms_gemma_rotary_embedding, com_microsoft("GemmaRotaryEmbedding", 1));

// MRotaryEmbedding: input [B, S, hidden] or [B, N, S, H], position_ids
// [3, B, S], cos_cache, sin_cache -> input's type; mrope_section (3
// non-negative values) is required.
inline void infer_ms_mrotary_embedding(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 4, 4)) return;
  const Attribute* sec = require_attr(ctx, n, "mrope_section", Attribute::Kind::Ints);
  if (!sec) return;
  if (sec->ints.size() != 3 || sec->ints[0] < 0 || sec->ints[1] < 0 || sec->ints[2] < 0)
    return ctx.record_error(n, "mrope_section must have 3 non-negative values");
  const Shape* x = shape_of(n.input(0));
  const Shape* pos = shape_of(n.input(1));
  if (!require_rank(ctx, n, x, 3, 4, "input") || !require_rank(ctx, n, pos, 3, 3, "position_ids")) return;
  if (pos && (*pos)[0].is_int() && !(*pos)[0].is_int(3))
    return ctx.record_error(n, {"position_ids must be [3, B, S], got ", *pos});
  propagate_type(ctx, n);
}
SYMSHAPE_RULES(infer_ms_mrotary_embedding, com_microsoft("MRotaryEmbedding", 1));

inline constexpr auto kMicrosoftAttentionRules = family_rules<
    infer_ms_attention_rules, infer_ms_decoder_masked_self_attention_rules, infer_ms_multi_head_attention_rules,
    infer_ms_group_query_attention_rules, infer_ms_packed_attention_rules, infer_ms_packed_multi_head_attention_rules,
    infer_ms_decoder_masked_mha_rules, infer_ms_sparse_attention_rules, infer_ms_longformer_attention_rules,
    infer_ms_gated_relative_position_bias_rules, infer_ms_relative_position_bias_rules, infer_ms_remove_padding_rules,
    infer_ms_restore_padding_rules, infer_ms_decoder_attention_rules, infer_ms_paged_attention_rules,
    infer_ms_gemma_rotary_embedding_rules, infer_ms_mrotary_embedding_rules>("symshape/ops/microsoft/attention.hpp");

}  // namespace symshape::ops
