// Subgraphs through the engine: outer-scope values, nesting, ordering by
// values a subgraph reads, If merging and Loop generalisation.
#include "graph_test_util.hpp"

TEST(Subgraph, OuterScopeValuesAreVisibleAndOrderedFirst) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  g.input("c", ts(BOOL, {}));
  // Values are resolved by name when a node is built: "outer" must exist in
  // the model graph before the branch refers to it (its producer comes later).
  m.graph->create_value("outer");
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).node("Mul", {"outer", "x"}, {"t"});  // reads "outer", produced later in the file
  GraphBuilder(*t).output("t");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).output("x");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  g.node("Add", {"x", "x"}, {"outer"}, {}, "", "producer");
  g.output("y");
  std::vector<Node*> order;
  const Node* cycle = nullptr;
  ASSERT_TRUE(Engine::topological_order(*m.graph, order, cycle));
  EXPECT_EQ(order.at(0)->name, "producer");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*t, "t"), ts(FLOAT, {"N", 3}));
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"N", 3}));
}

TEST(Subgraph, NestedSubgraphsSeeEveryEnclosingScope) {
  // Loop body -> If branch -> reads x (model graph) and s (Loop body).
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.input("c", ts(BOOL, {}));
  g.initializer("M", Tensor::scalar(3));
  auto body = make_subgraph(*m.graph, "body");
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  auto t = make_subgraph(*body, "then");
  GraphBuilder(*t).node("Add", {"s", "x"}, {"inner"});
  GraphBuilder(*t).output("inner");
  auto e = make_subgraph(*body, "else");
  GraphBuilder(*e).node("Mul", {"x", "x"}, {"other"});
  GraphBuilder(*e).output("other");
  b.node("If", {"c"}, {"s_out"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)});
  b.output("cond_in");
  b.output("s_out");
  b.output("s_out");
  g.node("Loop", {"M", "", "x"}, {"final", "all"}, {graph_attr("body", body)}, "", "loop");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*t, "inner"), ts(FLOAT, {"N", 4}));
  EXPECT_EQ(type_of(*m.graph, "final"), ts(FLOAT, {"N", 4}));
  EXPECT_EQ(type_of(*m.graph, "all"), ts(FLOAT, {3, "N", 4}));
}

TEST(Subgraph, SubgraphValuesShadowOuterOnes) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("v", ts(FLOAT, {"N"}));
  g.initializer("M", Tensor::scalar(2));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("v", Type());  // shadows the outer v
  b.node("Add", {"v", "v"}, {"v_out"});
  b.output("cond_in");
  b.output("v_out");
  g.input("w", ts(INT64, {5}));
  g.node("Loop", {"M", "", "w"}, {"wf"}, {graph_attr("body", body)});
  infer_shapes(m);
  EXPECT_EQ(type_of(*body, "v_out"), ts(INT64, {5}));
  EXPECT_EQ(type_of(*m.graph, "v"), ts(FLOAT, {"N"}));
}

TEST(Subgraph, IfWithDifferingBranchDims) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"B", "S", 64}));
  g.input("c", ts(BOOL, {}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).node("Concat", {"x", "x"}, {"wide"}, {attr("axis", 1)});
  GraphBuilder(*t).output("wide");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).node("Relu", {"x"}, {"same"});
  GraphBuilder(*e).output("same");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  g.node("Add", {"y", "y"}, {"z"});
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*t, "wide"), ts(FLOAT, {"B", "2*S", 64}));
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"B", "_d0", 64}));
  EXPECT_EQ(type_of(*m.graph, "z"), ts(FLOAT, {"B", "_d0", 64}));
}

TEST(Subgraph, LoopWithAGrowingCarriedDim) {
  // s grows by one row per iteration: s_out = Concat(s, row; axis 0).
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("s0", ts(FLOAT, {"K", 8}));
  g.input("row", ts(FLOAT, {1, 8}));
  g.initializer("M", Tensor::scalar(10));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  b.node("Concat", {"s", "row"}, {"s_out"}, {attr("axis", 0)});
  b.node("Relu", {"row"}, {"scan"});
  b.output("cond_in");
  b.output("s_out");
  b.output("scan");
  g.node("Loop", {"M", "", "s0"}, {"s_final", "rows"}, {graph_attr("body", body)}, "", "loop");
  g.node("Relu", {"s_final"}, {"after"});
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  // Inside the body the carried dim is a generalised symbol.
  EXPECT_EQ(type_of(*body, "s"), ts(FLOAT, {"_d0", 8}));
  EXPECT_EQ(type_of(*body, "s_out"), ts(FLOAT, {"_d0 + 1", 8}));
  // Outside it is a fresh dim, distinct from K; the width stays.
  const Type s_final = type_of(*m.graph, "s_final");
  ASSERT_TRUE(s_final.shape().has_rank());
  ASSERT_EQ(s_final.shape().size(), 2u);
  EXPECT_TRUE(s_final.shape()[0].is_symbolic());
  EXPECT_NE(s_final.shape()[0], SymbolicDim("K"));
  EXPECT_NE(s_final.shape()[0], SymbolicDim("_d0"));
  EXPECT_EQ(s_final.shape()[1], SymbolicDim(8));
  EXPECT_EQ(type_of(*m.graph, "after"), s_final);
  EXPECT_EQ(type_of(*m.graph, "rows"), ts(FLOAT, {10, 1, 8}));
}

TEST(Subgraph, LoopWithAStableCarriedDimIsNotGeneralised) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("s0", ts(FLOAT, {"K", 8}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  b.node("Relu", {"s"}, {"s_out"});
  b.output("cond_in");
  b.output("s_out");
  g.input("cond", ts(BOOL, {}));
  g.node("Loop", {"", "cond", "s0"}, {"s_final"}, {graph_attr("body", body)});
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*body, "s"), ts(FLOAT, {"K", 8}));
  EXPECT_EQ(type_of(*m.graph, "s_final"), ts(FLOAT, {"K", 8}));
}

TEST(Subgraph, ErrorsInsideABodyAreReportedAndTheRestGoesOn) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2, 3}));
  g.input("c", ts(BOOL, {}));
  g.input("bad_shape", ts(FLOAT, {4}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).node("Add", {"x", "bad_shape"}, {"t"}, {}, "", "inner_bad");
  GraphBuilder(*t).output("t");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).output("x");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  g.node("Relu", {"x"}, {"z"});
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "cannot broadcast [2,3] with [4]");
  EXPECT_EQ(r.diagnostics.at(0).node, "inner_bad");
  EXPECT_EQ(type_of(*m.graph, "z"), ts(FLOAT, {2, 3}));
}

TEST(Subgraph, RerunningIsStable) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  g.input("y", ts(FLOAT, {"N", 5}));
  g.input("c", ts(BOOL, {}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).output("x");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).output("y");
  g.node("If", {"c"}, {"out"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)});
  EXPECT_TRUE(infer_shapes(m).modified);
  const Type first = type_of(*m.graph, "out");
  EXPECT_EQ(first, ts(FLOAT, {"N", "_d0"}));
  InferenceOptions strict;
  strict.policy = MergePolicy::Strict;
  Report again = infer_shapes(m, strict);
  EXPECT_TRUE(again.ok()) << diagnostics_text(again);
  EXPECT_FALSE(again.modified);
  EXPECT_EQ(type_of(*m.graph, "out"), first);
}

TEST(Subgraph, RerunningWithBodiesIsNotAModification) {
  // Bodies are inferred again on every run; only real changes count.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  g.input("row", ts(FLOAT, {1, 3}));
  g.input("c", ts(BOOL, {}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).node("Concat", {"x", "x"}, {"t_out"}, {attr("axis", 0)});
  GraphBuilder(*t).output("t_out");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).node("Relu", {"x"}, {"e_out"});
  GraphBuilder(*e).output("e_out");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)});
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("i", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  b.node("Concat", {"s", "row"}, {"s_out"}, {attr("axis", 0)});
  b.output("cond_in");
  b.output("s_out");
  g.node("Loop", {"", "c", "y"}, {"grown"}, {graph_attr("body", body)});
  ASSERT_TRUE(infer_shapes(m).modified);
  const Type grown = type_of(*m.graph, "grown");
  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Refine, MergePolicy::Strict}) {
    InferenceOptions o;
    o.policy = p;
    Report again = infer_shapes(m, o);
    EXPECT_TRUE(again.ok()) << diagnostics_text(again);
    EXPECT_FALSE(again.modified) << to_string(p);
    EXPECT_EQ(type_of(*m.graph, "grown"), grown);
  }
  // A real change inside a body is a modification.
  m.graph->find("x")->type = ts(FLOAT, {"N", 4});
  m.graph->find("row")->type = ts(FLOAT, {1, 4});
  EXPECT_TRUE(infer_shapes(m).modified);
  EXPECT_EQ(type_of(*e, "e_out"), ts(FLOAT, {"N", 4}));
}
