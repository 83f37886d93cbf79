// Resize (10: scales; 11: roi, scales, sizes; 13: roi and scales optional;
// 18: axes, keep_aspect_ratio_policy; 19: new coordinate mode, same shapes)
// and Upsample (1: height_scale/width_scale attributes; 7: scales
// attribute; 9: scales input).
//
// With constant scales an integer dim d becomes floor(d * scale) (computed in
// float, as ONNX does); a symbolic dim becomes (d*p)//2^k for a scale p/2^k
// with k <= 10 (exact in binary floating point, e.g. (5*d)//2 for 2.5), and
// unknown otherwise. Scales may come from an initializer or a propagated
// value (a Constant node). Sizes, constant or propagated, give the dims
// directly (`Shape -> Slice -> Concat -> Resize` keeps symbolic sizes).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace resize_detail {

// Values of a constant floating-point (or integer) initializer; nullopt (not
// an error) when they are not known.
inline Maybe<std::vector<double>> constant_floats(const Value* v) {
  if (!v || !v->initializer || !v->initializer->has_data) return std::nullopt;
  const Tensor& t = *v->initializer;
  if (!t.float_data.empty()) return t.float_data;
  if (!t.int_data.empty()) return std::vector<double>(t.int_data.begin(), t.int_data.end());
  auto count = t.element_count();
  if (count && *count == 0) return std::vector<double>{};
  return std::nullopt;
}

// An omitted input, or one with zero elements (the "" / empty placeholder of Resize 11).
inline bool is_empty_input(const Value* v) {
  if (!v) return true;
  if (v->initializer) {
    auto count = v->initializer->element_count();
    if (count && *count == 0) return true;
  }
  const Shape* s = shape_of(v);
  return s && s->rank() == 1 && (*s)[0].is_int(0);
}

// floor(in * scale) as ONNX computes it (float arithmetic); unknown when not expressible.
inline SymbolicDim scaled_dim(const SymbolicDim& in, double scale_value) {
  const float scale = static_cast<float>(scale_value);
  if (in.is_unknown() || !(scale > 0.0f) || !std::isfinite(scale)) return {};
  if (in.is_int()) {
    const double r = std::floor(static_cast<double>(static_cast<float>(in.value()) * scale));
    if (!(r >= 0.0 && r < 9.0e18)) return {};
    return static_cast<int64_t>(r);
  }
  // scale = p / 2^k exactly (k <= 10): floor(in * p / 2^k), e.g. floor(d*2.5) = (5*d)//2.
  if (scale >= 2147483648.0f) return {};
  auto r = Context::exact_rationals({static_cast<double>(scale)});
  if (!r) return {};
  const SymbolicDim scaled = in * r->num[0];
  return r->den == 1 ? scaled : scaled / SymbolicDim(r->den);
}

// What the output shape of Resize/Upsample depends on. `scales`/`sizes`:
// known values (nullopt when absent or unknown); `axes`: the axes they apply
// to (all by default).
struct ResizeSpec {
  bool use_sizes = false;                         // sizes given (else scales)
  Maybe<std::vector<double>> scales;              // known scale values
  std::optional<std::vector<SymbolicDim>> sizes;  // known size values
  std::optional<std::vector<int64_t>> axes;       // 18+
  std::string policy = "stretch";                 // keep_aspect_ratio_policy, 18+
};

// The axes that are resized, normalised (all by default); nullopt after an
// error.
inline std::optional<std::vector<int64_t>> resized_axes(Context& ctx, const Node& n, const ResizeSpec& spec,
                                                        int64_t rank) {
  std::vector<int64_t> axes;
  if (!spec.axes) {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
    return axes;
  }
  auto norm = normalize_axes(ctx, n, *spec.axes, rank);
  if (!norm) return std::nullopt;
  axes = *norm;
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (int64_t a : axes) {
    if (seen[static_cast<std::size_t>(a)]) {
      ctx.record_error(n, {"axes contains ", a, " twice"});
      return std::nullopt;
    }
    seen[static_cast<std::size_t>(a)] = true;
  }
  return axes;
}

// The one scale of keep_aspect_ratio_policy not_larger / not_smaller: the
// smallest / largest of size / input dim over the resized axes; nullopt
// (not an error) unless all of them are positive integers.
inline Maybe<float> aspect_ratio_scale(const Shape& x, const std::vector<int64_t>& axes,
                                       const std::vector<SymbolicDim>& sizes, const std::string& policy) {
  float scale = policy == "not_larger" ? INFINITY : 0.0f;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const SymbolicDim& in = x[static_cast<std::size_t>(axes[i])];
    const SymbolicDim& sz = sizes[i];
    if (!in.is_int() || !sz.is_int() || in.value() <= 0) return std::nullopt;
    const float s = static_cast<float>(sz.value()) / static_cast<float>(in.value());
    scale = policy == "not_larger" ? std::fmin(scale, s) : std::fmax(scale, s);
  }
  return scale;
}

// X's dims with the resized axes given by sizes (one per axis in `axes`).
inline std::vector<SymbolicDim> sized_dims(const Shape& x, const std::vector<int64_t>& axes, const ResizeSpec& spec) {
  std::vector<SymbolicDim> out = x.dims();
  if (!spec.sizes) {
    for (int64_t a : axes) out[static_cast<std::size_t>(a)] = SymbolicDim();
    return out;
  }
  if (spec.policy == "stretch") {
    for (std::size_t i = 0; i < axes.size(); ++i) out[static_cast<std::size_t>(axes[i])] = (*spec.sizes)[i];
    return out;
  }
  const Maybe<float> scale = aspect_ratio_scale(x, axes, *spec.sizes, spec.policy);
  for (int64_t a : axes) {
    SymbolicDim& d = out[static_cast<std::size_t>(a)];
    if (!scale) {
      d = SymbolicDim();
      continue;
    }
    const double r = std::round(static_cast<double>(*scale * static_cast<float>(d.value())));
    d = r >= 0.0 && r < 9.0e18 ? SymbolicDim(static_cast<int64_t>(r)) : SymbolicDim();
  }
  return out;
}

// X's dims with the resized axes scaled (one scale per axis in `axes`);
// nullopt after an error.
inline std::optional<std::vector<SymbolicDim>> scaled_dims(Context& ctx, const Node& n, const Shape& x,
                                                           const std::vector<int64_t>& axes, const ResizeSpec& spec) {
  std::vector<SymbolicDim> out = x.dims();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    SymbolicDim& d = out[static_cast<std::size_t>(axes[i])];
    if (!spec.scales) {
      d = SymbolicDim();
      continue;
    }
    const double s = (*spec.scales)[i];
    if (!(s > 0.0)) {
      ctx.record_error(n, {"scales must be positive, got ", std::to_string(s)});
      return std::nullopt;
    }
    d = scaled_dim(d, s);
  }
  return out;
}

// Output shape of Resize/Upsample: X's shape with the resized axes sized or
// scaled.
inline void resize_output(Context& ctx, Node& n, const ResizeSpec& spec) {
  const DataType dtype = dtype_of(n.input(0));
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    // Sizes for every axis are the output shape even when X's rank is unknown.
    const bool all_sizes = spec.use_sizes && spec.sizes && !spec.axes && spec.policy == "stretch";
    ctx.set_shape_and_dtype(n.output(0), all_sizes ? Shape(*spec.sizes) : Shape(), dtype);
    return;
  }
  auto axes = resized_axes(ctx, n, spec, x->rank());
  if (!axes) return;
  const std::size_t count = spec.use_sizes ? (spec.sizes ? spec.sizes->size() : axes->size())
                                           : (spec.scales ? spec.scales->size() : axes->size());
  if (count != axes->size())
    return ctx.record_error(n, {(spec.use_sizes ? "sizes" : "scales"), " has ", count, " values, expected ",
                                axes->size(), " (one per resized axis)"});
  auto out = spec.use_sizes ? sized_dims(*x, *axes, spec) : scaled_dims(ctx, n, *x, *axes, spec);
  if (!out) return;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(*out)), dtype);
}

// Scales from input i: known values (an initializer, or a propagated value
// such as a Constant node's, when its denominator is a power of two: exact as
// a double), or nullopt (then dims become unknown).
inline Maybe<std::vector<double>> scales_input(const Context& ctx, const Node& n, std::size_t i) {
  if (auto c = constant_floats(n.input(i))) return c;
  auto r = ctx.rational_value(n.input(i));
  if (!r || (r->den & (r->den - 1)) != 0) return std::nullopt;
  std::vector<double> out;
  for (const auto& x : r->num) {
    if (!x.is_int()) return std::nullopt;
    out.push_back(static_cast<double>(x.value()) / static_cast<double>(r->den));
  }
  return out;
}

enum class ResizeAttrs { Basic, WithAxesAndPolicy };  // 18+: axes and keep_aspect_ratio_policy
inline void resize_from_inputs(Context& ctx, Node& n, ResizeAttrs with_axes) {
  ResizeSpec spec;
  const bool has_sizes = !is_empty_input(n.input(3));
  const bool has_scales = !is_empty_input(n.input(2));
  if (has_sizes == has_scales)
    return ctx.usage_error(
        n, has_sizes ? "only one of scales and sizes may be given" : "one of scales and sizes must be given");
  spec.use_sizes = has_sizes;
  if (has_sizes) spec.sizes = input_dims(ctx, n, 3);
  if (!has_sizes) spec.scales = scales_input(ctx, n, 2);
  if (with_axes == ResizeAttrs::WithAxesAndPolicy) {
    if (const Attribute* a = n.attr("axes")) {
      if (a->kind != Attribute::Kind::Ints) return ctx.usage_error(n, "attribute 'axes' must be a list of integers");
      spec.axes = std::vector<int64_t>(a->ints.begin(), a->ints.end());
    }
    spec.policy = ctx.attr_string(n, "keep_aspect_ratio_policy", "stretch");
    if (spec.policy != "stretch" && spec.policy != "not_larger" && spec.policy != "not_smaller")
      return ctx.record_error(n, {"unknown keep_aspect_ratio_policy '", spec.policy, "'"});
  }
  resize_output(ctx, n, spec);
}

}  // namespace resize_detail

// Resize 10 and Upsample 9/10: X, scales.
inline void infer_resize_10(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  resize_detail::ResizeSpec spec;
  spec.scales = resize_detail::scales_input(ctx, n, 1);
  resize_detail::resize_output(ctx, n, spec);
}
// Resize / Upsample: nearest copies; the interpolating modes have no count.
inline FlopCount count_resize(const Node& n, const CountContext&) {
  if (n.attr_string("mode", "nearest") == "nearest") return no_arithmetic();
  return not_counted("not counted: no convention for " + n.attr_string("mode") + " interpolation");
}
SYMSHAPE_RULES(infer_resize_10, ai_onnx("Resize", 10).cost(count_resize),
               ai_onnx("Upsample", 9, 10).cost(count_resize));

// Resize 11: X, roi, scales (required, may be empty), sizes (optional).
inline void infer_resize_11(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 3, 4)) return;
  resize_detail::resize_from_inputs(ctx, n, resize_detail::ResizeAttrs::Basic);
}
SYMSHAPE_RULES(infer_resize_11, ai_onnx("Resize", 11).cost(count_resize));

// Resize 13: roi and scales optional.
inline void infer_resize_13(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 4)) return;
  resize_detail::resize_from_inputs(ctx, n, resize_detail::ResizeAttrs::Basic);
}
SYMSHAPE_RULES(infer_resize_13, ai_onnx("Resize", 13).cost(count_resize));

// Resize 18/19: axes and keep_aspect_ratio_policy.
inline void infer_resize_18(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 4)) return;
  resize_detail::resize_from_inputs(ctx, n, resize_detail::ResizeAttrs::WithAxesAndPolicy);
}
SYMSHAPE_RULES(infer_resize_18, ai_onnx("Resize", 18, 19).cost(count_resize));

// Upsample 7: the scales attribute.
inline void infer_upsample_7(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* a = require_attr(ctx, n, "scales");
  if (!a) return;
  if (a->kind != Attribute::Kind::Floats) return ctx.usage_error(n, "attribute 'scales' must be a list of floats");
  resize_detail::ResizeSpec spec;
  spec.scales = a->floats.get();
  resize_detail::resize_output(ctx, n, spec);
}
SYMSHAPE_RULES(infer_upsample_7, ai_onnx("Upsample", 7).cost(count_resize));

// Upsample 1: 4-D [N, C, H, W] -> [N, C, floor(H*height_scale), floor(W*width_scale)].
inline void infer_upsample_1(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* hs = require_attr(ctx, n, "height_scale", Attribute::Kind::Float);
  if (!hs) return;
  const Attribute* ws = require_attr(ctx, n, "width_scale", Attribute::Kind::Float);
  if (!ws) return;
  if (!(hs->f >= 1.0) || !(ws->f >= 1.0) || hs->f > 1e9 || ws->f > 1e9)
    return ctx.record_error(n, "height_scale and width_scale must be >= 1");
  const Shape* s = shape_of(n.input(0));
  const DataType t = dtype_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(std::vector<SymbolicDim>(4)), t);
    return;
  }
  if (s->rank() != 4) return ctx.record_error(n, {"input must be 4-D [N, C, H, W], got shape ", *s});
  auto scaled = [](const SymbolicDim& d, double scale) {
    if (scale == std::floor(scale)) return d * SymbolicDim(static_cast<int64_t>(scale));
    if (d.is_int() && d.value() <= (int64_t{1} << 40))
      return SymbolicDim(static_cast<int64_t>(std::floor(static_cast<double>(d.value()) * scale)));
    return SymbolicDim();
  };
  ctx.set_shape_and_dtype(n.output(0), Shape({(*s)[0], (*s)[1], scaled((*s)[2], hs->f), scaled((*s)[3], ws->f)}), t);
}
SYMSHAPE_RULES(infer_upsample_1, ai_onnx("Upsample", 1).cost(count_resize));

inline constexpr auto kResizeRules =
    family_rules<infer_resize_10_rules, infer_resize_11_rules, infer_resize_13_rules, infer_resize_18_rules,
                 infer_upsample_7_rules, infer_upsample_1_rules>("symshape/ops/resize.hpp");

}  // namespace symshape::ops
