// Matrix products: MatMul (numpy semantics: 1-D promotion, batch
// broadcasting), MatMulInteger (INT32), QLinearMatMul (output type of
// y_zero_point), Gemm (transA/transB, C unidirectionally broadcast to
// [M, N]), Einsum (explicit and implicit output, ellipsis broadcasting) and
// Det (batched determinants).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/matmul_shape.hpp"

namespace symshape::ops {

inline void infer_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 2)) return;
  infer_matmul_like(ctx, n, 0, 1, dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_matmul, ai_onnx("MatMul", 1, 9, 13));

// MatMulInteger: A, B, optional zero points; INT32 output.
inline void infer_matmul_integer(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  infer_matmul_like(ctx, n, 0, 1, DataType::INT32);
}
SYMSHAPE_RULES(infer_matmul_integer, ai_onnx("MatMulInteger", 10));

// QLinearMatMul: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
inline void infer_qlinear_matmul(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 8, 8)) return;
  infer_matmul_like(ctx, n, 0, 3, dtype_of(n.input(7)));
}
SYMSHAPE_RULES(infer_qlinear_matmul, ai_onnx("QLinearMatMul", 10, 21));

// Gemm: Y[M, N] = alpha * A' B' + beta * C.
inline void infer_gemm(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 3)) return;
  const DataType dtype = dtype_of(n.input(0));
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  if (a && a->rank() != 2) return ctx.record_error(n, "A must be 2-D, got " + a->to_string());
  if (b && b->rank() != 2) return ctx.record_error(n, "B must be 2-D, got " + b->to_string());
  const bool ta = n.attr_int("transA", 0) != 0, tb = n.attr_int("transB", 0) != 0;
  SymbolicDim m, k_a, k_b, nn;
  if (a) {
    m = (*a)[ta ? 1 : 0];
    k_a = (*a)[ta ? 0 : 1];
  }
  if (b) {
    k_b = (*b)[tb ? 1 : 0];
    nn = (*b)[tb ? 0 : 1];
  }
  if (a && b && !check_inner_dims(ctx, n, k_a, k_b, *a, *b)) return;
  // C broadcasts (unidirectionally) to [M, N]: it can fill in unknown dims.
  if (const Shape* c = shape_of(n.input(2))) {
    if (c->rank() > 2) return ctx.record_error(n, "C must have rank <= 2, got " + c->to_string());
    const SymbolicDim* cdims[2] = {nullptr, nullptr};
    if (c->rank() == 2) cdims[0] = &(*c)[0];
    if (c->rank() >= 1) cdims[1] = &(*c)[c->size() - 1];
    SymbolicDim* targets[2] = {&m, &nn};
    for (int i = 0; i < 2; ++i) {
      if (!cdims[i] || cdims[i]->is_int(1) || cdims[i]->is_unknown()) continue;
      SymbolicDim& t = *targets[i];
      if (t.is_unknown()) {
        t = *cdims[i];
      } else if (t.is_int() && cdims[i]->is_int() && t != *cdims[i])
        return ctx.record_error(n, "C of shape " + c->to_string() + " does not broadcast to [" + m.to_string() + "," +
                                       nn.to_string() + "]");
    }
  }
  if (!a && !b && !shape_of(n.input(2))) {
    ctx.set_shape_and_dtype(n.output(0), Shape::of_rank(2), dtype);
    return;
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({m, nn}), dtype);
}
SYMSHAPE_RULES(infer_gemm, ai_onnx("Gemm", 1, 6, 7, 9, 11, 13));

// ---- Einsum ----

namespace einsum_detail {

struct EinsumTerm {
  std::vector<char> labels;  // letters; '.' marks the ellipsis position
  bool has_ellipsis = false;
};

// Parses one term ("bij", "...ij"); false on a bad character or a second ellipsis.
inline bool parse_einsum_term(const std::string& text, EinsumTerm& term, std::string& error) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') continue;
    if (c == '.') {
      if (term.has_ellipsis || text.compare(i, 3, "...") != 0) {
        error = term.has_ellipsis ? "more than one ellipsis in a term" : "'.' that is not part of '...'";
        return false;
      }
      term.has_ellipsis = true;
      term.labels.push_back('.');
      i += 2;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      error = std::string("invalid character '") + c + "' in equation";
      return false;
    }
    term.labels.push_back(c);
  }
  return true;
}

}  // namespace einsum_detail

inline void infer_einsum(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1)) return;
  const Attribute* eq_attr = require_attr(ctx, n, "equation");
  if (!eq_attr) return;
  const std::string eq = eq_attr->s;
  const DataType dtype = dtype_of(n.input(0));
  // Split "lhs->rhs" and the comma-separated inputs.
  const std::size_t arrow = eq.find("->");
  const std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  const bool explicit_out = arrow != std::string::npos;
  std::vector<einsum_detail::EinsumTerm> terms;
  std::string err;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    einsum_detail::EinsumTerm t;
    if (!einsum_detail::parse_einsum_term(
            lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start), t, err)) {
      return ctx.record_error(n, "bad equation '" + eq + "': " + err);
    }
    terms.push_back(std::move(t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != n.inputs.size())
    return ctx.record_error(n, "equation '" + eq + "' has " + std::to_string(terms.size()) +
                                   " operands but the node has " + std::to_string(n.inputs.size()) + " inputs");
  einsum_detail::EinsumTerm out_term;
  if (explicit_out && !einsum_detail::parse_einsum_term(eq.substr(arrow + 2), out_term, err))
    return ctx.record_error(n, "bad equation '" + eq + "': " + err);
  // Label dims (an integer wins over a symbol, a non-1 over a 1) and the broadcast ellipsis dims.
  std::map<char, SymbolicDim> label_dim;
  std::map<char, int> label_count;
  Shape ellipsis = Shape(std::vector<SymbolicDim>{});
  bool ranks_known = true, any_ellipsis = false;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto& term = terms[t];
    for (char c : term.labels)
      if (c != '.') ++label_count[c];
    any_ellipsis = any_ellipsis || term.has_ellipsis;
    const Shape* s = shape_of(n.input(t));
    if (!n.input(t)) return ctx.usage_error(n, "input " + std::to_string(t) + " is missing");
    if (!s) {
      ranks_known = ranks_known && !term.has_ellipsis;
      continue;
    }
    const std::size_t nlabels = term.labels.size() - (term.has_ellipsis ? 1 : 0);
    if (term.has_ellipsis ? s->size() < nlabels : s->size() != nlabels)
      return ctx.record_error(n, "operand " + std::to_string(t) + " of shape " + s->to_string() +
                                     " does not match term " + std::string(term.labels.begin(), term.labels.end()));
    const std::size_t ell_rank = s->size() - nlabels;
    std::size_t dim = 0;
    for (char c : term.labels) {
      if (c == '.') {
        auto b = broadcast_shapes(ctx, n, ellipsis,
                                  Shape(std::vector<SymbolicDim>(s->dims().begin() + static_cast<std::ptrdiff_t>(dim),
                                                                 s->dims().begin() + static_cast<std::ptrdiff_t>(dim + ell_rank))));
        if (!b) return;
        ellipsis = *b;
        dim += ell_rank;
        continue;
      }
      const SymbolicDim& d = (*s)[dim++];
      auto it = label_dim.find(c);
      if (it == label_dim.end()) {
        label_dim[c] = d;
        continue;
      }
      SymbolicDim& cur = it->second;
      if (cur.is_int() && d.is_int() && cur != d && !cur.is_int(1) && !d.is_int(1))
        return ctx.record_error(n,
                                std::string("label '") + c + "' has dims " + cur.to_string() + " and " + d.to_string());
      if (cur.is_unknown() || cur.is_int(1) || (!cur.is_int() && d.is_int() && !d.is_int(1))) cur = d;
    }
  }
  std::vector<char> out_labels;
  if (explicit_out) {
    for (char c : out_term.labels) {
      if (c != '.' && label_count.find(c) == label_count.end())
        return ctx.record_error(n, std::string("output label '") + c + "' does not appear in the inputs");
      if (std::find(out_labels.begin(), out_labels.end(), c) != out_labels.end())
        return ctx.record_error(n, std::string("output label '") + c + "' appears more than once");
      out_labels.push_back(c);
    }
  } else {
    // Implicit mode: the ellipsis first, then labels appearing once, in alphabetical order.
    if (any_ellipsis) out_labels.push_back('.');
    for (const auto& [c, count] : label_count)
      if (count == 1) out_labels.push_back(c);
  }
  const bool out_has_ellipsis =
      std::find(out_labels.begin(), out_labels.end(), '.') != out_labels.end();
  if (out_has_ellipsis && !ranks_known) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype);
    return;
  }
  std::vector<SymbolicDim> out;
  for (char c : out_labels) {
    if (c == '.') {
      for (const auto& d : ellipsis.dims()) out.push_back(d);
      continue;
    }
    auto it = label_dim.find(c);
    out.push_back(it == label_dim.end() ? SymbolicDim() : it->second);
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype);
}
SYMSHAPE_RULES(infer_einsum, ai_onnx("Einsum", 12));

// Det: [*, M, M] -> [*].
inline void infer_det(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
    return;
  }
  const int64_t r = s->rank();
  if (r < 2) return ctx.record_error(n, "input must have rank >= 2, got shape " + s->to_string());
  const SymbolicDim& a = (*s)[r - 2];
  const SymbolicDim& b = (*s)[r - 1];
  if (a.is_int() && b.is_int() && a != b)
    return ctx.record_error(n, "the last two dims must be equal (square matrices), got " + s->to_string());
  ctx.set_shape_and_dtype(n.output(0), Shape(std::vector<SymbolicDim>(s->dims().begin(), s->dims().end() - 2)),
                          dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_det, ai_onnx("Det", 11, 22));

inline constexpr auto kMatMulRules =
    family_rules<infer_matmul_rules, infer_matmul_integer_rules, infer_qlinear_matmul_rules, infer_gemm_rules,
                 infer_einsum_rules, infer_det_rules>("symshape/ops/matmul.hpp");

}  // namespace symshape::ops
