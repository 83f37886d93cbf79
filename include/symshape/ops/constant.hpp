// Constant (value, sparse_value 11+, value_float(s)/value_int(s)/
// value_string(s) 12+), ConstantOfShape (shape from a constant or symbolic
// value; a small integer output carries copies of the fill value) and
// EyeLike (2-D, shape of the input).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

// ---- Constant ----

namespace constant_detail {

// The one value attribute of a Constant; nullptr after the usage error when
// there is none or more than one.
inline const Attribute* value_attribute(Context& ctx, const Node& n) {
  const Attribute* found = nullptr;
  int count = 0;
  static constexpr std::string_view names[] = {"value",     "sparse_value", "value_float",  "value_floats",
                                               "value_int", "value_ints",   "value_string", "value_strings"};
  for (std::string_view name : names) {
    if (const Attribute* a = n.attr(name)) {
      found = a;
      ++count;
    }
  }
  if (count == 1) return found;
  ctx.usage_error(n, count == 0 ? "Constant needs one value attribute" : "Constant has more than one value attribute");
  return nullptr;
}

// Float data as whole numbers exact in `t`, else as exact fractions
// (Context::exact_rationals: 2.5 is 5/2), else nullopt.
inline std::optional<Rationals> float_values(const std::vector<double>& data, DataType t) {
  if (data.size() > Context::kMaxSymbolicValueSize) return std::nullopt;
  if (auto v = integral_float_values(data, t)) return Rationals{std::move(*v), 1};
  return Context::exact_rationals(data);
}

// The values of a tensor (any rank, row-major) with all its data: integers,
// or floats (float_values).
inline std::optional<Rationals> tensor_values(const Tensor& t) {
  if (!t.has_data) return std::nullopt;
  auto count = t.element_count();
  if (!count || *count > static_cast<int64_t>(Context::kMaxSymbolicValueSize)) return std::nullopt;
  const auto size = static_cast<std::size_t>(*count);
  if (is_integer_type(t.dtype) && size == t.int_data.size())
    return Rationals{Dims(t.int_data.begin(), t.int_data.end()), 1};
  if (is_float_type(t.dtype) && size == t.float_data.size()) return float_values(t.float_data, t.dtype);
  return std::nullopt;
}

}  // namespace constant_detail

inline void infer_constant(Context& ctx, Node& n) {
  const Attribute* found = constant_detail::value_attribute(ctx, n);
  if (!found) return;
  Value* out = n.output(0);
  const std::string_view name = found->name;
  const auto length = [](std::size_t size) { return Shape{SymbolicDim(static_cast<int64_t>(size))}; };
  if (name == "value" || name == "sparse_value") {
    if (found->tensors.empty()) return ctx.usage_error(n, {"attribute '", name, "' holds no tensor"});
    const Tensor& t = found->tensors[0];
    ctx.set_shape_and_dtype(out, t.type().shape(), t.dtype);
    if (name == "value")
      if (auto v = constant_detail::tensor_values(t)) ctx.set_rational_value(out, std::move(*v));
  } else if (name == "value_float") {
    ctx.set_shape_and_dtype(out, Shape::scalar(), DataType::FLOAT);
    if (auto v = constant_detail::float_values({found->f}, DataType::FLOAT)) ctx.set_rational_value(out, *v);
  } else if (name == "value_floats") {
    ctx.set_shape_and_dtype(out, length(found->floats.size()), DataType::FLOAT);
    if (auto v = constant_detail::float_values(found->floats, DataType::FLOAT)) ctx.set_rational_value(out, *v);
  } else if (name == "value_int") {
    ctx.set_shape_and_dtype(out, Shape::scalar(), DataType::INT64);
    ctx.set_symbolic_value(out, {SymbolicDim(found->i)});
  } else if (name == "value_ints") {
    ctx.set_shape_and_dtype(out, length(found->ints.size()), DataType::INT64);
    ctx.set_symbolic_value(out, Dims(found->ints.begin(), found->ints.end()));
  } else if (name == "value_string") {
    ctx.set_shape_and_dtype(out, Shape::scalar(), DataType::STRING);
  } else {
    ctx.set_shape_and_dtype(out, length(found->strings.size()), DataType::STRING);
  }
}
SYMSHAPE_RULES(infer_constant, ai_onnx("Constant", 1, 9, 11, 12, 13, 19, 21, 23, 24, 25).cost(count_none));

// ---- ConstantOfShape ----

inline void infer_constant_of_shape(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  DataType dtype = DataType::FLOAT;
  std::optional<int64_t> fill = 0;
  if (const Attribute* a = n.attr("value")) {
    if (a->tensors.empty()) return ctx.usage_error(n, "attribute 'value' holds no tensor");
    const Tensor& t = a->tensors[0];
    auto c = t.element_count();
    if (!c || *c != 1) return ctx.record_error(n, "attribute 'value' must hold exactly one element");
    dtype = t.dtype;
    fill = is_integer_type(dtype) && t.has_data && t.int_data.size() == 1 ? std::optional<int64_t>(t.int_data[0])
                                                                          : std::nullopt;
  }
  const Shape* ss = shape_of(n.input(0));
  if (ss && ss->rank() != 1) return ctx.record_error(n, {"input must be 1-D, got ", *ss});
  auto target = ctx.symbolic_value(n.input(0));
  if (!target) {
    ctx.set_shape_and_dtype(n.output(0), shape_of_length(n.input(0)), dtype);
    return;
  }
  if (!check_no_negative_dim(ctx, n, *target, "shape has a negative dim ")) return;
  // A small integer fill (or the default float 0) has a value, of any rank.
  std::optional<SymbolicDim> count;
  if (fill) count = product(*target);
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(*target)), dtype);
  if (count && count->overflowed()) return ctx.overflow_error(n);  // a tensor that cannot exist
  if (count && count->is_int() && count->value() <= static_cast<int64_t>(Context::kMaxSymbolicValueSize))
    ctx.set_symbolic_value(n.output(0), std::vector<SymbolicDim>(static_cast<std::size_t>(count->value()), *fill));
  else if (fill)
    ctx.set_element_bounds(n.output(0), *fill, *fill);  // too long to list: every element is the fill
}
SYMSHAPE_RULES(infer_constant_of_shape, ai_onnx("ConstantOfShape", 9, 20, 21, 23, 24, 25).cost(count_none));

// ---- EyeLike ----

inline void infer_eye_like(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (s && s->rank() != 2) return ctx.record_error(n, {"input must be 2-D, got ", *s});
  DataType dtype = dtype_of(n.input(0));
  if (const Attribute* a = n.attr("dtype")) {
    if (a->i < 0 || a->i > INT32_MAX || !is_valid_data_type(static_cast<int32_t>(a->i)))
      return ctx.record_error(n, {"invalid dtype ", a->i});
    dtype = static_cast<DataType>(a->i);
  }
  ctx.set_shape_and_dtype(n.output(0), s ? *s : Shape::of_rank(2), dtype);
}
SYMSHAPE_RULES(infer_eye_like, ai_onnx("EyeLike", 9, 22).cost(count_none));

inline constexpr auto kConstantRules =
    family_rules<infer_constant_rules, infer_constant_of_shape_rules, infer_eye_like_rules>(
        "symshape/ops/constant.hpp");

}  // namespace symshape::ops
