// Matrix products: MatMul (numpy semantics: 1-D promotion, batch
// broadcasting), MatMulInteger (INT32), QLinearMatMul (output type of
// y_zero_point), Gemm (transA/transB, C unidirectionally broadcast to
// [M, N]), Einsum (explicit and implicit output, ellipsis broadcasting) and
// Det (batched determinants).
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/costs.hpp"
#include "symshape/ops/common/matmul_shape.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

inline void infer_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  infer_matmul_like(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_matmul, ai_onnx("MatMul", 1, 9, 13).cost(count_matmul));

// MatMulInteger: A, B, optional zero points; INT32 output.
inline void infer_matmul_integer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  infer_matmul_like(ctx, n, 0, 1, DataType::INT32);
}
SYMSHAPE_RULES(infer_matmul_integer, ai_onnx("MatMulInteger", 10).cost(count_matmul));

// QLinearMatMul: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
inline void infer_qlinear_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 8, 8)) return;
  infer_matmul_like(ctx, n, 0, 3, dtype_of(n.input(7)));
}
SYMSHAPE_RULES(infer_qlinear_matmul, ai_onnx("QLinearMatMul", 10, 21).cost(count_matmul));

// Gemm: Y[M, N] = alpha * A' B' + beta * C.
inline void infer_gemm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  gemm_shape(ctx, n);
}
// 2 x M x N x K, plus M x N for the added C when given (alpha, beta not counted).
inline FlopCount count_gemm(const Node& n, const CountContext&) {
  const SymbolicDim k = n.attr_int("transA", 0) ? dim(n.input(0), 0) : dim(n.input(0), 1);
  SymbolicDim flops = SymbolicDim(2) * numel(n.output(0)) * k;
  if (n.input(2)) flops = flops + numel(n.output(0));
  return counted(flops);
}
SYMSHAPE_RULES(infer_gemm, ai_onnx("Gemm", 1, 6, 7, 9, 11, 13).cost(count_gemm));

// ---- Einsum ----

namespace einsum_detail {

struct EinsumTerm {
  std::vector<char> labels;  // letters; '.' marks the ellipsis position
  bool has_ellipsis = false;
};

// Parses one term ("bij", "...ij") of equation `eq`; nullopt after an error
// (a bad character or a second ellipsis).
inline Maybe<EinsumTerm> parse_einsum_term(Context& ctx, const Node& n, const std::string& eq,
                                           const std::string& text) {
  auto bad = [&](const std::string& why) {
    ctx.record_error(n, {"bad equation '", eq, "': ", why});
    return std::nullopt;
  };
  EinsumTerm term;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') continue;
    if (c == '.') {
      if (term.has_ellipsis || text.compare(i, 3, "...") != 0)
        return bad(term.has_ellipsis ? "more than one ellipsis in a term" : "'.' that is not part of '...'");
      term.has_ellipsis = true;
      term.labels.push_back('.');
      i += 2;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
      return bad(std::string("invalid character '") + c + "' in equation");
    term.labels.push_back(c);
  }
  return term;
}

// The comma-separated terms of the operands, one per input; nullopt after an
// error.
inline Maybe<std::vector<EinsumTerm>> parse_einsum_inputs(Context& ctx, const Node& n, const std::string& eq,
                                                          const std::string& lhs) {
  std::vector<EinsumTerm> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    auto t = parse_einsum_term(ctx, n, eq,
                               lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!t) return std::nullopt;
    terms.push_back(std::move(*t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != n.inputs.size()) {
    ctx.record_error(
        n, {"equation '", eq, "' has ", terms.size(), " operands but the node has ", n.inputs.size(), " inputs"});
    return std::nullopt;
  }
  return terms;
}

// What the operands say about each label and about the ellipsis. Labels are
// ASCII letters (parse_einsum_term checks), so the facts about each are
// arrays indexed by its character code: capitals first, the order numpy's
// einsum gives the labels of an implicit output (and lighter to compile than
// a std::map per fact).
struct EinsumLabels {
  static constexpr std::size_t kCodes = 128;
  std::array<SymbolicDim, kCodes> dims;                // an integer wins over a symbol, a non-1 over a 1
  std::array<int, kCodes> count{};                     // occurrences in the operands' terms
  Shape ellipsis = Shape(std::vector<SymbolicDim>{});  // the ellipsis dims, broadcast
  bool ranks_known = true;                             // every operand with an ellipsis has a known rank
  bool any_ellipsis = false;

  // Binds label c to dim d (an unbound label's dim is unknown); false after
  // an error (two integers, neither 1).
  bool bind(Context& ctx, const Node& n, char c, const SymbolicDim& d) {
    SymbolicDim& cur = dims[static_cast<unsigned char>(c)];
    if (cur.is_int() && d.is_int() && cur != d && !cur.is_int(1) && !d.is_int(1)) {
      ctx.record_error(n, {"label '", c, "' has dims ", cur, " and ", d});
      return false;
    }
    if (cur.is_unknown() || cur.is_int(1) || (!cur.is_int() && d.is_int() && !d.is_int(1))) cur = d;
    return true;
  }

  // Binds the dims of operand t, of shape s, to its term; false after an error.
  bool add_operand(Context& ctx, const Node& n, std::size_t t, const EinsumTerm& term, const Shape& s) {
    const std::size_t nlabels = term.labels.size() - (term.has_ellipsis ? 1 : 0);
    if (term.has_ellipsis ? s.size() < nlabels : s.size() != nlabels) {
      ctx.record_error(n, {"operand ", t, " of shape ", s, " does not match term ",
                           std::string(term.labels.begin(), term.labels.end())});
      return false;
    }
    const std::size_t ell_rank = s.size() - nlabels;
    std::size_t dim = 0;
    for (char c : term.labels) {
      if (c != '.') {
        if (!bind(ctx, n, c, s[dim++])) return false;
        continue;
      }
      const auto first = s.dims().begin() + static_cast<std::ptrdiff_t>(dim);
      auto b = broadcast_shapes(ctx, n, ellipsis,
                                Shape(std::vector<SymbolicDim>(first, first + static_cast<std::ptrdiff_t>(ell_rank))));
      if (!b) return false;
      ellipsis = *b;
      dim += ell_rank;
    }
    return true;
  }
};

// The labels' dims over all operands; nullopt after an error.
inline Maybe<EinsumLabels> collect_labels(Context& ctx, const Node& n, const std::vector<EinsumTerm>& terms) {
  EinsumLabels labels;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto& term = terms[t];
    for (char c : term.labels)
      if (c != '.') ++labels.count[static_cast<unsigned char>(c)];
    labels.any_ellipsis = labels.any_ellipsis || term.has_ellipsis;
    if (!n.input(t)) {
      ctx.usage_error(n, {"input ", t, " is missing"});
      return std::nullopt;
    }
    const Shape* s = shape_of(n.input(t));
    if (!s) {
      labels.ranks_known = labels.ranks_known && !term.has_ellipsis;
      continue;
    }
    if (!labels.add_operand(ctx, n, t, term, *s)) return std::nullopt;
  }
  return labels;
}

// The output's labels ('.' for the ellipsis): the explicit output term,
// checked against the inputs, or in implicit mode the ellipsis first, then
// the labels appearing once, in alphabetical order. nullopt after an error.
inline Maybe<std::vector<char>> output_labels(Context& ctx, const Node& n, const Maybe<EinsumTerm>& out_term,
                                              const EinsumLabels& labels) {
  std::vector<char> out;
  if (!out_term) {
    if (labels.any_ellipsis) out.push_back('.');
    for (std::size_t c = 0; c < EinsumLabels::kCodes; ++c)
      if (labels.count[c] == 1) out.push_back(static_cast<char>(c));
    return out;
  }
  for (char c : out_term->labels) {
    if (c != '.' && labels.count[static_cast<unsigned char>(c)] == 0) {
      ctx.record_error(n, {"output label '", c, "' does not appear in the inputs"});
      return std::nullopt;
    }
    if (std::find(out.begin(), out.end(), c) != out.end()) {
      ctx.record_error(n, {"output label '", c, "' appears more than once"});
      return std::nullopt;
    }
    out.push_back(c);
  }
  return out;
}

// The output shape; unknown when it has an ellipsis whose rank is unknown.
inline Shape einsum_output_shape(const std::vector<char>& out_labels, const EinsumLabels& labels) {
  const bool out_has_ellipsis = std::find(out_labels.begin(), out_labels.end(), '.') != out_labels.end();
  if (out_has_ellipsis && !labels.ranks_known) return Shape();
  std::vector<SymbolicDim> out;
  for (char c : out_labels) {
    if (c == '.') {
      for (const auto& d : labels.ellipsis.dims()) out.push_back(d);
      continue;
    }
    out.push_back(labels.dims[static_cast<unsigned char>(c)]);
  }
  return Shape(std::move(out));
}

}  // namespace einsum_detail

inline void infer_einsum(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* eq_attr = require_attr(ctx, n, "equation", Attribute::Kind::String);
  if (!eq_attr) return;
  const std::string eq = eq_attr->s;
  // "inputs->output", or only the comma-separated inputs (implicit output).
  const std::size_t arrow = eq.find("->");
  auto terms = einsum_detail::parse_einsum_inputs(ctx, n, eq, eq.substr(0, arrow));
  if (!terms) return;
  Maybe<einsum_detail::EinsumTerm> out_term;
  if (arrow != std::string::npos) {
    out_term = einsum_detail::parse_einsum_term(ctx, n, eq, eq.substr(arrow + 2));
    if (!out_term) return;
  }
  auto labels = einsum_detail::collect_labels(ctx, n, *terms);
  if (!labels) return;
  auto out_labels = einsum_detail::output_labels(ctx, n, out_term, *labels);
  if (!out_labels) return;
  ctx.set_shape_and_dtype(n.output(0), einsum_detail::einsum_output_shape(*out_labels, *labels), dtype_of(n.input(0)));
}
// ---- the FLOP count of Einsum ----

namespace einsum_count {

// The letters of one Einsum term and the dims they name; "..." stands for
// the dims left over, named by their position from the right.
struct EinsumTerm {
  std::vector<std::string> labels;  // "a", or "...0" (last ellipsis dim), "...1", ...
};

inline std::optional<EinsumTerm> einsum_term(const std::string& text, int64_t rank) {
  EinsumTerm t;
  const std::size_t e = text.find("...");
  const std::string before = e == std::string::npos ? text : text.substr(0, e);
  const std::string after = e == std::string::npos ? std::string() : text.substr(e + 3);
  const int64_t letters = static_cast<int64_t>(before.size() + after.size());
  if (e == std::string::npos ? letters != rank : letters > rank) return std::nullopt;
  for (char c : before) t.labels.push_back(std::string(1, c));
  for (int64_t i = rank - letters - 1; e != std::string::npos && i >= 0; --i)
    t.labels.push_back("..." + std::to_string(i));
  for (char c : after) t.labels.push_back(std::string(1, c));
  return t;
}

// Splits "ij,jk->ik" (spaces dropped) into its input terms and output.
inline void einsum_split(std::string eq, std::vector<std::string>& inputs, std::optional<std::string>& output) {
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const std::size_t arrow = eq.find("->");
  if (arrow != std::string::npos) output = eq.substr(arrow + 2);
  const std::string lhs = eq.substr(0, arrow);
  std::size_t start = 0;
  for (std::size_t comma = lhs.find(',');; comma = lhs.find(',', start)) {
    inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

}  // namespace einsum_count

// The full index space P (every distinct label once; a broadcast label takes
// its dim that is not 1): (n-1) multiplies per point for n operands, plus one
// add per point when a label is summed.
inline FlopCount count_einsum(const Node& n, const CountContext&) {
  std::vector<std::string> terms;
  std::optional<std::string> output;
  einsum_count::einsum_split(n.attr_string("equation"), terms, output);
  if (terms.size() != n.inputs.size()) return not_counted("not counted: equation does not match the inputs");
  std::map<std::string, SymbolicDim> size;
  std::map<std::string, int> uses;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Shape* s = shape_of(n.input(i));
    if (!s) return counted(SymbolicDim());
    const auto t = einsum_count::einsum_term(terms[i], s->rank());
    if (!t) return not_counted("not counted: equation does not match the input ranks");
    for (std::size_t j = 0; j < t->labels.size(); ++j) {
      ++uses[t->labels[j]];
      auto it = size.find(t->labels[j]);
      if (it == size.end() || it->second.is_int(1)) size[t->labels[j]] = (*s)[j];
    }
  }
  bool summed = false;
  for (const auto& [label, count] : uses) {
    const bool ellipsis = label.size() > 1;
    const bool kept =
        output ? ellipsis ? output->find("...") != std::string::npos : output->find(label) != std::string::npos
               : ellipsis || count == 1;
    summed = summed || !kept;
  }
  std::vector<SymbolicDim> dims;
  for (const auto& [label, d] : size) dims.push_back(d);
  const auto per_point = static_cast<int64_t>(terms.size()) - 1 + (summed ? 1 : 0);
  if (per_point == 0) return no_arithmetic();
  return counted(SymbolicDim(per_point) * product(dims));
}
SYMSHAPE_RULES(infer_einsum, ai_onnx("Einsum", 12).cost(count_einsum));

// Det: [*, M, M] -> [*].
inline void infer_det(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
    return;
  }
  const int64_t r = s->rank();
  if (r < 2) return ctx.record_error(n, {"input must have rank >= 2, got shape ", *s});
  const SymbolicDim& a = (*s)[r - 2];
  const SymbolicDim& b = (*s)[r - 1];
  if (a.is_int() && b.is_int() && a != b)
    return ctx.record_error(n, {"the last two dims must be equal (square matrices), got ", *s});
  ctx.set_shape_and_dtype(n.output(0), Shape(std::vector<SymbolicDim>(s->dims().begin(), s->dims().end() - 2)),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_det, ai_onnx("Det", 11, 22));

inline constexpr auto kMatMulRules =
    family_rules<infer_matmul_rules, infer_matmul_integer_rules, infer_qlinear_matmul_rules, infer_gemm_rules,
                 infer_einsum_rules, infer_det_rules>("symshape/ops/matmul.hpp");

}  // namespace symshape::ops
