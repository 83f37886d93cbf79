// Rules added at run time through a UserRules table (InferenceOptions::
// user_rules): custom domains, versions, precedence over built-ins, and no
// global state (without the table the built-ins serve).
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

// com.acme::Twice from version 3: the output is a scalar (to tell versions apart).
inline void infer_twice_v3(Context& ctx, Node& n) {
  ctx.set_shape_and_dtype(n.output(0), Shape::scalar(), dtype_of(n.input(0)));
}

// Overrides the built-in Xor (from opset 7): always a [42] int8 tensor.
inline void infer_fake_xor(Context& ctx, Node& n) { ctx.set_shape_and_dtype(n.output(0), Shape({42}), DataType::INT8); }

// The table of these tests: Twice 1 and 3, Xor from 7, Or only from opset 30
// (beyond every built-in one).
const UserRules& rules() {
  static const UserRules table = [] {
    UserRules t;
    t.add("com.acme", "Twice", 3, &infer_twice_v3);  // added out of order: the table sorts itself
    t.add("com.acme", "Twice", 1, &infer_twice);
    t.add("ai.onnx", "Xor", 7, &infer_fake_xor);  // "ai.onnx" is ""
    t.add("", "Or", 30, &infer_fake_xor);
    return t;
  }();
  return table;
}

}  // namespace custom

namespace {
Type run_acme(const Type& x, int64_t acme_opset) {
  Model m = make_model();
  m.opset_imports["com.acme"] = acme_opset;
  GraphBuilder g(*m.graph);
  g.input("x", x);
  g.node("Twice", {"x"}, {"y"}, {}, "com.acme");
  g.node("Add", {"y", "y"}, {"z"});
  InferenceOptions options;
  options.user_rules = &custom::rules();
  infer_shapes(m, options);
  return type_of(*m.graph, "z");
}
}  // namespace

TEST(CustomRule, CustomDomainOp) {
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", "k"}), 1), ts(FLOAT, {"N", "2*k"}));
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", 4}), 2), ts(FLOAT, {"N", 8}));
}
TEST(CustomRule, CustomRulesAreVersioned) {
  const UserRules* user = &custom::rules();
  EXPECT_EQ(run_acme(ts(FLOAT, {"N", 4}), 3), ts(FLOAT, {}));
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, user, "com.acme", "Twice", 5).fn, &custom::infer_twice_v3);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, user, "com.acme", "Twice", 5).since_version, 3);
  EXPECT_TRUE(resolve_rule(ops::kBuiltinRules, user, "com.acme", "Twice", 5).user);
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, user, "com.acme", "Twice", 2).fn, &custom::infer_twice);
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, user, "com.acme", "Twice", 0));
}
TEST(CustomRule, UnimportedCustomDomainHasNoRule) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2}));
  g.node("Twice", {"x"}, {"y"}, {}, "com.acme");
  InferenceOptions options;
  options.user_rules = &custom::rules();  // two versions of Twice: which one an unimported domain means is unknown
  Report r = infer_shapes(m, options);
  ASSERT_WARNING(r, "no shape rule for com.acme::Twice");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
}
TEST(CustomRule, UnimportedDomainOfOneVersionUsesIt) {
  UserRules one;
  one.add("com.once", "Twice", 2, &custom::infer_twice);
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2}));
  g.node("Twice", {"x"}, {"y"}, {}, "com.once");
  InferenceOptions options;
  options.user_rules = &one;
  Report r = infer_shapes(m, options);
  ASSERT_WARNING(r, "does not import that domain; inferring with its version-2 rules");
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {4}));
}
TEST(CustomRule, TakesPrecedenceOverBuiltin) {
  EXPECT_EQ(Op("Xor").user_rules(&custom::rules()).infer({ts(BOOL, {3}), ts(BOOL, {3})}), (Types{ts(INT8, {42})}));
  ResolvedRule r = resolve_rule(ops::kBuiltinRules, &custom::rules(), "", "Xor", 18);
  EXPECT_TRUE(r.user);
  EXPECT_EQ(r.fn, &custom::infer_fake_xor);
}
TEST(CustomRule, WithoutTheTableTheBuiltinsServe) {
  EXPECT_EQ(Op("Xor").infer({ts(BOOL, {3}), ts(BOOL, {3})}), (Types{ts(BOOL, {3})}));
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, nullptr, "", "Xor", 18).user);
  ASSERT_WARNING(Op("com.acme", "Twice").run({ts(FLOAT, {3})}).report, "no shape rule for com.acme::Twice");
}
TEST(CustomRule, BuiltinStillUsedBelowTheCustomVersion) {
  // The custom Or starts at 30; at 18 the built-in one applies.
  const UserRules* user = &custom::rules();
  EXPECT_EQ(Op("Or").user_rules(user).infer({ts(BOOL, {3}), ts(BOOL, {1})}), (Types{ts(BOOL, {3})}));
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, user, "", "Or", 18).user);
  EXPECT_EQ(Op("Or").user_rules(user).opset(30).infer({ts(BOOL, {3}), ts(BOOL, {1})}), (Types{ts(INT8, {42})}));
}
TEST(CustomRule, AddReplacesTheSameKeyAndRemoveDropsIt) {
  UserRules t;
  t.add("com.late", "Late", 1, &custom::infer_fake_xor);
  t.add("com.late", "Late", 1, &custom::infer_twice);  // the same key: replaced
  EXPECT_EQ(t.entries().size(), 1u);
  EXPECT_EQ(Op("com.late", "Late").user_rules(&t).infer({ts(FLOAT, {3})}), (Types{ts(FLOAT, {6})}));
  EXPECT_FALSE(t.remove("com.late", "Late", 2));
  EXPECT_TRUE(t.remove("com.late", "Late", 1));
  EXPECT_TRUE(t.empty());
}
TEST(CustomRule, CustomRuleErrorsAreReported) {
  RunResult r = Op("com.acme", "Twice").user_rules(&custom::rules()).run({});
  EXPECT_ERROR(r.report, "missing required input 0");
  EXPECT_EQ(r.report.diagnostics.at(0).op_type, "Twice");
}
