// Diagnostics and contracts name their node's place (Diagnostic::where,
// Contract::where): its index in its graph, and the subgraph or function
// around it, as the engine walks the model. Nodes keep their own names.
#include "graph_test_util.hpp"

namespace {

// An Add of [3] and [4]: a broadcast error at this node.
void bad_add(GraphBuilder& b, const std::string& name) {
  b.node("Add", {"three", "four"}, {name + "_out"}, {}, "", name);
}

}  // namespace

TEST(Places, MainGraphNodesByIndex) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("three", ts(FLOAT, {3}));
  g.input("four", ts(FLOAT, {4}));
  g.node("Relu", {"three"}, {"r"}, {}, "", "relu");
  bad_add(g, "add");
  const Report r = infer_shapes(m);
  ASSERT_EQ(r.diagnostics.size(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics[0].where, "node #1 'add' (Add)");
  EXPECT_EQ(r.diagnostics[0].node, "add");  // the node's own name, never a token
  EXPECT_EQ(m.graph->nodes[1]->name, "add");
}

TEST(Places, UnnamedNodeAndDomain) {
  Model m = make_model();
  m.opset_imports["com.acme"] = 1;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Mystery", {"x"}, {"y"}, {}, "com.acme", "");
  const Report r = infer_shapes(m);
  ASSERT_EQ(r.diagnostics.size(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics[0].where, "node #0 (com.acme::Mystery)");
}

TEST(Places, NodeInAnIfBranch) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("three", ts(FLOAT, {3}));
  g.input("four", ts(FLOAT, {4}));
  g.input("c", ts(BOOL, {}));
  auto then_g = make_subgraph(*m.graph, "then_graph");
  {
    GraphBuilder b(*then_g);
    b.node("Relu", {"three"}, {"t0"}, {}, "", "first");
    bad_add(b, "inner");
    b.output("inner_out");
  }
  auto else_g = make_subgraph(*m.graph, "else_graph");
  {
    GraphBuilder b(*else_g);
    b.node("Relu", {"three"}, {"e"}, {}, "", "other");
    b.output("e");
  }
  g.node("Identity", {"three"}, {"i"}, {}, "", "before");
  g.node("If", {"c"}, {"out"}, {graph_attr("then_branch", then_g), graph_attr("else_branch", else_g)}, "", "branch");
  const Report r = infer_shapes(m);
  ASSERT_GE(r.diagnostics.size(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics[0].where, "node #1 'inner' (Add) in subgraph 'then_graph' of node #1 'branch' (If)")
      << diagnostics_text(r);
}

TEST(Places, NodeInAFunctionBody) {
  Model m = make_model();
  m.opset_imports["com.local"] = 1;
  Function f;
  f.domain = "com.local";
  f.name = "Bad";
  f.opset_imports[""] = 18;
  {
    GraphBuilder b(*f.body);
    b.input("three", Type());
    b.input("four", Type());
    bad_add(b, "body_add");
    b.output("body_add_out");
  }
  m.functions.push_back(std::move(f));
  GraphBuilder g(*m.graph);
  g.input("three", ts(FLOAT, {3}));
  g.input("four", ts(FLOAT, {4}));
  g.node("Bad", {"three", "four"}, {"y"}, {}, "com.local", "call");
  const Report r = infer_shapes(m);
  ASSERT_GE(r.diagnostics.size(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics[0].where, "node #0 'body_add' (Add) in function 'com.local::Bad'") << diagnostics_text(r);
}

TEST(Places, ContractsToo) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"n"}));
  g.input("b", ts(FLOAT, {"k"}));
  g.node("Relu", {"a"}, {"r"}, {}, "", "relu");
  g.node("Add", {"r", "b"}, {"s"}, {}, "", "sum");
  const Report r = infer_shapes(m);
  ASSERT_EQ(r.contracts.size(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.contracts[0].where, "node #1 'sum' (Add)");
}

TEST(Places, CycleNamesItsNodeByIndex) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Add", {"x", "q"}, {"p"}, {}, "", "p_node");
  g.node("Relu", {"p"}, {"q"}, {}, "", "q_node");
  const Report r = infer_shapes(m);
  ASSERT_GE(r.diagnostics.size(), 1u) << diagnostics_text(r);
  EXPECT_NE(r.diagnostics[0].where.find("node #"), std::string::npos) << diagnostics_text(r);
  EXPECT_NE(r.diagnostics[0].message.find("has a cycle"), std::string::npos) << diagnostics_text(r);
}

TEST(Places, TraceLinesOfAFunctionBodyNameTheFunction) {
  Model m = make_model();
  m.opset_imports["com.local"] = 1;
  Function f;
  f.domain = "com.local";
  f.name = "Twice";
  f.opset_imports[""] = 18;
  {
    GraphBuilder b(*f.body);
    b.input("x", Type());
    b.node("Add", {"x", "x"}, {"y"}, {}, "", "body_add");
    b.output("y");
  }
  m.functions.push_back(std::move(f));
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"N"}));
  g.node("Twice", {"a"}, {"b"}, {}, "com.local", "call");
  std::vector<std::string> lines;
  InferenceOptions o;
  o.trace = [&](const std::string& l) { lines.push_back(l); };
  infer_shapes(m, o);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("[N], [N] -> [N]  (body_add) in function 'com.local::Twice'"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find(" in "), std::string::npos) << lines[1];  // the call, in the main graph
}
