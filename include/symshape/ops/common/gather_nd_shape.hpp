// GatherND's output, shared by ai.onnx GatherND (ops/gather_scatter.hpp)
// and com.microsoft GatherND (ops/microsoft/tensor.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "symshape/infer/helpers.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// data [D...] and indices [I..., last] give [I..., D[batch_dims + last:]...].
inline void gather_nd_shape(Context& ctx, Node& n, int64_t batch_dims) {
  if (!check_inputs(ctx, n, 2)) return;
  const Shape* data = shape_of(n.input(0));
  const Shape* idx = shape_of(n.input(1));
  if (!data || !idx) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  const int64_t r = data->rank(), q = idx->rank();
  if (r < 1 || q < 1) return ctx.record_error(n, "data and indices must have rank >= 1");
  if (batch_dims < 0 || batch_dims >= std::min(r, q))
    return ctx.record_error(n, {"batch_dims ", batch_dims, " must be in [0, min(rank(data), rank(indices)))"});
  const SymbolicDim& last = (*idx)[static_cast<std::size_t>(q - 1)];
  if (!last.is_int()) {
    set_like_input(ctx, n, 0, Shape());
    return;
  }
  if (last.value() < 1 || last.value() > r - batch_dims)
    return ctx.record_error(n, {"last indices dim ", last, " must be in [1, rank(data) - batch_dims]"});
  Dims out(idx->dims().begin(), idx->dims().end() - 1);
  out.insert(out.end(), data->dims().begin() + static_cast<std::ptrdiff_t>(batch_dims + last.value()),
             data->dims().end());
  set_like_input(ctx, n, 0, Shape(std::move(out)));
}

}  // namespace symshape::ops
