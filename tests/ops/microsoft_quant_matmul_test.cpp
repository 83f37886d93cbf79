#include "op_test_util.hpp"

namespace {
std::vector<Attribute> bnb4_attrs(int64_t k, int64_t n, int64_t block, int64_t quant_type) {
  return {attr("K", k), attr("N", n), attr("block_size", block), attr("quant_type", quant_type)};
}
}  // namespace

// contrib_defs.cc MatMulBnb4: B holds (N*K+1)/2 bytes, absmax ceil(N*K/block_size) values; transB (default 1)
// contracts A's last dim with K, transB 0 with N.
TEST(MicrosoftQuantMatMul, MatMulBnb4) {
  const std::vector<In> in = {ts(FLOAT, {"B", "S", 64}), ts(UINT8, {1024}), ts(FLOAT, {128})};
  EXPECT_EQ(Op(kMs, "MatMulBnb4").infer(in, bnb4_attrs(64, 32, 16, 1)), (Types{ts(FLOAT, {"B", "S", 32})}));
  std::vector<Attribute> no_trans = bnb4_attrs(64, 32, 16, 0);
  no_trans.push_back(attr("transB", 0));
  EXPECT_EQ(Op(kMs, "MatMulBnb4").infer({ts(FLOAT16, {"M", 32}), ts(UINT8, {1024}), ts(FLOAT16, {"A"})}, no_trans),
            (Types{ts(FLOAT16, {"M", 64})}));
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run({ts(FLOAT, {"M", 64}), ts(UINT8, {1024}), ts(FLOAT, {128})}, no_trans).report,
               "A's last dim 64 does not match N=32");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4")
                   .run({ts(FLOAT, {"M", 63}), ts(UINT8, {1024}), ts(FLOAT, {128})}, bnb4_attrs(64, 32, 16, 1))
                   .report,
               "A's last dim 63 does not match K=64");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run(in, bnb4_attrs(64, 32, 16, 2)).report,
               "quant_type must be 0 (FP4) or 1 (NF4), got 2");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run(in, bnb4_attrs(64, 32, 24, 1)).report,
               "block_size must be a power of 2 and at least 16, got 24");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run(in, bnb4_attrs(64, 31, 16, 1)).report, "B must have 992 elements, got [1024]");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run(in, bnb4_attrs(64, 32, 32, 1)).report,
               "absmax must have 64 elements, got [128]");
  EXPECT_ERROR(Op(kMs, "MatMulBnb4").run(in, bnb4_attrs(0, 32, 16, 1)).report, "K must be positive, got 0");
}
// An odd N*K rounds B's byte count up and a partial last block counts in absmax.
TEST(MicrosoftQuantMatMul, MatMulBnb4OddSizes) {
  EXPECT_EQ(Op(kMs, "MatMulBnb4").infer({ts(FLOAT, {"M", 5}), ts(UINT8, {8}), ts(FLOAT, {1})}, bnb4_attrs(5, 3, 16, 0)),
            (Types{ts(FLOAT, {"M", 3})}));
  // N*K overflows int64: the lengths cannot be checked, the output shape still follows.
  EXPECT_EQ(Op(kMs, "MatMulBnb4")
                .infer({ts(FLOAT, {"M", int64_t{1} << 40}), ts(UINT8, {"L"}), ts(FLOAT, {"A"})},
                       bnb4_attrs(int64_t{1} << 40, int64_t{1} << 40, 16, 0)),
            (Types{ts(FLOAT, {"M", int64_t{1} << 40})}));
}
// contrib_defs.cc MatMulFpQ4: the output is numpy.matmul of A with a [K, N] matrix, [K, N] from the B_shape input.
TEST(MicrosoftQuantMatMul, MatMulFpQ4) {
  EXPECT_EQ(Op(kMs, "MatMulFpQ4").infer({ts(FLOAT, {"B", "M", 64}), ts(UINT8, {"L"}), vec({64, 32})}),
            (Types{ts(FLOAT, {"B", "M", 32})}));
  EXPECT_EQ(Op(kMs, "MatMulFpQ4").infer({ts(FLOAT, {64}), ts(UINT8, {"L"}), vec({64, 32})}), (Types{ts(FLOAT, {32})}));
  EXPECT_EQ(Op(kMs, "MatMulFpQ4").infer({ts(FLOAT, {"M", 64}), ts(UINT8, {"L"}), ts(INT64, {2})}),
            (Types{ts(FLOAT, {"M", "_d0"})}));
  EXPECT_ERROR(Op(kMs, "MatMulFpQ4").run({ts(FLOAT, {"M", 64}), ts(UINT8, {"L"}), vec({64, 32, 1})}).report,
               "B_shape must hold 2 values [K, N], got 3");
  EXPECT_ERROR(Op(kMs, "MatMulFpQ4").run({ts(FLOAT, {"M", 63}), ts(UINT8, {"L"}), vec({64, 32})}).report,
               "incompatible inner dimensions");
  EXPECT_ERROR(Op(kMs, "MatMulFpQ4").run({ts(FLOAT, {"M", 64}), ts(UINT8, {"L"}), vec({64, 0})}).report,
               "B_shape must be positive, got [64, 0]");
}
namespace {
std::vector<Attribute> mlp_attrs(int64_t k, int64_t n) {
  return {attr("K", k), attr("N", n), attr("block_size", 32), attr("activation", "silu")};
}
}  // namespace
// ContribOperators.md MatMulNBitsMlp: Y = activation(A @ gate) * (A @ up), [..., N]; input_skip_bias_sum has A's shape.
TEST(MicrosoftQuantMatMul, MatMulNBitsMlp) {
  const Type weight = ts(UINT8, {128, 2, 16});
  const Type scales = ts(FLOAT16, {256});
  EXPECT_EQ(Op(kMs, "MatMulNBitsMlp")
                .infer({ts(FLOAT16, {"B", "S", 64}), omitted(), omitted(), weight, scales, omitted(), weight, scales},
                       mlp_attrs(64, 128)),
            (Types{ts(FLOAT16, {"B", "S", 128})}));
  EXPECT_EQ(Op(kMs, "MatMulNBitsMlp")
                .outputs(2)
                .infer({ts(FLOAT16, {"B", "S", 64}), ts(FLOAT16, {"B", "S", 64}), ts(FLOAT16, {64}), weight, scales,
                        ts(FLOAT16, {128}), weight, scales, ts(FLOAT16, {128})},
                       mlp_attrs(64, 128)),
            (Types{ts(FLOAT16, {"B", "S", 128}), ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_ERROR(
      Op(kMs, "MatMulNBitsMlp")
          .run({ts(FLOAT16, {"B", 64}), omitted(), ts(FLOAT16, {32}), weight, scales, omitted(), weight, scales},
               mlp_attrs(64, 128))
          .report,
      "norm_scale must have 64 elements, got [32]");
  EXPECT_ERROR(Op(kMs, "MatMulNBitsMlp")
                   .run({ts(FLOAT16, {"B", 64}), omitted(), omitted(), weight, scales, omitted(), weight, scales},
                        {attr("K", 64), attr("N", 128), attr("block_size", 32)})
                   .report,
               "missing required attribute 'activation'");
  EXPECT_ERROR(Op(kMs, "MatMulNBitsMlp")
                   .run({ts(FLOAT16, {"B", 64}), omitted(), omitted(), weight, scales, omitted(), omitted(), scales},
                        mlp_attrs(64, 128))
                   .report,
               "missing required input 6");
}
// ContribOperators.md MatMulNBitsQkv: Q [..., Nq], K and V [..., Nkv] from one normalized A [..., K].
TEST(MicrosoftQuantMatMul, MatMulNBitsQkv) {
  const Type w = ts(UINT8, {"N", 2, 16});
  const Type s = ts(FLOAT, {"NB"});
  const std::vector<In> in = {
      ts(FLOAT, {"B", "S", 64}), omitted(), ts(FLOAT, {64}), w, s, omitted(), w, s, omitted(), w, s};
  EXPECT_EQ(Op(kMs, "MatMulNBitsQkv")
                .outputs(3)
                .infer(in, {attr("K", 64), attr("Nq", 64), attr("Nkv", 16), attr("block_size", 32)}),
            (Types{ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 16}), ts(FLOAT, {"B", "S", 16})}));
  EXPECT_ERROR(
      Op(kMs, "MatMulNBitsQkv").outputs(3).run(in, {attr("K", 64), attr("Nq", 64), attr("block_size", 32)}).report,
      "missing required attribute 'Nkv'");
  EXPECT_ERROR(Op(kMs, "MatMulNBitsQkv")
                   .outputs(3)
                   .run(in, {attr("K", 48), attr("Nq", 64), attr("Nkv", 16), attr("block_size", 32)})
                   .report,
               "norm_scale must have 48 elements, got [64]");
}
// ContribOperators.md MatMulBlockQuantizedFp4Weight: N = B.shape[0], K = 2 * B.shape[1], weight_scale
// [N, ceil(K / block_size)] with block_size 16 by default.
TEST(MicrosoftQuantMatMul, MatMulBlockQuantizedFp4Weight) {
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                .infer({ts(FLOAT16, {"M", 64}), ts(UINT8, {32, 32}), ts(UINT8, {32, 4}), ts(FLOAT, {})}),
            (Types{ts(FLOAT16, {"M", 32})}));
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                .infer({ts(FLOAT16, {"B", "S", "2*H"}), ts(UINT8, {"N", "H"}), ts(UINT8, {"N", "G"}), ts(FLOAT, {})}),
            (Types{ts(FLOAT16, {"B", "S", "N"})}));
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                   .run({ts(FLOAT16, {"M", 64}), ts(UINT8, {32, 32}), ts(UINT8, {32, 3}), ts(FLOAT, {})})
                   .report,
               "weight_scale [32,3] must be [N, ceil(K / block_size)] = [32, 4]");
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                   .run({ts(FLOAT16, {"M", 32}), ts(UINT8, {32, 32}), ts(UINT8, {32, 4}), ts(FLOAT, {})})
                   .report,
               "A's last dim 32 does not match K=64");
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                   .run({ts(FLOAT16, {"M", 64}), ts(UINT8, {32, 32}), ts(UINT8, {32, 4})})
                   .report,
               "missing required input 3");
}
// ContribOperators.md MatMulBlockQuantizedFp8Weight: B [N, K], b_scale [N, ceil(K / block_size)], block_size 128 by
// default.
TEST(MicrosoftQuantMatMul, MatMulBlockQuantizedFp8Weight) {
  const Type b = ts(DataType::FLOAT8E4M3FN, {64, 200});
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp8Weight").infer({ts(FLOAT16, {"B", "S", 200}), b, ts(FLOAT, {64, 2})}),
            (Types{ts(FLOAT16, {"B", "S", 64})}));
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp8Weight")
                .infer({ts(FLOAT16, {"B", 200}), b, ts(FLOAT, {64, 4}), ts(FLOAT, {}), ts(FLOAT16, {64})},
                       {attr("block_size", 64)}),
            (Types{ts(FLOAT16, {"B", 64})}));
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp8Weight")
                   .run({ts(FLOAT16, {"B", 200}), b, ts(FLOAT, {64, 2})}, {attr("block_size", 0)})
                   .report,
               "block_size must be positive, got 0");
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp8Weight")
                   .run({ts(FLOAT16, {"B", 200}), ts(DataType::FLOAT8E4M3FN, {64}), ts(FLOAT, {64, 2})})
                   .report,
               "B has unexpected rank: [64]");
}
