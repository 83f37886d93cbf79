#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

// ---- MatMul ----
TEST(MatMul, TransformerProjection) {
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {"B", "T", 768}), ts(FLOAT, {768, 3072})}),
            (Types{ts(FLOAT, {"B", "T", 3072})}));
}
TEST(MatMul, AttentionScoresBatchBroadcast) {
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {"B", 12, "T", 64}), ts(FLOAT, {"B", 12, 64, "S"})}, {}, 13),
            (Types{ts(FLOAT, {"B", 12, "T", "S"})}));
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {"B", 1, "T", 64}), ts(FLOAT, {12, 64, 5})}, {}, 9),
            (Types{ts(FLOAT, {"B", 12, "T", 5})}));
}
TEST(MatMul, VectorPromotion) {
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {"K"}), ts(FLOAT, {"K", "N"})}), (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {"B", "M", "K"}), ts(FLOAT, {"K"})}),
            (Types{ts(FLOAT, {"B", "M"})}));
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {4}), ts(FLOAT, {4})}, {}, 1), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT, {4}), ts(FLOAT, {"B", 4, 7})}), (Types{ts(FLOAT, {"B", 7})}));
}
TEST(MatMul, UnknownRankGivesUnknown) {
  EXPECT_EQ(run_shape_inference("", "MatMul", {ts(FLOAT), ts(FLOAT, {4, 5})}), (Types{ts(FLOAT)}));
}
TEST(MatMul, InnerDimMismatchIsError) {
  RunResult r = run_node("", "MatMul", {ts(FLOAT, {"B", 3, 4}), ts(FLOAT, {5, 6})});
  EXPECT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("inner"), std::string::npos);
}
TEST(MatMul, ScalarIsError) {
  EXPECT_EQ(run_node("", "MatMul", {ts(FLOAT, {}), ts(FLOAT, {3})}).report.errors(), 1u);
}
TEST(MatMul, BatchMismatchIsError) {
  EXPECT_EQ(run_node("", "MatMul", {ts(FLOAT, {2, 3, 4}), ts(FLOAT, {5, 4, 6})}).report.errors(), 1u);
}
TEST(MatMul, IntegerAndQLinear) {
  EXPECT_EQ(run_shape_inference("", "MatMulInteger", {ts(UINT8, {"B", "T", 768}), ts(INT8, {768, 64}), ts(UINT8, {}),
                                                      ts(INT8, {})},
                                {}, 10),
            (Types{ts(INT32, {"B", "T", 64})}));
  EXPECT_EQ(run_shape_inference("", "QLinearMatMul",
                                {ts(UINT8, {"M", 16}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 8}), ts(FLOAT, {}),
                                 ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})},
                                {}, 10),
            (Types{ts(INT8, {"M", 8})}));
}
TEST(MatMul, QLinearMissingInputIsUsageError) {
  EXPECT_EQ(run_node("", "QLinearMatMul", {ts(UINT8, {2, 2}), ts(FLOAT, {}), ts(UINT8, {})}, {}, 10).report.errors(), 1u);
}

// ---- Gemm ----
TEST(Gemm, Plain) {
  EXPECT_EQ(run_shape_inference("", "Gemm", {ts(FLOAT, {"N", 512}), ts(FLOAT, {512, 10}), ts(FLOAT, {10})}, {}, 13),
            (Types{ts(FLOAT, {"N", 10})}));
}
TEST(Gemm, TransB) {
  EXPECT_EQ(run_shape_inference("", "Gemm", {ts(FLOAT, {"N", 2048}), ts(FLOAT, {1000, 2048}), ts(FLOAT, {1000})},
                                {attr("transB", 1)}, 11),
            (Types{ts(FLOAT, {"N", 1000})}));
}
TEST(Gemm, TransAWithoutC) {
  EXPECT_EQ(run_shape_inference("", "Gemm", {ts(FLOAT, {64, "M"}), ts(FLOAT, {64, 8})}, {attr("transA", 1)}, 11),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(Gemm, CFillsUnknownDims) {
  EXPECT_EQ(run_shape_inference("", "Gemm", {ts(FLOAT), ts(FLOAT, {4, 8}), ts(FLOAT, {"M", 8})}, {}, 9),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(Gemm, InnerMismatchIsError) {
  EXPECT_EQ(run_node("", "Gemm", {ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}, {}, 13).report.errors(), 1u);
}
TEST(Gemm, NonMatrixIsError) {
  EXPECT_EQ(run_node("", "Gemm", {ts(FLOAT, {2, 3, 4}), ts(FLOAT, {4, 5})}, {}, 13).report.errors(), 1u);
}
TEST(Gemm, CNotBroadcastableIsError) {
  EXPECT_EQ(run_node("", "Gemm", {ts(FLOAT, {2, 3}), ts(FLOAT, {3, 5}), ts(FLOAT, {4})}, {}, 13).report.errors(), 1u);
}

// ---- Einsum ----
TEST(Einsum, BatchedMatMul) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"B", "I", "J"}), ts(FLOAT, {"B", "J", "K"})},
                                {attr("equation", "bij,bjk->bik")}, 12),
            (Types{ts(FLOAT, {"B", "I", "K"})}));
}
TEST(Einsum, SpacesAndTranspose) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {3, "n"})}, {attr("equation", " ij -> ji ")}, 12),
            (Types{ts(FLOAT, {"n", 3})}));
}
TEST(Einsum, ImplicitOutputIsSortedSingleLabels) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"A", "B"}), ts(FLOAT, {"B", "C"})}, {attr("equation", "ij,jk")},
                                12),
            (Types{ts(FLOAT, {"A", "C"})}));
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {5, 7})}, {attr("equation", "ba")}, 12),
            (Types{ts(FLOAT, {7, 5})}));
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {5, 5})}, {attr("equation", "ii")}, 12), (Types{ts(FLOAT, {})}));
}
TEST(Einsum, EllipsisBroadcasts) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"B", 1, "I", "J"}), ts(FLOAT, {12, "J", "K"})},
                                {attr("equation", "...ij,...jk->...ik")}, 12),
            (Types{ts(FLOAT, {"B", 12, "I", "K"})}));
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"B", "H", "I", "J"})}, {attr("equation", "...ij")}, 12),
            (Types{ts(FLOAT, {"B", "H", "I", "J"})}));
}
TEST(Einsum, ReductionAndOuterProduct) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"N", 4})}, {attr("equation", "ij->i")}, 12),
            (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"M"}), ts(FLOAT, {"N"})}, {attr("equation", "i,j->ij")}, 12),
            (Types{ts(FLOAT, {"M", "N"})}));
}
TEST(Einsum, IntegerWinsForSharedLabel) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT, {"B", "K"}), ts(FLOAT, {64, "N"})}, {attr("equation", "ik,kn->in")},
                                12),
            (Types{ts(FLOAT, {"B", "N"})}));
}
TEST(Einsum, RankMismatchIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3, 4})}, {attr("equation", "ij->i")}, 12).report.errors(), 1u);
}
TEST(Einsum, LabelDimConflictIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}, {attr("equation", "ij,jk->ik")}, 12)
                .report.errors(),
            1u);
}
TEST(Einsum, OperandCountMismatchIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3})}, {attr("equation", "ij,jk->ik")}, 12).report.errors(), 1u);
}
TEST(Einsum, UnknownOutputLabelIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3})}, {attr("equation", "ij->iz")}, 12).report.errors(), 1u);
}
TEST(Einsum, RepeatedOutputLabelIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 2})}, {attr("equation", "ij->ii")}, 12).report.errors(), 1u);
}
TEST(Einsum, BadCharacterIsError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3})}, {attr("equation", "i1->i")}, 12).report.errors(), 1u);
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3})}, {attr("equation", "..ij")}, 12).report.errors(), 1u);
}
TEST(Einsum, MissingEquationIsUsageError) {
  EXPECT_EQ(run_node("", "Einsum", {ts(FLOAT, {2, 3})}, {}, 12).report.errors(), 1u);
}
TEST(Einsum, UnknownRankWithEllipsisGivesUnknownRank) {
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT), ts(FLOAT, {3, 4})}, {attr("equation", "...ij,jk->...ik")}, 12),
            (Types{ts(FLOAT)}));
  EXPECT_EQ(run_shape_inference("", "Einsum", {ts(FLOAT), ts(FLOAT, {3, 4})}, {attr("equation", "ij,jk->ik")}, 12),
            (Types{ts(FLOAT, {"_d0", 4})}));
}
