#include "op_test_util.hpp"

// ---- MatMul ----
TEST(MatMul, TransformerProjection) {
  EXPECT_EQ(Op("MatMul").infer({ts(FLOAT, {"B", "T", 768}), ts(FLOAT, {768, 3072})}),
            (Types{ts(FLOAT, {"B", "T", 3072})}));
}
TEST(MatMul, AttentionScoresBatchBroadcast) {
  EXPECT_EQ(Op("MatMul").opset(13).infer({ts(FLOAT, {"B", 12, "T", 64}), ts(FLOAT, {"B", 12, 64, "S"})}),
            (Types{ts(FLOAT, {"B", 12, "T", "S"})}));
  EXPECT_EQ(Op("MatMul").opset(9).infer({ts(FLOAT, {"B", 1, "T", 64}), ts(FLOAT, {12, 64, 5})}),
            (Types{ts(FLOAT, {"B", 12, "T", 5})}));
}
TEST(MatMul, VectorPromotion) {
  EXPECT_EQ(Op("MatMul").infer({ts(FLOAT, {"K"}), ts(FLOAT, {"K", "N"})}), (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(Op("MatMul").infer({ts(FLOAT, {"B", "M", "K"}), ts(FLOAT, {"K"})}), (Types{ts(FLOAT, {"B", "M"})}));
  EXPECT_EQ(Op("MatMul").opset(1).infer({ts(FLOAT, {4}), ts(FLOAT, {4})}), (Types{ts(FLOAT, {})}));
  EXPECT_EQ(Op("MatMul").infer({ts(FLOAT, {4}), ts(FLOAT, {"B", 4, 7})}), (Types{ts(FLOAT, {"B", 7})}));
}
TEST(MatMul, UnknownRankGivesUnknown) {
  EXPECT_EQ(Op("MatMul").infer({ts(FLOAT), ts(FLOAT, {4, 5})}), (Types{ts(FLOAT)}));
}
TEST(MatMul, InnerDimMismatchIsError) {
  RunResult r = Op("MatMul").run({ts(FLOAT, {"B", 3, 4}), ts(FLOAT, {5, 6})});
  EXPECT_ERROR(r.report, "incompatible inner dimensions");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("inner"), std::string::npos);
}
TEST(MatMul, ScalarIsError) {
  EXPECT_ERROR(Op("MatMul").run({ts(FLOAT, {}), ts(FLOAT, {3})}).report, "MatMul inputs must have rank >= 1");
}
TEST(MatMul, BatchMismatchIsError) {
  EXPECT_ERROR(Op("MatMul").run({ts(FLOAT, {2, 3, 4}), ts(FLOAT, {5, 4, 6})}).report, "cannot broadcast [2] with [5]");
}
TEST(MatMul, IntegerAndQLinear) {
  EXPECT_EQ(Op("MatMulInteger")
                .opset(10)
                .infer({ts(UINT8, {"B", "T", 768}), ts(INT8, {768, 64}), ts(UINT8, {}), ts(INT8, {})}),
            (Types{ts(INT32, {"B", "T", 64})}));
  EXPECT_EQ(Op("QLinearMatMul")
                .opset(10)
                .infer({ts(UINT8, {"M", 16}), ts(FLOAT, {}), ts(UINT8, {}), ts(INT8, {16, 8}), ts(FLOAT, {}),
                        ts(INT8, {}), ts(FLOAT, {}), ts(INT8, {})}),
            (Types{ts(INT8, {"M", 8})}));
}
TEST(MatMul, QLinearMissingInputIsUsageError) {
  EXPECT_ERROR(Op("QLinearMatMul").opset(10).run({ts(UINT8, {2, 2}), ts(FLOAT, {}), ts(UINT8, {})}).report,
               "missing required input 3");
}

// ---- Gemm ----
TEST(Gemm, Plain) {
  EXPECT_EQ(Op("Gemm").opset(13).infer({ts(FLOAT, {"N", 512}), ts(FLOAT, {512, 10}), ts(FLOAT, {10})}),
            (Types{ts(FLOAT, {"N", 10})}));
}
TEST(Gemm, TransB) {
  EXPECT_EQ(Op("Gemm").opset(11).infer({ts(FLOAT, {"N", 2048}), ts(FLOAT, {1000, 2048}), ts(FLOAT, {1000})},
                                       {attr("transB", 1)}),
            (Types{ts(FLOAT, {"N", 1000})}));
}
TEST(Gemm, TransAWithoutC) {
  EXPECT_EQ(Op("Gemm").opset(11).infer({ts(FLOAT, {64, "M"}), ts(FLOAT, {64, 8})}, {attr("transA", 1)}),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(Gemm, CFillsUnknownDims) {
  EXPECT_EQ(Op("Gemm").opset(9).infer({ts(FLOAT), ts(FLOAT, {4, 8}), ts(FLOAT, {"M", 8})}),
            (Types{ts(FLOAT, {"M", 8})}));
}
TEST(Gemm, InnerMismatchIsError) {
  EXPECT_ERROR(Op("Gemm").opset(13).run({ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}).report,
               "incompatible inner dimensions");
}
TEST(Gemm, NonMatrixIsError) {
  EXPECT_ERROR(Op("Gemm").opset(13).run({ts(FLOAT, {2, 3, 4}), ts(FLOAT, {4, 5})}).report,
               "A must be 2-D, got [2,3,4]");
}
TEST(Gemm, CNotBroadcastableIsError) {
  EXPECT_ERROR(Op("Gemm").opset(13).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3, 5}), ts(FLOAT, {4})}).report,
               "C of shape [4] does not broadcast to [2,5]");
}

// ---- Einsum ----
TEST(Einsum, BatchedMatMul) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"B", "I", "J"}), ts(FLOAT, {"B", "J", "K"})},
                                         {attr("equation", "bij,bjk->bik")}),
            (Types{ts(FLOAT, {"B", "I", "K"})}));
}
TEST(Einsum, SpacesAndTranspose) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {3, "n"})}, {attr("equation", " ij -> ji ")}),
            (Types{ts(FLOAT, {"n", 3})}));
}
TEST(Einsum, ImplicitOutputIsSortedSingleLabels) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"A", "B"}), ts(FLOAT, {"B", "C"})}, {attr("equation", "ij,jk")}),
            (Types{ts(FLOAT, {"A", "C"})}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {5, 7})}, {attr("equation", "ba")}), (Types{ts(FLOAT, {7, 5})}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {5, 5})}, {attr("equation", "ii")}), (Types{ts(FLOAT, {})}));
  // In character-code order, capitals first, as numpy.einsum (ONNX's reference) orders them.
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {2, 3})}, {attr("equation", "aB")}), (Types{ts(FLOAT, {3, 2})}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {2, 3, "z"})}, {attr("equation", "zAz")}), (Types{ts(FLOAT, {3})}));
}
TEST(Einsum, EllipsisBroadcasts) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"B", 1, "I", "J"}), ts(FLOAT, {12, "J", "K"})},
                                         {attr("equation", "...ij,...jk->...ik")}),
            (Types{ts(FLOAT, {"B", 12, "I", "K"})}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"B", "H", "I", "J"})}, {attr("equation", "...ij")}),
            (Types{ts(FLOAT, {"B", "H", "I", "J"})}));
}
TEST(Einsum, ReductionAndOuterProduct) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"N", 4})}, {attr("equation", "ij->i")}),
            (Types{ts(FLOAT, {"N"})}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT, {"M"}), ts(FLOAT, {"N"})}, {attr("equation", "i,j->ij")}),
            (Types{ts(FLOAT, {"M", "N"})}));
}
TEST(Einsum, IntegerWinsForSharedLabel) {
  EXPECT_EQ(
      Op("Einsum").opset(12).infer({ts(FLOAT, {"B", "K"}), ts(FLOAT, {64, "N"})}, {attr("equation", "ik,kn->in")}),
      (Types{ts(FLOAT, {"B", "N"})}));
}
TEST(Einsum, RankMismatchIsError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3, 4})}, {attr("equation", "ij->i")}).report,
               "operand 0 of shape [2,3,4] does not match term ij");
}
TEST(Einsum, LabelDimConflictIsError) {
  EXPECT_ERROR(
      Op("Einsum").opset(12).run({ts(FLOAT, {2, 3}), ts(FLOAT, {4, 5})}, {attr("equation", "ij,jk->ik")}).report,
      "label 'j' has dims 3 and 4");
}
TEST(Einsum, OperandCountMismatchIsError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3})}, {attr("equation", "ij,jk->ik")}).report,
               "has 2 operands but the node has 1 inputs");
}
TEST(Einsum, UnknownOutputLabelIsError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3})}, {attr("equation", "ij->iz")}).report,
               "output label 'z' does not appear in the inputs");
}
TEST(Einsum, RepeatedOutputLabelIsError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 2})}, {attr("equation", "ij->ii")}).report,
               "output label 'i' appears more than once");
}
TEST(Einsum, BadCharacterIsError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3})}, {attr("equation", "i1->i")}).report,
               "invalid character '1' in equation");
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3})}, {attr("equation", "..ij")}).report,
               "'.' that is not part of '...'");
}
TEST(Einsum, MissingEquationIsUsageError) {
  EXPECT_ERROR(Op("Einsum").opset(12).run({ts(FLOAT, {2, 3})}).report, "missing required attribute 'equation'");
}
TEST(Einsum, UnknownRankWithEllipsisGivesUnknownRank) {
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT), ts(FLOAT, {3, 4})}, {attr("equation", "...ij,jk->...ik")}),
            (Types{ts(FLOAT)}));
  EXPECT_EQ(Op("Einsum").opset(12).infer({ts(FLOAT), ts(FLOAT, {3, 4})}, {attr("equation", "ij,jk->ik")}),
            (Types{ts(FLOAT, {"_d0", 4})}));
}

TEST(Det, BatchOfSquareMatrices) {
  EXPECT_EQ(Op("Det").opset(11).infer({ts(FLOAT, {"B", 2, 2})}), (Types{ts(FLOAT, {"B"})}));
  EXPECT_ERROR(Op("Det").opset(11).run({ts(FLOAT, {3})}).report, "input must have rank >= 2, got shape [3]");
}
TEST(Det, Opset22) {
  EXPECT_EQ(Op("Det").opset(22).infer({ts(FLOAT, {"B", 3, 3})}), (Types{ts(FLOAT, {"B"})}));
  EXPECT_EQ(Op("Det").opset(22).infer({ts(FLOAT, {"M", "M"})}), (Types{ts(FLOAT, {})}));
  EXPECT_ERROR(Op("Det").opset(22).run({ts(FLOAT, {3, 4})}).report, "the last two dims must be equal");
}
