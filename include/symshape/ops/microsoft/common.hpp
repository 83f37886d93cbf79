// Helpers shared by the com.microsoft rules (onnxruntime's contrib ops):
// optional inputs checked against the schema, required attributes, ranks,
// KV-cache shapes and embedding hidden sizes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// At least the first `min_count` inputs (check_inputs' message), at most
// `max_count`, and each input listed in `required` present (the others are
// optional in the onnxruntime schema); false after a usage error.
inline bool check_present(Context& ctx, const Node& n, std::initializer_list<std::size_t> required,
                          std::size_t max_count, std::size_t min_count = 0) {
  if (!check_inputs(ctx, n, min_count, max_count)) return false;
  for (std::size_t i : required) {
    if (!n.input(i)) {
      ctx.usage_error(n, {"missing required input ", i});
      return false;
    }
  }
  return true;
}

// The required integer attribute `name`, or nullopt after a usage error.
inline std::optional<int64_t> required_int(Context& ctx, const Node& n, const char* name) {
  const Attribute* a = require_attr(ctx, n, name);
  if (!a) return std::nullopt;
  if (a->kind != Attribute::Kind::Int) {
    ctx.usage_error(n, {"attribute '", name, "' must be an integer"});
    return std::nullopt;
  }
  return a->i;
}

inline bool power_of_two_at_least_16(int64_t v) { return v >= 16 && (v & (v - 1)) == 0; }

// The required positive integer attribute `name` (a weight's K or N), or
// nullopt after the error.
inline std::optional<int64_t> required_positive_int(Context& ctx, const Node& n, const char* name) {
  const auto v = required_int(ctx, n, name);
  if (v && *v < 1) {
    ctx.record_error(n, {name, " must be positive, got ", *v});
    return std::nullopt;
  }
  return v;
}

// The required attribute block_size of the N-bit weight matmuls: a power of
// 2, at least 16; nullopt after the error.
inline std::optional<int64_t> required_block_size(Context& ctx, const Node& n) {
  const auto block = required_int(ctx, n, "block_size");
  if (block && !power_of_two_at_least_16(*block)) {
    ctx.record_error(n, {"block_size must be a power of 2 and at least 16, got ", *block});
    return std::nullopt;
  }
  return block;
}

// The required positive head-count attribute `name`; nullopt after an error.
inline std::optional<int64_t> num_heads(Context& ctx, const Node& n, const char* name = "num_heads") {
  const Attribute* a = require_attr(ctx, n, name);
  if (!a) return std::nullopt;
  if (a->kind != Attribute::Kind::Int || a->i < 1) {
    ctx.record_error(n, {name, " must be a positive integer"});
    return std::nullopt;
  }
  return a->i;
}

// A scalar or 1-element input's value (constant or propagated), else unknown.
inline SymbolicDim scalar_value(const Context& ctx, const Node& n, std::size_t i) {
  auto v = ctx.symbolic_value(n.input(i));
  return v && v->size() == 1 ? (*v)[0] : SymbolicDim();
}

// A known rank in [lo, hi]; false after an error. An unknown shape passes.
inline bool require_rank(Context& ctx, const Node& n, const Shape* s, std::size_t lo, std::size_t hi,
                         const char* what) {
  if (s && (s->size() < lo || s->size() > hi)) {
    ctx.record_error(n, {what, " has unexpected rank: ", *s});
    return false;
  }
  return true;
}

// `s` with dim `axis` grown by `by`: a KV cache's present from its past.
inline Shape grow_dim(const Shape& s, std::size_t axis, const SymbolicDim& by) {
  std::vector<SymbolicDim> d = s.dims();
  d[axis] = d[axis] + by;
  return Shape(std::move(d));
}

// Attention / QAttention present [2, B, H, P+S, D] from past [2, B, H, P, D]
// and input [B, S, hidden]; [2, B, H, S, hidden/H] without a past
// (AttentionTypeAndShapeInference).
inline Shape attention_present(const Shape* x, const Shape* past, int64_t heads, const SymbolicDim& hidden) {
  const SymbolicDim s = dim_at(x, 1);
  if (past) return grow_dim(*past, 3, s);
  return Shape({2, dim_at(x, 0), heads, s, hidden.is_known() ? hidden / SymbolicDim(heads) : SymbolicDim()});
}

// An embedding's hidden size `h` against word_embedding's `hidden`; false
// after an error when both are integers and differ.
inline bool same_hidden(Context& ctx, const Node& n, const SymbolicDim& hidden, const SymbolicDim& h,
                        const char* what) {
  if (h.is_int() && hidden.is_int() && h.value() != hidden.value()) {
    ctx.record_error(n, {what, " hidden size ", h, " differs from word_embedding's ", hidden});
    return false;
  }
  return true;
}

}  // namespace symshape::ops
