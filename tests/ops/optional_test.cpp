#include "infer/graph_test_util.hpp"

namespace {
Type opt(Type elem) { return Type::optional(std::move(elem)); }
}  // namespace

TEST(Optional, FromInput) {
  EXPECT_EQ(Op("Optional").infer({ts(FLOAT, {"N", 3})}), (Types{opt(ts(FLOAT, {"N", 3}))}));
  EXPECT_EQ(Op("Optional").infer({Type::sequence(ts(INT64, {2}))}), (Types{opt(Type::sequence(ts(INT64, {2})))}));
}
TEST(Optional, FromTypeAttribute) {
  EXPECT_EQ(Op("Optional").infer({}, {Attribute::make_type("type", ts(FLOAT, {"N"}))}), (Types{opt(ts(FLOAT, {"N"}))}));
}
TEST(Optional, NeitherIsUsageError) {
  RunResult r = Op("Optional").run({});
  EXPECT_ERROR(r.report, "an Optional without input needs the 'type' attribute");
  EXPECT_NE(r.report.diagnostics.at(0).message.find("'type'"), std::string::npos);
}
TEST(Optional, NoRuleBeforeOpset15) {
  EXPECT_EQ(Op("Optional").opset(14).run({ts(FLOAT, {3})}).report.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
}

TEST(OptionalHasElement, BoolScalar) {
  EXPECT_EQ(Op("OptionalHasElement").opset(15).infer({opt(ts(FLOAT, {3}))}), (Types{ts(BOOL, {})}));
  EXPECT_EQ(Op("OptionalHasElement").infer({opt(ts(FLOAT, {3}))}), (Types{ts(BOOL, {})}));
}
TEST(OptionalHasElement, Opset18AcceptsTensorsAndNoInput) {
  EXPECT_EQ(Op("OptionalHasElement").infer({ts(FLOAT, {3})}), (Types{ts(BOOL, {})}));
  EXPECT_EQ(Op("OptionalHasElement").infer({omitted()}), (Types{ts(BOOL, {})}));
}
TEST(OptionalHasElement, Opset15RequiresAnOptional) {
  EXPECT_ERROR(Op("OptionalHasElement").opset(15).run({ts(FLOAT, {3})}).report,
               "input must be an optional before opset 18");
  EXPECT_ERROR(Op("OptionalHasElement").opset(15).run({omitted()}).report, "missing required input 0");
}

TEST(OptionalGetElement, Element) {
  EXPECT_EQ(Op("OptionalGetElement").opset(15).infer({opt(ts(FLOAT, {"N", 3}))}), (Types{ts(FLOAT, {"N", 3})}));
  EXPECT_EQ(Op("OptionalGetElement").infer({opt(Type::sequence(ts(FLOAT, {2})))}),
            (Types{Type::sequence(ts(FLOAT, {2}))}));
}
TEST(OptionalGetElement, Opset18PassesTensorsThrough) {
  EXPECT_EQ(Op("OptionalGetElement").infer({ts(FLOAT, {"N", 3})}), (Types{ts(FLOAT, {"N", 3})}));
}
TEST(OptionalGetElement, Opset15RequiresAnOptional) {
  RunResult r = Op("OptionalGetElement").opset(15).run({ts(FLOAT, {3})});
  EXPECT_ERROR(r.report, "before opset 18");
}
TEST(OptionalGetElement, MissingInputIsUsageError) {
  EXPECT_ERROR(Op("OptionalGetElement").run({omitted()}).report, "missing required input 0");
}
