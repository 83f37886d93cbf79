// QuantizeLinear / DequantizeLinear for every version (scalar, per-axis,
// blocked, output_dtype), DynamicQuantizeLinear and BitCast.
#include "op_test_util.hpp"

namespace {
constexpr DataType INT4 = DataType::INT4;
constexpr DataType FLOAT8 = DataType::FLOAT8E4M3FN;
constexpr DataType BFLOAT16 = DataType::BFLOAT16;
}  // namespace

TEST(QuantizeLinear, ScalarScaleAtOpset10) {
  EXPECT_EQ(Op("QuantizeLinear").opset(10).infer({ts(FLOAT, {6}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(UINT8, {6})}));
  EXPECT_EQ(Op("QuantizeLinear").opset(10).infer({ts(FLOAT, {"N", 6}), ts(FLOAT, {})}), (Types{ts(UINT8, {"N", 6})}));
}
TEST(QuantizeLinear, PerAxisScaleRejectedAtOpset10) {
  EXPECT_ERROR(Op("QuantizeLinear").opset(10).run({ts(FLOAT, {3, 4}), ts(FLOAT, {3})}).report,
               "scale must be a scalar at this opset");
}
TEST(QuantizeLinear, PerAxisAtOpset13And19) {
  EXPECT_EQ(
      Op("QuantizeLinear").opset(13).infer({ts(FLOAT, {1, 3, 3, 2}), ts(FLOAT, {3}), ts(INT8, {3})}, {attr("axis", 1)}),
      (Types{ts(INT8, {1, 3, 3, 2})}));
  EXPECT_EQ(
      Op("QuantizeLinear").opset(19).infer({ts(FLOAT, {5}), ts(FLOAT, {}), ts(FLOAT8, {})}, {attr("saturate", 0)}),
      (Types{ts(FLOAT8, {5})}));
}
TEST(QuantizeLinear, PerAxisLengthMismatchIsError) {
  EXPECT_ERROR(Op("QuantizeLinear").opset(13).run({ts(FLOAT, {1, 3, 3, 2}), ts(FLOAT, {2})}, {attr("axis", 1)}).report,
               "per-axis scale has 2 elements, but x has 3 along axis 1");
}
TEST(QuantizeLinear, BlockedAtOpset21) {
  EXPECT_EQ(
      Op("QuantizeLinear")
          .opset(21)
          .infer({ts(FLOAT, {3, 4}), ts(FLOAT, {3, 2}), ts(INT4, {3, 2})}, {attr("axis", 1), attr("block_size", 2)}),
      (Types{ts(INT4, {3, 4})}));
  EXPECT_EQ(Op("QuantizeLinear")
                .opset(21)
                .infer({ts(FLOAT, {"N", 10}), ts(FLOAT, {"N", 4})}, {attr("axis", 1), attr("block_size", 3)}),
            (Types{ts(UINT8, {"N", 10})}));
}
TEST(QuantizeLinear, BlockedScaleMismatchIsError) {
  RunResult r = Op("QuantizeLinear")
                    .opset(21)
                    .run({ts(FLOAT, {3, 4}), ts(FLOAT, {3, 3})}, {attr("axis", 1), attr("block_size", 2)});
  ASSERT_ERROR(r.report, "blocked scale shape [3,3] does not match");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("block_size"), std::string::npos);
}
TEST(QuantizeLinear, OutputDtypeAttribute) {
  EXPECT_EQ(
      Op("QuantizeLinear")
          .opset(21)
          .infer({ts(FLOAT, {3, 4}), ts(FLOAT, {})}, {attr("output_dtype", static_cast<int64_t>(DataType::INT4))}),
      (Types{ts(INT4, {3, 4})}));
  EXPECT_EQ(Op("QuantizeLinear")
                .opset(23)
                .infer({ts(FLOAT, {3, 4}), ts(FLOAT, {})},
                       {attr("output_dtype", static_cast<int64_t>(DataType::INT8)), attr("precision", 1)}),
            (Types{ts(INT8, {3, 4})}));
  EXPECT_EQ(Op("QuantizeLinear").opset(24).infer({ts(FLOAT, {"B"}), ts(FLOAT, {}), ts(INT8, {})}),
            (Types{ts(INT8, {"B"})}));
  EXPECT_EQ(Op("QuantizeLinear").opset(25).infer({ts(FLOAT, {"B"}), ts(FLOAT, {})}), (Types{ts(UINT8, {"B"})}));
}
TEST(QuantizeLinear, OutputDtypeConflictIsError) {
  EXPECT_ERROR(Op("QuantizeLinear")
                   .opset(21)
                   .run({ts(FLOAT, {3}), ts(FLOAT, {}), ts(UINT8, {})},
                        {attr("output_dtype", static_cast<int64_t>(DataType::INT8))})
                   .report,
               "output_dtype int8 differs from the zero point type uint8");
}
TEST(QuantizeLinear, MissingScaleIsUsageError) {
  EXPECT_ERROR(Op("QuantizeLinear").opset(21).run({ts(FLOAT, {3})}).report, "missing required input 1");
}

TEST(DequantizeLinear, FloatUntilOpset13) {
  EXPECT_EQ(Op("DequantizeLinear").opset(10).infer({ts(UINT8, {4}), ts(FLOAT, {}), ts(UINT8, {})}),
            (Types{ts(FLOAT, {4})}));
  EXPECT_EQ(Op("DequantizeLinear")
                .opset(13)
                .infer({ts(INT8, {1, 3, 3, 2}), ts(FLOAT, {3}), ts(INT8, {3})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {1, 3, 3, 2})}));
}
TEST(DequantizeLinear, ScaleTypeFromOpset19) {
  EXPECT_EQ(Op("DequantizeLinear").opset(19).infer({ts(FLOAT8, {5}), ts(FLOAT16, {})}), (Types{ts(FLOAT16, {5})}));
  EXPECT_EQ(
      Op("DequantizeLinear")
          .opset(21)
          .infer({ts(INT4, {3, 4}), ts(BFLOAT16, {3, 2}), ts(INT4, {3, 2})}, {attr("axis", 1), attr("block_size", 2)}),
      (Types{ts(BFLOAT16, {3, 4})}));
}
TEST(DequantizeLinear, OutputDtypeFromOpset23) {
  EXPECT_EQ(
      Op("DequantizeLinear")
          .opset(23)
          .infer({ts(INT8, {"N", 8}), ts(FLOAT, {})}, {attr("output_dtype", static_cast<int64_t>(DataType::FLOAT16))}),
      (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_EQ(Op("DequantizeLinear").opset(24).infer({ts(INT8, {"N", 8}), ts(FLOAT, {})}), (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(
      Op("DequantizeLinear")
          .opset(21)
          .infer({ts(INT8, {"N", 8}), ts(FLOAT, {})}, {attr("output_dtype", static_cast<int64_t>(DataType::FLOAT16))}),
      (Types{ts(FLOAT, {"N", 8})}));  // no output_dtype before 23
}
TEST(DequantizeLinear, ZeroPointShapeMismatchIsError) {
  EXPECT_ERROR(Op("DequantizeLinear").opset(21).run({ts(INT8, {3, 4}), ts(FLOAT, {4}), ts(INT8, {3})}).report,
               "zero point shape [3] differs from scale shape [4]");
}
TEST(DequantizeLinear, BlockedRankMismatchIsError) {
  EXPECT_ERROR(Op("DequantizeLinear")
                   .opset(25)
                   .run({ts(INT8, {3, 4}), ts(FLOAT, {2})}, {attr("axis", 1), attr("block_size", 2)})
                   .report,
               "blocked scale must have the rank of x");
}

TEST(DynamicQuantizeLinear, ThreeOutputs) {
  EXPECT_EQ(Op("DynamicQuantizeLinear").opset(11).outputs(3).infer({ts(FLOAT, {"N", 3})}),
            (Types{ts(UINT8, {"N", 3}), ts(FLOAT, {}), ts(UINT8, {})}));
}

TEST(BitCast, SameWidth) {
  EXPECT_EQ(Op("BitCast").opset(26).infer({ts(FLOAT, {"N", 4})}, {attr("to", static_cast<int64_t>(DataType::INT32))}),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_EQ(Op("BitCast").opset(26).infer({ts(UINT8, {3})}, {attr("to", static_cast<int64_t>(DataType::INT8))}),
            (Types{ts(INT8, {3})}));
}
TEST(BitCast, DifferentWidthIsError) {
  EXPECT_ERROR(
      Op("BitCast").opset(26).run({ts(FLOAT, {3})}, {attr("to", static_cast<int64_t>(DataType::INT64))}).report,
      "cannot bitcast float (32 bits) to int64 (64 bits)");
}
TEST(BitCast, MissingToIsUsageError) {
  EXPECT_ERROR(Op("BitCast").opset(26).run({ts(FLOAT, {3})}).report, "missing required attribute 'to'");
}
