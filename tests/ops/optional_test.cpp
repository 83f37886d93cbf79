#include "infer/graph_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {
Type opt(Type elem) { return Type::optional(std::move(elem)); }
}  // namespace

TEST(Optional, FromInput) {
  EXPECT_EQ(run_shape_inference("", "Optional", {ts(FLOAT, {"N", 3})}), (Types{opt(ts(FLOAT, {"N", 3}))}));
  EXPECT_EQ(run_shape_inference("", "Optional", {Type::sequence(ts(INT64, {2}))}),
            (Types{opt(Type::sequence(ts(INT64, {2})))}));
}
TEST(Optional, FromTypeAttribute) {
  EXPECT_EQ(run_shape_inference("", "Optional", {}, {Attribute::make_type("type", ts(FLOAT, {"N"}))}),
            (Types{opt(ts(FLOAT, {"N"}))}));
}
TEST(Optional, NeitherIsUsageError) {
  RunResult r = run_node("", "Optional", {});
  EXPECT_EQ(r.report.errors(), 1u);
  EXPECT_NE(r.report.diagnostics.at(0).message.find("'type'"), std::string::npos);
}
TEST(Optional, NoRuleBeforeOpset15) {
  EXPECT_EQ(run_node("", "Optional", {ts(FLOAT, {3})}, {}, 14).report.diagnostics.at(0).kind,
            DiagnosticKind::MissingRule);
}

TEST(OptionalHasElement, BoolScalar) {
  EXPECT_EQ(run_shape_inference("", "OptionalHasElement", {opt(ts(FLOAT, {3}))}, {}, 15), (Types{ts(BOOL, {})}));
  EXPECT_EQ(run_shape_inference("", "OptionalHasElement", {opt(ts(FLOAT, {3}))}, {}, 18), (Types{ts(BOOL, {})}));
}
TEST(OptionalHasElement, Opset18AcceptsTensorsAndNoInput) {
  EXPECT_EQ(run_shape_inference("", "OptionalHasElement", {ts(FLOAT, {3})}, {}, 18), (Types{ts(BOOL, {})}));
  EXPECT_EQ(run_shape_inference("", "OptionalHasElement", {omitted()}, {}, 18), (Types{ts(BOOL, {})}));
}
TEST(OptionalHasElement, Opset15RequiresAnOptional) {
  EXPECT_EQ(run_node("", "OptionalHasElement", {ts(FLOAT, {3})}, {}, 15).report.errors(), 1u);
  EXPECT_EQ(run_node("", "OptionalHasElement", {omitted()}, {}, 15).report.errors(), 1u);
}

TEST(OptionalGetElement, Element) {
  EXPECT_EQ(run_shape_inference("", "OptionalGetElement", {opt(ts(FLOAT, {"N", 3}))}, {}, 15),
            (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(run_shape_inference("", "OptionalGetElement", {opt(Type::sequence(ts(FLOAT, {2})))}, {}, 18),
            (Types{Type::sequence(ts(FLOAT, {2}))}));
}
TEST(OptionalGetElement, Opset18PassesTensorsThrough) {
  EXPECT_EQ(run_shape_inference("", "OptionalGetElement", {ts(FLOAT, {"N", 3})}, {}, 18), (Types{ts(FLOAT, {"N", 3})}));
}
TEST(OptionalGetElement, Opset15RequiresAnOptional) {
  RunResult r = run_node("", "OptionalGetElement", {ts(FLOAT, {3})}, {}, 15);
  EXPECT_EQ(count_messages(r.report, Severity::Error, "before opset 18"), 1u);
}
TEST(OptionalGetElement, MissingInputIsUsageError) {
  EXPECT_EQ(run_node("", "OptionalGetElement", {omitted()}, {}, 18).report.errors(), 1u);
}
