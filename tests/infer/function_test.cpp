// Model-local functions are inferred through their bodies, with attribute
// references bound to the caller's attributes or the function's defaults.
#include "graph_test_util.hpp"

namespace {

// com.local::Double(x) = Add(x, x).
Function double_function() {
  Function f;
  f.domain = "com.local";
  f.name = "Double";
  f.opset_imports[""] = 18;
  GraphBuilder b(*f.body);
  b.input("x", Type());
  b.node("Add", {"x", "x"}, {"y"});
  b.output("y");
  return f;
}

// com.local::SelfConcat(x) = Concat(x, x; axis = @concat_axis), default axis 0.
Function self_concat_function() {
  Function f;
  f.domain = "com.local";
  f.name = "SelfConcat";
  f.opset_imports[""] = 18;
  f.attribute_names = {"concat_axis"};
  f.attribute_defaults.push_back(Attribute::make_int("concat_axis", 0));
  GraphBuilder b(*f.body);
  b.input("x", Type());
  Attribute axis;
  axis.name = "axis";
  axis.kind = Attribute::Kind::Int;
  axis.ref_attr_name = "concat_axis";
  b.node("Concat", {"x", "x"}, {"y"}, {axis});
  b.output("y");
  return f;
}

Model model_with(std::vector<Function> fs, int64_t opset = 18) {
  Model m = make_model(opset);
  m.opset_imports["com.local"] = 1;
  for (auto& f : fs) m.functions.push_back(std::move(f));
  return m;
}

}  // namespace

TEST(Function, InferredThroughTheBody) {
  Model m = model_with({double_function()});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.node("Double", {"a"}, {"b"}, {}, "com.local", "call");
  g.output("b");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(r.warnings(), 0u) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "b"), ts(FLOAT, {"N", 3}));
}

TEST(Function, TwoCallsWithDifferentShapes) {
  Model m = model_with({double_function()});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.input("c", ts(INT64, {7}));
  g.node("Double", {"a"}, {"b"}, {}, "com.local");
  g.node("Double", {"c"}, {"d"}, {}, "com.local");
  infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "b"), ts(FLOAT, {"N", 3}));
  EXPECT_EQ(type_of(*m.graph, "d"), ts(INT64, {7}));
}

TEST(Function, AttributeReferenceUsesTheCallersAttribute) {
  Model m = model_with({self_concat_function()});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.node("SelfConcat", {"a"}, {"on1"}, {attr("concat_axis", 1)}, "com.local");
  g.node("SelfConcat", {"a"}, {"on0"}, {}, "com.local");  // the default, 0
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "on1"), ts(FLOAT, {"N", 6}));
  EXPECT_EQ(type_of(*m.graph, "on0"), ts(FLOAT, {"2*N", 3}));
  // The body's attribute reference is restored after each call.
  const Attribute* a = m.functions[0].body->nodes[0]->attr("axis");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->ref_attr_name, "concat_axis");
}

TEST(Function, AttributeReferenceErrorsAreReported) {
  Model m = model_with({self_concat_function()});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.node("SelfConcat", {"a"}, {"bad"}, {attr("concat_axis", 5)}, "com.local", "call");
  g.node("Add", {"a", "a"}, {"after"});
  Report r = infer_shapes(m);
  EXPECT_ERROR(r, "axis 5 is out of range");
  EXPECT_EQ(type_of(*m.graph, "after"), ts(FLOAT, {"N", 3}));
}

TEST(Function, BodyUsesTheFunctionsOpsetImports) {
  // The model imports opset 14 (no Optional); the function imports 15.
  Function f;
  f.domain = "com.local";
  f.name = "Wrap";
  f.opset_imports[""] = 15;
  GraphBuilder b(*f.body);
  b.input("x", Type());
  b.node("Optional", {"x"}, {"y"});
  b.output("y");
  Model m = model_with({std::move(f)}, 14);
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {2}));
  g.node("Wrap", {"a"}, {"w"}, {}, "com.local");
  g.node("Optional", {"a"}, {"direct"});
  Report r = infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "w"), Type::optional(ts(FLOAT, {2})));
  // Outside the function the model's opset applies again.
  EXPECT_TRUE(type_of(*m.graph, "direct").is_unknown());
  EXPECT_WARNING(r, "no shape rule for ai.onnx::Optional");
}

TEST(Function, NestedCalls) {
  Function quad;
  quad.domain = "com.local";
  quad.name = "Quad";
  quad.opset_imports[""] = 18;
  quad.opset_imports["com.local"] = 1;
  GraphBuilder b(*quad.body);
  b.input("x", Type());
  b.node("Double", {"x"}, {"t"}, {}, "com.local");
  b.node("Double", {"t"}, {"y"}, {}, "com.local");
  b.output("y");
  Model m = model_with({double_function(), std::move(quad)});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.node("Quad", {"a"}, {"q"}, {}, "com.local");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "q"), ts(FLOAT, {"N", 3}));
}

TEST(Function, RecursionIsAnErrorNotACrash) {
  Function f;
  f.domain = "com.local";
  f.name = "Forever";
  f.opset_imports["com.local"] = 1;
  GraphBuilder b(*f.body);
  b.input("x", Type());
  b.node("Forever", {"x"}, {"y"}, {}, "com.local");
  b.output("y");
  Model m = model_with({std::move(f)});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {2}));
  g.node("Forever", {"a"}, {"b"}, {}, "com.local", "call");
  g.node("Add", {"a", "a"}, {"c"});
  Report r = infer_shapes(m);
  EXPECT_ERROR(r, "nested deeper than");
  EXPECT_EQ(type_of(*m.graph, "c"), ts(FLOAT, {2}));
}

TEST(Function, PropagatesSymbolicValues) {
  Function f;
  f.domain = "com.local";
  f.name = "ShapeOf";
  f.opset_imports[""] = 18;
  GraphBuilder b(*f.body);
  b.input("x", Type());
  b.node("Shape", {"x"}, {"s"});
  b.output("s");
  Model m = model_with({std::move(f)});
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.node("ShapeOf", {"a"}, {"s"}, {}, "com.local");
  g.node("Reshape", {"a", "s"}, {"r"});
  infer_shapes(m);
  const Value* s = m.graph->find("s");
  ASSERT_TRUE(s && s->symbolic_value);
  EXPECT_EQ(*s->symbolic_value, dims({"N", 3}));
  EXPECT_EQ(type_of(*m.graph, "r"), ts(FLOAT, {"N", 3}));
}
