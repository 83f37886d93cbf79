// Sequence ops: a sequence's type is the type that covers all its elements
// (equal dims stay, different dims unknown, different ranks unknown rank).
// The number of elements, when the ops that built the sequence fix it, is
// propagated as the sequence value's symbolic value (one dim: the length):
// SequenceEmpty gives 0, SequenceConstruct the number of inputs,
// SequenceInsert/SequenceErase add/remove one. An empty sequence has no
// element whose type must be covered, so the first SequenceInsert gives the
// inserted type; SequenceLength's value and ConcatFromSequence's concatenated
// axis follow from a known length.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/subgraphs.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace sequence_detail {

// The element type of a sequence input; nullptr (after a semantic error
// when the input is known not to be a sequence) otherwise.
inline const Type* sequence_element(Context& ctx, const Node& n, std::size_t i) {
  const Value* v = n.input(i);
  if (!v || v->type.is_unknown()) return nullptr;
  if (v->type.kind() != Type::Kind::Sequence || !v->type.inner()) {
    ctx.record_error(n, {"input ", i, " must be a sequence, got ", v->type});
    return nullptr;
  }
  return v->type.inner();
}

}  // namespace sequence_detail

// SequenceConstruct(inputs...): a sequence of tensors of one element type.
inline void infer_sequence_construct(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  for (std::size_t i = 1; i < n.inputs.size(); ++i)
    if (!n.inputs[i]) return ctx.usage_error(n, {"input ", i, " is missing"});
  Type elem = n.inputs[0]->type;
  for (std::size_t i = 1; i < n.inputs.size(); ++i) {
    const Type& t = n.inputs[i]->type;
    if (dtypes_conflict(elem, t))
      return ctx.record_error(
          n, {"input ", i, " is ", t, " but input 0 is ", n.inputs[0]->type, "; a sequence has one element type"});
    elem = union_type(elem, t);
  }
  ctx.set_type(n.output(0), Type::sequence(elem));
  set_sequence_length(ctx, n.output(0), static_cast<int64_t>(n.inputs.size()));
}
SYMSHAPE_RULES(infer_sequence_construct, ai_onnx("SequenceConstruct", 11).cost(count_none));

// SequenceEmpty: dtype attribute, default float.
inline void infer_sequence_empty(Context& ctx, Node& n) {
  const int64_t code = ctx.attr_int(n, "dtype", static_cast<int64_t>(DataType::FLOAT));
  const Maybe<DataType> dtype = element_type_from_code(code);
  if (!dtype) return ctx.usage_error(n, {"dtype ", code, " is not a valid tensor element type"});
  ctx.set_type(n.output(0), Type::sequence(Type::tensor(*dtype, Shape())));
  set_sequence_length(ctx, n.output(0), 0);
}
SYMSHAPE_RULES(infer_sequence_empty, ai_onnx("SequenceEmpty", 11).cost(count_none));

// SequenceAt(seq, position): an element. Elements whose bounds the sequence
// keeps (SplitToSequence of a ConstantOfShape or an Expand of a constant)
// keep them; when every element is one integer and the element's shape is
// small and static, that is its value (torch's repeat_interleave reads its
// repeat count so).
inline void infer_sequence_at(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  const Type* e = sequence_detail::sequence_element(ctx, n, 0);
  if (!e) return;
  ctx.set_type(n.output(0), *e);
  const Context::ElementBounds* b = ctx.element_bounds(n.input(0));
  if (!b) return;
  ctx.set_element_bounds(n.output(0), b->lo, b->hi);
  if (!(b->lo == b->hi) || !b->lo.is_int() || !e->is_tensor_like() || !e->shape().has_rank()) return;
  int64_t elements = 1;
  for (const SymbolicDim& d : e->shape().dims())
    if (!d.is_int() || d.value() < 0 || !checked::mul(elements, d.value(), elements)) return;
  if (elements <= static_cast<int64_t>(Context::kMaxSymbolicValueSize))
    ctx.set_symbolic_value(n.output(0), Dims(static_cast<std::size_t>(elements), b->lo));
}
SYMSHAPE_RULES(infer_sequence_at, ai_onnx("SequenceAt", 11).cost(count_none));

// SequenceLength(seq): an int64 scalar.
inline void infer_sequence_length(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  sequence_detail::sequence_element(ctx, n, 0);
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), DataType::INT64);
  if (auto len = sequence_length(ctx, n.input(0))) ctx.set_symbolic_value(n.output(0), {*len});
}
SYMSHAPE_RULES(infer_sequence_length, ai_onnx("SequenceLength", 11).cost(count_none));

// SequenceInsert(seq, tensor, position?): the sequence type covers the new element.
inline void infer_sequence_insert(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const Type* e = sequence_detail::sequence_element(ctx, n, 0);
  if (!e) return;
  const Type& t = n.inputs[1]->type;
  if (dtypes_conflict(*e, t)) return ctx.record_error(n, {"cannot insert ", t, " into a sequence of ", *e});
  const auto len = sequence_length(ctx, n.input(0));
  const bool empty = len && len->is_int(0);
  ctx.set_type(n.output(0), Type::sequence(empty ? t : union_type(*e, t)));
  if (len) set_sequence_length(ctx, n.output(0), *len + 1);
}
SYMSHAPE_RULES(infer_sequence_insert, ai_onnx("SequenceInsert", 11).cost(count_none));

// SequenceErase(seq, position?): same type.
inline void infer_sequence_erase(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 2)) return;
  if (!sequence_detail::sequence_element(ctx, n, 0)) return;
  propagate_type(ctx, n);
  const auto len = sequence_length(ctx, n.input(0));
  if (len && len->is_int(0)) return ctx.record_error(n, "cannot erase from an empty sequence");
  if (len) set_sequence_length(ctx, n.output(0), *len - 1);
}
SYMSHAPE_RULES(infer_sequence_erase, ai_onnx("SequenceErase", 11).cost(count_none));

namespace sequence_detail {

// The pieces of a SplitToSequence: their common length along the axis and
// their number, each unknown when the split's values do not give it.
struct SplitPieces {
  SymbolicDim chunk;
  SymbolicDim count;
};

// The pieces that the `split` input (input 1) cuts an axis of length `len`
// into; nullopt after a semantic error (a bad split).
inline Maybe<SplitPieces> split_pieces(Context& ctx, const Node& n, const SymbolicDim& len) {
  const Value* split = n.input(1);
  const Shape* ss = shape_of(split);
  if (ss && ss->size() > 1) {
    ctx.record_error(n, {"split must be a scalar or 1-D, got rank ", ss->size()});
    return std::nullopt;
  }
  SplitPieces pieces;
  const auto v = ctx.int_values(split);
  if (!v) {
    // Too long to list, every piece of one known size c (a ConstantOfShape of
    // ones, torch's split into single rows): chunk c, one piece per element.
    const auto b = value_bounds(ctx, split);
    if (b && b->lo == b->hi && b->lo.is_int() && b->lo.value() > 0 && ss && ss->size() == 1) {
      pieces.chunk = b->lo;
      pieces.count = (*ss)[0];
    }
    return pieces;
  }
  // Zero-length pieces are allowed (ONNX's own test splits an empty axis
  // with [0, 0, 0]); negative ones and a zero chunk size are not.
  for (int64_t p : *v)
    if (p < 0) {
      ctx.record_error(n, {"split values must be non-negative, got ", p});
      return std::nullopt;
    }
  // A single value of unknown rank is read as a scalar: as a 1-D split it
  // would have to equal the axis length, which divides it too.
  const bool scalar = v->size() == 1 && (!ss || ss->size() == 0);
  if (scalar && (*v)[0] == 0) {
    ctx.record_error(n, "a scalar split (chunk length) must be positive, got 0");
    return std::nullopt;
  }
  if (scalar) {
    const SymbolicDim c = (*v)[0];
    // Equal chunks of that size; the last one is smaller unless it divides.
    const SymbolicDim rem = len % c;
    if (len.is_known() && rem.is_int(0)) pieces.chunk = c;
  } else if (!v->empty()) {
    int64_t total = 0;
    bool overflow = false;
    for (int64_t p : *v) overflow = overflow || !checked::add(total, p, total);
    if (len.is_int() && !overflow && total != len.value()) {
      ctx.record_error(n, {"split sums to ", total, " but the axis has length ", len});
      return std::nullopt;
    }
    bool same = true;
    for (int64_t p : *v) same = same && p == (*v)[0];
    if (same) pieces.chunk = (*v)[0];
    pieces.count = static_cast<int64_t>(v->size());
  }
  return pieces;
}

}  // namespace sequence_detail

// SplitToSequence(input, split?; axis, keepdims).
inline void infer_split_to_sequence(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 2)) return;
  const Value* x = n.input(0);
  const DataType dt = dtype_of(x);
  const Shape* s = shape_of(x);
  if (!s) {
    ctx.set_type(n.output(0), Type::sequence(Type::tensor(dt, Shape())));
    return;
  }
  const auto axis = normalize_axis(ctx, n, ctx.attr_int(n, "axis", 0), static_cast<int64_t>(s->size()));
  if (!axis) return;
  const auto a = static_cast<std::size_t>(*axis);
  std::vector<SymbolicDim> dims = s->dims();
  const SymbolicDim len = dims[a];  // a copy: dims changes below
  if (!n.input(1)) {
    // Chunks of size 1; keepdims=0 drops the axis.
    if (ctx.attr_int(n, "keepdims", 1) == 0) {
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(a));
    } else {
      dims[a] = 1;
    }
    ctx.set_type(n.output(0), Type::sequence(Type::tensor(dt, Shape(std::move(dims)))));
    set_sequence_length(ctx, n.output(0), len);
    return;
  }
  const auto pieces = sequence_detail::split_pieces(ctx, n, len);
  if (!pieces) return;
  dims[a] = pieces->chunk;
  ctx.set_type(n.output(0), Type::sequence(Type::tensor(dt, Shape(std::move(dims)))));
  set_sequence_length(ctx, n.output(0), pieces->count);
  if (is_integer_type(dt))  // the pieces hold the same elements
    if (auto b = value_bounds(ctx, x)) ctx.set_element_bounds(n.output(0), b->lo, b->hi);
}
SYMSHAPE_RULES(infer_split_to_sequence, ai_onnx("SplitToSequence", 11, 24).cost(count_none));

// ConcatFromSequence(seq; axis, new_axis): the concatenated axis is the
// number of elements (new_axis) or its product with the elements' common dim
// there; unknown when either is.
inline void infer_concat_from_sequence(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* axis_attr = require_attr(ctx, n, "axis", Attribute::Kind::Int);
  if (!axis_attr) return;
  const Type* e = sequence_detail::sequence_element(ctx, n, 0);
  if (!e) return;
  const bool new_axis = ctx.attr_int(n, "new_axis", 0) != 0;
  if (!e->is_tensor_like() || !e->shape().has_rank()) {
    ctx.set_type(n.output(0), Type::tensor(e->is_tensor_like() ? e->elem_type() : DataType::UNDEFINED, Shape()));
    return;
  }
  std::vector<SymbolicDim> dims = e->shape().dims();
  const auto rank = static_cast<int64_t>(dims.size()) + (new_axis ? 1 : 0);
  const auto axis = normalize_axis(ctx, n, axis_attr->i, rank);
  if (!axis) return;
  const auto a = static_cast<std::ptrdiff_t>(*axis);
  const auto len = sequence_length(ctx, n.input(0));
  if (new_axis) {
    dims.insert(dims.begin() + a, len ? *len : SymbolicDim());
  } else {
    SymbolicDim& d = dims[static_cast<std::size_t>(a)];
    d = len && d.is_known() ? *len * d : SymbolicDim();
  }
  ctx.set_type(n.output(0), Type::tensor(e->elem_type(), Shape(std::move(dims))));
}
SYMSHAPE_RULES(infer_concat_from_sequence, ai_onnx("ConcatFromSequence", 11).cost(count_none));

// SequenceMap(seq, additional...; body): the body runs on one element of each
// sequence input (tensor inputs as they are); outputs are sequences.
inline void infer_sequence_map(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  Graph* body = graph_attribute(ctx, n, "body");
  if (!body) return;
  if (body->inputs.size() != n.inputs.size() || body->outputs.size() != n.outputs.size())
    return ctx.usage_error(n, {"body has ", body->inputs.size(), " inputs and ", body->outputs.size(),
                               " outputs; the node has ", n.inputs.size(), " and ", n.outputs.size()});
  const Value* first = n.input(0);
  if (!first->type.is_unknown() && first->type.kind() != Type::Kind::Sequence)
    return ctx.record_error(n, {"input 0 must be a sequence, got ", first->type});
  std::vector<Type> in;
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    if (!n.inputs[i]) return ctx.usage_error(n, {"input ", i, " is missing"});
    const Type& t = n.inputs[i]->type;
    in.push_back(t.kind() == Type::Kind::Sequence && t.inner() ? *t.inner() : t);
  }
  std::vector<Type> out = ctx.infer_subgraph(*body, in);
  for (std::size_t i = 0; i < out.size() && i < n.outputs.size(); ++i)
    if (!out[i].is_unknown()) ctx.set_type(n.output(i), Type::sequence(out[i]));
}
SYMSHAPE_RULES(infer_sequence_map, ai_onnx("SequenceMap", 17));

inline constexpr auto kSequenceRules =
    family_rules<infer_sequence_construct_rules, infer_sequence_empty_rules, infer_sequence_at_rules,
                 infer_sequence_length_rules, infer_sequence_insert_rules, infer_sequence_erase_rules,
                 infer_split_to_sequence_rules, infer_concat_from_sequence_rules, infer_sequence_map_rules>(
        "symshape/ops/sequence.hpp");

}  // namespace symshape::ops
