// GridSample's output, shared by ai.onnx GridSample (ops/image.hpp) and
// com.microsoft GridSample (ops/microsoft/tensor.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// X [N, C, D...] and grid [N, D_out..., r] give [N, C, D_out...]; `rank`:
// 4-D inputs only for GridSample 16; `modes`: the accepted mode attribute
// values, the first being the default.
enum class GridRank { Only4D, AtLeast3D };
inline void grid_sample(Context& ctx, Node& n, GridRank rank, const std::vector<const char*>& modes) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const std::string mode = ctx.attr_string(n, "mode", modes[0]);
  bool ok = false;
  for (const char* m : modes) ok = ok || mode == m;
  if (!ok) return ctx.record_error(n, {"unsupported mode '", mode, "'"});
  const std::string padding = ctx.attr_string(n, "padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return ctx.record_error(n, {"unsupported padding_mode '", padding, "'"});
  const Shape* x = shape_of(n.input(0));
  const Shape* grid = shape_of(n.input(1));
  for (const auto& [s, name] : {std::pair<const Shape*, const char*>{x, "X"}, {grid, "grid"}}) {
    if (s && (rank == GridRank::Only4D ? s->rank() != 4 : s->rank() < 3))
      return ctx.record_error(
          n, {name, (rank == GridRank::Only4D ? " must be 4-D" : " must have rank >= 3"), ", got shape ", *s});
  }
  if (x && grid && x->rank() != grid->rank())
    return ctx.record_error(n, {"X ", *x, " and grid ", *grid, " must have the same rank"});
  const DataType t = dtype_of(n.input(0));
  if (!x && !grid) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), t);
    return;
  }
  const int64_t r = x ? x->rank() : grid->rank();
  if (grid && (*grid)[r - 1].is_int() && (*grid)[r - 1].value() != r - 2)
    return ctx.record_error(n, {"the last grid dim must be ", r - 2, ", got ", (*grid)[r - 1]});
  std::vector<SymbolicDim> out(static_cast<std::size_t>(r));
  out[0] = x ? (*x)[0] : (*grid)[0];
  if (out[0].is_unknown() && grid) out[0] = (*grid)[0];
  if (x) out[1] = (*x)[1];
  for (int64_t i = 2; i < r; ++i)
    if (grid) out[i] = (*grid)[i - 1];
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), t);
}

}  // namespace symshape::ops
