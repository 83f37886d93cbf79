// numpy.matmul shapes, shared by MatMul, MatMulInteger, QLinearMatMul and
// the com.microsoft matmul variants (those with a quantized weight too).
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
  std::vector<SymbolicDim> out = batch->dims();
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

}  // namespace symshape::ops
