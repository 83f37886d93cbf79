// Recurrent layers: RNN, GRU, LSTM. X is [seq, batch, input] (layout 0) or
// [batch, seq, input] (layout 1, opset 14+); W is [num_directions,
// gates*hidden, input], R is [num_directions, gates*hidden, hidden].
// Outputs: Y [seq, num_directions, batch, hidden] (layout 1: [batch, seq,
// num_directions, hidden]), Y_h and (LSTM) Y_c [num_directions, batch,
// hidden] (layout 1: [batch, num_directions, hidden]).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/rnn_shape.hpp"

namespace symshape::ops {

// Per step and direction, the gate products X W^T and H R^T:
// 2 x seq x batch x dirs x gates*H x (I + H); the biases (Wb + Rb) add
// 2 x gates*H per step when B is given, and the gate activations one per gate
// element. The cell update (LSTM's c, GRU's h blend) is not counted.
inline FlopCount count_rnn(const Node& n, const CountContext&) {
  const Value* x = n.input(0);
  const bool batch_first = n.attr_int("layout", 0) != 0;
  const SymbolicDim seq = dim(x, batch_first ? 1 : 0);
  const SymbolicDim batch = dim(x, batch_first ? 0 : 1);
  const SymbolicDim dirs = dim(n.input(1), 0);
  const SymbolicDim gates_h = dim(n.input(1), 1);
  const SymbolicDim steps = seq * batch * dirs * gates_h;
  SymbolicDim flops = SymbolicDim(2) * steps * (dim(n.input(1), 2) + dim(n.input(2), 2)) + steps;
  if (n.input(3)) flops = flops + SymbolicDim(2) * steps;
  return counted(flops);
}

inline void infer_rnn_1(Context& ctx, Node& n) { recurrent_layer(ctx, n, 1, 6, LayoutAttr::Absent); }
SYMSHAPE_RULES(infer_rnn_1, ai_onnx("RNN", 1, 7).cost(count_rnn));
inline void infer_rnn_14(Context& ctx, Node& n) { recurrent_layer(ctx, n, 1, 6, LayoutAttr::Present); }
SYMSHAPE_RULES(infer_rnn_14, ai_onnx("RNN", 14, 22).cost(count_rnn));
inline void infer_gru_1(Context& ctx, Node& n) { recurrent_layer(ctx, n, 3, 6, LayoutAttr::Absent); }
SYMSHAPE_RULES(infer_gru_1, ai_onnx("GRU", 1, 3, 7).cost(count_rnn));
inline void infer_gru_14(Context& ctx, Node& n) { recurrent_layer(ctx, n, 3, 6, LayoutAttr::Present); }
SYMSHAPE_RULES(infer_gru_14, ai_onnx("GRU", 14, 22).cost(count_rnn));
inline void infer_lstm_1(Context& ctx, Node& n) { recurrent_layer(ctx, n, 4, 8, LayoutAttr::Absent); }
SYMSHAPE_RULES(infer_lstm_1, ai_onnx("LSTM", 1, 7).cost(count_rnn));
inline void infer_lstm_14(Context& ctx, Node& n) { recurrent_layer(ctx, n, 4, 8, LayoutAttr::Present); }
SYMSHAPE_RULES(infer_lstm_14, ai_onnx("LSTM", 14, 22).cost(count_rnn));

inline constexpr auto kRnnRules =
    family_rules<infer_rnn_1_rules, infer_rnn_14_rules, infer_gru_1_rules, infer_gru_14_rules, infer_lstm_1_rules,
                 infer_lstm_14_rules>("symshape/ops/rnn.hpp");

}  // namespace symshape::ops
