// Deeply nested subgraphs: inferred up to kMaxSubgraphDepth levels, an error
// (never a stack overflow) beyond.
#include "graph_test_util.hpp"

namespace {

// If(c) whose then_branch holds If(c) ... `depth` levels down; every branch
// ends in x. Built iteratively.
Model nested_ifs(int depth) {
  Model m = make_model();
  GraphBuilder(*m.graph).input("c", ts(BOOL, {}));
  GraphBuilder(*m.graph).input("x", ts(FLOAT, {"N", 3}));
  Graph* g = m.graph.get();
  for (int level = 0; level < depth; ++level) {
    auto t = make_subgraph(*g, "then" + std::to_string(level));
    auto e = make_subgraph(*g, "else" + std::to_string(level));
    GraphBuilder(*e).node("Identity", {"x"}, {"e" + std::to_string(level)});
    GraphBuilder(*e).output("e" + std::to_string(level));
    GraphBuilder(*g).node("If", {"c"}, {"y" + std::to_string(level)},
                          {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "",
                          "if" + std::to_string(level));
    GraphBuilder(*g).output("y" + std::to_string(level));
    g = t.get();
  }
  GraphBuilder(*g).node("Identity", {"x"}, {"y" + std::to_string(depth)}, {}, "", "innermost");
  GraphBuilder(*g).output("y" + std::to_string(depth));
  return m;
}

// Loop whose body holds a Loop ... `depth` levels down, each carrying one
// value; the innermost body concatenates it with itself, so that its type
// changes from one iteration to the next and every level is inferred again.
Model nested_loops(int depth) {
  Model m = make_model();
  GraphBuilder(*m.graph).input("x", ts(FLOAT, {"N"}));
  GraphBuilder(*m.graph).initializer("M", Tensor::scalar(3));
  Graph* g = m.graph.get();
  std::string carried = "x";
  for (int k = 0; k < depth; ++k) {
    const std::string s = std::to_string(k);
    auto body = make_subgraph(*g, "body" + s);
    GraphBuilder b(*body);
    b.input("i" + s, Type());
    b.input("c" + s, Type());
    b.input("s" + s, Type());
    GraphBuilder(*g).node("Loop", {"M", "", carried}, {"out" + s}, {graph_attr("body", body)}, "", "loop" + s);
    GraphBuilder(*g).output("out" + s);
    g = body.get();
    carried = "s" + s;
    GraphBuilder(*g).output("c" + s);
  }
  GraphBuilder(*g).node("Concat", {carried, carried}, {"cc"}, {attr("axis", 0)});
  GraphBuilder(*g).output("cc");
  return m;
}

}  // namespace

TEST(Depth, NestedUpToTheLimitIsInferred) {
  Model m = nested_ifs(kMaxSubgraphDepth);
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].to_string());
  EXPECT_EQ(type_of(*m.graph, "y0"), ts(FLOAT, {"N", 3}));
}

TEST(Depth, DeeperThanTheLimitIsAnError) {
  Model m = nested_ifs(3 * kMaxSubgraphDepth);
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "subgraphs nested deeper than 1024 are not inferred");  // once, for both branches
  const Diagnostic& d = r.diagnostics.at(0);
  EXPECT_EQ(d.kind, DiagnosticKind::Graph);
  EXPECT_EQ(d.node, "if" + std::to_string(kMaxSubgraphDepth));
}

TEST(Depth, NestedLoopsStopAtTheBudget) {
  // Each level infers its body at least twice: 2^40 inferences without a budget.
  Model m = nested_loops(40);
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "subgraphs inferred too many times");
  Model few = nested_loops(4);
  Report ok = infer_shapes(few);
  EXPECT_TRUE(ok.ok()) << diagnostics_text(ok);
  EXPECT_EQ(type_of(*few.graph, "out0").shape().rank(), 1);
}
