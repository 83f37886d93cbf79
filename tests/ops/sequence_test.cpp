#include "infer/graph_test_util.hpp"

namespace {
Type seq(Type elem) { return Type::sequence(std::move(elem)); }
}  // namespace

TEST(SequenceConstruct, SameShapes) {
  EXPECT_EQ(Op("SequenceConstruct").infer({ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 3})}),
            (Types{seq(ts(FLOAT, {"N", 3}))}));
}
TEST(SequenceConstruct, DifferentDimsBecomeUnknown) {
  EXPECT_EQ(Op("SequenceConstruct").infer({ts(FLOAT, {"N", 3}), ts(FLOAT, {"N", 4})}),
            (Types{seq(ts(FLOAT, {"N", SymbolicDim()}))}));
  EXPECT_EQ(Op("SequenceConstruct").infer({ts(FLOAT, {"N", 3}), ts(FLOAT, {3})}), (Types{seq(ts(FLOAT))}));
}
TEST(SequenceConstruct, DtypeMismatchIsError) {
  RunResult r = Op("SequenceConstruct").run({ts(FLOAT, {3}), ts(INT64, {3})});
  EXPECT_ERROR(r.report, "one element type");
}
TEST(SequenceConstruct, NoInputIsUsageError) {
  EXPECT_ERROR(Op("SequenceConstruct").run({}).report, "missing required input 0");
}

TEST(SequenceEmpty, DefaultsToFloat) {
  EXPECT_EQ(Op("SequenceEmpty").infer({}), (Types{seq(ts(FLOAT))}));
  EXPECT_EQ(Op("SequenceEmpty").infer({}, {attr("dtype", 7)}), (Types{seq(ts(INT64))}));
}
TEST(SequenceEmpty, BadDtypeIsUsageError) {
  EXPECT_ERROR(Op("SequenceEmpty").run({}, {attr("dtype", 99)}).report, "dtype 99 is not a valid tensor element type");
}

TEST(SequenceAt, ElementType) {
  EXPECT_EQ(Op("SequenceAt").infer({seq(ts(FLOAT, {"N", 3})), ts(INT64, {})}), (Types{ts(FLOAT, {"N", 3})}));
}
TEST(SequenceAt, NotASequenceIsError) {
  RunResult r = Op("SequenceAt").run({ts(FLOAT, {3}), ts(INT64, {})});
  EXPECT_ERROR(r.report, "input 0 must be a sequence");
}
TEST(SequenceAt, MissingPositionIsUsageError) {
  EXPECT_ERROR(Op("SequenceAt").run({seq(ts(FLOAT, {3}))}).report, "missing required input 1");
}

TEST(SequenceLength, Int64Scalar) {
  EXPECT_EQ(Op("SequenceLength").infer({seq(ts(FLOAT, {3}))}), (Types{ts(INT64, {})}));
  EXPECT_EQ(Op("SequenceLength").infer({Type()}), (Types{ts(INT64, {})}));
}

TEST(SequenceInsert, CoversTheNewElement) {
  EXPECT_EQ(Op("SequenceInsert").infer({seq(ts(FLOAT, {"N", 3})), ts(FLOAT, {"N", 3})}),
            (Types{seq(ts(FLOAT, {"N", 3}))}));
  EXPECT_EQ(Op("SequenceInsert").infer({seq(ts(FLOAT, {"N", 3})), ts(FLOAT, {"M", 3}), ts(INT64, {})}),
            (Types{seq(ts(FLOAT, {SymbolicDim(), 3}))}));
}
TEST(SequenceInsert, DtypeMismatchIsError) {
  RunResult r = Op("SequenceInsert").run({seq(ts(FLOAT, {3})), ts(INT64, {3})});
  EXPECT_ERROR(r.report, "cannot insert int64[3] into a sequence of float[3]");
}

TEST(SequenceErase, SameType) {
  EXPECT_EQ(Op("SequenceErase").infer({seq(ts(FLOAT, {"N", 3}))}), (Types{seq(ts(FLOAT, {"N", 3}))}));
  EXPECT_EQ(Op("SequenceErase").infer({seq(ts(FLOAT, {"N", 3})), ts(INT64, {})}), (Types{seq(ts(FLOAT, {"N", 3}))}));
}
TEST(SequenceErase, NotASequenceIsError) {
  EXPECT_ERROR(Op("SequenceErase").run({ts(FLOAT, {3})}).report, "input 0 must be a sequence, got float[3]");
}

TEST(SplitToSequence, WithoutSplitKeepsDims) {
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {"N", 6})}, {attr("axis", 1)}), (Types{seq(ts(FLOAT, {"N", 1}))}));
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {"N", 6})}, {attr("axis", -1), attr("keepdims", 0)}),
            (Types{seq(ts(FLOAT, {"N"}))}));
}
TEST(SplitToSequence, ScalarSplit) {
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {"N", 6}), constant(Tensor::scalar(2))}, {attr("axis", 1)}),
            (Types{seq(ts(FLOAT, {"N", 2}))}));
  // 7 is not divisible by 2: the last chunk is smaller.
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {"N", 7}), constant(Tensor::scalar(2))}, {attr("axis", 1)}),
            (Types{seq(ts(FLOAT, {"N", SymbolicDim()}))}));
  // keepdims is ignored when split is given.
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {"4*k", 6}), constant(Tensor::scalar(4))}, {attr("keepdims", 0)}),
            (Types{seq(ts(FLOAT, {4, 6}))}));
}
TEST(SplitToSequence, VectorSplit) {
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {6, "N"}), constant(Tensor::vector({3, 3}))}),
            (Types{seq(ts(FLOAT, {3, "N"}))}));
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {6, "N"}), constant(Tensor::vector({2, 4}))}),
            (Types{seq(ts(FLOAT, {SymbolicDim(), "N"}))}));
  EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT, {6, "N"}), ts(INT64, {2})}),
            (Types{seq(ts(FLOAT, {SymbolicDim(), "N"}))}));
}
TEST(SplitToSequence, ZeroLengthPiecesAreValid) {
  RunResult r = Op("SplitToSequence").run({ts(FLOAT, {0}), constant(Tensor::vector({0, 0, 0}))});
  EXPECT_EQ(r.report.errors(), 0u);
  EXPECT_EQ(r.outputs, (Types{seq(ts(FLOAT, {0}))}));
}
TEST(SplitToSequence, Errors) {
  EXPECT_ERROR(Op("SplitToSequence").run({ts(FLOAT, {6}), constant(Tensor::vector({2, 2}))}).report, "sums to 4");
  EXPECT_ERROR(Op("SplitToSequence").run({ts(FLOAT, {6}), constant(Tensor::vector({-1, 7}))}).report, "non-negative");
  EXPECT_ERROR(Op("SplitToSequence").run({ts(FLOAT, {6}), constant(Tensor::scalar(0))}).report, "must be positive");
  EXPECT_ERROR(Op("SplitToSequence").run({ts(FLOAT, {6})}, {attr("axis", 1)}).report, "axis 1 is out of range");
}
TEST(SplitToSequence, UnknownRank) { EXPECT_EQ(Op("SplitToSequence").infer({ts(FLOAT)}), (Types{seq(ts(FLOAT))})); }

TEST(ConcatFromSequence, ConcatAxisIsUnknown) {
  EXPECT_EQ(Op("ConcatFromSequence").infer({seq(ts(FLOAT, {"N", 3}))}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"N", "_d0"})}));
}
TEST(ConcatFromSequence, NewAxis) {
  EXPECT_EQ(Op("ConcatFromSequence").infer({seq(ts(FLOAT, {"N", 3}))}, {attr("axis", -1), attr("new_axis", 1)}),
            (Types{ts(FLOAT, {"N", 3, "_d0"})}));
  EXPECT_EQ(Op("ConcatFromSequence").infer({seq(ts(FLOAT, {"N", 3}))}, {attr("axis", 0), attr("new_axis", 1)}),
            (Types{ts(FLOAT, {"_d0", "N", 3})}));
}
TEST(ConcatFromSequence, Errors) {
  EXPECT_ERROR(Op("ConcatFromSequence").run({seq(ts(FLOAT, {3}))}).report, "missing required attribute 'axis'");
  EXPECT_ERROR(Op("ConcatFromSequence").run({seq(ts(FLOAT, {3}))}, {attr("axis", 1)}).report, "axis 1 is out of range");
  EXPECT_EQ(Op("ConcatFromSequence").run({seq(ts(FLOAT, {3}))}, {attr("axis", 1), attr("new_axis", 1)}).report.errors(),
            0u);
}
TEST(ConcatFromSequence, UnknownRankElement) {
  EXPECT_EQ(Op("ConcatFromSequence").infer({seq(ts(FLOAT))}, {attr("axis", 0)}), (Types{ts(FLOAT)}));
}

namespace {
// SequenceMap(seq, extra) with body y = Add(x, e).
Types run_sequence_map(const Type& s, const Type& extra) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("s", s);
  g.input("e", extra);
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("x", Type());
  b.input("ex", Type());
  b.node("Add", {"x", "ex"}, {"y"});
  b.output("y");
  g.node("SequenceMap", {"s", "e"}, {"out"}, {graph_attr("body", body)}, "", "map");
  g.output("out");
  infer_shapes(m);
  return {type_of(*m.graph, "out")};
}
}  // namespace

// ---- the number of elements (propagated as the sequence's value) ----

TEST(SequenceLengthTracking, ConstructCountsItsInputs) {
  RunResult r = Op("SequenceConstruct").run({ts(FLOAT, {2}), ts(FLOAT, {2}), ts(FLOAT, {2})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({3}));
}
TEST(SequenceLengthTracking, EmptyHasNoElements) {
  RunResult r = Op("SequenceEmpty").run({});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({0}));
}
// An empty sequence has no element to cover: after one insert, the only
// element is the inserted tensor.
TEST(SequenceLengthTracking, InsertIntoEmptyGivesTheInsertedType) {
  RunResult r = Op("SequenceInsert").run({sym_value(seq(ts(FLOAT)), {0}), ts(FLOAT, {2, 3, 4})});
  EXPECT_EQ(r.outputs[0], seq(ts(FLOAT, {2, 3, 4})));
}
TEST(SequenceLengthTracking, InsertAddsOne) {
  RunResult r = Op("SequenceInsert").run({sym_value(seq(ts(FLOAT, {3})), {"L"}), ts(FLOAT, {3})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({SymbolicDim("L") + SymbolicDim(1)}));
}
TEST(SequenceLengthTracking, EraseRemovesOne) {
  RunResult r = Op("SequenceErase").run({sym_value(seq(ts(FLOAT, {3})), {4})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({3}));
}
TEST(SequenceLengthTracking, EraseFromEmptyIsError) {
  EXPECT_ERROR(Op("SequenceErase").run({sym_value(seq(ts(FLOAT)), {0})}).report, "empty sequence");
}
TEST(SequenceLengthTracking, LengthHasTheValue) {
  RunResult r = Op("SequenceLength").run({sym_value(seq(ts(FLOAT, {3})), {5})});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({5}));
}
TEST(SequenceLengthTracking, SplitToSequenceCountsPieces) {
  RunResult r = Op("SplitToSequence").run({ts(FLOAT, {6, 2}), constant(Tensor::vector({1, 2, 3}))});
  ASSERT_TRUE(r.values[0]);
  EXPECT_EQ(*r.values[0], dims({3}));
  RunResult whole = Op("SplitToSequence").run({ts(FLOAT, {"N", 2})}, {attr("keepdims", 0)});
  ASSERT_TRUE(whole.values[0]);
  EXPECT_EQ(*whole.values[0], dims({"N"}));
}
// new_axis stacks the elements: the new axis is their number; otherwise the
// axis is the sum of the elements' dims, here equal ones.
TEST(SequenceLengthTracking, ConcatFromSequenceOfKnownLength) {
  EXPECT_EQ(Op("ConcatFromSequence")
                .infer({sym_value(seq(ts(FLOAT, {2, 3, 4})), {3})}, {attr("axis", -1), attr("new_axis", 1)}),
            (Types{ts(FLOAT, {2, 3, 4, 3})}));
  EXPECT_EQ(Op("ConcatFromSequence").infer({sym_value(seq(ts(FLOAT, {"N", 3})), {2})}, {attr("axis", 1)}),
            (Types{ts(FLOAT, {"N", 6})}));
}

TEST(SequenceMap, BodyRunsOnElements) {
  EXPECT_EQ(run_sequence_map(seq(ts(FLOAT, {"N", 3})), ts(FLOAT, {3})), (Types{seq(ts(FLOAT, {"N", 3}))}));
  EXPECT_EQ(run_sequence_map(seq(ts(FLOAT, {"N", 1})), seq(ts(FLOAT, {4}))), (Types{seq(ts(FLOAT, {"N", 4}))}));
}
TEST(SequenceMap, FirstInputMustBeASequence) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("s", ts(FLOAT, {3}));
  auto body = make_subgraph(*m.graph);
  GraphBuilder b(*body);
  b.input("x", Type());
  b.output("x");
  g.node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", body)}, "", "map");
  Report r = infer_shapes(m);
  EXPECT_ERROR(r, "input 0 must be a sequence");
}
TEST(SequenceMap, BodyArityMismatchIsUsageError) {
  Model m = make_model(17);
  GraphBuilder g(*m.graph);
  g.input("s", seq(ts(FLOAT, {3})));
  auto body = make_subgraph(*m.graph);
  g.node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", body)}, "", "map");
  Report r = infer_shapes(m);
  EXPECT_ERROR(r, "body has 0 inputs");
}
TEST(SequenceMap, NoRuleBeforeOpset17) {
  RunResult r = Op("SequenceMap").opset(16).run({seq(ts(FLOAT, {3}))});
  EXPECT_WARNING(r.report, "no shape rule for ai.onnx::SequenceMap");
  EXPECT_EQ(r.report.diagnostics.at(0).kind, DiagnosticKind::MissingRule);
}
