// Recurrent layers' shapes, shared by RNN / GRU / LSTM (ops/rnn.hpp) and the
// com.microsoft AttnLSTM and DynamicQuantizeLSTM: the number of directions,
// hidden_size and the Y / Y_h / Y_c outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// 1 for a forward or reverse `direction`, 2 for bidirectional; nullopt after
// the error for another word.
inline std::optional<int64_t> num_directions(Context& ctx, const Node& n, const std::string& direction) {
  if (direction == "forward" || direction == "reverse") return 1;
  if (direction == "bidirectional") return 2;
  ctx.record_error(n, {"unknown direction '", direction, "'"});
  return std::nullopt;
}

// hidden_size from the attribute, else from R [dirs, gates*hidden, hidden] or
// W [dirs, gates*hidden, input] (possibly unknown); nullopt after the error
// when the attribute is not positive or W/R disagree with it.
inline std::optional<SymbolicDim> rnn_hidden_size(Context& ctx, const Node& n, const Shape* w, const Shape* r,
                                                  int64_t gates) {
  SymbolicDim hidden;
  if (const Attribute* h = n.attr("hidden_size")) {
    if (h->kind != Attribute::Kind::Int || h->i < 1) {
      ctx.record_error(n, "hidden_size must be a positive integer");
      return std::nullopt;
    }
    hidden = h->i;
  } else if (r) {
    hidden = (*r)[2];
  } else if (w) {
    hidden = (*w)[1] / SymbolicDim(gates);
  }
  if (hidden.is_int() && r && (*r)[2].is_int() && (*r)[2] != hidden) {
    ctx.record_error(n, {"R ", *r, " does not match hidden_size ", hidden});
    return std::nullopt;
  }
  if (hidden.is_int() && w && (*w)[1].is_int() && (*w)[1].value() != gates * hidden.value()) {
    ctx.record_error(n, {"W ", *w, " does not have ", gates, "*hidden_size rows"});
    return std::nullopt;
  }
  return hidden;
}

// The outputs of a recurrent layer with `gates` gates (RNN 1, GRU 3, LSTM 4)
// and up to `max_inputs` inputs; `has_layout`: whether the layout attribute exists (14+).
enum class LayoutAttr { Absent, Present };
inline void recurrent_layer(Context& ctx, Node& n, int64_t gates, std::size_t max_inputs, LayoutAttr has_layout) {
  if (!check_inputs(ctx, n, 3, max_inputs)) return;
  const DataType dtype = dtype_of(n.input(0));
  const std::string direction = ctx.attr_string(n, "direction", "forward");
  const auto num_dir = num_directions(ctx, n, direction);
  if (!num_dir) return;
  const int64_t layout = has_layout == LayoutAttr::Present ? ctx.attr_int(n, "layout", 0) : 0;
  if (layout != 0 && layout != 1) return ctx.record_error(n, {"layout must be 0 or 1, got ", layout});
  const Shape* x = shape_of(n.input(0));
  const Shape* w = shape_of(n.input(1));
  const Shape* r = shape_of(n.input(2));
  if (x && x->rank() != 3) return ctx.record_error(n, {"X must be 3-D, got ", *x});
  if ((w && w->rank() != 3) || (r && r->rank() != 3)) return ctx.record_error(n, "W and R must be 3-D");
  for (const Shape* s : {w, r}) {
    if (s && (*s)[0].is_int() && (*s)[0].value() != *num_dir)
      return ctx.record_error(
          n, {"W/R dim 0 is ", (*s)[0], " but direction '", direction, "' has ", *num_dir, " direction(s)"});
  }
  auto hidden = rnn_hidden_size(ctx, n, w, r, gates);
  if (!hidden) return;
  SymbolicDim seq, batch;
  if (x) {
    seq = (*x)[layout == 0 ? 0 : 1];
    batch = (*x)[layout == 0 ? 1 : 0];
  }
  // Unknown seq/batch/hidden are named once, so that Y, Y_h and Y_c share them.
  for (SymbolicDim* d : {&seq, &batch, &*hidden})
    if (d->is_unknown()) *d = ctx.new_symbolic_dim();
  const SymbolicDim nd(*num_dir);
  if (n.output(0)) {
    ctx.set_shape_and_dtype(n.output(0),
                            layout == 0 ? Shape({seq, nd, batch, *hidden}) : Shape({batch, seq, nd, *hidden}), dtype);
  }
  const Shape state = layout == 0 ? Shape({nd, batch, *hidden}) : Shape({batch, nd, *hidden});
  for (std::size_t o = 1; o < n.outputs.size() && o < (gates == 4 ? 3u : 2u); ++o)
    if (n.output(o)) ctx.set_shape_and_dtype(n.output(o), state, dtype);
}

}  // namespace symshape::ops
