// Optional values: Optional, OptionalHasElement, OptionalGetElement.
#pragma once

#include <string>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"

namespace symshape::ops {

// Optional(input?; type?): optional(input's type), else optional(type).
inline void infer_optional(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 0, 1)) return;
  const Attribute* a = n.attr("type");
  if (const Value* in = n.input(0)) {
    if (in->type.is_unknown()) return;
    ctx.set_type(n.output(0), Type::optional(in->type));
    return;
  }
  if (!a || a->kind != Attribute::Kind::TypeProto || a->types.empty())
    return ctx.usage_error(n, "an Optional without input needs the 'type' attribute");
  ctx.set_type(n.output(0), Type::optional(a->types[0]));
}
SYMSHAPE_RULES(infer_optional, ai_onnx("Optional", 15).cost(count_none));

namespace optional_detail {

enum class OptionalOpset { Before18, From18 };  // 18+: the input may be absent or not an optional
inline void infer_optional_has_element_impl(Context& ctx, Node& n, OptionalOpset opset) {
  const bool opset18 = opset == OptionalOpset::From18;
  if (!check_inputs(ctx, n, opset18 ? 0 : 1, 1)) return;
  const Value* in = n.input(0);
  if (!opset18 && in && !in->type.is_unknown() && in->type.kind() != Type::Kind::Optional)
    return ctx.record_error(n, {"input must be an optional before opset 18, got ", in->type});
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), DataType::BOOL);
}

inline void infer_optional_get_element_impl(Context& ctx, Node& n, OptionalOpset opset) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Type& t = n.inputs[0]->type;
  if (t.is_unknown()) return;
  if (t.kind() == Type::Kind::Optional) {
    if (t.inner()) ctx.set_type(n.output(0), *t.inner());
    return;
  }
  if (opset == OptionalOpset::Before18)
    return ctx.record_error(n, {"input must be an optional before opset 18, got ", t});
  // From opset 18 a tensor or sequence input is returned as it is.
  ctx.set_type(n.output(0), t);
}

}  // namespace optional_detail

inline void infer_optional_has_element_15(Context& ctx, Node& n) {
  optional_detail::infer_optional_has_element_impl(ctx, n, optional_detail::OptionalOpset::Before18);
}
SYMSHAPE_RULES(infer_optional_has_element_15, ai_onnx("OptionalHasElement", 15).cost(count_none));
inline void infer_optional_has_element(Context& ctx, Node& n) {
  optional_detail::infer_optional_has_element_impl(ctx, n, optional_detail::OptionalOpset::From18);
}
SYMSHAPE_RULES(infer_optional_has_element, ai_onnx("OptionalHasElement", 18).cost(count_none));
inline void infer_optional_get_element_15(Context& ctx, Node& n) {
  optional_detail::infer_optional_get_element_impl(ctx, n, optional_detail::OptionalOpset::Before18);
}
SYMSHAPE_RULES(infer_optional_get_element_15, ai_onnx("OptionalGetElement", 15).cost(count_none));
inline void infer_optional_get_element(Context& ctx, Node& n) {
  optional_detail::infer_optional_get_element_impl(ctx, n, optional_detail::OptionalOpset::From18);
}
SYMSHAPE_RULES(infer_optional_get_element, ai_onnx("OptionalGetElement", 18).cost(count_none));

// 18: OptionalHasElement's input became optional, and both accept tensors and
// sequences as well as optionals.
inline constexpr auto kOptionalRules =
    family_rules<infer_optional_rules, infer_optional_has_element_15_rules, infer_optional_has_element_rules,
                 infer_optional_get_element_15_rules, infer_optional_get_element_rules>("symshape/ops/optional.hpp");

}  // namespace symshape::ops
