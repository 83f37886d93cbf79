// Helpers shared by the control-flow and sequence rules: body graphs, the
// type that covers two branches or iterations, and sequence lengths (the
// sequence ops propagate a sequence's length as its value's symbolic value).
#pragma once

#include <optional>
#include <string>

#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// The most specific shape that covers both: equal dims stay, others unknown.
inline Shape union_shape(const Shape& a, const Shape& b) {
  if (!a.has_rank() || !b.has_rank() || a.size() != b.size()) return Shape();
  std::vector<SymbolicDim> dims(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] == b[i]) dims[i] = a[i];
  return Shape(std::move(dims));
}

// The most specific type that covers both a value of type a and one of type b.
inline Type union_type(const Type& a, const Type& b) {
  if (a.is_unknown() || b.is_unknown() || a.kind() != b.kind()) return Type();
  switch (a.kind()) {
    case Type::Kind::Tensor:
    case Type::Kind::SparseTensor: {
      DataType dt = a.elem_type() == b.elem_type()         ? a.elem_type()
                    : a.elem_type() == DataType::UNDEFINED ? b.elem_type()
                    : b.elem_type() == DataType::UNDEFINED ? a.elem_type()
                                                           : DataType::UNDEFINED;
      Shape s = union_shape(a.shape(), b.shape());
      return a.kind() == Type::Kind::Tensor ? Type::tensor(dt, std::move(s)) : Type::sparse_tensor(dt, std::move(s));
    }
    case Type::Kind::Sequence:
      return Type::sequence(a.inner() && b.inner() ? union_type(*a.inner(), *b.inner()) : Type());
    case Type::Kind::Optional:
      return Type::optional(a.inner() && b.inner() ? union_type(*a.inner(), *b.inner()) : Type());
    case Type::Kind::Map:
      if (a.elem_type() != b.elem_type()) return Type();
      return Type::map(a.elem_type(), a.inner() && b.inner() ? union_type(*a.inner(), *b.inner()) : Type());
    case Type::Kind::Unknown:
      break;
  }
  return Type();
}

// The number of elements of a sequence value, when known: the sequence ops
// (sequence.hpp) propagate it as the value's symbolic value, one dim.
inline std::optional<SymbolicDim> sequence_length(const Context& ctx, const Value* v) {
  if (!v || v->type.kind() != Type::Kind::Sequence) return std::nullopt;
  auto s = ctx.symbolic_value(v);
  if (!s || s->size() != 1 || !(*s)[0].is_known()) return std::nullopt;
  return (*s)[0];
}

inline void set_sequence_length(Context& ctx, Value* v, const SymbolicDim& len) {
  if (len.is_known()) ctx.set_symbolic_value(v, {len});
}

// Two defined element types that differ (tensor types only).
inline bool dtypes_conflict(const Type& a, const Type& b) {
  return a.is_tensor_like() && b.is_tensor_like() && a.elem_type() != DataType::UNDEFINED &&
         b.elem_type() != DataType::UNDEFINED && a.elem_type() != b.elem_type();
}

// The graph of a required graph attribute, or nullptr after a usage error.
inline Graph* graph_attribute(Context& ctx, const Node& n, const char* name) {
  const Attribute* a = require_attr(ctx, n, name);
  if (!a) return nullptr;
  if (a->kind != Attribute::Kind::Graph || a->graphs.empty() || !a->graphs[0]) {
    ctx.usage_error(n, {"attribute '", name, "' must be a graph"});
    return nullptr;
  }
  return a->graphs[0].get();
}

}  // namespace symshape::ops
