// Custom rules added through RuleRegistrar (header-safe inline registrars)
// and register_rule(): custom domains, and precedence over built-ins.
#include "graph_test_util.hpp"

namespace custom {

// com.acme::Twice: doubles the last dim.
inline void infer_twice(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  const Shape* s = shape_of(n.input(0));
  if (!s || s->size() == 0) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
    return;
  }
  std::vector<SymbolicDim> d = s->dims();
  d.back() = d.back() * 2;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), dtype_of(n.input(0)));
}
inline const RuleRegistrar twice_rule{"com.acme", "Twice", 1, &infer_twice};

// com.acme::Twice from version 3: the output is a scalar (to tell versions apart).
inline void infer_twice_v3(Context& ctx, Node& n) {
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), dtype_of(n.input(0)));
}
inline const RuleRegistrar twice_v3_rule{"com.acme", "Twice", 3, &infer_twice_v3};

// Overrides the built-in Xor (from opset 7): always a [42] int8 tensor.
inline void infer_fake_xor(Context& ctx, Node& n) { ctx.set_shape_and_dtype(n.output(0), Shape({42}), DataType::INT8); }
inline const RuleRegistrar fake_xor_rule{"", "Xor", 7, &infer_fake_xor};

// Overrides the built-in Or only from opset 30 (beyond every built-in one).
inline const RuleRegistrar late_or_rule{"", "Or", 30, &infer_fake_xor};

}  // namespace custom

namespace {
Type run_acme(const Type& x, int64_t acme_opset) {
  Model m = make_model();
  m.opset_imports["com.acme"] = acme_opset;
  GraphBuilder g(*m.graph);
  g.input("x", x);
  g.node("Twice", {"x"}, {"y"}, {}, "com.acme");
  g.node("Add", {"y", "y"}, {"z"});
  infer_shapes(m);
  return type_of(*m.graph, "z");
}
}  // namespace

TEST(CustomRule, CustomDomainOp) {
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", "k"}), 1), ts(FLOAT, {"N", "2*k"}));
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", 4}), 2), ts(FLOAT, {"N", 8}));
}
TEST(CustomRule, CustomRulesAreVersioned) {
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", 4}), 3), ts(FLOAT, {}));
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "com.acme", "Twice", 5).fn, &custom::infer_twice_v3);
  EXPECT_TRUE(resolve_rule(ops::kBuiltinRules, "com.acme", "Twice", 5).custom);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "com.acme", "Twice", 2).fn, &custom::infer_twice);
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "com.acme", "Twice", 0));
}
TEST(CustomRule, UnimportedCustomDomainHasNoRule) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2}));
  g.node("Twice", {"x"}, {"y"}, {}, "com.acme");
  Report r = infer_shapes(m);
  ASSERT_WARNING(r, "no shape rule for com.acme::Twice");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
}
TEST(CustomRule, TakesPrecedenceOverBuiltin) {
  EXPECT_EQ(Op("Xor").infer({ts(BOOL, {3}), ts(BOOL, {3})}), (Types{ts(INT8, {42})}));
  ResolvedRule r = resolve_rule(ops::kBuiltinRules, "", "Xor", 18);
  EXPECT_TRUE(r.custom);
  EXPECT_EQ(r.fn, &custom::infer_fake_xor);
}
TEST(CustomRule, BuiltinStillUsedBelowTheCustomVersion) {
  // The custom Or starts at 30; at 18 the built-in one applies.
  EXPECT_EQ(Op("Or").infer({ts(BOOL, {3}), ts(BOOL, {1})}), (Types{ts(BOOL, {3})}));
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "", "Or", 18).custom);
  EXPECT_EQ(Op("Or").opset(30).infer({ts(BOOL, {3}), ts(BOOL, {1})}), (Types{ts(INT8, {42})}));
}
TEST(CustomRule, RegisterRuleAtRunTime) {
  register_rule("com.late", "Late", 1, &custom::infer_twice);
  EXPECT_EQ(Op("com.late", "Late").infer({ts(FLOAT, {3})}), (Types{ts(FLOAT, {6})}));
}
TEST(CustomRule, CustomRuleErrorsAreReported) {
  RunResult r = Op("com.acme", "Twice").run({});
  EXPECT_ERROR(r.report, "missing required input 0");
  EXPECT_EQ(r.report.diagnostics.at(0).op_type, "Twice");
}
