// Pad's output, shared by ai.onnx Pad (ops/expand_tile_pad.hpp) and
// com.microsoft Pad (ops/microsoft/tensor.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// The padded input: `pads` (begins then ends, one pair per axis; nullopt when
// not known) along `axes` (all axes when not given).
inline void pad_shape(Context& ctx, Node& n, const std::optional<Dims>& pads, const IntsArg& axes) {
  const Shape* in = shape_of(n.input(0));
  if (!in) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  const int64_t r = in->rank();
  std::vector<int64_t> ax;
  if (axes.given) {
    if (!axes.values) {
      set_like_input(ctx, n, 0, Shape::of_rank(in->size()));
      return;
    }
    auto norm = unique_axes(ctx, n, *axes.values, r);
    if (!norm) return;
    ax = *norm;
  } else {
    for (int64_t i = 0; i < r; ++i) ax.push_back(i);
  }
  Shape out = *in;
  if (!pads) {
    for (int64_t a : ax) out[static_cast<std::size_t>(a)] = SymbolicDim();
    set_like_input(ctx, n, 0, out);
    return;
  }
  if (pads->size() != 2 * ax.size())
    return ctx.record_error(
        n, {"pads has ", pads->size(), " entries; expected ", 2 * ax.size(), " for ", ax.size(), " axes"});
  for (std::size_t i = 0; i < ax.size(); ++i) {
    const auto a = static_cast<std::size_t>(ax[i]);
    SymbolicDim d = out[a] + (*pads)[i] + (*pads)[i + ax.size()];
    if (d.is_int() && d.value() < 0) return ctx.record_error(n, {"pads make dim ", a, " of ", *in, " negative"});
    out[a] = d;
  }
  set_like_input(ctx, n, 0, out);
}

}  // namespace symshape::ops
