// An int64 overflow in a rule's dim arithmetic is an error naming the node,
// never a wrapped value nor a silently fresh dim.
#include "graph_test_util.hpp"

namespace {

constexpr int64_t k2p62 = int64_t{1} << 62;
constexpr int64_t k2p40 = int64_t{1} << 40;
const char* const kOverflow = "int64 overflow in a dim computation";

}  // namespace

TEST(Overflow, PadBeyondInt64) {
  const RunResult r = Op("Pad").opset(13).run({ts(FLOAT, {k2p62}), vec({k2p62, k2p62})});
  EXPECT_ERROR(r.report, kOverflow);
  EXPECT_EQ(r.report.diagnostics.at(0).op_type, "Pad");
}

TEST(Overflow, FlattenOf2To80Elements) {
  EXPECT_ERROR(Op("Flatten").opset(13).run({ts(FLOAT, {k2p40, k2p40})}, {attr("axis", 2)}).report, kOverflow);
}

TEST(Overflow, ReshapeOf2To80Elements) {
  EXPECT_ERROR(Op("Reshape").opset(14).run({ts(FLOAT, {k2p40, k2p40}), vec({-1})}).report, kOverflow);
}

TEST(Overflow, ConcatSumBeyondInt64) {
  EXPECT_ERROR(Op("Concat")
                   .opset(13)
                   .run({ts(FLOAT, {k2p62}), ts(FLOAT, {k2p62}), ts(FLOAT, {k2p62})}, {attr("axis", 0)})
                   .report,
               kOverflow);
}

TEST(Overflow, TileBeyondInt64) {
  EXPECT_ERROR(Op("Tile").opset(13).run({ts(FLOAT, {k2p62}), vec({3})}).report, kOverflow);
}

TEST(Overflow, SymbolicOverflowToo) {
  // 2^62*N + 2^62*N + 2^62*N: the coefficient overflows.
  EXPECT_ERROR(
      Op("Concat")
          .opset(13)
          .run({ts(FLOAT, {SymbolicDim(k2p62) * SymbolicDim("N")}), ts(FLOAT, {SymbolicDim(k2p62) * SymbolicDim("N")}),
                ts(FLOAT, {SymbolicDim(k2p62) * SymbolicDim("N")})},
               {attr("axis", 0)})
          .report,
      kOverflow);
}

TEST(Overflow, LargeButValidDimsAreFine) {
  const RunResult r = Op("Concat").opset(13).run({ts(FLOAT, {k2p62}), ts(FLOAT, {k2p62 - 1})}, {attr("axis", 0)});
  EXPECT_TRUE(r.report.ok()) << diagnostics_text(r.report);
}

TEST(Overflow, ReportedOnceAtTheInnerNode) {
  // An overflow inside an If branch names the node in the branch, not the If.
  Model m = make_model();
  GraphBuilder g(*m.graph);
  g.input("c", ts(BOOL, {}));
  g.input("x", ts(FLOAT, {k2p62}));
  auto branch = [&](const char* name) {
    auto sub = make_subgraph(*m.graph, name);
    GraphBuilder b(*sub);
    b.node("Concat", {"x", "x", "x"}, {std::string(name) + "_y"}, {attr("axis", 0)}, "", std::string(name) + "_concat");
    b.output(std::string(name) + "_y");
    return sub;
  };
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", branch("then")), graph_attr("else_branch", branch("else"))}, "",
         "if");
  g.output("y");
  Report r = infer_shapes(m);
  EXPECT_EQ(r.errors(), 2u) << diagnostics_text(r);
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) {
      EXPECT_NE(d.node, "if") << d.to_string();
    }
}

TEST(Overflow, SizeBeyondInt64) {
  // The overflow is in the output's value, not in its shape.
  EXPECT_ERROR(Op("Size").opset(13).run({ts(FLOAT, {k2p62, 4})}).report, kOverflow);
}

TEST(Overflow, TheMarkFollowsTheArithmeticThenClears) {
  const SymbolicDim big = SymbolicDim(k2p62) * SymbolicDim(4);
  EXPECT_TRUE(big.is_unknown());
  EXPECT_TRUE(big.overflowed());
  EXPECT_TRUE((big + SymbolicDim("N")).overflowed());
  EXPECT_TRUE((SymbolicDim(1) + big).overflowed());
  EXPECT_TRUE((SymbolicDim() * big).overflowed());
  EXPECT_FALSE(SymbolicDim().overflowed());
  EXPECT_FALSE((SymbolicDim() + SymbolicDim(1)).overflowed());
  EXPECT_EQ(big, SymbolicDim());  // unknown like any other
  EXPECT_EQ(big.to_string(), "?");
  // Nothing is left behind on the thread: the next dims are ordinary.
  EXPECT_FALSE((SymbolicDim(k2p62) + SymbolicDim(1)).overflowed());
}

TEST(Overflow, TheOutputDimsAreNamedAfterTheError) {
  const RunResult r = Op("Tile").opset(13).run({ts(FLOAT, {k2p62}), vec({3})});
  EXPECT_ERROR(r.report, kOverflow);
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_TRUE(r.outputs[0].shape().has_rank());
  EXPECT_FALSE(r.outputs[0].shape()[0].overflowed());
}
