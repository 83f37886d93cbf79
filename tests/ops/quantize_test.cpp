// QuantizeLinear / DequantizeLinear for every version (scalar, per-axis,
// blocked, output_dtype), DynamicQuantizeLinear and BitCast.
#include "op_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
constexpr DataType INT4 = DataType::INT4;
constexpr DataType FLOAT8 = DataType::FLOAT8E4M3FN;
constexpr DataType BFLOAT16 = DataType::BFLOAT16;
}  // namespace

TEST(QuantizeLinear, ScalarScaleAtOpset10) {
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {6}), ts(FLOAT, {}), ts(UINT8, {})}, {}, 10),
            (Types{ts(UINT8, {6})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {"N", 6}), ts(FLOAT, {})}, {}, 10),
            (Types{ts(UINT8, {"N", 6})}));
}
TEST(QuantizeLinear, PerAxisScaleRejectedAtOpset10) {
  EXPECT_EQ(run_node("", "QuantizeLinear", {ts(FLOAT, {3, 4}), ts(FLOAT, {3})}, {}, 10).report.errors(), 1u);
}
TEST(QuantizeLinear, PerAxisAtOpset13And19) {
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {1, 3, 3, 2}), ts(FLOAT, {3}), ts(INT8, {3})},
                                {attr("axis", 1)}, 13),
            (Types{ts(INT8, {1, 3, 3, 2})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {5}), ts(FLOAT, {}), ts(FLOAT8, {})},
                                {attr("saturate", 0)}, 19),
            (Types{ts(FLOAT8, {5})}));
}
TEST(QuantizeLinear, PerAxisLengthMismatchIsError) {
  EXPECT_EQ(run_node("", "QuantizeLinear", {ts(FLOAT, {1, 3, 3, 2}), ts(FLOAT, {2})}, {attr("axis", 1)}, 13)
                .report.errors(),
            1u);
}
TEST(QuantizeLinear, BlockedAtOpset21) {
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {3, 4}), ts(FLOAT, {3, 2}), ts(INT4, {3, 2})},
                                {attr("axis", 1), attr("block_size", 2)}, 21),
            (Types{ts(INT4, {3, 4})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {"N", 10}), ts(FLOAT, {"N", 4})},
                                {attr("axis", 1), attr("block_size", 3)}, 21),
            (Types{ts(UINT8, {"N", 10})}));
}
TEST(QuantizeLinear, BlockedScaleMismatchIsError) {
  RunResult r = run_node("", "QuantizeLinear", {ts(FLOAT, {3, 4}), ts(FLOAT, {3, 3})},
                         {attr("axis", 1), attr("block_size", 2)}, 21);
  ASSERT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("block_size"), std::string::npos);
}
TEST(QuantizeLinear, OutputDtypeAttribute) {
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {3, 4}), ts(FLOAT, {})},
                                {attr("output_dtype", static_cast<int64_t>(DataType::INT4))}, 21),
            (Types{ts(INT4, {3, 4})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {3, 4}), ts(FLOAT, {})},
                                {attr("output_dtype", static_cast<int64_t>(DataType::INT8)), attr("precision", 1)}, 23),
            (Types{ts(INT8, {3, 4})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {"B"}), ts(FLOAT, {}), ts(INT8, {})}, {}, 24),
            (Types{ts(INT8, {"B"})}));
  EXPECT_EQ(run_shape_inference("", "QuantizeLinear", {ts(FLOAT, {"B"}), ts(FLOAT, {})}, {}, 25),
            (Types{ts(UINT8, {"B"})}));
}
TEST(QuantizeLinear, OutputDtypeConflictIsError) {
  EXPECT_EQ(run_node("", "QuantizeLinear", {ts(FLOAT, {3}), ts(FLOAT, {}), ts(UINT8, {})},
                     {attr("output_dtype", static_cast<int64_t>(DataType::INT8))}, 21)
                .report.errors(),
            1u);
}
TEST(QuantizeLinear, MissingScaleIsUsageError) {
  EXPECT_EQ(run_node("", "QuantizeLinear", {ts(FLOAT, {3})}, {}, 21).report.errors(), 1u);
}

TEST(DequantizeLinear, FloatUntilOpset13) {
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(UINT8, {4}), ts(FLOAT, {}), ts(UINT8, {})}, {}, 10),
            (Types{ts(FLOAT, {4})}));
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(INT8, {1, 3, 3, 2}), ts(FLOAT, {3}), ts(INT8, {3})},
                                {attr("axis", 1)}, 13),
            (Types{ts(FLOAT, {1, 3, 3, 2})}));
}
TEST(DequantizeLinear, ScaleTypeFromOpset19) {
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(FLOAT8, {5}), ts(FLOAT16, {})}, {}, 19),
            (Types{ts(FLOAT16, {5})}));
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(INT4, {3, 4}), ts(BFLOAT16, {3, 2}), ts(INT4, {3, 2})},
                                {attr("axis", 1), attr("block_size", 2)}, 21),
            (Types{ts(BFLOAT16, {3, 4})}));
}
TEST(DequantizeLinear, OutputDtypeFromOpset23) {
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(INT8, {"N", 8}), ts(FLOAT, {})},
                                {attr("output_dtype", static_cast<int64_t>(DataType::FLOAT16))}, 23),
            (Types{ts(FLOAT16, {"N", 8})}));
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(INT8, {"N", 8}), ts(FLOAT, {})}, {}, 24),
            (Types{ts(FLOAT, {"N", 8})}));
  EXPECT_EQ(run_shape_inference("", "DequantizeLinear", {ts(INT8, {"N", 8}), ts(FLOAT, {})},
                                {attr("output_dtype", static_cast<int64_t>(DataType::FLOAT16))}, 21),
            (Types{ts(FLOAT, {"N", 8})}));  // no output_dtype before 23
}
TEST(DequantizeLinear, ZeroPointShapeMismatchIsError) {
  EXPECT_EQ(run_node("", "DequantizeLinear", {ts(INT8, {3, 4}), ts(FLOAT, {4}), ts(INT8, {3})}, {}, 21).report.errors(),
            1u);
}
TEST(DequantizeLinear, BlockedRankMismatchIsError) {
  EXPECT_EQ(run_node("", "DequantizeLinear", {ts(INT8, {3, 4}), ts(FLOAT, {2})}, {attr("axis", 1), attr("block_size", 2)},
                     25)
                .report.errors(),
            1u);
}

TEST(DynamicQuantizeLinear, ThreeOutputs) {
  EXPECT_EQ(run_shape_inference("", "DynamicQuantizeLinear", {ts(FLOAT, {"N", 3})}, {}, 11, 3),
            (Types{ts(UINT8, {"N", 3}), ts(FLOAT, {}), ts(UINT8, {})}));
}

TEST(BitCast, SameWidth) {
  EXPECT_EQ(run_shape_inference("", "BitCast", {ts(FLOAT, {"N", 4})}, {attr("to", static_cast<int64_t>(DataType::INT32))},
                                26),
            (Types{ts(INT32, {"N", 4})}));
  EXPECT_EQ(run_shape_inference("", "BitCast", {ts(UINT8, {3})}, {attr("to", static_cast<int64_t>(DataType::INT8))}, 26),
            (Types{ts(INT8, {3})}));
}
TEST(BitCast, DifferentWidthIsError) {
  EXPECT_EQ(run_node("", "BitCast", {ts(FLOAT, {3})}, {attr("to", static_cast<int64_t>(DataType::INT64))}, 26)
                .report.errors(),
            1u);
}
TEST(BitCast, MissingToIsUsageError) {
  EXPECT_EQ(run_node("", "BitCast", {ts(FLOAT, {3})}, {}, 26).report.errors(), 1u);
}
