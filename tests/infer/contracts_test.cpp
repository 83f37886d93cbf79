// Contracts (Report::contracts): what each rule records, de-duplication, and
// inference that assumes them (infer/contracts.hpp, infer_shapes_assuming_contracts).
#include "graph_test_util.hpp"

namespace {

std::vector<std::string> relations(const Report& r) {
  std::vector<std::string> out;
  for (const Contract& c : r.contracts) out.push_back(c.relation() + " (" + c.origin + ", " + c.node + ")");
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST(Contracts, MatMulInnerDims) {
  RunResult r = Op("MatMul").run({ts(FLOAT, {"b", "k"}), ts(FLOAT, {"m", 4})});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {"b", 4})}));
  EXPECT_EQ(relations(r.report), (Strings{"k == m (inner dims, node)"}));
}
TEST(Contracts, GemmInnerDims) {
  RunResult r = Op("Gemm").opset(13).run({ts(FLOAT, {"b", "k"}), ts(FLOAT, {"n", 4})}, {attr("transB", int64_t{1})});
  EXPECT_EQ(relations(r.report), (Strings{"k == 4 (inner dims, node)"}));
}
TEST(Contracts, ConcatOtherDims) {
  RunResult r =
      Op("Concat").run({ts(FLOAT, {"b", "s"}), ts(FLOAT, {"c", "t"}), ts(FLOAT, {2, "u"})}, {attr("axis", int64_t{1})});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {2, "s+t+u"})}));
  EXPECT_EQ(relations(r.report), (Strings{"b == c (dim 0 of the inputs, node)", "b == 2 (dim 0 of the inputs, node)"}));
}
TEST(Contracts, ReshapeElementCount) {
  RunResult r = Op("Reshape").run({ts(FLOAT, {"n", 6}), constant(Tensor::vector({3, 4}))});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {3, 4})}));
  EXPECT_EQ(relations(r.report), (Strings{"6*n == 12 (element count, node)"}));
}
TEST(Contracts, NothingWhenProvablyEqualOrOne) {
  EXPECT_TRUE(Op("MatMul").run({ts(FLOAT, {"b", "k+1"}), ts(FLOAT, {"1+k", 4})}).report.contracts.empty());
  EXPECT_TRUE(Op("Add").run({ts(FLOAT, {"b", 1}), ts(FLOAT, {1, "s"})}).report.contracts.empty());
}

TEST(Contracts, RecordedOnceWithTheFirstNode) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"p"}));
  g.input("b", ts(FLOAT, {"q"}));
  g.node("Add", {"a", "b"}, {"c"}, {}, "", "first");
  g.node("Mul", {"b", "a"}, {"d"}, {}, "", "second");
  Report r = infer_shapes(m);
  EXPECT_EQ(relations(r), (Strings{"p == q or p == 1 or q == 1 (broadcast, first)"}));
  EXPECT_EQ(r.contracts[0].op_type, "Add");
}

// The key/value cache of a decoder: the mask's length `total` against the
// scores' past+seq.
Model kv_cache_model() {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("mask", ts(FLOAT, {"batch", 1, 1, "total"}));
  g.input("scores", ts(FLOAT, {"batch", 4, "seq", "past+seq"}));
  g.input("v", ts(FLOAT, {"batch", 4, "past+seq", 8}));
  g.node("Add", {"scores", "mask"}, {"masked"}, {}, "", "add_mask");
  g.node("MatMul", {"masked", "v"}, {"y"}, {}, "", "attend");
  g.output("y")->type = ts(FLOAT, {"batch", 4, "seq", 8});
  return m;
}

TEST(Contracts, WithoutAssumingTheShapesStayExact) {
  Model m = kv_cache_model();
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "masked"), ts(FLOAT, {"batch", 4, "seq", "max(total,past+seq)*min(1,total,past+seq)"}));
  EXPECT_EQ(relations(r), (Strings{"past+seq == total or past+seq == 1 or total == 1 (broadcast, add_mask)",
                                   "max(total,past+seq)*min(1,total,past+seq) == past+seq (inner dims, attend)"}));
}

TEST(Contracts, AssumingThemSubstitutesTheInputSymbols) {
  Model m = kv_cache_model();
  std::vector<Assumption> assumptions;
  Report r = infer_shapes_assuming_contracts(m, kv_cache_model, InferenceOptions(), assumptions);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  ASSERT_EQ(assumptions.size(), 1u);
  EXPECT_EQ(assumptions[0].symbol, "total");
  EXPECT_EQ(assumptions[0].value.to_string(), "past+seq");
  EXPECT_EQ(assumptions[0].from.node, "add_mask");
  EXPECT_EQ(type_of(*m.graph, "mask"), ts(FLOAT, {"batch", 1, 1, "past+seq"}));
  EXPECT_EQ(type_of(*m.graph, "masked"), ts(FLOAT, {"batch", 4, "seq", "past+seq"}));
  EXPECT_TRUE(r.contracts.empty()) << relations(r).front();
}

TEST(Contracts, TheDeclaredNameIsTheRepresentative) {
  // n is declared by an input, m_ only by nothing: m_ := n, never n := m_.
  auto make = [] {
    Model m = make_model();
    GraphBuilder g(*m.graph);
    g.input("a", ts(FLOAT, {"n", "k"}));
    g.input("b", ts(FLOAT, {"k", 2}));
    g.node("MatMul", {"a", "b"}, {"y"});
    return m;
  };
  Substitution assumed;
  Contract c;
  c.lhs = SymbolicDim("x");
  c.rhs = SymbolicDim("n");
  std::vector<Assumption> added = choose_assumptions({c}, {"n"}, assumed);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].symbol, "x");
  EXPECT_EQ(added[0].value.to_string(), "n");
  // Both declared: the name that sorts first stays.
  c.lhs = SymbolicDim("q");
  c.rhs = SymbolicDim("p");
  added = choose_assumptions({c}, {"p", "q"}, assumed);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].symbol, "q");
  // Neither side a symbol (2*a == b+c, nothing to substitute): not assumed.
  c.lhs = SymbolicDim("2*a");
  c.rhs = SymbolicDim("b+c");
  EXPECT_TRUE(choose_assumptions({c}, {}, assumed).empty());
  // A symbol that occurs on the other side is not substituted.
  c.lhs = SymbolicDim("s");
  c.rhs = SymbolicDim("s*t");
  EXPECT_TRUE(choose_assumptions({c}, {}, assumed).empty());
  // A model without contracts needs no second run.
  Model m = make();
  std::vector<Assumption> none;
  EXPECT_TRUE(infer_shapes_assuming_contracts(m, make, InferenceOptions(), none).ok());
  EXPECT_TRUE(none.empty());
}

TEST(Contracts, EarlierAssumptionsAreAppliedToLaterOnes) {
  Substitution assumed;
  Contract a, b;
  a.lhs = SymbolicDim("x");
  a.rhs = SymbolicDim("y+1");
  b.lhs = SymbolicDim("y");
  b.rhs = SymbolicDim("z");
  std::vector<Assumption> added = choose_assumptions({a, b}, {"z"}, assumed);
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(assumed.at("x"), Expr::symbol("z") + Expr(1));
  EXPECT_EQ(assumed.at("y"), Expr::symbol("z"));
}

// A slice of a 64-row position table has max(0,min(64,past+seq)-past) rows;
// adding it to [seq] needs the two equal (or a side of 1): the condition
// `past+seq <= 64` is the readable contract, and assuming it (as a fact or
// with --assume-contracts) gives [seq].
Model table_slice_model() {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"seq"}));
  g.input("pos", ts(FLOAT, {"max(0,min(64,past+seq)-past)"}));
  g.node("Add", {"x", "pos"}, {"y"}, {}, "", "add_pos");
  g.output("y");
  return m;
}

TEST(Contracts, ClampConditionIsTheReadableRelation) {
  Model m = table_slice_model();
  Report r = infer_shapes(m);
  ASSERT_EQ(r.contracts.size(), 1u);
  EXPECT_EQ(r.contracts[0].condition, "past+seq <= 64");
  EXPECT_EQ(r.contracts[0].readable(), "past+seq <= 64");
  EXPECT_NE(r.contracts[0].relation().find("or"), std::string::npos);  // the exact disjunction stays
  EXPECT_NE(m.graph->find("y")->type.shape()[0].to_string(), "seq");
}

// x / x[:, -1:]: N broadcasts with min(1,N) for every N (equal up to 1, then
// against 1), so there is no contract, and never the condition `N <= 1`
// (which --assume-contracts would have assumed, wrongly).
TEST(Contracts, AClampThatHoldsOnBothSidesGivesNoContract) {
  RunResult r = Op("Div").run({ts(FLOAT, {"B", "N"}), ts(FLOAT, {"B", "min(1,N)"})});
  EXPECT_EQ(r.outputs, (Types{ts(FLOAT, {"B", "N"})}));
  EXPECT_TRUE(r.report.contracts.empty()) << relations(r.report)[0];
  RunResult two = Op("Div").run({ts(FLOAT, {"B", "N"}), ts(FLOAT, {"B", "min(2,N)"})});
  ASSERT_EQ(two.report.contracts.size(), 1u);
  EXPECT_EQ(two.report.contracts[0].condition, "N <= 2");
}

TEST(Contracts, FactsMakeTheShapeReadable) {
  Model m = table_slice_model();
  InferenceOptions options;
  options.assume = {"past+seq<=64"};
  Report r = infer_shapes(m, options);
  EXPECT_TRUE(r.contracts.empty());
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(m.graph->find("y")->type, ts(FLOAT, {"seq"}));
  ASSERT_EQ(r.facts.size(), 1u);
  EXPECT_EQ(r.facts[0].text, "past+seq <= 64");
  EXPECT_EQ(r.facts[0].source, "--assume");
}

TEST(Contracts, AssumingContractsAssumesTheirConditions) {
  Model m = table_slice_model();
  std::vector<Assumption> assumptions;
  Report r = infer_shapes_assuming_contracts(
      m, [] { return table_slice_model(); }, InferenceOptions(), assumptions);
  ASSERT_EQ(assumptions.size(), 1u);
  EXPECT_EQ(assumptions[0].what(), "past+seq <= 64");
  EXPECT_EQ(m.graph->find("y")->type, ts(FLOAT, {"seq"}));
  ASSERT_EQ(r.facts.size(), 1u);
  EXPECT_EQ(r.facts[0].source, "--assume-contracts");
}

TEST(Contracts, FactsTheModelBreaksAreErrorsNamingTheNode) {
  Model m = table_slice_model();
  InferenceOptions options;
  options.assume = {"seq>=2", "past>=70"};  // the slice is empty, seq is not 1
  Report r = infer_shapes(m, options);
  ASSERT_EQ(r.errors(), 1u);
  EXPECT_EQ(r.diagnostics[0].node, "add_pos");
  EXPECT_NE(r.diagnostics[0].message.find("the facts in force rule out every valid run"), std::string::npos);
}

TEST(Contracts, BadFactIsAnErrorAndNothingIsInferred) {
  Model m = table_slice_model();
  InferenceOptions options;
  options.assume = {"seq<="};
  Report r = infer_shapes(m, options);
  ASSERT_EQ(r.errors(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("position 5"), std::string::npos) << r.diagnostics[0].message;
  EXPECT_TRUE(m.graph->find("y")->type.is_unknown());
}

TEST(Contracts, AssumeNonemptyListsOneFactPerInputSymbol) {
  Model m = table_slice_model();
  InferenceOptions options;
  options.assume_nonempty = true;
  Report r = infer_shapes(m, options);
  Strings facts;
  for (const Fact& f : r.facts) facts.push_back(f.text + " (" + f.source + ")");
  EXPECT_EQ(facts, (Strings{"past >= 1 (--assume-nonempty)", "seq >= 1 (--assume-nonempty)"}));
}

// Positions arange(past, past+seq) looked up in a 64-row table (the Hugging
// Face GPT-2 pattern, torch's export: Shape, Gather, Add, Range, Unsqueeze,
// Gather): the rows read must exist, `past+seq <= 64`, unless seq is 0.
Model table_gather_model(int64_t rows = 64, bool offset_by_past = true) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(INT64, {"batch", "seq"}));
  g.input("cache", ts(FLOAT, {"batch", "past", 8}));
  g.input("table", ts(FLOAT, {rows, 8}));
  g.initializer("one", Tensor::scalar(1));
  g.initializer("zero", Tensor::scalar(0));
  g.initializer("axes", Tensor::vector({0}));
  g.node("Shape", {"x"}, {"x_shape"});
  g.node("Shape", {"cache"}, {"cache_shape"});
  g.node("Gather", {"x_shape", "one"}, {"seq_len"});
  g.node("Gather", {"cache_shape", "one"}, {"past_len"});
  g.node("Add", {"past_len", "seq_len"}, {"end"});
  g.node("Range", {offset_by_past ? "past_len" : "zero", offset_by_past ? "end" : "seq_len", "one"}, {"pos"}, {}, "",
         "positions");
  g.node("Unsqueeze", {"pos", "axes"}, {"pos_row"});
  g.node("Cast", {"pos_row"}, {"pos_ids"}, {attr("to", int64_t{7})});
  g.node("Gather", {"table", "pos_ids"}, {"emb"}, {}, "", "wpe");
  g.output("emb");
  return m;
}

TEST(Contracts, GatherOfRangeRowsAreWithinTheTable) {
  Model m = table_gather_model();
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "emb"), ts(FLOAT, {1, "seq", 8}));
  ASSERT_EQ(r.contracts.size(), 1u) << ::testing::PrintToString(relations(r));
  const Contract& c = r.contracts[0];
  EXPECT_EQ(c.kind, Contract::Kind::AtMost);
  EXPECT_EQ(c.node, "wpe");
  EXPECT_EQ(c.origin, "Gather indices");
  EXPECT_EQ(c.readable(), "past+seq <= 64");
  EXPECT_EQ(c.relation(), "seq == 0 or past+seq <= 64");  // no row is read from an empty range
  EXPECT_STREQ(contract_kind_name(c.kind), "at_most");
}

TEST(Contracts, GatherRowsThatAlwaysExistGiveNoContract) {
  // arange(seq) into a table of seq+... rows: a table of `seq` rows always holds them.
  Model m = table_gather_model(64, false);
  m.graph->find("table")->type = ts(FLOAT, {"seq", 8});
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_TRUE(r.contracts.empty()) << ::testing::PrintToString(relations(r));
}

TEST(Contracts, GatherRowsUnderFacts) {
  // A fact that keeps the rows in the table: no contract. One that puts them
  // out of it, with rows read: an error naming the Gather.
  Model kept = table_gather_model();
  InferenceOptions within;
  within.assume = {"past+seq<=64"};
  Report r = infer_shapes(kept, within);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_TRUE(r.contracts.empty()) << ::testing::PrintToString(relations(r));

  Model broken = table_gather_model();
  InferenceOptions beyond;
  beyond.assume = {"past>=64", "seq>=1"};
  Report e = infer_shapes(broken, beyond);
  ASSERT_EQ(e.errors(), 1u) << diagnostics_text(e);
  EXPECT_EQ(e.diagnostics[0].node, "wpe");
  EXPECT_NE(e.diagnostics[0].message.find("index past+seq-1 into 64 rows"), std::string::npos)
      << e.diagnostics[0].message;

  // Without seq >= 1 the range may be empty, and then nothing is read.
  Model empty_ok = table_gather_model();
  InferenceOptions maybe_empty;
  maybe_empty.assume = {"past>=64"};
  EXPECT_EQ(infer_shapes(empty_ok, maybe_empty).errors(), 0u);
}

TEST(Contracts, AssumingContractsAssumesTheGatherBound) {
  Model m = table_gather_model();
  std::vector<Assumption> assumptions;
  Report r = infer_shapes_assuming_contracts(
      m, [] { return table_gather_model(); }, InferenceOptions(), assumptions);
  ASSERT_EQ(assumptions.size(), 1u);
  EXPECT_EQ(assumptions[0].what(), "past+seq <= 64");
  ASSERT_EQ(r.facts.size(), 1u);
  EXPECT_EQ(r.facts[0].text, "past+seq <= 64");
}

TEST(Contracts, GatherOfListedSymbolicIndex) {
  // The last position, past+seq-1, as a one-element index: read always.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"past+seq", 8}));
  g.input("table", ts(FLOAT, {64, 8}));
  g.initializer("zero", Tensor::scalar(0));
  g.initializer("minus_one", Tensor::vector({-1}));
  g.node("Shape", {"x"}, {"x_shape"});
  g.node("Gather", {"x_shape", "zero"}, {"total"});
  g.node("Add", {"total", "minus_one"}, {"last"});
  g.node("Gather", {"table", "last"}, {"row"}, {}, "", "last_row");
  g.output("row");
  Report r = infer_shapes(m);
  ASSERT_EQ(r.contracts.size(), 1u) << ::testing::PrintToString(relations(r));
  EXPECT_EQ(r.contracts[0].relation(), "past+seq <= 64");
  EXPECT_EQ(r.contracts[0].origin, "Gather index");
}

TEST(Contracts, ANodeListsEachConditionOnce) {
  // Where broadcasts three inputs: the slice of the table against seq twice,
  // two relations with one condition.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("cond", ts(BOOL, {"seq"}));
  g.input("a", ts(FLOAT, {"max(0,min(64,past+seq)-past)"}));
  g.input("b", ts(FLOAT, {"seq"}));
  g.node("Where", {"cond", "a", "b"}, {"y"}, {}, "", "select");
  g.output("y");
  Report r = infer_shapes(m);
  ASSERT_EQ(r.contracts.size(), 1u) << ::testing::PrintToString(relations(r));
  EXPECT_EQ(r.contracts[0].readable(), "past+seq <= 64");
}
