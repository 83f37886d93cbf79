// com.microsoft (onnxruntime contrib) recurrent-state operators: AttnLSTM,
// the linear attention family (LinearAttention, LinearAttentionGate,
// GatedDeltaNet), the stateful causal convolutions (CausalConvWithState,
// VarlenCausalConvWithState) and EngramGate.
//
// Inputs, outputs, attributes and shapes: onnxruntime docs/ContribOperators.md
// (the shapes each output is documented with; the state of the recurrences is
// [B, H_kv, d_k, d_v], led by a window axis W when state_window > 0).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/rnn_shape.hpp"
#include "symshape/ops/microsoft/common.hpp"

namespace symshape::ops {

// AttnLSTM: LSTM inputs (X, W, R, B, sequence_lens, initial_h, initial_c, P)
// and the attention mechanism's (QW, MW, V, M, memory_seq_lens, AW) -> Y
// [seq, dirs, B, hidden], Y_h / Y_c [dirs, B, hidden].
inline void infer_ms_attn_lstm(Context& ctx, Node& n) { recurrent_layer(ctx, n, 4, 14, LayoutAttr::Absent); }
SYMSHAPE_RULES(infer_ms_attn_lstm, com_microsoft("AttnLSTM", 1));

namespace ms_recurrent_detail {

inline bool check_update_rule(Context& ctx, const Node& n) {
  const std::string rule = ctx.attr_string(n, "update_rule", "gated_delta");
  if (rule == "linear" || rule == "gated" || rule == "delta" || rule == "gated_delta") return true;
  ctx.record_error(n, {"update_rule must be linear, gated, delta or gated_delta, got '", rule, "'"});
  return false;
}

// An integer attribute in [lo, hi] (default `fallback`); nullopt after an error.
inline std::optional<int64_t> int_in(Context& ctx, const Node& n, const char* name, int64_t fallback, int64_t lo,
                                     int64_t hi) {
  const int64_t v = ctx.attr_int(n, name, fallback);
  if (v >= lo && v <= hi) return v;
  ctx.record_error(n, {name, " must be in [", lo, ", ", hi, "], got ", v});
  return std::nullopt;
}

// `packed` / heads, an error when both are integers and heads does not divide it.
inline std::optional<SymbolicDim> per_head(Context& ctx, const Node& n, const SymbolicDim& packed, int64_t heads,
                                           const char* what) {
  if (packed.is_int() && packed.value() % heads != 0) {
    ctx.record_error(n, {what, " ", packed, " is not a multiple of its ", heads, " heads"});
    return std::nullopt;
  }
  return packed.is_known() ? packed / SymbolicDim(heads) : SymbolicDim();
}

// `s` led by the window axis W when W > 0.
inline Shape windowed(int64_t w, std::vector<SymbolicDim> s) {
  if (w > 0) s.insert(s.begin(), SymbolicDim(w));
  return Shape(std::move(s));
}

}  // namespace ms_recurrent_detail

// LinearAttention: query [B, T, Hq*dk], key [B, T, Hkv*dk], value
// [B, T, Hkv*dv], [past_state], [decay], [beta] -> output
// [B, T, max(Hq, Hkv)*dv], present_state [B, Hkv, dk, dv] ([W, ...] with
// state_window W), of past_state's type (else the query's).
inline void infer_ms_linear_attention(Context& ctx, Node& n) {
  using namespace ms_recurrent_detail;  // NOLINT(google-build-using-namespace)
  if (!check_inputs(ctx, n, 3, 6) || !check_update_rule(ctx, n)) return;
  const auto hq = num_heads(ctx, n, "q_num_heads");
  const auto hkv = hq ? num_heads(ctx, n, "kv_num_heads") : std::nullopt;
  const auto w = hkv ? int_in(ctx, n, "state_window", 0, 0, 8) : std::nullopt;
  if (!w) return;
  const Shape* q = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  for (std::size_t i = 0; i < 3; ++i)
    if (!require_rank(ctx, n, shape_of(n.input(i)), 3, 3, i == 0 ? "query" : i == 1 ? "key" : "value")) return;
  const auto dk = per_head(ctx, n, dim_at(q, 2), *hq, "query hidden size");
  const auto dv = dk ? per_head(ctx, n, dim_at(v, 2), *hkv, "value hidden size") : std::nullopt;
  if (!dv) return;
  const SymbolicDim width = dv->is_known() ? *dv * SymbolicDim(std::max(*hq, *hkv)) : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(0), Shape({dim_at(q, 0), dim_at(q, 1), width}), dtype_of(n.input(0)));
  DataType st = dtype_of(n.input(3));
  if (st == DataType::UNDEFINED) st = dtype_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(1), windowed(*w, {dim_at(q, 0), *hkv, *dk, *dv}), st);
}
SYMSHAPE_RULES(infer_ms_linear_attention, com_microsoft("LinearAttention", 1));

// LinearAttentionGate: a [B, T, H], dt_bias [H], decay_scale [H], [b] ->
// decay (a's type), beta (b's type; b is required for it).
inline void infer_ms_linear_attention_gate(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  const Shape* a = shape_of(n.input(0));
  if (!require_rank(ctx, n, a, 3, 3, "a")) return;
  for (std::size_t i = 1; i < 3; ++i) {
    const Shape* p = shape_of(n.input(i));
    if (!require_rank(ctx, n, p, 1, 1, i == 1 ? "dt_bias" : "decay_scale")) return;
    if (a && p && (*a)[2].is_int() && (*p)[0].is_int() && (*a)[2] != (*p)[0])
      return ctx.record_error(n, {"per-head parameter ", *p, " does not match a's heads ", (*a)[2]});
  }
  if (n.output(1) && !n.input(3)) return ctx.record_error(n, "the beta output needs input b");
  propagate_type(ctx, n, 0, 0);
  if (n.output(1)) propagate_type(ctx, n, 1, 3);
}
SYMSHAPE_RULES(infer_ms_linear_attention_gate, com_microsoft("LinearAttentionGate", 1));

namespace ms_recurrent_detail {
// GatedDeltaNet heads: query [tok..., Hq, dk], key [tok..., Hk, dk], value
// [tok..., Hv, dv] with Hq = Hk and Hv a multiple of Hq; false after an error.
inline bool check_delta_heads(Context& ctx, const Node& n, const Shape* q, const Shape* k, const Shape* v) {
  if (!q || !k || !v) return true;
  if (q->rank() != k->rank() || q->rank() != v->rank()) {
    ctx.record_error(n, "query, key and value must have the same rank");
    return false;
  }
  const SymbolicDim hq = (*q)[q->size() - 2], hk = (*k)[k->size() - 2], hv = (*v)[v->size() - 2];
  if (hq.is_int() && hk.is_int() && hq != hk) {
    ctx.record_error(n, {"num_heads_q ", hq, " must equal num_heads_k ", hk});
    return false;
  }
  if (hq.is_int() && hv.is_int() && (hq.value() < 1 || hv.value() % hq.value() != 0)) {
    ctx.record_error(n, {"num_heads_v ", hv, " is not a multiple of num_heads_q ", hq});
    return false;
  }
  return true;
}
}  // namespace ms_recurrent_detail

// GatedDeltaNet: query/key/value [T, H, d] or [B, S, H, d], [cu_seqlens
// [B+1]], [decay], [beta], [initial_state [B, Hv, dv, dk]], [a_log],
// [dt_bias], [capture_count], [state_update_active] -> output
// [tokens..., max(Hq, Hv), dv], final_state [B, Hv, dv, dk] (FLOAT),
// state_update [B, C*(Hv + Hk*dk + Hv*dv)] (FLOAT, C = state_update_capacity).
inline void infer_ms_gated_delta_net(Context& ctx, Node& n) {
  using namespace ms_recurrent_detail;  // NOLINT(google-build-using-namespace)
  if (!check_inputs(ctx, n, 3, 11) || !check_update_rule(ctx, n)) return;
  const auto cap = int_in(ctx, n, "state_update_capacity", 0, 0, 8);
  if (!cap) return;
  if ((*cap > 0) != (n.input(9) != nullptr))
    return ctx.record_error(n, "capture_count is required exactly when state_update_capacity is positive");
  const Shape* q = shape_of(n.input(0));
  const Shape* k = shape_of(n.input(1));
  const Shape* v = shape_of(n.input(2));
  for (const Shape* s : {q, k, v})
    if (!require_rank(ctx, n, s, 3, 4, "query/key/value")) return;
  if (!check_delta_heads(ctx, n, q, k, v)) return;
  const std::size_t r = q ? q->size() : v ? v->size() : 0;
  if (r == 3 && !n.input(3) && !n.input(6))
    return ctx.record_error(n, "without cu_seqlens the batch size comes from initial_state, which is then required");
  const SymbolicDim hq = dim_at(q, r - 2), dk = dim_at(q, r - 1), hk = dim_at(k, r - 2);
  const SymbolicDim hv = dim_at(v, r - 2), dv = dim_at(v, r - 1);
  if (r > 0) {
    std::vector<SymbolicDim> out(v ? v->dims() : q->dims());
    out[r - 2] = hv;  // max(Hq, Hv) = Hv, a multiple of Hq
    out[r - 1] = dv;
    ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype_of(n.input(0)));
  }
  SymbolicDim b = dim_at(shape_of(n.input(6)), 0);
  if (const Shape* cu = shape_of(n.input(3)); b.is_unknown() && cu && cu->rank() == 1) b = (*cu)[0] - 1;
  if (b.is_unknown() && r == 4) b = dim_at(q, 0);
  ctx.set_shape_and_dtype(n.output(1), Shape({b, hv, dv, dk}), DataType::FLOAT);
  SymbolicDim row;
  if (hv.is_known() && hk.is_known() && dk.is_known() && dv.is_known())
    row = SymbolicDim(*cap) * (hv + hk * dk + hv * dv);
  ctx.set_shape_and_dtype(n.output(2), Shape({b, row}), DataType::FLOAT);
}
SYMSHAPE_RULES(infer_ms_gated_delta_net, com_microsoft("GatedDeltaNet", 1));

namespace ms_recurrent_detail {
// The activation attribute of the causal convolutions.
inline bool check_activation(Context& ctx, const Node& n) {
  const std::string act = ctx.attr_string(n, "activation", "none");
  if (act == "none" || act == "silu" || act == "swish") return true;
  ctx.record_error(n, {"activation must be 'silu', 'swish' or 'none', got '", act, "'"});
  return false;
}
}  // namespace ms_recurrent_detail

// CausalConvWithState: input [B, C, spatial...] (ndim spatial dims; with
// channels_last = 1 and ndim = 1, [B, S, d...]), weight [C, 1, k...],
// [bias], [past_state] -> output (input's type), present_state: the input
// with its causal (last spatial) axis replaced by (k_1 - 1) * dilation
// ([B, state, d...] channels-last), led by W when state_window = W > 0.
inline void infer_ms_causal_conv_with_state(Context& ctx, Node& n) {
  using namespace ms_recurrent_detail;  // NOLINT(google-build-using-namespace)
  if (!check_inputs(ctx, n, 2, 4) || !check_activation(ctx, n)) return;
  const auto ndim = int_in(ctx, n, "ndim", 1, 1, 3);
  const auto dilation = ndim ? int_in(ctx, n, "dilation", 1, 1, INT64_MAX) : std::nullopt;
  const auto w = dilation ? int_in(ctx, n, "state_window", 0, 0, 8) : std::nullopt;
  if (!w) return;
  const bool last = ctx.attr_int(n, "channels_last", 0) != 0;
  if (last && *ndim != 1) return ctx.record_error(n, "channels_last = 1 requires ndim = 1");
  const Shape* x = shape_of(n.input(0));
  const Shape* wt = shape_of(n.input(1));
  const std::size_t rank = static_cast<std::size_t>(*ndim) + 2;
  if (!require_rank(ctx, n, x, last ? 3 : rank, last ? SIZE_MAX : rank, "input") ||
      !require_rank(ctx, n, wt, rank, rank, "weight"))
    return;
  if (!last && x && wt && (*x)[1].is_int() && (*wt)[0].is_int() && (*x)[1] != (*wt)[0])
    return ctx.record_error(n, {"weight has ", (*wt)[0], " channels, input has ", (*x)[1]});
  propagate_type(ctx, n);
  if (!x) return;
  SymbolicDim state = wt ? ((*wt)[2] - 1) * SymbolicDim(*dilation) : dim_at(shape_of(n.input(3)), last ? 1 : 2);
  std::vector<SymbolicDim> s = x->dims();
  s[last ? 1 : s.size() - 1] = *ndim == 1 ? state : SymbolicDim();
  ctx.set_shape_and_dtype(n.output(1), windowed(*w, std::move(s)), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_ms_causal_conv_with_state, com_microsoft("CausalConvWithState", 1));

// VarlenCausalConvWithState: input [T, C], weight [C, 1, k],
// cumulative_sequence_length [B+1], [bias], initial_state [B, C, (k-1)*dilation],
// [capture_count] -> output [T, C], final_state (initial_state's shape),
// state_update [B, state_update_capacity, C].
inline void infer_ms_varlen_causal_conv_with_state(Context& ctx, Node& n) {
  using namespace ms_recurrent_detail;  // NOLINT(google-build-using-namespace)
  if (!check_present(ctx, n, {0, 1, 2, 4}, 6) || !check_activation(ctx, n)) return;
  const auto dilation = int_in(ctx, n, "dilation", 1, 1, INT64_MAX);
  const auto cap = dilation ? int_in(ctx, n, "state_update_capacity", 0, 0, 8) : std::nullopt;
  if (!cap) return;
  if ((*cap > 0) != (n.input(5) != nullptr))
    return ctx.record_error(n, "capture_count is required exactly when state_update_capacity is positive");
  const Shape* x = shape_of(n.input(0));
  const Shape* wt = shape_of(n.input(1));
  const Shape* init = shape_of(n.input(4));
  if (!require_rank(ctx, n, x, 2, 2, "input") || !require_rank(ctx, n, wt, 3, 3, "weight") ||
      !require_rank(ctx, n, init, 3, 3, "initial_state"))
    return;
  SymbolicDim b = dim_at(init, 0), c = dim_at(x, 1);
  if (const Shape* cu = shape_of(n.input(2)); b.is_unknown() && cu && cu->rank() == 1) b = (*cu)[0] - 1;
  if (c.is_unknown()) c = dim_at(wt, 0);
  SymbolicDim state = dim_at(init, 2);
  if (wt && (*wt)[2].is_known()) state = ((*wt)[2] - 1) * SymbolicDim(*dilation);
  if (init && state.is_int() && (*init)[2].is_int() && state != (*init)[2])
    return ctx.record_error(
        n, {"initial_state ", *init, " must hold (kernel_size - 1) * dilation = ", state, " positions"});
  propagate_type(ctx, n);
  const DataType t = dtype_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(1), Shape({b, c, state}), t);
  if (n.output(2)) ctx.set_shape_and_dtype(n.output(2), Shape({b, *cap, c}), t);
}
SYMSHAPE_RULES(infer_ms_varlen_causal_conv_with_state, com_microsoft("VarlenCausalConvWithState", 1));

// EngramGate: key, query [B, S, hc, h], value [B, S, h], key_norm_scale,
// query_norm_scale, [conv_norm_scale] ([hc, h]) -> output and
// gated_value_normed [B, S, hc, h] (key's type; the second needs
// conv_norm_scale).
inline void infer_ms_engram_gate(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 6)) return;
  const Shape* k = shape_of(n.input(0));
  const Shape* v = shape_of(n.input(2));
  if (!require_rank(ctx, n, k, 4, 4, "key") || !require_rank(ctx, n, shape_of(n.input(1)), 4, 4, "query") ||
      !require_rank(ctx, n, v, 3, 3, "value"))
    return;
  if (k && v && (*k)[3].is_int() && (*v)[2].is_int() && (*k)[3] != (*v)[2])
    return ctx.record_error(n, {"value ", *v, " and key ", *k, " differ in hidden_size"});
  if (n.output(1) && !n.input(5)) return ctx.record_error(n, "gated_value_normed needs conv_norm_scale");
  propagate_type(ctx, n, 0, 0);
  if (n.output(1)) propagate_type(ctx, n, 1, 0);
}
SYMSHAPE_RULES(infer_ms_engram_gate, com_microsoft("EngramGate", 1));

inline constexpr auto kMicrosoftRecurrentRules =
    family_rules<infer_ms_attn_lstm_rules, infer_ms_linear_attention_rules, infer_ms_linear_attention_gate_rules,
                 infer_ms_gated_delta_net_rules, infer_ms_causal_conv_with_state_rules,
                 infer_ms_varlen_causal_conv_with_state_rules, infer_ms_engram_gate_rules>(
        "symshape/ops/microsoft/recurrent.hpp");

}  // namespace symshape::ops
