#include "op_test_util.hpp"

// ContribOperators.md MatMulBlockQuantizedFp4Weight: N = B.shape[0], K = 2 * B.shape[1]; output [..., N].
TEST(MicrosoftWeightMatMul, Fp4Weight) {
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                .infer({ts(FLOAT16, {"B", "S", 256}), ts(UINT8, {512, 128}), ts(UINT8, {512, 16}), ts(FLOAT, {})}),
            (Types{ts(FLOAT16, {"B", "S", 512})}));
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp4Weight")
                   .run({ts(FLOAT16, {"B", "S", 200}), ts(UINT8, {512, 128}), ts(UINT8, {512, 16}), ts(FLOAT, {})})
                   .report,
               "A's last dim 200 does not match K=256");
}
TEST(MicrosoftWeightMatMul, Fp8Weight) {
  EXPECT_EQ(Op(kMs, "MatMulBlockQuantizedFp8Weight")
                .infer({ts(FLOAT16, {"M", 256}), ts(FLOAT16, {1024, 256}), ts(FLOAT, {1024, 2})}),
            (Types{ts(FLOAT16, {"M", 1024})}));
  EXPECT_ERROR(Op(kMs, "MatMulBlockQuantizedFp8Weight").run({ts(FLOAT16, {"M", 256}), ts(FLOAT16, {1024})}).report,
               "missing required input 2");
}
TEST(MicrosoftWeightMatMul, NBitsMlp) {
  const std::vector<Attribute> a{attr("K", 64), attr("N", 128), attr("block_size", 32), attr("activation", "silu")};
  const std::vector<In> in{ts(FLOAT, {"B", "S", 64}), omitted(), ts(FLOAT, {64}),         ts(UINT8, {128, 2, 16}),
                           ts(FLOAT, {128, 2}),       omitted(), ts(UINT8, {128, 2, 16}), ts(FLOAT, {128, 2})};
  EXPECT_EQ(Op(kMs, "MatMulNBitsMlp").outputs(2).infer(in, a),
            (Types{ts(FLOAT, {"B", "S", 128}), ts(FLOAT, {"B", "S", 64})}));
  EXPECT_ERROR(Op(kMs, "MatMulNBitsMlp").run(in, {attr("K", 64), attr("N", 128), attr("block_size", 32)}).report,
               "missing required attribute 'activation'");
}
TEST(MicrosoftWeightMatMul, NBitsQkv) {
  const std::vector<Attribute> a{attr("K", 64), attr("Nq", 64), attr("Nkv", 16), attr("block_size", 32)};
  const Type w = ts(UINT8, {"N", 2, 16}), sc = ts(FLOAT, {"N", 2});
  const std::vector<In> in{
      ts(FLOAT, {"B", "S", 64}), omitted(), ts(FLOAT, {64}), w, sc, omitted(), w, sc, omitted(), w, sc};
  EXPECT_EQ(Op(kMs, "MatMulNBitsQkv").outputs(3).infer(in, a),
            (Types{ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {"B", "S", 16}), ts(FLOAT, {"B", "S", 16})}));
  EXPECT_ERROR(Op(kMs, "MatMulNBitsQkv")
                   .outputs(3)
                   .run(in, {attr("K", 64), attr("Nq", 64), attr("Nkv", 16), attr("block_size", 24)})
                   .report,
               "block_size a power of 2");
}
TEST(MicrosoftWeightMatMul, SparseToDenseMatMul) {
  EXPECT_EQ(Op(kMs, "SparseToDenseMatMul").infer({Type::sparse_tensor(FLOAT, Shape({"M", "K"})), ts(FLOAT, {"K", 8})}),
            (Types{ts(FLOAT, {"M", 8})}));
  EXPECT_EQ(Op(kMs, "SparseToDenseMatMul")
                .infer({Type::sparse_tensor(INT64, Shape({"K", "M"})), ts(INT64, {8, "K"})},
                       {attr("transA", 1), attr("transB", 1)}),
            (Types{ts(INT64, {"M", 8})}));
  EXPECT_ERROR(
      Op(kMs, "SparseToDenseMatMul").run({Type::sparse_tensor(FLOAT, Shape({4, 3})), ts(FLOAT, {5, 8})}).report,
      "incompatible inner dimensions");
}
