// Nodes checked against their ONNX schema before the rule runs
// (infer/schema.hpp, table ops/schemas.hpp): input and output counts, omitted
// required inputs and outputs, unknown attributes, attributes of the wrong
// kind, missing required attributes; and the warnings for versions newer than
// symshape knows.
#include "graph_test_util.hpp"

namespace {

Attribute floats_attr(const std::string& name, std::vector<double> v) {
  Attribute a;
  a.name = name;
  a.kind = Attribute::Kind::Floats;
  a.floats = std::move(v);
  return a;
}

}  // namespace

TEST(Schema, TableIsSortedAndFindsExactVersions) {
  const SchemaTable& t = ops::kSchemas;
  ASSERT_GT(t.size, 400u);
  for (std::size_t i = 1; i < t.size; ++i) {
    const OperatorSchema& a = t.rows[i - 1];
    const OperatorSchema& b = t.rows[i];
    EXPECT_TRUE(std::tie(a.domain, a.op_type, a.since_version) < std::tie(b.domain, b.op_type, b.since_version))
        << a.op_type << "-" << a.since_version << " before " << b.op_type << "-" << b.since_version;
    EXPECT_LE(b.first_attribute + b.attribute_count, static_cast<int>(t.attribute_size));
  }
  const OperatorSchema* add = t.find("", "Add", 14);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->min_inputs, 2);
  EXPECT_EQ(add->max_inputs, 2);
  EXPECT_EQ(t.find("ai.onnx", "Add", 14), add);
  EXPECT_EQ(t.find("", "Add", 15), nullptr);  // no Add-15: only exact versions
  const OperatorSchema* concat = t.find("", "Concat", 13);
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->max_inputs, kUnbounded);
  EXPECT_EQ(concat->inputs, "V");
  ASSERT_NE(t.attribute(*concat, "axis"), nullptr);
  EXPECT_TRUE(t.attribute(*concat, "axis")->required);
  EXPECT_EQ(t.find("ai.onnx.ml", "ZipMap", 1)->domain, "ai.onnx.ml");
  EXPECT_EQ(t.find("com.acme", "Add", 14), nullptr);
}

TEST(Schema, TooManyInputsIsAnErrorAndTheRuleDoesNotRun) {
  RunResult r = Op("Add").opset(14).run({ts(FLOAT, {"N"}), ts(FLOAT, {"N"}), ts(FLOAT, {"N"})});
  EXPECT_ERROR(r.report, "Add-14 takes at most 2 inputs, got 3");
  EXPECT_EQ(r.report.diagnostics.size(), 1u);
  EXPECT_TRUE(r.outputs.at(0).is_unknown());
}

TEST(Schema, TooFewInputsAndOmittedRequiredInputs) {
  EXPECT_ERROR(Op("Add").opset(14).run({ts(FLOAT, {2})}).report,
               "missing required input 1 (Add-14 needs at least 2 inputs)");
  // An empty name in a single (required) position is missing too.
  EXPECT_ERROR(Op("Conv").opset(11).run({ts(FLOAT, {1, 3, 8, 8}), omitted()}).report, "missing required input 1");
  // Omitted optional inputs are fine: Clip-13 without min, with max.
  RunResult clip = Op("Clip").opset(13).run({ts(FLOAT, {"N", 4}), omitted(), ts(FLOAT, {})});
  EXPECT_TRUE(clip.report.ok()) << diagnostics_text(clip.report);
  EXPECT_EQ(clip.outputs.at(0), ts(FLOAT, {"N", 4}));
}

TEST(Schema, VariadicInputsTakeAnyCountFromTheMinimum) {
  std::vector<In> many(40, ts(FLOAT, {"N", 2}));
  RunResult r = Op("Concat").opset(13).run(many, {attr("axis", 1)});
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  EXPECT_EQ(r.outputs.at(0), ts(FLOAT, {"N", 80}));
  EXPECT_ERROR(Op("Concat").opset(13).run({}, {attr("axis", 0)}).report,
               "missing required input 0 (Concat-13 needs at least 1 input)");
}

TEST(Schema, OutputCounts) {
  EXPECT_ERROR(Op("Relu").opset(14).outputs(2).run({ts(FLOAT, {3})}).report,
               "Relu-14 produces at most 1 output, got 2");
  EXPECT_ERROR(Op("Relu").opset(14).outputs(0).run({ts(FLOAT, {3})}).report,
               "missing required output 0 (Relu-14 needs at least 1 output)");
  // Split's outputs are variadic; Dropout's mask is optional.
  RunResult split = Op("Split").opset(13).outputs(3).run({ts(FLOAT, {6})});
  EXPECT_TRUE(split.report.ok()) << diagnostics_text(split.report);
  EXPECT_EQ(split.outputs.at(2), ts(FLOAT, {2}));
  EXPECT_TRUE(Op("Dropout").opset(13).outputs(1).run({ts(FLOAT, {3})}).report.ok());
}

TEST(Schema, Attributes) {
  EXPECT_ERROR(Op("Gemm").opset(13).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3, 4})}, {attr("foo", 3)}).report,
               "unknown attribute 'foo' for Gemm-13");
  EXPECT_ERROR(Op("Relu").opset(14).run({ts(FLOAT, {3})}, {attr("alpha", 0.5)}).report,
               "unknown attribute 'alpha' for Relu-14");
  EXPECT_ERROR(Op("Transpose").opset(13).run({ts(FLOAT, {2, 3})}, {floats_attr("perm", {1.0, 0.0})}).report,
               "attribute 'perm' is FLOATS, expected INTS");
  EXPECT_ERROR(Op("Concat").opset(13).run({ts(FLOAT, {2})}).report, "missing required attribute 'axis' (Concat-13)");
  // The attributes of that version: Add-6 still has 'broadcast', Add-7 not.
  EXPECT_TRUE(Op("Add").opset(6).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("broadcast", 1)}).report.ok());
  EXPECT_ERROR(Op("Add").opset(7).run({ts(FLOAT, {2, 3}), ts(FLOAT, {3})}, {attr("broadcast", 1)}).report,
               "unknown attribute 'broadcast' for Add-7");
}

TEST(Schema, ErrorNamesTheNode) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N"}));
  g.node("Relu", {"x"}, {"a"}, {}, "", "first");
  g.node("Add", {"a", "a", "a"}, {"b"}, {}, "", "three");
  g.node("Relu", {"a"}, {"c"}, {}, "", "after");
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "takes at most 2 inputs");
  EXPECT_EQ(r.diagnostics.at(0).node, "three");
  EXPECT_EQ(r.diagnostics.at(0).op_type, "Add");
  EXPECT_EQ(type_of(*m.graph, "c"), ts(FLOAT, {"N"}));  // the rest is still inferred
}

TEST(Schema, WithoutATableNothingIsChecked) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Relu", {"x"}, {"y"}, {attr("alpha", 0.5)});
  EXPECT_TRUE(infer_shapes_with(ops::kBuiltinRules, m, {}, SchemaTable()).ok());
  EXPECT_FALSE(infer_shapes(m).ok());
}

TEST(Schema, NewerVersionsThanKnownAreWarnings) {
  Model m = make_model(99);
  m.ir_version = 99;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Relu", {"x"}, {"y"});
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  const std::string text = diagnostics_text(r);
  EXPECT_NE(text.find("ir_version 99 is newer than symshape knows (13)"), std::string::npos) << text;
  EXPECT_NE(text.find("opset ai.onnx 99 is newer than symshape knows"), std::string::npos) << text;
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {3}));
  Model current = make_model(17);
  GraphBuilder(*current.graph).input("x", ts(FLOAT, {3}));
  EXPECT_TRUE(infer_shapes(current).diagnostics.empty());
}
