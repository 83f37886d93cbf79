#include "infer/graph_test_util.hpp"

namespace {

// test::Grow: mode 0 adds 1 to the last dim, mode 1 adds a leading axis of 1.
void infer_grow(Context& ctx, Node& n) {
  const Shape* s = shape_of(n.input(0));
  if (!s || s->size() == 0) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
    return;
  }
  std::vector<SymbolicDim> d = s->dims();
  if (n.attr_int("mode", 0) == 0) {
    d.back() = d.back() + 1;
  } else {
    d.insert(d.begin(), SymbolicDim(1));
  }
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(d)), dtype_of(n.input(0)));
}
// The tests' own rules, passed to the inferences that use Grow.
InferenceOptions with_grow_rule() {
  static const UserRules rules = [] {
    UserRules r;
    r.add("test", "Grow", 1, &infer_grow);
    return r;
  }();
  InferenceOptions options;
  options.user_rules = &rules;
  return options;
}

struct ModelRun {
  Model model;
  Report report;
  Type type(const std::string& name) const { return type_of(*model.graph, name); }
};

// If(c) then Add(a, a) else Add(b, b); a and b come from the outer scope.
ModelRun run_if(const Type& a, const Type& b, int64_t opset = 18, std::optional<int64_t> cond = std::nullopt) {
  ModelRun r{make_model(opset), {}};
  GraphBuilder g(*r.model.graph);
  g.input("a", a);
  g.input("b", b);
  if (cond) {
    g.initializer("c", Tensor::scalar(*cond, BOOL));
  } else {
    g.input("c", ts(BOOL, {}));
  }
  auto t = make_subgraph(*r.model.graph, "then");
  GraphBuilder(*t).node("Add", {"a", "a"}, {"ta"});
  GraphBuilder(*t).output("ta");
  auto e = make_subgraph(*r.model.graph, "else");
  GraphBuilder(*e).node("Add", {"b", "b"}, {"eb"});
  GraphBuilder(*e).output("eb");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  g.output("y");
  r.report = infer_shapes(r.model, with_grow_rule());
  return r;
}

// Loop(M, cond, s0) whose body computes s_out = <op>(s) and a scan output
// Mul(s, s); the body's condition output is its condition input.
ModelRun run_loop(const Type& s0, bool with_m, bool with_cond, const std::string& op = "Add", int64_t mode = 0,
                  std::optional<std::vector<SymbolicDim>> m_value = std::nullopt, int64_t opset = 18) {
  ModelRun r{make_model(opset), {}};
  r.model.opset_imports["test"] = 1;
  GraphBuilder g(*r.model.graph);
  g.input("s0", s0);
  if (with_m) {
    if (m_value) {
      g.input("M", ts(INT64, {}))->symbolic_value = m_value;
    } else {
      g.initializer("M", Tensor::scalar(5));
    }
  }
  if (with_cond) g.input("cond", ts(BOOL, {}));
  auto body = make_subgraph(*r.model.graph);
  GraphBuilder b(*body);
  b.input("iter", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  if (op == "Grow") {
    b.node("Grow", {"s"}, {"s_out"}, {attr("mode", mode)}, "test");
  } else {
    b.node(op, {"s", "s"}, {"s_out"});
  }
  b.node("Mul", {"s", "s"}, {"scan"});
  b.output("cond_in");
  b.output("s_out");
  b.output("scan");
  g.node("Loop", {with_m ? "M" : "", with_cond ? "cond" : "", "s0"}, {"s_final", "ys"}, {graph_attr("body", body)}, "",
         "loop");
  g.output("s_final");
  g.output("ys");
  r.report = infer_shapes(r.model, with_grow_rule());
  return r;
}

// Loop(M, , s0) with s0 = SequenceEmpty (of `dtype`) and a body that
// inserts `insert_op`(x) into the carried sequence (Shape or Identity of the
// outer x), or passes it on unchanged ("pass").
ModelRun run_loop_over_empty_sequence(const Type& x, const std::string& insert_op, int64_t dtype = 1) {
  ModelRun r{make_model(18), {}};
  GraphBuilder g(*r.model.graph);
  g.input("x", x);
  g.input("M", ts(INT64, {}));
  g.node("SequenceEmpty", {}, {"s0"}, {attr("dtype", dtype)});
  auto body = make_subgraph(*r.model.graph);
  GraphBuilder b(*body);
  b.input("iter", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  if (insert_op == "pass") {
    b.node("Identity", {"s"}, {"s_out"});
  } else {
    b.node(insert_op, {"x"}, {"e"});
    b.node("SequenceInsert", {"s", "e"}, {"s_out"});
  }
  b.output("cond_in");
  b.output("s_out");
  g.node("Loop", {"M", "", "s0"}, {"s_final"}, {graph_attr("body", body)}, "", "loop");
  g.output("s_final");
  r.report = infer_shapes(r.model, with_grow_rule());
  return r;
}

// Loop-16 with an optional(seq) carried in and a body that carries out the
// sequence itself (OptionalGetElement).
ModelRun run_loop_unwrapping_optional(const Type& elem) {
  ModelRun r{make_model(16), {}};
  GraphBuilder g(*r.model.graph);
  g.input("M", ts(INT64, {}));
  g.input("s0", Type::optional(Type::sequence(elem)));
  auto body = make_subgraph(*r.model.graph);
  GraphBuilder b(*body);
  b.input("iter", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  b.node("OptionalGetElement", {"s"}, {"s_out"});
  b.output("cond_in");
  b.output("s_out");
  g.node("Loop", {"M", "", "s0"}, {"s_final"}, {graph_attr("body", body)}, "", "loop");
  g.output("s_final");
  r.report = infer_shapes(r.model, with_grow_rule());
  return r;
}

}  // namespace

// ---- If ----

TEST(If, EqualBranchesKeepTheirShape) {
  EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 3})).type("y"), ts(FLOAT, {"N", 3}));
}
TEST(If, DifferingDimsBecomeFresh) {
  ModelRun r = run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 5}));
  EXPECT_EQ(r.type("y"), ts(FLOAT, {"N", "_d0"})) << diagnostics_text(r.report);
  EXPECT_TRUE(r.report.ok());
}
TEST(If, DifferingSymbolsBecomeFresh) {
  EXPECT_EQ(run_if(ts(FLOAT, {"N", "a"}), ts(FLOAT, {"N", "b"})).type("y"), ts(FLOAT, {"N", "_d0"}));
}
TEST(If, DifferingRanksGiveUnknownRank) {
  EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N"})).type("y"), ts(FLOAT));
}
TEST(If, UnknownBranchRankGivesUnknownRank) { EXPECT_EQ(run_if(ts(FLOAT), ts(FLOAT, {2})).type("y"), ts(FLOAT)); }
TEST(If, KnownConditionSelectsItsBranch) {
  EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 5}), 18, 1).type("y"), ts(FLOAT, {"N", 3}));
  EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 5}), 18, 0).type("y"), ts(FLOAT, {"N", 5}));
}
TEST(If, BranchValuesAreInferred) {
  ModelRun r = run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {7}));
  const Graph& then_g = *r.model.graph->nodes[0]->attr("then_branch")->graphs[0];
  EXPECT_EQ(type_of(then_g, "ta"), ts(FLOAT, {"N", 3}));
}
TEST(If, DtypeMismatchIsError) {
  ModelRun r = run_if(ts(FLOAT, {3}), ts(INT64, {3}));
  EXPECT_ERROR(r.report, "element types must match");
}
TEST(If, EveryVersionMerges) {
  for (int64_t opset : {11, 13, 16, 19, 21, 23})
    EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 5}), opset).type("y"), ts(FLOAT, {"N", "_d0"})) << opset;
}
TEST(If, Opset1RequiresEqualShapes) {
  // Add has rules from opset 7; If-1 applies up to opset 10.
  ModelRun r = run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 5}), 10);
  EXPECT_ERROR(r.report, "requires equal shapes");
  EXPECT_TRUE(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 3}), 10).report.ok());
  EXPECT_EQ(run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 3}), 10).type("y"), ts(FLOAT, {"N", 3}));
}
TEST(If, MissingBranchIsUsageError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("c", ts(BOOL, {}));
  auto t = make_subgraph(*m.graph, "then");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t)}, "", "if");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "missing required attribute 'else_branch'");
}
TEST(If, BranchOutputCountMismatchIsUsageError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("c", ts(BOOL, {}));
  g.input("x", ts(FLOAT, {2}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).output("x");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).output("x");
  GraphBuilder(*e).output("c");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "else_branch has 2");
}
TEST(If, NonBoolConditionIsError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("c", ts(FLOAT, {}));
  auto t = make_subgraph(*m.graph, "then");
  GraphBuilder(*t).output("c");
  auto e = make_subgraph(*m.graph, "else");
  GraphBuilder(*e).output("c");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "condition must be bool");
}

// ---- Loop ----

TEST(Loop, ConstantTripCountWithoutConditionSizesScanOutputs) {
  ModelRun r = run_loop(ts(FLOAT, {"N", 3}), true, false);
  EXPECT_EQ(r.type("s_final"), ts(FLOAT, {"N", 3})) << diagnostics_text(r.report);
  EXPECT_EQ(r.type("ys"), ts(FLOAT, {5, "N", 3}));
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
}
// A condition known true that the body passes on unchanged (Identity of
// cond_in) cannot stop the loop: M iterations.
TEST(Loop, TrueConditionPassedThroughKeepsTheCount) {
  ModelRun r{make_model(18), {}};
  GraphBuilder g(*r.model.graph);
  g.input("s0", ts(FLOAT, {"N", 3}));
  g.initializer("M", Tensor::scalar(5));
  g.initializer("cond", Tensor::scalar(1, BOOL));
  auto body = make_subgraph(*r.model.graph);
  GraphBuilder b(*body);
  b.input("iter", Type());
  b.input("cond_in", Type());
  b.input("s", Type());
  b.node("Identity", {"cond_in"}, {"cond_out"});
  b.node("Add", {"s", "s"}, {"s_out"});
  b.node("Mul", {"s", "s"}, {"scan"});
  b.output("cond_out");
  b.output("s_out");
  b.output("scan");
  g.node("Loop", {"M", "cond", "s0"}, {"s_final", "ys"}, {graph_attr("body", body)}, "", "loop");
  g.output("s_final");
  g.output("ys");
  r.report = infer_shapes(r.model, with_grow_rule());
  EXPECT_EQ(r.type("ys"), ts(FLOAT, {5, "N", 3})) << diagnostics_text(r.report);
}
TEST(Loop, ConditionMakesTheCountUnknown) {
  ModelRun r = run_loop(ts(FLOAT, {"N", 3}), true, true);
  EXPECT_EQ(r.type("ys"), ts(FLOAT, {"_d0", "N", 3}));
}
TEST(Loop, NoTripCountIsUnknown) {
  EXPECT_EQ(run_loop(ts(FLOAT, {"N", 3}), false, true).type("ys"), ts(FLOAT, {"_d0", "N", 3}));
}
TEST(Loop, SymbolicTripCount) {
  EXPECT_EQ(run_loop(ts(FLOAT, {"N", 3}), true, false, "Add", 0, dims({"T"})).type("ys"), ts(FLOAT, {"T", "N", 3}));
  EXPECT_EQ(run_loop(ts(FLOAT, {"N", 3}), true, false, "Add", 0, dims({-2})).type("ys"), ts(FLOAT, {0, "N", 3}));
}
TEST(Loop, BodyInputsAreTyped) {
  ModelRun r = run_loop(ts(FLOAT, {"N", 3}), true, false);
  const Graph& body = *r.model.graph->nodes[0]->attr("body")->graphs[0];
  EXPECT_EQ(type_of(body, "iter"), ts(INT64, {}));
  EXPECT_EQ(type_of(body, "cond_in"), ts(BOOL, {}));
  EXPECT_EQ(type_of(body, "s"), ts(FLOAT, {"N", 3}));
}
TEST(Loop, GrowingCarriedDimIsGeneralised) {
  ModelRun r = run_loop(ts(FLOAT, {"N", 2}), true, false, "Grow");
  ASSERT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  const Graph& body = *r.model.graph->nodes[0]->attr("body")->graphs[0];
  // The body was inferred again with the generalised dim.
  EXPECT_EQ(type_of(body, "s"), ts(FLOAT, {"N", "_d0"}));
  EXPECT_EQ(type_of(body, "s_out"), ts(FLOAT, {"N", "_d0 + 1"}));
  // Outside, the grown dim is a fresh unknown; N stays.
  EXPECT_EQ(r.type("s_final"), ts(FLOAT, {"N", "_d1"}));
  EXPECT_EQ(r.type("ys"), ts(FLOAT, {5, "N", "_d2"}));
}
TEST(Loop, CarriedRankChangeGivesUnknownRank) {
  ModelRun r = run_loop(ts(FLOAT, {"N", 2}), true, false, "Grow", 1);
  EXPECT_EQ(r.type("s_final"), ts(FLOAT));
  EXPECT_EQ(r.type("ys"), ts(FLOAT));
}
// Starting from an empty sequence, every element is one the body inserted:
// Shape of a rank-3 tensor is int64[3]; Identity of x is x's type.
TEST(Loop, EmptySequenceHoldsWhatTheBodyInserts) {
  ModelRun r = run_loop_over_empty_sequence(ts(FLOAT, {"N", 4, 5}), "Shape", 7);
  EXPECT_EQ(r.type("s_final"), Type::sequence(ts(INT64, {3}))) << diagnostics_text(r.report);
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
}
TEST(Loop, EmptySequenceOfInsertedTensors) {
  ModelRun r = run_loop_over_empty_sequence(ts(FLOAT, {"N", 4}), "Identity");
  EXPECT_EQ(r.type("s_final"), Type::sequence(ts(FLOAT, {"N", 4}))) << diagnostics_text(r.report);
}
// A wrong element type is still reported once, by the final run.
TEST(Loop, EmptySequenceOfTheWrongDtypeIsReportedOnce) {
  ModelRun r = run_loop_over_empty_sequence(ts(FLOAT, {"N", 4, 5}), "Shape", 1);
  EXPECT_ERROR(r.report, "cannot insert int64[3] into a sequence of float?");
}
TEST(Loop, EmptySequenceThatStaysEmptyKeepsUnknownRank) {
  ModelRun r = run_loop_over_empty_sequence(ts(FLOAT, {"N", 4}), "pass");
  EXPECT_EQ(r.type("s_final"), Type::sequence(ts(FLOAT))) << diagnostics_text(r.report);
}
// ONNX's Loop inference gives the body's carried output type: optional(seq)
// in, seq out gives seq.
TEST(Loop, OptionalCarriedInSequenceOutGivesSequence) {
  ModelRun r = run_loop_unwrapping_optional(ts(FLOAT, {3}));
  EXPECT_EQ(r.type("s_final"), Type::sequence(ts(FLOAT, {3}))) << diagnostics_text(r.report);
}

TEST(Loop, EveryVersion) {
  for (int64_t opset : {11, 13, 16, 19, 21, 23})
    EXPECT_EQ(run_loop(ts(FLOAT, {"N", 3}), true, false, "Add", 0, std::nullopt, opset).type("ys"),
              ts(FLOAT, {5, "N", 3}))
        << opset;
}
TEST(Loop, BodyInputCountMismatchIsUsageError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("s0", ts(FLOAT, {2}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("iter", Type());
  b.input("s", Type());
  b.output("s");
  g.node("Loop", {"", "", "s0"}, {"s_final"}, {graph_attr("body", body)}, "", "loop");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "body has 2 inputs");
}
TEST(Loop, MissingBodyIsUsageError) {
  RunResult r = Op("Loop").run({omitted(), omitted(), ts(FLOAT, {2})});
  EXPECT_ERROR(r.report, "missing required attribute 'body'");
}

// ---- Scan ----

namespace {

// Scan with one state h and one scan input X: h_out = Add(h, h), y = Mul(x, x).
ModelRun run_scan(const Type& h, const Type& x, std::vector<Attribute> attrs, int64_t opset = 18,
                  bool state_from_x = false) {
  ModelRun r{make_model(opset), {}};
  GraphBuilder g(*r.model.graph);
  g.input("h0", h);
  g.input("X", x);
  auto body = make_subgraph(*r.model.graph);
  GraphBuilder b(*body);
  b.input("h", Type());
  b.input("x", Type());
  b.node("Add", {"h", "h"}, {"h_out"});
  b.node("Mul", {"x", "x"}, {"y"});
  b.output(state_from_x ? "y" : "h_out");
  b.output("y");
  attrs.push_back(graph_attr("body", body));
  attrs.push_back(attr("num_scan_inputs", 1));
  std::vector<std::string> inputs{"h0", "X"};
  if (opset < 9) inputs.insert(inputs.begin(), "");
  g.node("Scan", inputs, {"H", "Y"}, std::move(attrs), "", "scan");
  g.output("H");
  g.output("Y");
  r.report = infer_shapes(r.model, with_grow_rule());
  return r;
}

}  // namespace

TEST(Scan, DefaultAxesStackOnAxis0) {
  ModelRun r = run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"T", "B", 8}), {});
  EXPECT_EQ(r.type("H"), ts(FLOAT, {"B", 4})) << diagnostics_text(r.report);
  EXPECT_EQ(r.type("Y"), ts(FLOAT, {"T", "B", 8}));
  const Graph& body = *r.model.graph->nodes[0]->attr("body")->graphs[0];
  EXPECT_EQ(type_of(body, "x"), ts(FLOAT, {"B", 8}));
}
TEST(Scan, InputAndOutputAxes) {
  ModelRun r =
      run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}),
               {attr("scan_input_axes", std::vector<int64_t>{1}), attr("scan_output_axes", std::vector<int64_t>{1})});
  EXPECT_EQ(r.type("Y"), ts(FLOAT, {"B", "T", 8})) << diagnostics_text(r.report);
}
TEST(Scan, NegativeAxesFromOpset11) {
  ModelRun r = run_scan(
      ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}),
      {attr("scan_input_axes", std::vector<int64_t>{-2}), attr("scan_output_axes", std::vector<int64_t>{-1})}, 11);
  EXPECT_EQ(r.type("Y"), ts(FLOAT, {"B", 8, "T"})) << diagnostics_text(r.report);
  for (int64_t opset : {16, 19, 21, 23})
    EXPECT_EQ(run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}),
                       {attr("scan_input_axes", std::vector<int64_t>{-2})}, opset)
                  .type("Y"),
              ts(FLOAT, {"T", "B", 8}))
        << opset;
}
TEST(Scan, NegativeAxisBeforeOpset11IsError) {
  ModelRun r =
      run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}), {attr("scan_input_axes", std::vector<int64_t>{-2})}, 9);
  EXPECT_ERROR(r.report, "scan_input_axes value -2 is out of range");
  EXPECT_EQ(
      run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}), {attr("scan_input_axes", std::vector<int64_t>{1})}, 9)
          .type("Y"),
      ts(FLOAT, {"T", "B", 8}));
}
TEST(Scan, Opset8HasBatchAndSequenceAxes) {
  ModelRun r = run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"B", "T", 8}), {}, 8);
  EXPECT_EQ(r.type("H"), ts(FLOAT, {"B", 4})) << diagnostics_text(r.report);
  EXPECT_EQ(r.type("Y"), ts(FLOAT, {"B", "T", 8}));
  const Graph& body = *r.model.graph->nodes[0]->attr("body")->graphs[0];
  EXPECT_EQ(type_of(body, "h"), ts(FLOAT, {4}));
  EXPECT_EQ(type_of(body, "x"), ts(FLOAT, {8}));
}
TEST(Scan, Opset8ScanInputNeedsRank2) {
  ModelRun r = run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {8}), {}, 8);
  EXPECT_ERROR(r.report, "scan input 1 has rank 1, expected at least 2");
}
TEST(Scan, StateChangingShapeIsError) {
  ModelRun r = run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"T", "B", 8}), {}, 18, true);
  EXPECT_ERROR(r.report, "states must keep their shape");
}
TEST(Scan, UnknownRankInput) { EXPECT_EQ(run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT), {}).type("Y"), ts(FLOAT)); }
TEST(Scan, SequenceLengthsMustAgree) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("X1", ts(FLOAT, {3, 2}));
  g.input("X2", ts(FLOAT, {5, 2}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("x1", Type());
  b.input("x2", Type());
  b.output("x1");
  g.node("Scan", {"X1", "X2"}, {"Y"}, {graph_attr("body", body), attr("num_scan_inputs", 2)}, "", "scan");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "disagree on the sequence length");
}
TEST(Scan, MissingNumScanInputsIsUsageError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("X", ts(FLOAT, {3, 2}));
  auto body = make_subgraph(*m.graph);
  g.node("Scan", {"X"}, {"Y"}, {graph_attr("body", body)}, "", "scan");
  Report r = infer_shapes(m, with_grow_rule());
  EXPECT_ERROR(r, "missing required attribute 'num_scan_inputs'");
}
TEST(Scan, AxesCountMismatchIsUsageError) {
  ModelRun r =
      run_scan(ts(FLOAT, {"B", 4}), ts(FLOAT, {"T", "B", 8}), {attr("scan_input_axes", std::vector<int64_t>{0, 1})});
  EXPECT_ERROR(r.report, "scan_input_axes has 2 values");
}

// A known condition infers only its branch: the other cannot run, and an
// error it would give (here a broadcast of [N,3] and [N,5] inside it) is not
// the model's.
TEST(If, KnownConditionLeavesTheOtherBranchAlone) {
  ModelRun r{make_model(18), {}};
  GraphBuilder g(*r.model.graph);
  g.input("a", ts(FLOAT, {"N", 3}));
  g.input("b", ts(FLOAT, {"N", 5}));
  g.initializer("c", Tensor::scalar(1, BOOL));
  auto t = make_subgraph(*r.model.graph, "then");
  GraphBuilder(*t).node("Add", {"a", "a"}, {"ta"});
  GraphBuilder(*t).output("ta");
  auto e = make_subgraph(*r.model.graph, "else");
  GraphBuilder(*e).node("Add", {"a", "b"}, {"eb"});  // fails: 3 vs 5
  GraphBuilder(*e).output("eb");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", t), graph_attr("else_branch", e)}, "", "if");
  g.output("y");
  r.report = infer_shapes(r.model, with_grow_rule());
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  EXPECT_EQ(r.type("y"), ts(FLOAT, {"N", 3}));
  // With the condition unknown, both run and the error is reported.
  ModelRun u = run_if(ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 3}));
  EXPECT_TRUE(u.report.ok());
}
