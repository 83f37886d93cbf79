// Merge policies, as in the table of include/symshape/infer/context.hpp and
// docs/library.md ("Merge policies").
#include "graph_test_util.hpp"

namespace {

struct PolicyRun {
  Type y;
  Report report;
};

// y = Add(a, b) where y already has the type `existing` (Type() for none).
PolicyRun run_add(MergePolicy p, const Type& existing, const Type& a = ts(FLOAT, {"N", 3}),
                  const Type& b = ts(FLOAT, {"N", 3})) {
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("a", a);
  g.input("b", b);
  g.node("Add", {"a", "b"}, {"y"}, {}, "", "add");
  g.output("y")->type = existing;
  InferenceOptions o;
  o.policy = p;
  PolicyRun r;
  r.report = infer_shapes(m, o);
  r.y = type_of(*m.graph, "y");
  return r;
}

const SymbolicDim kUnknown;

}  // namespace

TEST(Policy, Names) {
  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Override, MergePolicy::Refine, MergePolicy::Strict})
    EXPECT_EQ(parse_merge_policy(to_string(p)), p);
  EXPECT_FALSE(parse_merge_policy("lenient"));
  EXPECT_EQ(InferenceOptions().policy, MergePolicy::Refine);
}

TEST(Policy, NoExistingTypeIsSetUnderEveryPolicy) {
  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Override, MergePolicy::Refine, MergePolicy::Strict}) {
    PolicyRun r = run_add(p, Type());
    EXPECT_EQ(r.y, ts(FLOAT, {"N", 3})) << to_string(p);
    EXPECT_TRUE(r.report.modified) << to_string(p);
  }
}

// ---- skip: an existing shape or dtype is kept ----

TEST(Policy, SkipKeepsExistingShapeAndDtype) {
  PolicyRun r = run_add(MergePolicy::Skip, ts(DOUBLE, {"M", 7}));
  EXPECT_EQ(r.y, ts(DOUBLE, {"M", 7}));
  EXPECT_TRUE(r.report.diagnostics.empty()) << diagnostics_text(r.report);
  EXPECT_FALSE(r.report.modified);
}
TEST(Policy, SkipFillsWhatIsMissing) {
  // No rank: the inferred shape is used; no dtype: the inferred one.
  EXPECT_EQ(run_add(MergePolicy::Skip, ts(DataType::UNDEFINED)).y, ts(FLOAT, {"N", 3}));
}
TEST(Policy, SkipMakesSemanticErrorsWarnings) {
  PolicyRun r = run_add(MergePolicy::Skip, Type(), ts(FLOAT, {2}), ts(FLOAT, {3}));
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_WARNING(r.report, "cannot broadcast [2] with [3]");
  EXPECT_EQ(r.report.diagnostics.at(0).kind, DiagnosticKind::Semantic);
}

// ---- override: always replaced ----

TEST(Policy, OverrideReplaces) {
  PolicyRun r = run_add(MergePolicy::Override, ts(DOUBLE, {"M", 7, 1}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N", 3}));
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  EXPECT_TRUE(r.report.modified);
}
TEST(Policy, OverrideReplacesEvenLessSpecific) {
  EXPECT_EQ(run_add(MergePolicy::Override, ts(FLOAT, {5, 3}), ts(FLOAT, {"N", 3}), ts(FLOAT, {1, 3})).y,
            ts(FLOAT, {"N", 3}));
}
TEST(Policy, OverrideSemanticErrorsAreErrors) {
  EXPECT_ERROR(run_add(MergePolicy::Override, Type(), ts(FLOAT, {2}), ts(FLOAT, {3})).report,
               "cannot broadcast [2] with [3]");
}

// ---- refine: replaced where more specific (int > expression > unknown) ----

TEST(Policy, RefineTakesMoreSpecificDims) {
  // unknown -> symbol, symbol -> int.
  EXPECT_EQ(run_add(MergePolicy::Refine, ts(FLOAT, {kUnknown, "M"})).y, ts(FLOAT, {"N", 3}));
}
TEST(Policy, RefineInferredDimOverTheInputsWinsWithAContract) {
  // A declared 5 where the inputs give N: the model runs with any N, so N is
  // written, and the declaration becomes the contract N == 5.
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {5, 3}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N", 3}));
  EXPECT_TRUE(r.report.diagnostics.empty()) << diagnostics_text(r.report);
  ASSERT_EQ(r.report.contracts.size(), 1u);
  EXPECT_EQ(r.report.contracts[0].relation(), "5 == N");
  EXPECT_EQ(r.report.contracts[0].origin, "declared dim 0 of 'y'");
  EXPECT_EQ(r.report.contracts[0].node, "add");
}
TEST(Policy, RefinePlaceholderGivesWayWithoutAContract) {
  // M is no input's symbol: an exporter's placeholder.
  PolicyRun s = run_add(MergePolicy::Refine, ts(FLOAT, {"M", 3}));
  EXPECT_EQ(s.y, ts(FLOAT, {"N", 3}));
  EXPECT_TRUE(s.report.diagnostics.empty()) << diagnostics_text(s.report);
  EXPECT_TRUE(s.report.contracts.empty());
  EXPECT_TRUE(s.report.modified);
}
TEST(Policy, RefineKeepsADeclaredInputExpressionAgainstAnUnknownDim) {
  // Broadcasting [N] with [?] gives no dim; the declared N stays.
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {"N"}), ts(FLOAT, {"N"}), ts(FLOAT));
  EXPECT_EQ(r.y, ts(FLOAT, {"N"}));
  EXPECT_FALSE(r.report.modified);
}
TEST(Policy, RefineProvablyDifferentExpressionsConflict) {
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {"N+1", 3}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N+1", 3}));
  EXPECT_WARNING(r.report, "inferred dim 0 = N conflicts with existing N+1");
  EXPECT_TRUE(r.report.contracts.empty());
}
TEST(Policy, RefineIntConflictIsAWarningAndKeepsTheExisting) {
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {"N", 4}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N", 4}));
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_WARNING(r.report, "inferred dim 1 = 3 conflicts with existing 4");
  EXPECT_EQ(r.report.diagnostics.at(0).kind, DiagnosticKind::Conflict);
}
TEST(Policy, RefineRankConflictKeepsTheExisting) {
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {"N"}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N"}));
  EXPECT_WARNING(r.report, "inferred rank 2");
}
TEST(Policy, RefineDtypeConflictKeepsTheExisting) {
  PolicyRun r = run_add(MergePolicy::Refine, ts(DOUBLE, {"N", 3}));
  EXPECT_EQ(r.y, ts(DOUBLE, {"N", 3}));
  EXPECT_WARNING(r.report, "inferred element type float conflicts with existing double");
}
TEST(Policy, RefineSemanticErrorsAreErrors) {
  EXPECT_ERROR(run_add(MergePolicy::Refine, Type(), ts(FLOAT, {2}), ts(FLOAT, {3})).report,
               "cannot broadcast [2] with [3]");
}

// ---- strict: as refine, and a conflict is an error ----

TEST(Policy, StrictConflictsAreErrors) {
  PolicyRun r = run_add(MergePolicy::Strict, ts(FLOAT, {"N", 4}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N", 4}));
  EXPECT_ERROR(r.report, "inferred dim 1 = 3 conflicts with existing 4");
  EXPECT_ERROR(
      run_add(MergePolicy::Strict, ts(FLOAT, {"2*N+2", 3}), ts(FLOAT, {"N+1", 3}), ts(FLOAT, {"N+1", 3})).report,
      "inferred dim 0 = N+1 conflicts with existing 2*N+2");
  EXPECT_ERROR(run_add(MergePolicy::Strict, ts(FLOAT, {"N"})).report,
               "inferred rank 2 [N,3] conflicts with existing [N]");
  EXPECT_ERROR(run_add(MergePolicy::Strict, ts(DOUBLE, {"N", 3})).report,
               "inferred element type float conflicts with existing double");
  EXPECT_ERROR(run_add(MergePolicy::Strict, Type::sequence(ts(FLOAT, {3}))).report,
               "inferred type float[N,3] conflicts with existing seq(float[3])");
}
TEST(Policy, StrictRefinesWithoutConflict) {
  PolicyRun r = run_add(MergePolicy::Strict, ts(FLOAT, {kUnknown, "M"}));
  EXPECT_EQ(r.y, ts(FLOAT, {"N", 3}));
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  EXPECT_TRUE(run_add(MergePolicy::Strict, ts(FLOAT, {"N", 3})).report.diagnostics.empty());
}
TEST(Policy, StrictContractIsNotAConflict) {
  // Broadcasting p with q: p or q may be 1, so the declared p is a contract.
  PolicyRun r = run_add(MergePolicy::Strict, ts(FLOAT, {"p"}), ts(FLOAT, {"p"}), ts(FLOAT, {"q"}));
  EXPECT_EQ(r.y, ts(FLOAT, {"max(p,q)*min(1,p,q)"}));
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
  ASSERT_EQ(r.report.contracts.size(), 2u);
  EXPECT_EQ(r.report.contracts[0].relation(), "p == q or p == 1 or q == 1");
  EXPECT_EQ(r.report.contracts[1].relation(), "p == max(p,q)*min(1,p,q)");
}
TEST(Policy, StrictFreshDimIsNotAConflict) {
  // NonZero's count is data-dependent: a fresh dim, never a conflict with the declared K.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"K"}));
  g.node("NonZero", {"x"}, {"y"});
  g.output("y")->type = ts(INT64, {1, "K"});
  InferenceOptions o;
  o.policy = MergePolicy::Strict;
  Report r = infer_shapes(m, o);
  EXPECT_EQ(type_of(*m.graph, "y"), ts(INT64, {1, "K"}));
  EXPECT_TRUE(r.diagnostics.empty()) << diagnostics_text(r);
  EXPECT_TRUE(r.contracts.empty());
}
TEST(Policy, StrictSemanticErrorsAreErrors) {
  EXPECT_ERROR(run_add(MergePolicy::Strict, Type(), ts(FLOAT, {2}), ts(FLOAT, {3})).report,
               "cannot broadcast [2] with [3]");
}

// ---- usage errors are errors under every policy ----

TEST(Policy, UsageErrorsAreAlwaysErrors) {
  for (MergePolicy p : {MergePolicy::Skip, MergePolicy::Override, MergePolicy::Refine, MergePolicy::Strict}) {
    RunResult r = Op("Add").policy(p).run({ts(FLOAT, {3})});
    EXPECT_ERROR(r.report, "missing required input 1") << to_string(p);
    EXPECT_EQ(r.report.diagnostics.at(0).kind, DiagnosticKind::Usage) << to_string(p);
  }
}
