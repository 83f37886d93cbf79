// numpy.matmul shapes, shared by MatMul, MatMulInteger, QLinearMatMul and
// the com.microsoft matmul variants (those with a quantized weight too), and
// Gemm's, shared by ai.onnx Gemm and com.microsoft FusedGemm.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"

namespace symshape::ops {

// Two contracted dims must agree: an error when both are integers that
// differ (false), a contract when they may differ.
inline bool check_inner_dims(Context& ctx, const Node& n, const SymbolicDim& ka, const SymbolicDim& kb, const Shape& a,
                             const Shape& b) {
  if (ka.is_int() && kb.is_int() && ka != kb) {
    ctx.record_error(n, {"incompatible inner dimensions: ", a, " x ", b, " (", ka, " vs ", kb, ")"});
    return false;
  }
  ctx.record_contract(&n, Contract::Kind::Equal, ka, kb, "inner dims");
  return true;
}

// numpy.matmul shape of a @ b; nullopt after an error.
inline std::optional<Shape> matmul_shape(Context& ctx, const Node& n, const Shape& a, const Shape& b) {
  if (!a.has_rank() || !b.has_rank()) return Shape();
  if (a.rank() == 0 || b.rank() == 0) {
    ctx.record_error(n, {"MatMul inputs must have rank >= 1, got ", a, " and ", b});
    return std::nullopt;
  }
  std::vector<SymbolicDim> da = a.dims(), db = b.dims();
  const bool a_vec = da.size() == 1, b_vec = db.size() == 1;
  if (a_vec) da.insert(da.begin(), SymbolicDim(1));
  if (b_vec) db.push_back(SymbolicDim(1));
  if (!check_inner_dims(ctx, n, da.back(), db[db.size() - 2], a, b)) return std::nullopt;
  const Shape batch_a(std::vector<SymbolicDim>(da.begin(), da.end() - 2));
  const Shape batch_b(std::vector<SymbolicDim>(db.begin(), db.end() - 2));
  auto batch = broadcast_shapes(ctx, n, batch_a, batch_b);
  if (!batch) return std::nullopt;
  std::vector<SymbolicDim> out;
  out.reserve(batch->size() + 2);  // (a copy of the batch dims has no room for the two below)
  for (const SymbolicDim& d : batch->dims()) out.push_back(d);
  if (!a_vec) out.push_back(da[da.size() - 2]);
  if (!b_vec) out.push_back(db.back());
  return Shape(std::move(out));
}

// A [..., k] times a weight of k rows and `cols` columns whose sizes are given
// apart from its packed data (MatMulNBits, MatMulBnb4 and their fusions;
// onnxruntime's MatmulWithQuantWeightShapeInference): [..., cols]; unknown
// rank when A's is; nullopt after the error when A is a scalar or its last dim
// is an integer other than k (`k_name` names k in the message).
inline std::optional<Shape> matmul_with_weight(Context& ctx, const Node& n, const Shape* a, const SymbolicDim& k,
                                               const SymbolicDim& cols, const char* k_name = "K") {
  if (!a || !a->has_rank()) return Shape();
  if (a->rank() == 0) {
    ctx.record_error(n, "A must have rank >= 1");
    return std::nullopt;
  }
  std::vector<SymbolicDim> d = a->dims();
  if (d.back().is_int() && k.is_int() && d.back() != k) {
    ctx.record_error(n, {"A's last dim ", d.back(), " does not match ", k_name, "=", k});
    return std::nullopt;
  }
  d.back() = cols;
  return Shape(std::move(d));
}

inline void infer_matmul_like(Context& ctx, Node& n, std::size_t ia, std::size_t ib, DataType dtype) {
  const Shape* a = shape_of(n.input(ia));
  const Shape* b = shape_of(n.input(ib));
  auto s = matmul_shape(ctx, n, a ? *a : Shape(), b ? *b : Shape());
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, dtype);
}

// ---- com.microsoft FusedMatMul ----

// Transposes the last two dims (a 1-D input is left alone).
inline Shape transpose_last2(const Shape& s) {
  if (!s.has_rank() || s.rank() < 2) return s;
  std::vector<SymbolicDim> d = s.dims();
  std::swap(d[d.size() - 1], d[d.size() - 2]);
  return Shape(std::move(d));
}
// FusedMatMul with transBatchA/B: [b..., M, K] with the batch dims rotated.
inline Shape trans_batch(const Shape& s, bool trans_batch, bool trans) {
  if (!s.has_rank() || s.rank() < 3) return trans ? transpose_last2(s) : s;
  std::vector<SymbolicDim> d = s.dims();
  if (trans_batch) {
    // [b1, ..., bk, M, K] read as [M, b1, ..., bk, K] permuted: the first dim moves to position k.
    SymbolicDim first = d[0];
    d.erase(d.begin());
    d.insert(d.end() - 1, first);
  }
  Shape r(std::move(d));
  return trans ? transpose_last2(r) : r;
}

// FusedMatMul's output (com.microsoft FusedMatMul, TransposeMatMul and
// FusedMatMulActivation): op(A) @ op(B) with transA/transB/transBatchA/transBatchB.
inline void fused_matmul_shape(Context& ctx, Node& n) {
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  Shape sa = a ? trans_batch(*a, ctx.attr_int(n, "transBatchA", 0) != 0, ctx.attr_int(n, "transA", 0) != 0) : Shape();
  Shape sb = b ? trans_batch(*b, ctx.attr_int(n, "transBatchB", 0) != 0, ctx.attr_int(n, "transB", 0) != 0) : Shape();
  auto s = matmul_shape(ctx, n, sa, sb);
  if (!s) return;
  ctx.set_shape_and_dtype(n.output(0), *s, dtype_of(n.input(0)));
}

// Gemm's output Y [M, N] (ai.onnx Gemm, com.microsoft FusedGemm).
inline void gemm_shape(Context& ctx, Node& n) {
  const DataType dtype = dtype_of(n.input(0));
  const Shape* a = shape_of(n.input(0));
  const Shape* b = shape_of(n.input(1));
  if (a && a->rank() != 2) return ctx.record_error(n, {"A must be 2-D, got ", *a});
  if (b && b->rank() != 2) return ctx.record_error(n, {"B must be 2-D, got ", *b});
  const bool ta = ctx.attr_int(n, "transA", 0) != 0, tb = ctx.attr_int(n, "transB", 0) != 0;
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
    if (c->rank() > 2) return ctx.record_error(n, {"C must have rank <= 2, got ", *c});
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
        return ctx.record_error(n, {"C of shape ", *c, " does not broadcast to [", m, ",", nn, "]"});
    }
  }
  if (!a && !b && !shape_of(n.input(2))) {
    ctx.set_shape_and_dtype(n.output(0), Shape::of_rank(2), dtype);
    return;
  }
  ctx.set_shape_and_dtype(n.output(0), Shape({m, nn}), dtype);
}

}  // namespace symshape::ops
