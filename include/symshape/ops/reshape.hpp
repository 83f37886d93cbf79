// Reshape: the target comes from an attribute (opset 1) or from the value of
// the shape input (5+), constant or propagated symbolically. 0 copies the
// input dim (unless allowzero, 14+); -1 is the total size divided by the
// product of the other target dims, as a floor-division expression. An
// unknown target of static length 1 still gives [total size].
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

inline void reshape_impl(Context& ctx, Node& n, const std::optional<std::vector<SymbolicDim>>& target,
                         std::optional<int64_t> target_length, bool allowzero) {
  if (!target) {
    // A 1-D result holds every element, whatever the target's value.
    const Shape* in = shape_of(n.input(0));
    if (target_length && *target_length == 1 && in) {
      set_like_input(ctx, n, 0, Shape(Dims{product(in->dims())}));
      copy_value(ctx, n);
      return;
    }
    set_like_input(ctx, n, 0, target_length ? Shape::of_rank(static_cast<std::size_t>(*target_length)) : Shape());
    copy_value(ctx, n);
    return;
  }
  const Shape* in = shape_of(n.input(0));
  Dims out(target->size());
  std::optional<std::size_t> infer_at;
  bool has_zero = false;
  for (std::size_t i = 0; i < target->size(); ++i) {
    const SymbolicDim& t = (*target)[i];
    if (!t.is_int()) {
      out[i] = t;  // a symbolic dim (assumed neither 0 nor -1) or unknown
      continue;
    }
    const int64_t v = t.value();
    if (v == -1) {
      if (infer_at) return ctx.record_error(n, "target shape has more than one -1");
      infer_at = i;
    } else if (v < -1) {
      return ctx.record_error(n, "target shape has invalid dim " + std::to_string(v));
    } else if (v == 0 && !allowzero) {
      has_zero = true;
      if (in) {
        if (i >= in->size())
          return ctx.record_error(n, "target dim " + std::to_string(i) + " is 0 (copy) but the input " +
                                         in->to_string() + " has no dim " + std::to_string(i));
        out[i] = (*in)[i];
      }
    } else {
      if (v == 0) has_zero = true;
      out[i] = v;
    }
  }
  if (allowzero && has_zero && infer_at) return ctx.record_error(n, "target shape has both 0 and -1 with allowzero=1");
  if (in) {
    // Dims common to the input and the target cancel first (as a multiset),
    // so that [B,T,768] -> [B,-1] gives 768*T rather than 768*B*T//B.
    std::vector<SymbolicDim> rest_in = in->dims();
    SymbolicDim total = 1, known = 1;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (infer_at && i == *infer_at) continue;
      bool cancelled = false;
      if (out[i].is_symbolic())
        for (auto& d : rest_in)
          if (d == out[i]) {
            d = 1;
            cancelled = true;
            break;
          }
      if (!cancelled) known = known * out[i];
    }
    total = product(rest_in);
    if (infer_at) {
      if (known.is_int(0)) {
        if (total.is_int() && total.value() != 0)
          return ctx.record_error(n, "cannot infer -1 of " + Shape(out).to_string() + " from " + in->to_string());
      } else if (total.is_int() && known.is_int()) {
        if (total.value() % known.value() != 0)
          return ctx.record_error(n, "cannot reshape " + in->to_string() + " to " + Shape(out).to_string() +
                                         ": the -1 dim is not an integer");
        out[*infer_at] = total / known;
      } else if (known.is_known() && total.is_known()) {
        out[*infer_at] = total / known;
      }
    } else if (total.is_int() && known.is_int() && total.value() != known.value())
      return ctx.record_error(
          n, "cannot reshape " + in->to_string() + " to " + Shape(out).to_string() + ": element counts differ");
  }
  set_like_input(ctx, n, 0, Shape(std::move(out)));
  copy_value(ctx, n);
}

inline void infer_reshape_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  auto shape = n.attr_ints("shape");
  if (!shape) return ctx.usage_error(n, "missing required attribute 'shape'");
  reshape_impl(ctx, n, std::vector<SymbolicDim>(shape->begin(), shape->end()), std::nullopt, false);
}
SYMSHAPE_RULES(infer_reshape_v1, ai_onnx("Reshape", 1));

inline void reshape_input_impl(Context& ctx, Node& n, bool allowzero) {
  const Shape* ts = shape_of(n.input(1));
  if (ts && ts->rank() != 1) return ctx.record_error(n, "shape input must be 1-D, got " + ts->to_string());
  reshape_impl(ctx, n, ctx.symbolic_value(n.input(1)), static_length(n.input(1)), allowzero);
}
inline void infer_reshape_v5(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  reshape_input_impl(ctx, n, false);
}
SYMSHAPE_RULES(infer_reshape_v5, ai_onnx("Reshape", 5, 13));
// allowzero appears at 14.
inline void infer_reshape_v14(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  reshape_input_impl(ctx, n, n.attr_int("allowzero", 0) != 0);
}
SYMSHAPE_RULES(infer_reshape_v14, ai_onnx("Reshape", 14, 19, 21, 23, 24, 25));

inline constexpr auto kReshapeRules =
    family_rules<infer_reshape_v1_rules, infer_reshape_v5_rules, infer_reshape_v14_rules>("symshape/ops/reshape.hpp");

}  // namespace symshape::ops
