// Random generators: RandomNormal/RandomUniform and their *Like forms,
// Bernoulli and Multinomial; one function per operator, registered at every
// since_version (the later ones only extended the element types).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace random_detail {
// The `dtype` attribute, or `fallback` when absent; nullopt after the error
// when it names no element type.
inline Maybe<DataType> dtype_attr(Context& ctx, const Node& n, DataType fallback) {
  const Attribute* a = n.attr("dtype");
  if (!a) return fallback;
  auto t = a->kind == Attribute::Kind::Int ? element_type_from_code(a->i) : std::nullopt;
  if (!t) ctx.record_error(n, "invalid dtype attribute");
  return t;
}
}  // namespace random_detail

// RandomNormal, RandomUniform: the `shape` attribute, `dtype` (default FLOAT).
inline void infer_random(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 0, 0)) return;
  const Attribute* shape = require_attr(ctx, n, "shape");
  if (!shape) return;
  auto t = random_detail::dtype_attr(ctx, n, DataType::FLOAT);
  if (!t) return;
  std::vector<SymbolicDim> dims;
  for (int64_t d : shape->ints) {
    if (d < 0) return ctx.record_error(n, {"shape has a negative dim ", d});
    dims.emplace_back(d);
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(dims)), *t);
}
SYMSHAPE_RULES(infer_random, ai_onnx("RandomNormal", 1, 22), ai_onnx("RandomUniform", 1, 22));

// RandomNormalLike, RandomUniformLike, Bernoulli: the input's shape, `dtype`
// (default: the input's element type).
inline void infer_random_like(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  auto t = random_detail::dtype_attr(ctx, n, dtype_of(n.input(0)));
  if (!t) return;
  const Shape* s = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape(), *t);
}
SYMSHAPE_RULES(infer_random_like, ai_onnx("RandomNormalLike", 1, 22), ai_onnx("RandomUniformLike", 1, 22),
               ai_onnx("Bernoulli", 15, 22));

// Multinomial: [batch, classes] -> [batch, sample_size], `dtype` (default INT32).
inline void infer_multinomial(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  auto t = random_detail::dtype_attr(ctx, n, DataType::INT32);
  if (!t) return;
  if (*t != DataType::INT32 && *t != DataType::INT64)
    return ctx.record_error(n, {"dtype must be int32 or int64, got ", to_string(*t)});
  const int64_t samples = ctx.attr_int(n, "sample_size", 1);
  if (samples < 1) return ctx.record_error(n, {"sample_size must be positive, got ", samples});
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() != 2) return ctx.record_error(n, {"input must be 2-D [batch_size, class_size], got shape ", *s});
  ctx.set_shape_and_dtype(n.output(0), Shape({s ? (*s)[0] : SymbolicDim(), SymbolicDim(samples)}), *t);
}
SYMSHAPE_RULES(infer_multinomial, ai_onnx("Multinomial", 7, 22));

inline constexpr auto kRandomRules =
    family_rules<infer_random_rules, infer_random_like_rules, infer_multinomial_rules>("symshape/ops/random.hpp");

}  // namespace symshape::ops
