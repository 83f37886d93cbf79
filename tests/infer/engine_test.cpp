// The engine: ordering, cycles, fresh names, missing rules, error isolation,
// the modified flag and opset-aware rule resolution.
#include <algorithm>
#include <array>
#include <iterator>
#include <vector>

#include "graph_test_util.hpp"

// ---- topological order ----

TEST(Engine, SortsAnUnsortedGraph) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  // Consumers first: z needs y, y needs x.
  g.node("Mul", {"y", "y"}, {"z"}, {}, "", "second");
  g.node("Add", {"x", "x"}, {"y"}, {}, "", "first");
  g.output("z");
  std::vector<Node*> order;
  const Node* cycle = nullptr;
  ASSERT_TRUE(Engine::topological_order(*m.graph, order, cycle));
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0]->name, "first");
  EXPECT_EQ(order[1]->name, "second");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "z"), ts(FLOAT, {"N", 3}));
}

TEST(Engine, KeepsFileOrderAmongIndependentNodes) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2}));
  for (const char* name : {"c", "a", "b"}) g.node("Add", {"x", "x"}, {std::string(name) + "_out"}, {}, "", name);
  std::vector<Node*> order;
  const Node* cycle = nullptr;
  ASSERT_TRUE(Engine::topological_order(*m.graph, order, cycle));
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0]->name, "c");
  EXPECT_EQ(order[1]->name, "a");
  EXPECT_EQ(order[2]->name, "b");
}

TEST(Engine, CycleIsAnErrorNamingANodeOnIt) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N"}));
  g.node("Add", {"b_out", "x"}, {"after"}, {}, "", "downstream");  // depends on the cycle, not on it
  g.node("Add", {"x", "b_out"}, {"a_out"}, {}, "", "A");
  g.node("Add", {"a_out", "x"}, {"b_out"}, {}, "", "B");
  g.node("Mul", {"x", "x"}, {"free"}, {}, "", "independent");
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "has a cycle through this node");
  const Diagnostic& d = r.diagnostics.at(0);
  EXPECT_EQ(d.kind, DiagnosticKind::Graph);
  EXPECT_NE(d.message.find("cycle"), std::string::npos);
  EXPECT_TRUE(d.node == "A" || d.node == "B") << d.to_string();
  // The rest of the graph is still inferred.
  EXPECT_EQ(type_of(*m.graph, "free"), ts(FLOAT, {"N"}));
  EXPECT_TRUE(type_of(*m.graph, "a_out").is_unknown());
}

TEST(Engine, SelfLoopIsACycle) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2}));
  g.node("Add", {"x", "y"}, {"y"}, {}, "", "self");
  Report r = infer_shapes(m);
  ASSERT_ERROR(r, "has a cycle through this node");
  EXPECT_EQ(r.diagnostics.at(0).node, "self");
}

// ---- fresh names ----

TEST(Engine, AnonymousInputDimsGetFreshNames) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {SymbolicDim(), 3}));
  g.input("y", ts(FLOAT, {SymbolicDim(), SymbolicDim()}));
  g.node("Add", {"x", "x"}, {"z"});
  infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "x"), ts(FLOAT, {"_d0", 3}));
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"_d1", "_d2"}));
  EXPECT_EQ(type_of(*m.graph, "z"), ts(FLOAT, {"_d0", 3}));
}

TEST(Engine, FreshNamesAvoidNamesAlreadyInTheModel) {
  // A model annotated by an earlier run already uses _d0 and _d1.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"_d0", "_d1"}));
  g.input("y", ts(FLOAT, {SymbolicDim(), 4}));
  g.node("Add", {"y", "y"}, {"z"});
  infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"_d2", 4}));
}

TEST(Engine, UnknownOutputDimsGetFreshNames) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"p"}));
  g.node("NonZero", {"a"}, {"c"});
  g.node("NonZero", {"a"}, {"d"});
  infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "c"), ts(INT64, {1, "_d0"}));
  EXPECT_EQ(type_of(*m.graph, "d"), ts(INT64, {1, "_d1"}));
}

// ---- missing rules and bad nodes ----

TEST(Engine, MissingRuleWarnsAndTheRestIsInferred) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  g.node("NoSuchOp", {"x"}, {"u"}, {}, "", "mystery");
  g.node("Add", {"x", "x"}, {"y"});
  Report r = infer_shapes(m);
  ASSERT_WARNING(r, "no shape rule for ai.onnx::NoSuchOp");
  EXPECT_EQ(r.errors(), 0u);
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
  EXPECT_EQ(r.diagnostics.at(0).node, "mystery");
  EXPECT_NE(r.diagnostics.at(0).message.find("NoSuchOp"), std::string::npos);
  EXPECT_TRUE(type_of(*m.graph, "u").is_unknown());
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {"N", 3}));
}

TEST(Engine, OneBadNodeDoesNotStopTheRest) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {2, 3}));
  g.input("b", ts(FLOAT, {4}));
  g.node("Add", {"a", "b"}, {"bad"}, {}, "", "bad_add");
  g.node("Mul", {"a", "a"}, {"good"}, {}, "", "good_mul");
  g.node("Add", {"bad", "a"}, {"after_bad"}, {}, "", "consumer");
  g.node("Add", {"a"}, {"malformed"}, {}, "", "one_input");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 2u) << diagnostics_text(r);
  EXPECT_EQ(count_messages(r, Severity::Error, "cannot broadcast"), 1u);
  EXPECT_EQ(count_messages(r, Severity::Error, "missing required input 1"), 1u);
  EXPECT_EQ(type_of(*m.graph, "good"), ts(FLOAT, {2, 3}));
  EXPECT_FALSE(type_of(*m.graph, "after_bad").shape().has_rank());  // ran, with nothing known
}

// ---- modified flag ----

TEST(Engine, ModifiedFlag) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {"p", 3}));
  g.input("b", ts(FLOAT, {"q", 3}));
  g.node("Add", {"a", "b"}, {"c"});
  g.node("Mul", {"c", "a"}, {"d"});
  EXPECT_TRUE(infer_shapes(m).modified);
  const Type first = type_of(*m.graph, "d");
  // A second run over the annotated model changes nothing, under every policy.
  // (Override replaces fresh names with new ones: it is checked in policy_test.)
  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Refine, MergePolicy::Strict}) {
    InferenceOptions o;
    o.policy = p;
    Report again = infer_shapes(m, o);
    EXPECT_FALSE(again.modified) << to_string(p);
    EXPECT_TRUE(again.ok()) << to_string(p) << ": " << diagnostics_text(again);
    EXPECT_EQ(type_of(*m.graph, "d"), first) << to_string(p);
  }
}

TEST(Engine, NamingAnonymousInputsIsAModification) {
  Model m = make_model();
  GraphBuilder(*m.graph).input("x", ts(FLOAT, {SymbolicDim()}));
  EXPECT_TRUE(infer_shapes(m).modified);
  EXPECT_FALSE(infer_shapes(m).modified);
}

TEST(Engine, EmptyGraphIsNotModified) {
  Model m = make_model();
  Report r = infer_shapes(m);
  EXPECT_FALSE(r.modified);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(Engine, TraceGivesOneLinePerNode) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 3}));
  g.node("Add", {"x", "x"}, {"y"}, {}, "", "add1");
  g.node("Mul", {"y", "x"}, {"z"}, {}, "", "mul1");
  std::vector<std::string> lines;
  InferenceOptions o;
  o.trace = [&](const std::string& l) { lines.push_back(l); };
  infer_shapes(m, o);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("[N,3], [N,3] -> [N,3]"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("mul1"), std::string::npos);
}

// ---- opset-aware resolution ----

TEST(Resolution, ModelOpsetBelowFirstSinceVersionGivesNoRule) {
  // SequenceMap's only rule starts at opset 17.
  RunResult r = Op("SequenceMap").opset(16).run({Type::sequence(ts(FLOAT, {3}))});
  ASSERT_WARNING(r.report, "no shape rule for ai.onnx::SequenceMap");
  EXPECT_EQ(r.report.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
  EXPECT_TRUE(r.outputs[0].is_unknown());
  EXPECT_FALSE(resolve_rule(ops::kBuiltinRules, "", "SequenceMap", 16));
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "", "SequenceMap", 17).since_version, 17);
  // The rule runs from 17 (and reports the missing body attribute).
  RunResult at17 = Op("SequenceMap").opset(17).run({Type::sequence(ts(FLOAT, {3}))});
  EXPECT_ERROR(at17.report, "missing required attribute 'body'");
}

TEST(Resolution, PicksTheLargestSinceVersionNotAboveTheOpset) {
  const RuleTable t = ops::kBuiltinRules;
  ResolvedRule at10 = resolve_rule(t, "", "If", 10);
  ResolvedRule at11 = resolve_rule(t, "", "If", 11);
  ResolvedRule at12 = resolve_rule(t, "", "If", 12);
  ResolvedRule at99 = resolve_rule(t, "ai.onnx", "If", 99);
  ASSERT_TRUE(at10 && at11 && at12 && at99);
  EXPECT_EQ(at10.since_version, 1);
  EXPECT_EQ(at10.fn, &ops::infer_if_1);
  EXPECT_EQ(at11.since_version, 11);
  EXPECT_EQ(at11.fn, &ops::infer_if);
  EXPECT_NE(at10.fn, at11.fn);
  EXPECT_EQ(at12.since_version, 11);
  EXPECT_GE(at99.since_version, 23);  // the newest If rule
  EXPECT_EQ(at99.fn, &ops::infer_if);
  EXPECT_FALSE(resolve_rule(t, "", "Scan", 7));
  EXPECT_FALSE(resolve_rule(t, "", "NoSuchOp", 18));
  EXPECT_FALSE(resolve_rule(t, "com.other", "If", 18));
  EXPECT_FALSE(at11.user);
}

namespace {
void rule_a(Context&, Node&) {}
void rule_b(Context&, Node&) {}
constexpr auto kLocalRules = make_rules({
    RuleEntry{"", "Zed", 5, &rule_b},
    RuleEntry{"", "Zed", 1, &rule_a},
    RuleEntry{"", "Alpha", 3, &rule_a},
    RuleEntry{"x.y", "Alpha", 1, &rule_b},
});
constexpr auto kLocalMerged = symshape::detail::merge_all(kLocalRules, make_rules({RuleEntry{"", "Mid", 2, &rule_b}}));
static_assert(symshape::detail::strictly_sorted(kLocalRules), "make_rules sorts");
static_assert(symshape::detail::strictly_sorted(kLocalMerged), "merge_all keeps the order");
static_assert(!symshape::detail::strictly_sorted(make_rules({RuleEntry{"", "A", 1, &rule_a},
                                                             RuleEntry{"", "A", 1, &rule_b}})),
              "duplicates are detected");
static_assert(symshape::detail::strictly_sorted(ops::kBuiltinRules), "the built-in table is sorted and unique");

TEST(Resolution, LocalTableResolvesPerVersion) {
  const RuleTable t = kLocalMerged;
  EXPECT_EQ(t.size, 5u);
  EXPECT_FALSE(resolve_rule(t, "", "Zed", 0));
  EXPECT_EQ(resolve_rule(t, "", "Zed", 4).fn, &rule_a);
  EXPECT_EQ(resolve_rule(t, "", "Zed", 5).fn, &rule_b);
  EXPECT_EQ(resolve_rule(t, "", "Alpha", 3).fn, &rule_a);
  EXPECT_FALSE(resolve_rule(t, "", "Alpha", 2));
  EXPECT_EQ(resolve_rule(t, "x.y", "Alpha", 1).fn, &rule_b);
  EXPECT_EQ(resolve_rule(t, "", "Mid", 2).fn, &rule_b);
  EXPECT_FALSE(resolve_rule(t, "", "Beta", 9));
  EXPECT_FALSE(resolve_rule(RuleTable(), "", "Zed", 9));
}

// Names whose first 8 bytes tie (the sort compares those as integers first),
// a name that is a prefix of another, domains of 8 bytes and more, a byte
// above 127, in an order far from sorted.
constexpr RuleEntry kTrickyEntries[] = {
    {"com.microsoft", "QLinearMatMul", 10, &rule_a},
    {"ai.onnx.preview.training", "Adam", 1, &rule_a},
    {"", "SoftmaxCrossEntropyLoss", 13, &rule_a},
    {"ai.onnx.ml", "Normalizer", 1, &rule_a},
    {"", "Softmax", 13, &rule_a},
    {"com.microsoft", "QLinearConv", 1, &rule_a},
    {"ai.onnx.ml", "Adam", 1, &rule_a},
    {"", "Softmax", 1, &rule_a},
    {"abcdefgh", "Op", 1, &rule_a},
    {"", "SoftmaxCrossEntropyLoss", 12, &rule_a},
    {"abcdefg", "Op", 1, &rule_a},
    {"", "Softmax\xc3", 1, &rule_a},
    {"com.microsoft", "QLinearConv", 10, &rule_a},
    {"ai.onnx.preview.training", "Gradient", 1, &rule_a},
    {"", "Abs", 6, &rule_a},
    {"abcdefgh", "Op", 2, &rule_a},
};
constexpr auto kTrickySorted = make_rules(kTrickyEntries);
}  // namespace

TEST(Resolution, CompileTimeSortAgreesWithStdSort) {
  std::vector<RuleEntry> expected(std::begin(kTrickyEntries), std::end(kTrickyEntries));
  std::sort(expected.begin(), expected.end(),
            [](const RuleEntry& a, const RuleEntry& b) { return symshape::detail::compare_keys(a, b) < 0; });
  ASSERT_EQ(kTrickySorted.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(kTrickySorted[i].domain, expected[i].domain) << i;
    EXPECT_EQ(kTrickySorted[i].op_type, expected[i].op_type) << i;
    EXPECT_EQ(kTrickySorted[i].since_version, expected[i].since_version) << i;
  }
  // Merging tables that are not sorted gives the same table.
  constexpr auto merged = symshape::detail::merge_all(
      make_rules({RuleEntry{"", "Zed", 1, &rule_a}}),
      std::array<RuleEntry, 3>{RuleEntry{"", "Softmax", 13, &rule_a}, RuleEntry{"", "Abs", 6, &rule_a},
                               RuleEntry{"ai.onnx.ml", "Adam", 1, &rule_a}});
  static_assert(symshape::detail::strictly_sorted(merged), "merge_all sorts tables that are not sorted");
}

TEST(Resolution, BuiltinTableIsSortedAndUnique) {
  const auto& t = ops::kBuiltinRules;
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_LT(symshape::detail::compare_keys(t[i - 1], t[i]), 0) << i;
  for (const auto& e : t) EXPECT_NE(e.fn, nullptr);
}

TEST(Resolution, NodeDomainOpsetIsUsed) {
  // A node of a domain the model does not import has opset 0: no rule.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Add", {"x", "x"}, {"y"}, {}, "com.unknown", "foreign");
  Report r = infer_shapes(m);
  ASSERT_WARNING(r, "no shape rule for com.unknown::Add");
  EXPECT_NE(r.diagnostics.at(0).message.find("com.unknown::Add at opset 0"), std::string::npos) << diagnostics_text(r);
}

TEST(Resolution, AiOnnxWithoutOpsetImportIsAnError) {
  // ai.onnx nodes in a model that imports no ai.onnx opset: one usage error
  // naming the first such node, not only missing-rule warnings.
  Model m;
  m.opset_imports["com.example"] = 1;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Relu", {"x"}, {"y"}, {}, "", "relu");
  g.node("Relu", {"y"}, {"z"}, {}, "", "relu2");
  g.output("z");
  Report r = infer_shapes(m);
  EXPECT_FALSE(r.ok()) << diagnostics_text(r);
  ASSERT_ERROR(r, "imports no ai.onnx opset");
  EXPECT_EQ(r.errors(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics.at(0).node, "relu");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::Usage);
}

TEST(Resolution, AiOnnxImportedAsAiOnnxIsEnough) {
  Model m;
  m.opset_imports["ai.onnx"] = 18;  // the loader stores it as ""; a hand-built model may not
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Relu", {"x"}, {"y"}, {}, "", "relu");
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "y"), ts(FLOAT, {3}));
}

TEST(Resolution, OnlyOtherDomainsNeedNoAiOnnxImport) {
  Model m;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {3}));
  g.node("Add", {"x", "x"}, {"y"}, {}, "com.unknown", "foreign");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  ASSERT_WARNING(r, "no shape rule for com.unknown::Add");
}

// ---- attributes of the wrong kind ----

TEST(AttributeKind, ReadAsAnotherKindIsAUsageError) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2, 3}));
  g.node("Concat", {"x", "x"}, {"y"}, {Attribute::make_float("axis", 1.0)}, "", "concat");
  g.node("Transpose", {"x"}, {"t"}, {Attribute::make_floats("perm", {1, 0})}, "", "transpose");
  g.output("y");
  g.output("t");
  Report r = infer_shapes(m);
  ASSERT_EQ(r.errors(), 2u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics.at(0).to_string(), "error: node 'concat' (Concat): attribute 'axis' is FLOAT, expected INT");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::Usage);
  EXPECT_EQ(r.diagnostics.at(1).to_string(),
            "error: node 'transpose' (Transpose): attribute 'perm' is FLOATS, expected INTS");
  EXPECT_NE(type_of(*m.graph, "t"), ts(FLOAT, {3, 2}));  // no default perm applied
}

TEST(AttributeKind, OperatorsWithoutASchemaReportItThroughTheContext) {
  // com.microsoft operators have no ONNX schema: the rule's own reads
  // (ctx.attr_int) find the FLOAT transA and the engine reports it.
  Model m = make_model();
  m.opset_imports["com.microsoft"] = 1;
  GraphBuilder g(*m.graph);
  g.input("a", ts(FLOAT, {2, 3}));
  g.input("b", ts(FLOAT, {3, 4}));
  g.node("FusedMatMul", {"a", "b"}, {"y"}, {Attribute::make_float("transA", 1.0)}, "com.microsoft", "fused");
  g.output("y");
  Report r = infer_shapes(m);
  ASSERT_EQ(r.errors(), 1u) << diagnostics_text(r);
  EXPECT_EQ(r.diagnostics.at(0).to_string(),
            "error: node 'fused' (FusedMatMul): attribute 'transA' is FLOAT, expected INT");
  EXPECT_EQ(r.diagnostics.at(0).where, "node #0 'fused' (com.microsoft::FusedMatMul)");
}

TEST(AttributeKind, UndefinedKindIsAbsent) {
  // An attribute without a kind (an unbound function reference) reads as absent.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {2, 3}));
  Attribute perm;
  perm.name = "perm";
  g.node("Transpose", {"x"}, {"t"}, {perm}, "", "transpose");
  g.output("t");
  Report r = infer_shapes(m);
  EXPECT_TRUE(r.ok()) << diagnostics_text(r);
  EXPECT_EQ(type_of(*m.graph, "t"), ts(FLOAT, {3, 2}));
}

// ---- domains the model does not import ----

TEST(Engine, UnimportedSingleVersionDomainIsInferredWithAWarning) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"b", 8}));
  g.node("FastGelu", {"x"}, {"y"}, {}, "com.microsoft", "gelu1");
  g.node("FastGelu", {"y"}, {"z"}, {}, "com.microsoft", "gelu2");
  Report r = infer_shapes(m);
  EXPECT_EQ(type_of(*m.graph, "z"), ts(FLOAT, {"b", 8}));
  ASSERT_WARNING(r, "does not import that domain; inferring with its version-1 rules");
  EXPECT_EQ(r.diagnostics[0].node, "gelu1");
}
TEST(Engine, UnimportedAiOnnxStaysAnError) {
  Model m;
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"b", 8}));
  g.node("Relu", {"x"}, {"y"});
  EXPECT_ERROR(infer_shapes(m), "imports no ai.onnx opset");
}

// A dim whose exact expression is too long to keep becomes a fresh symbol,
// never silently: a warning names the node, and the report counts it.
TEST(Engine, OverlongDimIsWarnedAndCounted) {
  // Concat of 300 inputs [s0], [s1], ...: the exact dim is a 300-term sum.
  std::vector<In> inputs;
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back("s" + std::to_string(i));
  for (const std::string& name : names) inputs.push_back(ts(FLOAT, {name.c_str()}));
  RunResult r = Op("Concat").run(inputs, {attr("axis", int64_t{0})});
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].shape()[0].to_string(), "_d0");
  EXPECT_EQ(r.report.undetermined_dims, 1u);
  ASSERT_EQ(r.report.warnings(), 1u);
  EXPECT_NE(r.report.diagnostics[0].message.find("too long to keep"), std::string::npos)
      << r.report.diagnostics[0].message;
  EXPECT_EQ(r.report.diagnostics[0].node, "node");
}
