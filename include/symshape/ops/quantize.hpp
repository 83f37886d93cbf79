// Quantization and element reinterpretation: QuantizeLinear and
// DequantizeLinear (10: scalar scale; 13/19: per-axis; 21+: blocked, with
// block_size and output_dtype; 23+: DequantizeLinear output_dtype),
// DynamicQuantizeLinear, and BitCast (26). The output has the shape of x;
// the element type follows the zero point, output_dtype or scale as each
// version of the specification says.
#pragma once

#include <cstdint>
#include <string>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/tensor_values.hpp"

namespace symshape::ops {

namespace quant_detail {

struct QuantVersion {
  bool per_axis = false;      // 13+: axis attribute, 1-D scale
  bool blocked = false;       // 21+: block_size attribute
  bool output_dtype = false;  // output_dtype attribute (QuantizeLinear 21+, DequantizeLinear 23+)
};
// The versions' features by name, for the rules' calls.
inline constexpr QuantVersion kPerTensor{false, false, false};
inline constexpr QuantVersion kPerAxis{true, false, false};
inline constexpr QuantVersion kBlocked{true, true, false};
inline constexpr QuantVersion kBlockedWithOutputDtype{true, true, true};

// The zero point, when given, has the scale's shape; false after an error.
inline bool check_zero_point_shape(Context& ctx, const Node& n, const Shape& scale, const Shape& zp) {
  bool same = scale.rank() == zp.rank();
  for (std::size_t i = 0; same && i < scale.size(); ++i)
    same = !(scale[i].is_int() && zp[i].is_int() && scale[i] != zp[i]);
  if (!same) ctx.record_error(n, {"zero point shape ", zp, " differs from scale shape ", scale});
  return same;
}

// A per-axis scale is 1-D with x.shape[axis] elements; false after an error.
inline bool check_per_axis_scale(Context& ctx, const Node& n, const Shape& x, const Shape& scale, std::size_t axis) {
  if (scale.rank() != 1) {
    ctx.record_error(n, {"per-axis scale must be 1-D, got shape ", scale});
    return false;
  }
  if (scale[0].is_int() && x[axis].is_int() && scale[0] != x[axis]) {
    ctx.record_error(n, {"per-axis scale has ", scale[0], " elements, but x has ", x[axis], " along axis ", axis});
    return false;
  }
  return true;
}

// A blocked scale has x's shape with ceil(x[axis] / block_size) at axis;
// false after an error.
inline bool check_blocked_scale(Context& ctx, const Node& n, const Shape& x, const Shape& scale, std::size_t axis,
                                int64_t block_size) {
  if (scale.rank() != x.rank()) {
    ctx.record_error(n, {"blocked scale must have the rank of x (", x.rank(), "), got shape ", scale});
    return false;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const SymbolicDim expected = i == axis ? (x[i] + (block_size - 1)) / SymbolicDim(block_size) : x[i];
    if (expected.is_int() && scale[i].is_int() && expected != scale[i]) {
      ctx.record_error(n, {"blocked scale shape ", scale, " does not match x ", x, " with block_size ", block_size,
                           " (expected ", expected, " at dim ", i, ")"});
      return false;
    }
  }
  return true;
}

// Checks the scale (input 1) and zero point (input 2) against x's shape:
// a scalar (per-tensor), a 1-D tensor of x.shape[axis] (per-axis) or, with
// block_size > 0, x's shape with ceil(x[axis] / block_size) at axis. False
// after an error.
inline bool check_params(Context& ctx, const Node& n, const QuantVersion& v) {
  const Shape* x = shape_of(n.input(0));
  const Shape* scale = shape_of(n.input(1));
  const Shape* zp = shape_of(n.input(2));
  if (scale && zp && !check_zero_point_shape(ctx, n, *scale, *zp)) return false;
  const int64_t block_size = v.blocked ? ctx.attr_int(n, "block_size", 0) : 0;
  if (block_size < 0) {
    ctx.record_error(n, {"block_size must be >= 0, got ", block_size});
    return false;
  }
  if (!scale) return true;
  const bool scalar = scale->rank() == 0 || (scale->rank() == 1 && (*scale)[0].is_int(1) && block_size == 0);
  if (!v.per_axis) {
    if (!scalar) ctx.record_error(n, {"scale must be a scalar at this opset, got shape ", *scale});
    return scalar;
  }
  if ((scalar && block_size == 0) || !x) return true;
  auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 1), x->rank());
  if (!axis) return false;
  const auto a = static_cast<std::size_t>(*axis);
  return block_size == 0 ? check_per_axis_scale(ctx, n, *x, *scale, a)
                         : check_blocked_scale(ctx, n, *x, *scale, a, block_size);
}

inline void quantize(Context& ctx, Node& n, const QuantVersion& v) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  DataType out = DataType::UINT8;
  const DataType zp = dtype_of(n.input(2));
  const int64_t od = v.output_dtype ? ctx.attr_int(n, "output_dtype", 0) : 0;
  if (od != 0 && !element_type_from_code(od)) return ctx.record_error(n, {"invalid output_dtype ", od});
  if (n.input(2) && zp != DataType::UNDEFINED) {
    if (od != 0 && static_cast<DataType>(od) != zp)
      return ctx.record_error(n, {"output_dtype ", to_string(static_cast<DataType>(od)),
                                  " differs from the zero point type ", to_string(zp)});
    out = zp;
  } else if (n.input(2)) {
    out = od != 0 ? static_cast<DataType>(od) : DataType::UNDEFINED;
  } else if (od != 0) {
    out = static_cast<DataType>(od);
  }
  if (!check_params(ctx, n, v)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), out);
}

// The output's element type: FLOAT, or the scale's (19+).
enum class DequantOutput { Float, ScaleType };
inline void dequantize(Context& ctx, Node& n, const QuantVersion& v, DequantOutput scale_type) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  DataType out = scale_type == DequantOutput::ScaleType ? dtype_of(n.input(1)) : DataType::FLOAT;
  const int64_t od = v.output_dtype ? ctx.attr_int(n, "output_dtype", 0) : 0;
  if (od != 0) {
    if (!element_type_from_code(od)) return ctx.record_error(n, {"invalid output_dtype ", od});
    out = static_cast<DataType>(od);
  }
  if (!check_params(ctx, n, v)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), out);
}

}  // namespace quant_detail

inline void infer_quantize_linear_10(Context& ctx, Node& n) {
  quant_detail::quantize(ctx, n, quant_detail::kPerTensor);
}
SYMSHAPE_RULES(infer_quantize_linear_10, ai_onnx("QuantizeLinear", 10).cost(count_two_per_element));
inline void infer_quantize_linear_13(Context& ctx, Node& n) { quant_detail::quantize(ctx, n, quant_detail::kPerAxis); }
SYMSHAPE_RULES(infer_quantize_linear_13, ai_onnx("QuantizeLinear", 13, 19).cost(count_two_per_element));
inline void infer_quantize_linear_21(Context& ctx, Node& n) {
  quant_detail::quantize(ctx, n, quant_detail::kBlockedWithOutputDtype);
}
SYMSHAPE_RULES(infer_quantize_linear_21, ai_onnx("QuantizeLinear", 21, 23, 24, 25).cost(count_two_per_element));

inline void infer_dequantize_linear_10(Context& ctx, Node& n) {
  quant_detail::dequantize(ctx, n, quant_detail::kPerTensor, quant_detail::DequantOutput::Float);
}
SYMSHAPE_RULES(infer_dequantize_linear_10, ai_onnx("DequantizeLinear", 10).cost(count_two_per_element));
inline void infer_dequantize_linear_13(Context& ctx, Node& n) {
  quant_detail::dequantize(ctx, n, quant_detail::kPerAxis, quant_detail::DequantOutput::Float);
}
SYMSHAPE_RULES(infer_dequantize_linear_13, ai_onnx("DequantizeLinear", 13).cost(count_two_per_element));
inline void infer_dequantize_linear_19(Context& ctx, Node& n) {
  quant_detail::dequantize(ctx, n, quant_detail::kPerAxis, quant_detail::DequantOutput::ScaleType);
}
SYMSHAPE_RULES(infer_dequantize_linear_19, ai_onnx("DequantizeLinear", 19).cost(count_two_per_element));
inline void infer_dequantize_linear_21(Context& ctx, Node& n) {
  quant_detail::dequantize(ctx, n, quant_detail::kBlocked, quant_detail::DequantOutput::ScaleType);
}
SYMSHAPE_RULES(infer_dequantize_linear_21, ai_onnx("DequantizeLinear", 21).cost(count_two_per_element));
inline void infer_dequantize_linear_23(Context& ctx, Node& n) {
  quant_detail::dequantize(ctx, n, quant_detail::kBlockedWithOutputDtype, quant_detail::DequantOutput::ScaleType);
}
SYMSHAPE_RULES(infer_dequantize_linear_23, ai_onnx("DequantizeLinear", 23, 24, 25).cost(count_two_per_element));

// DynamicQuantizeLinear: y (UINT8, x's shape), y_scale (FLOAT scalar), y_zero_point (UINT8 scalar).
inline void infer_dynamic_quantize_linear(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), DataType::UINT8);
  ctx.set_shape_and_dtype(n.output(1), Shape::scalar(), DataType::FLOAT);
  ctx.set_shape_and_dtype(n.output(2), Shape::scalar(), DataType::UINT8);
}
SYMSHAPE_RULES(infer_dynamic_quantize_linear, ai_onnx("DynamicQuantizeLinear", 11));

// BitCast (26): same shape, element type `to`, which must have the input's bit width.
inline void infer_bit_cast(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* to = require_attr(ctx, n, "to");
  if (!to) return;
  if (to->kind != Attribute::Kind::Int || !element_type_from_code(to->i) ||
      static_cast<DataType>(to->i) == DataType::STRING) {
    return ctx.record_error(n, "invalid target type in attribute 'to'");
  }
  const DataType target = static_cast<DataType>(to->i);
  const DataType from = dtype_of(n.input(0));
  if (from == DataType::STRING) return ctx.record_error(n, "BitCast does not accept string tensors");
  if (from != DataType::UNDEFINED && element_bits(from) != element_bits(target))
    return ctx.record_error(n, {"cannot bitcast ", to_string(from), " (", element_bits(from), " bits) to ",
                                to_string(target), " (", element_bits(target), " bits)"});
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), target);
}
SYMSHAPE_RULES(infer_bit_cast, ai_onnx("BitCast", 26));

inline constexpr auto kQuantizeRules =
    family_rules<infer_quantize_linear_10_rules, infer_quantize_linear_13_rules, infer_quantize_linear_21_rules,
                 infer_dequantize_linear_10_rules, infer_dequantize_linear_13_rules, infer_dequantize_linear_19_rules,
                 infer_dequantize_linear_21_rules, infer_dequantize_linear_23_rules,
                 infer_dynamic_quantize_linear_rules, infer_bit_cast_rules>("symshape/ops/quantize.hpp");

}  // namespace symshape::ops
