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
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace reshape_detail {

// The target with 0 (copy) resolved against the input and the position of
// its -1, if any.
struct ReshapeTarget {
  Dims dims;
  Maybe<std::size_t> infer_at;  // the -1
  bool has_zero = false;
};

// The output when the target's values are unknown: a 1-D result holds every
// element, whatever the target's value; otherwise only the rank is known.
inline void reshape_unknown_target(Context& ctx, Node& n, std::optional<int64_t> target_length) {
  const Shape* in = shape_of(n.input(0));
  if (target_length && *target_length == 1 && in) {
    set_like_input(ctx, n, 0, Shape(Dims{product(in->dims())}));
  } else {
    set_like_input(ctx, n, 0, target_length ? unknown_dims_of_rank(*target_length) : Shape());
  }
  copy_value(ctx, n);
}

// What a 0 in the target means: copy the input dim, or a literal 0 (allowzero, 14+).
enum class ZeroDims { CopyInput, Literal };

// Checks the target's integers and copies the input dims its 0s stand for
// (unless allowzero); nullopt after an error.
inline Maybe<ReshapeTarget> resolve_target(Context& ctx, const Node& n, const std::vector<SymbolicDim>& target,
                                           const Shape* in, ZeroDims allowzero) {
  ReshapeTarget r;
  r.dims.resize(target.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    const SymbolicDim& t = target[i];
    if (!t.is_int()) {
      r.dims[i] = t;  // a symbolic dim (assumed neither 0 nor -1) or unknown
      continue;
    }
    const int64_t v = t.value();
    if (v == -1) {
      if (r.infer_at) {
        ctx.record_error(n, "target shape has more than one -1");
        return std::nullopt;
      }
      r.infer_at = i;
    } else if (v < -1) {
      ctx.record_error(n, {"target shape has invalid dim ", v});
      return std::nullopt;
    } else if (v == 0 && allowzero == ZeroDims::CopyInput) {
      r.has_zero = true;
      if (in) {
        if (i >= in->size()) {
          ctx.record_error(n, {"target dim ", i, " is 0 (copy) but the input ", *in, " has no dim ", i});
          return std::nullopt;
        }
        r.dims[i] = (*in)[i];
      }
    } else {
      if (v == 0) r.has_zero = true;
      r.dims[i] = v;
    }
  }
  if (allowzero == ZeroDims::Literal && r.has_zero && r.infer_at) {
    ctx.record_error(n, "target shape has both 0 and -1 with allowzero=1");
    return std::nullopt;
  }
  return r;
}

// Checks the element count against the input and fills in the -1; nullopt
// after an error. Dims common to the input and the target cancel first (as a
// multiset), so that [B,T,768] -> [B,-1] gives 768*T rather than 768*B*T//B.
inline std::optional<Dims> complete_target(Context& ctx, const Node& n, const Shape& in, ReshapeTarget target) {
  Dims& out = target.dims;
  std::vector<SymbolicDim> rest_in = in.dims(), kept;
  kept.reserve(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (target.infer_at && i == *target.infer_at) continue;
    bool cancelled = false;
    if (out[i].is_symbolic())
      for (auto& d : rest_in)
        if (d == out[i]) {
          d = 1;
          cancelled = true;
          break;
        }
    if (!cancelled) kept.push_back(out[i]);
  }
  const SymbolicDim total = product(rest_in), known = product(kept);
  if (!target.infer_at) {
    if (total.is_int() && known.is_int() && total.value() != known.value()) {
      ctx.record_error(n, {"cannot reshape ", in, " to ", Shape(out), ": element counts differ"});
      return std::nullopt;
    }
    if (total != known) ctx.record_contract(&n, Contract::Kind::Equal, total, known, "element count");
    return std::move(out);
  }
  SymbolicDim& inferred = out[*target.infer_at];
  if (known.is_int(0)) {
    if (total.is_int() && total.value() != 0) {
      ctx.record_error(n, {"cannot infer -1 of ", Shape(out), " from ", in});
      return std::nullopt;
    }
  } else if (total.is_int() && known.is_int()) {
    if (total.value() % known.value() != 0) {
      ctx.record_error(n, {"cannot reshape ", in, " to ", Shape(out), ": the -1 dim is not an integer"});
      return std::nullopt;
    }
    inferred = total / known;
  } else {
    inferred = total / known;  // unknown, or marked as overflowed, when one of them is
  }
  return std::move(out);
}

inline void reshape_impl(Context& ctx, Node& n, const std::optional<std::vector<SymbolicDim>>& target,
                         std::optional<int64_t> target_length, ZeroDims allowzero) {
  if (!target) return reshape_unknown_target(ctx, n, target_length);
  const Shape* in = shape_of(n.input(0));
  auto resolved = resolve_target(ctx, n, *target, in, allowzero);
  if (!resolved) return;
  std::optional<Dims> out = in ? complete_target(ctx, n, *in, std::move(*resolved)) : std::move(resolved->dims);
  if (!out) return;
  set_like_input(ctx, n, 0, Shape(std::move(*out)));
  copy_value(ctx, n);
}

inline void reshape_input_impl(Context& ctx, Node& n, ZeroDims allowzero) {
  const Shape* ts = shape_of(n.input(1));
  if (ts && ts->rank() != 1) return ctx.record_error(n, {"shape input must be 1-D, got ", *ts});
  reshape_impl(ctx, n, ctx.symbolic_value(n.input(1)), static_length(n.input(1)), allowzero);
}

}  // namespace reshape_detail

inline void infer_reshape_v1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  auto shape = ctx.attr_ints(n, "shape");
  if (!shape) return ctx.usage_error(n, "missing required attribute 'shape'");
  reshape_detail::reshape_impl(ctx, n, std::vector<SymbolicDim>(shape->begin(), shape->end()), std::nullopt,
                               reshape_detail::ZeroDims::CopyInput);
}
SYMSHAPE_RULES(infer_reshape_v1, ai_onnx("Reshape", 1).cost(count_none));

inline void infer_reshape_v5(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  reshape_detail::reshape_input_impl(ctx, n, reshape_detail::ZeroDims::CopyInput);
}
SYMSHAPE_RULES(infer_reshape_v5, ai_onnx("Reshape", 5, 13).cost(count_none));
// allowzero appears at 14.
inline void infer_reshape_v14(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2)) return;
  reshape_detail::reshape_input_impl(
      ctx, n,
      ctx.attr_int(n, "allowzero", 0) != 0 ? reshape_detail::ZeroDims::Literal : reshape_detail::ZeroDims::CopyInput);
}
SYMSHAPE_RULES(infer_reshape_v14, ai_onnx("Reshape", 14, 19, 21, 23, 24, 25).cost(count_none));

inline constexpr auto kReshapeRules =
    family_rules<infer_reshape_v1_rules, infer_reshape_v5_rules, infer_reshape_v14_rules>("symshape/ops/reshape.hpp");

}  // namespace symshape::ops
