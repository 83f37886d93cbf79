// Bytes of outputs, activation totals, peak live bytes (worked by hand on
// small graphs), parameters, subgraphs and grouping.
#include "profile_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;
using profile::FlopKind;

namespace {

// x [N,4] -> a = Relu(x); b = Exp(a); c = MatMul(a, W[4,16]); d = ReduceSum(c, axis 1, keepdims);
// e = Mul(b, d), the output. Live bytes per step (float, 4 bytes):
//   0 {a} 16N; 1 {a,b} 32N; 2 {a,b,c} 96N (a's last use); 3 {b,c,d} 84N; 4 {b,d,e} 36N.
Model diamond() {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.initializer("W", Tensor::floats(std::vector<double>(64, 0.5), {4, 16}));
  g.initializer("axes", Tensor::vector({1}));
  g.node("Relu", {"x"}, {"a"}, {}, "", "/enc/relu");
  g.node("Exp", {"a"}, {"b"}, {}, "", "/enc/exp");
  g.node("MatMul", {"a", "W"}, {"c"}, {}, "", "/proj/MatMul");
  g.node("ReduceSum", {"c", "axes"}, {"d"}, {attr("keepdims", 1)}, "", "/proj/ReduceSum");
  g.node("Mul", {"b", "d"}, {"e"}, {}, "", "mul");
  g.output("e");
  return m;
}

TEST(ProfileMemory, OutputBytesAreElementsTimesElementSize) {
  Model m = diamond();
  const profile::ModelProfile p = infer_and_profile(m);
  ASSERT_EQ(p.nodes.size(), 5u);
  EXPECT_EQ(p.nodes[2].outputs[0].name, "c");
  EXPECT_EQ(p.nodes[2].outputs[0].bytes.to_string(), canon("N*16*4"));
  EXPECT_EQ(p.nodes[3].outputs[0].bytes.to_string(), canon("N*1*4"));
  EXPECT_EQ(p.activation_bytes.to_string(), canon("16*N + 16*N + 64*N + 4*N + 16*N"));
}

TEST(ProfileMemory, PeakLiveOnADiamondByHand) {
  Model m = diamond();
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.peak_activation_bytes.to_string(), canon("96*N"));
  EXPECT_EQ(value_at(p.peak_activation_bytes, {{"N", 3}}), 288);
}

// Two independent chains of incomparable sizes: x [N,M] -> a = Relu(x) ->
// s = ReduceSum(a) (scalar output); y [K] -> c = Relu(y) -> t = ReduceSum(c).
// Steps: 0 {a} 4NM; 1 {a,s} 4NM+4; 2 {s,c} 4K+4; 3 {s,c,t} 4K+8.
TEST(ProfileMemory, PeakIsAMaxWhenNoStepDominates) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", "M"}));
  g.input("y", ts(FLOAT, {"K"}));
  g.node("Relu", {"x"}, {"a"});
  g.node("ReduceSum", {"a"}, {"s"}, {attr("keepdims", 0)});
  g.node("Relu", {"y"}, {"c"});
  g.node("ReduceSum", {"c"}, {"t"}, {attr("keepdims", 0)});
  g.output("s");
  g.output("t");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.peak_activation_bytes.to_string(), canon("Max(4*N*M + 4, 4*K + 8)"));
  EXPECT_EQ(value_at(p.peak_activation_bytes, {{"N", 1}, {"M", 1}, {"K", 100}}), 408);
  EXPECT_EQ(value_at(p.peak_activation_bytes, {{"N", 10}, {"M", 10}, {"K", 1}}), 404);
}

// The candidates of the peak and the one that wins at given bindings: on the
// diamond one step (2, the MatMul) dominates every other; on the two chains
// steps 1 and 3 are incomparable and the bindings decide.
TEST(ProfileMemory, PeakCandidatesNameTheStepThatWins) {
  Model d = diamond();
  const profile::ModelProfile p = infer_and_profile(d);
  ASSERT_EQ(p.peak_candidates.size(), 1u);
  EXPECT_EQ(p.peak_candidates[0].step, 2u);
  EXPECT_EQ(p.nodes[p.peak_candidates[0].step].op_type, "MatMul");
  EXPECT_EQ(profile::largest_candidate_at(p.peak_candidates, {{"N", 3}}), std::optional<std::size_t>(0));

  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", "M"}));
  g.input("y", ts(FLOAT, {"K"}));
  g.node("Relu", {"x"}, {"a"});
  g.node("ReduceSum", {"a"}, {"s"}, {attr("keepdims", 0)});
  g.node("Relu", {"y"}, {"c"});
  g.node("ReduceSum", {"c"}, {"t"}, {attr("keepdims", 0)});
  g.output("s");
  g.output("t");
  const profile::ModelProfile q = infer_and_profile(m);
  ASSERT_EQ(q.peak_candidates.size(), 2u);
  EXPECT_EQ(q.peak_candidates[0].step, 1u);
  EXPECT_EQ(SymbolicDim(q.peak_candidates[0].bytes).to_string(), canon("4*N*M + 4"));
  EXPECT_EQ(q.peak_candidates[1].step, 3u);
  EXPECT_EQ(SymbolicDim(q.peak_candidates[1].bytes).to_string(), canon("4*K + 8"));
  const std::vector<profile::PeakCandidate>& c = q.peak_candidates;
  EXPECT_EQ(profile::largest_candidate_at(c, {{"N", 1}, {"M", 1}, {"K", 100}}), std::optional<std::size_t>(1));
  EXPECT_EQ(profile::largest_candidate_at(c, {{"N", 10}, {"M", 10}, {"K", 1}}), std::optional<std::size_t>(0));
  // A tie goes to the earlier step: 4*N*M + 4 == 4*K + 8 == 12 at N=1, M=2, K=1.
  EXPECT_EQ(profile::largest_candidate_at(c, {{"N", 1}, {"M", 2}, {"K", 1}}), std::optional<std::size_t>(0));
  // An unbound symbol: no winner.
  EXPECT_EQ(profile::largest_candidate_at(c, {{"N", 1}, {"M", 1}}), std::nullopt);
}

TEST(ProfileMemory, UnknownSizesAreUnknownNotZero) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT));  // unknown rank
  g.node("Relu", {"x"}, {"a"});
  g.output("a");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_TRUE(p.nodes[0].outputs[0].bytes.is_unknown());
  EXPECT_TRUE(p.activation_bytes.is_unknown());
  EXPECT_TRUE(p.peak_activation_bytes.is_unknown());
  EXPECT_TRUE(p.peak_candidates.empty());
  EXPECT_EQ(p.activation_bytes.to_string(), "?");
}

TEST(ProfileMemory, SubByteAndHalfTypes) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT16, {"N", 3}));
  g.node("Relu", {"x"}, {"a"});
  g.output("a");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.nodes[0].outputs[0].bytes.to_string(), canon("6*N"));
}

TEST(ProfileParams, FloatInitializersReadByNodesOnly) {
  Model m = diamond();
  // An unread float initializer is no parameter; int64 `axes` is read but not float.
  GraphBuilder(*m.graph).initializer("unused", Tensor::floats({1, 2, 3}, {3}));
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.params.to_string(), "64");
  EXPECT_EQ(p.param_bytes.to_string(), "256");
  EXPECT_EQ(p.nodes[2].params.to_string(), "64");
  EXPECT_EQ(p.nodes[3].params.to_string(), "0");
}

TEST(ProfileParams, SharedInitializerCountedOnceInTheTotal) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.initializer("W", Tensor::floats(std::vector<double>(16, 1.0), {4, 4}, DOUBLE));
  g.node("MatMul", {"x", "W"}, {"a"});
  g.node("MatMul", {"a", "W"}, {"b"});
  g.output("b");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.params.to_string(), "16");
  EXPECT_EQ(p.param_bytes.to_string(), "128");
  EXPECT_EQ(p.flops.to_string(), canon("2*N*4*4 + 2*N*4*4"));
}

// Paddle2ONNX writes every weight as a Constant node: its float tensors of
// more than one element are parameters (not activations); a one-element
// Constant (an epsilon, a scale) is neither.
TEST(ProfileParams, ConstantNodeWeightsAreParameters) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3, 8, 8}));
  g.node("Constant", {}, {"w"},
         {Attribute::make_tensor("value", Tensor::floats(std::vector<double>(4 * 3 * 9, 0.5), {4, 3, 3, 3}))}, "",
         "w_const");
  g.node("Constant", {}, {"b"}, {Attribute::make_tensor("value", Tensor::floats({1, 2, 3, 4}, {4}, FLOAT16))}, "",
         "b_const");
  g.node("Constant", {}, {"eps"}, {Attribute::make_tensor("value", Tensor::floats({0.5}, {}))}, "", "eps_const");
  g.node("Conv", {"x", "w", "b"}, {"y"}, {}, "", "conv");
  g.node("Add", {"y", "eps"}, {"z"}, {}, "", "add");
  g.output("z");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.params.to_string(), "112");           // 108 + 4
  EXPECT_EQ(p.param_bytes.to_string(), "440");      // 108*4 + 4*2
  EXPECT_EQ(p.nodes[3].params.to_string(), "112");  // the Conv reads both
  EXPECT_EQ(p.nodes[4].params.to_string(), "0");
  EXPECT_EQ(p.nodes[0].params.to_string(), "0");  // the Constant itself reads nothing
  EXPECT_TRUE(p.nodes[0].outputs[0].parameter);
  EXPECT_FALSE(p.nodes[2].outputs[0].parameter);
  // Activations: the conv's and the add's outputs (4*N*6*6 floats each) and the 4-byte eps.
  EXPECT_EQ(p.activation_bytes.to_string(), canon("2*4*N*6*6*4 + 4"));
  EXPECT_EQ(p.nodes[0].outputs[0].bytes.to_string(), "432");  // still shown per node
  // The peak holds no weight: at the Add, eps, y and z are live.
  EXPECT_EQ(p.peak_activation_bytes.to_string(), canon("2*4*N*6*6*4 + 4"));
}

// Exporters write shared weights as an Identity of an initializer (and
// converted ones as a Cast): such a value holds weights, not activations; the
// weights count once, as the initializer.
TEST(ProfileParams, IdentityAndCastOfWeightsAreNoActivations) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.initializer("W", Tensor::floats(std::vector<double>(32, 0.5), {4, 8}, FLOAT16));
  g.node("Cast", {"W"}, {"W32"}, {attr("to", static_cast<int64_t>(FLOAT))}, "", "cast_w");
  g.node("Identity", {"W32"}, {"W_shared"}, {}, "", "tie");
  g.node("MatMul", {"x", "W_shared"}, {"y"}, {}, "", "mm");
  g.node("Identity", {"y"}, {"z"}, {}, "", "out");
  g.output("z");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_TRUE(p.nodes[0].outputs[0].parameter);
  EXPECT_TRUE(p.nodes[1].outputs[0].parameter);
  EXPECT_FALSE(p.nodes[3].outputs[0].parameter);  // an Identity of an activation
  EXPECT_EQ(p.params.to_string(), "32");          // W, once
  EXPECT_EQ(p.activation_bytes.to_string(), canon("2*N*8*4"));
  EXPECT_EQ(p.peak_activation_bytes.to_string(), canon("2*N*8*4"));
}

// Loop(M, , s0) over a body s_out = Relu(s) on s [N,4]: 4N per iteration.
Model loop_model(bool known_trip_count) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("s0", ts(FLOAT, {"N", 4}));
  if (known_trip_count)
    g.initializer("M", Tensor::scalar(5));
  else
    g.input("M", ts(INT64, {}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("iter", ts(INT64, {}));
  b.input("cond_in", ts(BOOL, {}));
  b.input("s", ts(FLOAT, {"N", 4}));
  b.node("Relu", {"s"}, {"s_out"});
  b.node("Identity", {"cond_in"}, {"cond_out"});
  b.output("cond_out");
  b.output("s_out");
  g.node("Loop", {"M", "", "s0"}, {"s_final"}, {graph_attr("body", body)}, "", "loop");
  g.output("s_final");
  return m;
}

TEST(ProfileSubgraphs, LoopWithAKnownTripCount) {
  Model m = loop_model(true);
  const profile::ModelProfile p = infer_and_profile(m);
  ASSERT_EQ(p.nodes.size(), 1u);
  EXPECT_EQ(p.nodes[0].flops.kind, FlopKind::Counted);
  EXPECT_EQ(p.nodes[0].flops.flops.to_string(), canon("5*4*N"));
  EXPECT_EQ(p.flops.to_string(), canon("20*N"));
  EXPECT_EQ(p.not_counted, 0u);
}

TEST(ProfileSubgraphs, LoopWithAnUnknownTripCountIsNotCounted) {
  Model m = loop_model(false);
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.nodes[0].flops.kind, FlopKind::NotCounted);
  EXPECT_EQ(p.nodes[0].flops.note, "not counted: trip count unknown");
  EXPECT_EQ(p.not_counted, 1u);
  EXPECT_EQ(p.flops.to_string(), "0");  // nothing else in the model; the note says what is left out
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("1 Loop node(s)"), std::string::npos) << p.notes[0];
}

TEST(ProfileSubgraphs, ScanCountsTheBodyOncePerElementOfTheSequence) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("init", ts(FLOAT, {"B", 8}));
  g.input("xs", ts(FLOAT, {"T", "B", 8}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("h", ts(FLOAT, {"B", 8}));
  b.input("x", ts(FLOAT, {"B", 8}));
  b.node("Add", {"h", "x"}, {"h_out"});
  b.node("Identity", {"h_out"}, {"y"});
  b.output("h_out");
  b.output("y");
  g.node("Scan", {"init", "xs"}, {"h_final", "ys"}, {graph_attr("body", body), attr("num_scan_inputs", 1)}, "", "scan");
  g.output("h_final");
  g.output("ys");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.nodes[0].flops.flops.to_string(), canon("T*B*8"));
}

// If: then y = Relu(x) (4N), else y = Add(Mul(x, x), x) (8N); x [N,4] from the outer scope.
TEST(ProfileSubgraphs, IfCountsTheLargerBranch) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("c", ts(BOOL, {}));
  g.input("x", ts(FLOAT, {"N", 4}));
  auto then_g = make_subgraph(*m.graph, "then");
  GraphBuilder(*then_g).node("Relu", {"x"}, {"t"});
  GraphBuilder(*then_g).output("t");
  auto else_g = make_subgraph(*m.graph, "else");
  GraphBuilder e(*else_g);
  e.node("Mul", {"x", "x"}, {"sq"});
  e.node("Add", {"sq", "x"}, {"u"});
  e.output("u");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", then_g), graph_attr("else_branch", else_g)}, "", "if");
  g.output("y");
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_EQ(p.nodes[0].flops.flops.to_string(), canon("max(4*N, 4*N + 4*N)"));
  EXPECT_EQ(p.nodes[0].flops.note, "the larger branch");
  // The branches read x: it is live until the If, and the If's output to the end.
  EXPECT_EQ(p.peak_activation_bytes.to_string(), canon("16*N"));
}

TEST(ProfileGroups, ByOpAndByScope) {
  Model m = diamond();
  const profile::ModelProfile p = infer_and_profile(m);
  const auto scopes = profile::group_profile(p, profile::GroupBy::Scope);
  ASSERT_EQ(scopes.size(), 3u);
  EXPECT_EQ(scopes[0].key, "/enc");
  EXPECT_EQ(scopes[0].nodes, 2u);
  EXPECT_EQ(scopes[0].flops.to_string(), canon("4*N + 4*N"));
  EXPECT_EQ(scopes[1].key, "/proj");
  EXPECT_EQ(scopes[1].flops.to_string(), canon("2*N*16*4 + N*16"));
  EXPECT_EQ(scopes[1].params.to_string(), "64");
  EXPECT_EQ(scopes[2].key, "");
  const auto ops = profile::group_profile(p, profile::GroupBy::Op);
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[2].key, "MatMul");
  EXPECT_EQ(profile::node_scope("/blocks.3/attn/MatMul"), "/blocks.3/attn");
  EXPECT_EQ(profile::node_scope("MatMul_12"), "");
  EXPECT_EQ(profile::node_scope("p2o.Conv.0"), "p2o.Conv");
  EXPECT_EQ(profile::node_scope("/blocks.3/MatMul.1"), "/blocks.3");
  EXPECT_EQ(profile::parent_scope("/blocks.3/attn"), "/blocks.3");
  EXPECT_EQ(profile::parent_scope("/blocks.3"), "");
  EXPECT_EQ(profile::parent_scope("p2o.Conv"), "p2o");
}

// A scope's row holds the nodes of the scopes inside it; rows in tree order.
TEST(ProfileGroups, ScopesRollUpIntoTheirParents) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.node("Relu", {"x"}, {"a"}, {}, "", "/blocks.0/attn/Relu");
  g.node("Exp", {"a"}, {"b"}, {}, "", "/blocks.1/mlp/Exp");
  g.node("Neg", {"b"}, {"c"}, {}, "", "/blocks.0/mlp/Neg");
  g.node("Abs", {"c"}, {"d"}, {}, "", "/blocks.0/Abs");
  g.node("Sqrt", {"d"}, {"e"}, {}, "", "last");
  g.output("e");
  const profile::ModelProfile p = infer_and_profile(m);
  const auto rows = profile::group_profile(p, profile::GroupBy::Scope);
  std::vector<std::string> keys;
  for (const auto& r : rows) keys.push_back(r.key + "@" + std::to_string(r.depth) + ":" + std::to_string(r.nodes));
  EXPECT_EQ(keys, (std::vector<std::string>{"/blocks.0@0:3", "/blocks.0/attn@1:1", "/blocks.0/mlp@1:1", "/blocks.1@0:1",
                                            "/blocks.1/mlp@1:1", "@0:1"}));
  EXPECT_EQ(rows[0].flops.to_string(), canon("4*N + 4*N + 4*N"));
  EXPECT_EQ(rows[2].parent, "/blocks.0");
}

// Paddle2ONNX names nodes "p2o.Conv.0": without '/', '.' separates scopes.
TEST(ProfileGroups, DotsSeparateScopesInNamesWithoutSlashes) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.node("Relu", {"x"}, {"a"}, {}, "", "p2o.Relu.0");
  g.node("Exp", {"a"}, {"b"}, {}, "", "p2o.Exp.0");
  g.node("Relu", {"b"}, {"c"}, {}, "", "p2o.Relu.1");
  g.node("Neg", {"c"}, {"d"});
  g.output("d");
  const profile::ModelProfile p = infer_and_profile(m);
  const auto rows = profile::group_profile(p, profile::GroupBy::Scope);
  std::vector<std::string> keys;
  for (const auto& r : rows) keys.push_back(r.key + "@" + std::to_string(r.depth) + ":" + std::to_string(r.nodes));
  EXPECT_EQ(keys, (std::vector<std::string>{"p2o@0:3", "p2o.Relu@1:2", "p2o.Exp@1:1", "@0:1"}));
}

}  // namespace
