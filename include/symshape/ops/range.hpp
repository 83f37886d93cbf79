// Range 11+: start, limit, delta; the output is range_detail::range's
// (common/range_shape.hpp).
#pragma once

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/range_shape.hpp"

namespace symshape::ops {

inline void infer_range(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3)) return;
  range_detail::range(ctx, n);
}
SYMSHAPE_RULES(infer_range, ai_onnx("Range", 11, 27).cost(count_elementwise));

inline constexpr auto kRangeRules = family_rules<infer_range_rules>("symshape/ops/range.hpp");

}  // namespace symshape::ops
