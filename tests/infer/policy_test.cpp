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
TEST(Policy, RefineKeepsMoreOrEquallySpecificDims) {
  PolicyRun r = run_add(MergePolicy::Refine, ts(FLOAT, {5, 3}));
  EXPECT_EQ(r.y, ts(FLOAT, {5, 3}));
  EXPECT_TRUE(r.report.diagnostics.empty()) << diagnostics_text(r.report);
  PolicyRun s = run_add(MergePolicy::Refine, ts(FLOAT, {"M", 3}));
  EXPECT_EQ(s.y, ts(FLOAT, {"M", 3}));
  EXPECT_TRUE(s.report.diagnostics.empty()) << diagnostics_text(s.report);
  EXPECT_FALSE(s.report.modified);
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
  EXPECT_ERROR(run_add(MergePolicy::Strict, ts(FLOAT, {"M", 3})).report,
               "inferred dim 0 = N conflicts with existing M");
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
TEST(Policy, StrictFreshDimIsNotAConflict) {
  // Broadcasting p with q gives a fresh dim: a placeholder, not a value.
  PolicyRun r = run_add(MergePolicy::Strict, ts(FLOAT, {"M"}), ts(FLOAT, {"p"}), ts(FLOAT, {"q"}));
  EXPECT_EQ(r.y, ts(FLOAT, {"M"}));
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
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
