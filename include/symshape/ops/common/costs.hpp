// The FLOP counts (infer/cost.hpp) that rules of two or more op families
// register, and the shape helpers every count uses. A count used by one
// family lives in its header, beside the rules it serves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "symshape/infer/cost.hpp"
#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// ---- shapes ----

// Element count of a tensor value; unknown without a known shape.
inline SymbolicDim numel(const Value* v) {
  const Shape* s = shape_of(v);
  return s ? product(s->dims()) : SymbolicDim();
}

// Dim i of a value, counted from the end when negative; unknown when absent.
inline SymbolicDim dim(const Value* v, int64_t i) {
  const Shape* s = shape_of(v);
  if (!s) return {};
  const int64_t r = s->rank();
  if (i < 0) i += r;
  return i >= 0 && i < r ? (*s)[static_cast<std::size_t>(i)] : SymbolicDim();
}

// Product of dims [begin, rank) of a value (the kernel of a conv weight).
inline SymbolicDim dims_from(const Value* v, std::size_t begin) {
  const Shape* s = shape_of(v);
  return s && s->size() >= begin ? product(s->dims(), begin) : SymbolicDim();
}

inline SymbolicDim per_element(const Value* v, int64_t k) { return SymbolicDim(k) * numel(v); }

inline std::size_t present_inputs(const Node& n) {
  std::size_t k = 0;
  for (const Value* v : n.inputs) k += v != nullptr;
  return k;
}

// ---- elementwise, reductions, normalization ----

// One FLOP per output element (arithmetic, comparisons, activations alike).
inline FlopCount count_elementwise(const Node& n, const CountContext&) { return counted(per_element(n.output(0), 1)); }
// Two per output element: a fused bias add (BiasGelu, FastGelu with bias), or
// a scale and a shift (QuantizeLinear, DequantizeLinear).
inline FlopCount count_two_per_element(const Node& n, const CountContext&) {
  return counted(per_element(n.output(0), 2));
}
// One FLOP per input element (a comparison or an add into the result).
inline FlopCount count_per_input(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 1)); }
// A square (or abs, or exp) then an add per input element.
inline FlopCount count_reduce_two(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 2)); }

// Mean (1), centre (1), variance (square and add: 2), normalize (1) per
// element, plus one per affine input given (scale, bias) and, for the Skip
// variants, the residual add and its optional bias.
inline FlopCount count_layer_norm(const Node& n, const CountContext&) {
  const bool simplified = n.op_type.find("Simplified") != std::string::npos || n.op_type == "RMSNormalization";
  const bool skip = n.op_type.rfind("Skip", 0) == 0;
  int64_t k = simplified ? 3 : 5;  // RMS: no mean, no centring
  if (skip) {
    // com.microsoft Skip*: input, skip, gamma, [beta,] [bias]; the Simplified one has no beta.
    k += 2;  // residual add, gamma
    k += simplified ? 0 : n.input(3) != nullptr;
    k += n.input(simplified ? 3 : 4) != nullptr;
  } else {
    k += (n.input(1) != nullptr) + (n.input(2) != nullptr);
  }
  return counted(per_element(n.input(0), k));
}
// Statistics computed (5) plus scale and bias (2) per element.
inline FlopCount count_instance_norm(const Node& n, const CountContext&) { return counted(per_element(n.input(0), 7)); }

// ---- matrix products and convolutions ----

// 2 x numel(Y) x K, K the contracted dim of A (input a_index).
enum class AOrder { AsIs, Transposed };
inline FlopCount count_matmul_k(const Node& n, std::size_t a_index, AOrder a_order) {
  const Value* a = n.input(a_index);
  const Shape* s = shape_of(a);
  if (s && s->rank() == 0) return not_counted("MatMul of a scalar is invalid");
  const SymbolicDim k = a_order == AOrder::Transposed && s && s->rank() >= 2 ? dim(a, -2) : dim(a, -1);
  return counted(SymbolicDim(2) * numel(n.output(0)) * k);
}
// MatMul, MatMulInteger, QLinearMatMul, MatMulIntegerToFloat...: A is input 0.
inline FlopCount count_matmul(const Node& n, const CountContext&) { return count_matmul_k(n, 0, AOrder::AsIs); }
// MatMulNBits, MatMulBnb4: K is an attribute (B is packed).
inline FlopCount count_matmul_k_attr(const Node& n, const CountContext&) {
  return counted(SymbolicDim(2) * numel(n.output(0)) * SymbolicDim(n.attr_int("K", 0)));
}

// Inputs of the conv family: where X, W and B are.
struct ConvInputs {
  std::size_t x, w, b;
};
inline ConvInputs conv_inputs(const Node& n) {
  if (n.op_type == "QLinearConv") return {0, 3, 8};
  if (n.op_type == "ConvInteger") return {0, 1, SIZE_MAX};
  return {0, 1, 2};
}
// 2 x numel(Y) x C_in/group x prod(kernel) (W is [M, C/group, k...]), plus
// numel(Y) for the bias; FusedConv adds one per element for its activation
// and one for Z.
inline FlopCount count_conv(const Node& n, const CountContext&) {
  const ConvInputs in = conv_inputs(n);
  SymbolicDim flops = SymbolicDim(2) * numel(n.output(0)) * dims_from(n.input(in.w), 1);
  if (n.input(in.b)) flops = flops + numel(n.output(0));
  if (n.op_type == "FusedConv") {
    if (!n.attr_string("activation").empty()) flops = flops + numel(n.output(0));
    if (n.input(3)) flops = flops + numel(n.output(0));
  }
  return counted(flops);
}

// ---- attention ----

// The core of every attention op: scores Q K^T (2 x B x N x S x T x Dk =
// 2 x numel(Q) x T), softmax over B x N x S rows of T (5 per score), context
// scores x V (2 x numel(Y) x T). `rows` is B x N x S; T counts past keys too.
inline SymbolicDim attention_core(const SymbolicDim& q_elems, const SymbolicDim& y_elems, const SymbolicDim& rows,
                                  const SymbolicDim& t) {
  const SymbolicDim two(2);
  return two * q_elems * t + SymbolicDim(5) * rows * t + two * y_elems * t;
}

// The number of keys: the present key's sequence dim when it is an output
// (past included), else the key input's.
inline SymbolicDim attention_keys(const Node& n, std::size_t present_out, const SymbolicDim& from_key) {
  return n.output(present_out) ? dim(n.output(present_out), 2) : from_key;
}

// x * cos + rotate(x) * sin: 3 per element.
inline FlopCount count_rotary(const Node& n, const CountContext&) { return counted(per_element(n.output(0), 3)); }

// ---- data movement ----

// Ops that only move, select or reinterpret data: no arithmetic.
inline FlopCount count_none(const Node&, const CountContext&) { return no_arithmetic(); }

}  // namespace symshape::ops
