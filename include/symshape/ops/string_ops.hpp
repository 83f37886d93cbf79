// Text ops: StringNormalizer (10), RegexFullMatch, StringConcat and
// StringSplit (20), and TfIdfVectorizer (9, n-gram counts of token ids or
// strings).
#pragma once

#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"

namespace symshape::ops {

namespace string_detail {
inline bool check_string_input(Context& ctx, const Node& n, std::size_t i) {
  const DataType t = dtype_of(n.input(i));
  if (t != DataType::UNDEFINED && t != DataType::STRING) {
    ctx.record_error(n, {"input ", i, " must be a string tensor, got ", to_string(t)});
    return false;
  }
  return true;
}
}  // namespace string_detail

// StringNormalizer: X is [C] or [1, C]; stop words may remove elements, so C
// becomes unknown unless no stop words are given.
inline void infer_string_normalizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  if (!string_detail::check_string_input(ctx, n, 0)) return;
  const std::string action = ctx.attr_string(n, "case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    return ctx.record_error(n, {"case_change_action must be NONE, LOWER or UPPER, got '", action, "'"});
  const Shape* x = shape_of(n.input(0));
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::STRING);
    return;
  }
  if (x->rank() != 1 && !(x->rank() == 2 && !((*x)[0].is_int() && !(*x)[0].is_int(1))))
    return ctx.record_error(n, {"X must be [C] or [1, C], got shape ", *x});
  const Attribute* stop = n.attr("stopwords");
  const bool removes = stop && !stop->strings.empty();
  std::vector<SymbolicDim> out = x->dims();
  if (removes) out.back() = SymbolicDim();
  if (out.size() == 2) out[0] = 1;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), DataType::STRING);
}
SYMSHAPE_RULES(infer_string_normalizer, ai_onnx("StringNormalizer", 10));

// RegexFullMatch: BOOL of X's shape.
inline void infer_regex_full_match(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  if (!string_detail::check_string_input(ctx, n, 0)) return;
  const Shape* x = shape_of(n.input(0));
  ctx.set_shape_and_dtype(n.output(0), x ? *x : Shape(), DataType::BOOL);
}
SYMSHAPE_RULES(infer_regex_full_match, ai_onnx("RegexFullMatch", 20));

// StringConcat: numpy broadcasting of X and Y, STRING.
inline void infer_string_concat(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  if (!string_detail::check_string_input(ctx, n, 0) || !string_detail::check_string_input(ctx, n, 1)) return;
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  auto s = broadcast_shapes(ctx, n, a ? *a : Shape(), b ? *b : Shape());
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, DataType::STRING);
}
SYMSHAPE_RULES(infer_string_concat, ai_onnx("StringConcat", 20));

// StringSplit: Y (STRING) is X's shape plus one dim for the substrings (the
// largest count, padded: unknown); Z (INT64) has X's shape and counts them.
inline void infer_string_split(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  if (!string_detail::check_string_input(ctx, n, 0)) return;
  if (const Attribute* m = n.attr("maxsplit"); m && (m->kind != Attribute::Kind::Int || m->i < 1))
    return ctx.record_error(n, "maxsplit must be a positive integer");
  const Shape* x = shape_of(n.input(0));
  if (x) {
    std::vector<SymbolicDim> y = x->dims();
    y.emplace_back();
    ctx.set_shape_and_dtype(n.output(0), Shape(std::move(y)), DataType::STRING);
  } else {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::STRING);
  }
  ctx.set_shape_and_dtype(n.output(1), x ? *x : Shape(), DataType::INT64);
}
SYMSHAPE_RULES(infer_string_split, ai_onnx("StringSplit", 20));

// TfIdfVectorizer: [C] -> [E], [N, C] -> [N, E], E = max(ngram_indexes)+1; FLOAT.
inline void infer_tfidf_vectorizer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Attribute* idx = require_attr(ctx, n, "ngram_indexes", Attribute::Kind::Ints);
  if (!idx) return;
  int64_t max_index = -1;
  for (int64_t i : idx->ints) {
    if (i < 0) return ctx.record_error(n, {"ngram_indexes has a negative entry ", i});
    max_index = std::max(max_index, i);
  }
  if (max_index < 0) return ctx.record_error(n, "ngram_indexes is empty");
  const SymbolicDim e(max_index + 1);
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), DataType::FLOAT);
    return;
  }
  if (s->rank() == 1) {
    ctx.set_shape_and_dtype(n.output(0), Shape({e}), DataType::FLOAT);
  } else if (s->rank() == 2) {
    ctx.set_shape_and_dtype(n.output(0), Shape({(*s)[0], e}), DataType::FLOAT);
  } else {
    ctx.record_error(n, {"input must be [C] or [N, C], got shape ", *s});
  }
}
SYMSHAPE_RULES(infer_tfidf_vectorizer, ai_onnx("TfIdfVectorizer", 9));

inline constexpr auto kStringOpsRules =
    family_rules<infer_string_normalizer_rules, infer_regex_full_match_rules, infer_string_concat_rules,
                 infer_string_split_rules, infer_tfidf_vectorizer_rules>("symshape/ops/string_ops.hpp");

}  // namespace symshape::ops
