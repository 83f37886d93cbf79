// The FLOP conventions of docs/profile.md, each against a formula written by
// hand from the convention (never from the code under test).
#include "profile_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;
using profile::FlopKind;

namespace {

void expect_counted(const profile::FlopCount& c, const std::string& formula) {
  EXPECT_EQ(c.kind, FlopKind::Counted) << c.note;
  EXPECT_EQ(c.flops.to_string(), canon(formula));
}

TEST(ProfileCounts, MatMulIsTwiceOutputTimesK) {
  // [B,S,64] x [64,32] -> [B,S,32], K = 64.
  expect_counted(node_flops(Op("MatMul"), {ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {64, 32})}), "2*B*S*32*64");
  // Batched scores: [B,H,S,D] x [B,H,D,T] -> [B,H,S,T], K = D.
  expect_counted(node_flops(Op("MatMul"), {ts(FLOAT, {"B", 4, "S", 8}), ts(FLOAT, {"B", 4, 8, "T"})}), "2*B*4*S*T*8");
  // A vector on the left: [K] x [K,N] -> [N].
  expect_counted(node_flops(Op("MatMul"), {ts(FLOAT, {"K"}), ts(FLOAT, {"K", "N"})}), "2*N*K");
}

TEST(ProfileCounts, ConvWithGroupsAndBias) {
  // X [N,8,H,W], W [16, 8/2, 3, 3], group 2, same padding -> Y [N,16,H,W].
  const std::vector<Attribute> attrs{attr("group", 2), attr("pads", std::vector<int64_t>{1, 1, 1, 1})};
  const In x = ts(FLOAT, {"N", 8, "H", "W"});
  const In w = ts(FLOAT, {16, 4, 3, 3});
  expect_counted(node_flops(Op("Conv"), {x, w}, attrs), "2*(N*16*H*W)*4*3*3");
  expect_counted(node_flops(Op("Conv"), {x, w, ts(FLOAT, {16})}, attrs), "2*(N*16*H*W)*4*3*3 + N*16*H*W");
  // Depthwise (group = C): one input channel per output.
  expect_counted(node_flops(Op("Conv"), {x, ts(FLOAT, {8, 1, 3, 3})}, {attr("group", 8)}), "2*(N*8*(H-2)*(W-2))*1*3*3");
}

TEST(ProfileCounts, ConvTransposeCountsEveryInputElement) {
  // X [N,4,H,W], W [4, 6, 2, 2] stride 2 -> Y [N,6,2H,2W]; with bias.
  expect_counted(
      node_flops(Op("ConvTranspose"), {ts(FLOAT, {"N", 4, "H", "W"}), ts(FLOAT, {4, 6, 2, 2}), ts(FLOAT, {6})},
                 {attr("strides", std::vector<int64_t>{2, 2})}),
      "2*(N*4*H*W)*6*2*2 + N*6*(2*H)*(2*W)");
}

TEST(ProfileCounts, GemmWithTransposesAndC) {
  // transA: A is [K=20, M]; transB: B is [N, K]; C adds M x N.
  const std::vector<Attribute> t{attr("transA", 1), attr("transB", 1)};
  expect_counted(node_flops(Op("Gemm"), {ts(FLOAT, {20, "M"}), ts(FLOAT, {"N", 20}), ts(FLOAT, {"N"})}, t),
                 "2*M*N*20 + M*N");
  expect_counted(node_flops(Op("Gemm"), {ts(FLOAT, {"M", 20}), ts(FLOAT, {20, "N"})}), "2*M*N*20");
}

TEST(ProfileCounts, ElementwiseCountsOutputElementsAfterBroadcast) {
  expect_counted(node_flops(Op("Add"), {ts(FLOAT, {"B", 1, 8}), ts(FLOAT, {"S", 1})}), "B*S*8");
  expect_counted(node_flops(Op("Relu"), {ts(FLOAT, {"B", 3})}), "3*B");
  // Variadic: k-1 operations per element, Mean k.
  const In a = ts(FLOAT, {"B", 4});
  expect_counted(node_flops(Op("Sum"), {a, a, a}), "2*4*B");
  expect_counted(node_flops(Op("Mean"), {a, a, a}), "3*4*B");
}

TEST(ProfileCounts, ReductionsSoftmaxAndNormalization) {
  expect_counted(
      node_flops(Op("ReduceMean").opset(17), {ts(FLOAT, {"B", "S", 16})}, {attr("axes", std::vector<int64_t>{-1})}),
      "B*S*16");
  expect_counted(node_flops(Op("Softmax"), {ts(FLOAT, {"B", "S", "T"})}), "5*B*S*T");
  // LayerNormalization with scale and bias: 5 + 2 per element.
  expect_counted(node_flops(Op("LayerNormalization"), {ts(FLOAT, {"B", "S", 16}), ts(FLOAT, {16}), ts(FLOAT, {16})}),
                 "7*B*S*16");
  expect_counted(node_flops(Op("LayerNormalization"), {ts(FLOAT, {"B", "S", 16}), ts(FLOAT, {16})}), "6*B*S*16");
  expect_counted(
      node_flops(Op("MaxPool"), {ts(FLOAT, {"N", 3, 8, 8})},
                 {attr("kernel_shape", std::vector<int64_t>{2, 2}), attr("strides", std::vector<int64_t>{2, 2})}),
      "N*3*4*4*2*2");
}

TEST(ProfileCounts, EinsumCountsTheIndexSpace) {
  // Two operands with a summed index: 2 per point of b,i,j,k.
  expect_counted(node_flops(Op("Einsum"), {ts(FLOAT, {"B", "I", "J"}), ts(FLOAT, {"B", "J", "K"})},
                            {attr("equation", "bij,bjk->bik")}),
                 "2*B*I*J*K");
  // Implicit output, ellipsis: "...ij,...jk" sums j.
  expect_counted(node_flops(Op("Einsum"), {ts(FLOAT, {"B", "I", "J"}), ts(FLOAT, {"B", "J", "K"})},
                            {attr("equation", "...ij,...jk")}),
                 "2*B*I*J*K");
  // A transpose: no arithmetic.
  EXPECT_EQ(node_flops(Op("Einsum"), {ts(FLOAT, {"I", "J"})}, {attr("equation", "ij->ji")}).kind,
            FlopKind::NoArithmetic);
}

TEST(ProfileCounts, MicrosoftAttentionProjectionAndCore) {
  // input [B,S,64] x weights [64,192] + bias; 4 heads, Dq = Dv = 64, T = P+S.
  const profile::FlopCount c = node_flops(
      Op(kMs, "Attention").outputs(2),
      {ts(FLOAT, {"B", "S", 64}), ts(FLOAT, {64, 192}), ts(FLOAT, {192}), omitted(), ts(FLOAT, {2, "B", 4, "P", 16})},
      {attr("num_heads", 4)});
  expect_counted(c, "2*B*S*64*192 + B*S*192 + 2*(B*S*64)*(P+S) + 5*(B*4*S)*(P+S) + 2*(B*S*64)*(P+S)");
}

TEST(ProfileCounts, OpsWithoutACountSaySo) {
  const profile::FlopCount reshape =
      node_flops(Op("Reshape"), {ts(FLOAT, {"B", 6}), constant(Tensor::vector({-1, 3}))});
  EXPECT_EQ(reshape.kind, FlopKind::NoArithmetic);
  EXPECT_TRUE(reshape.flops.is_int(0));
  EXPECT_NE(reshape.note.find("no arithmetic"), std::string::npos);
  EXPECT_EQ(node_flops(Op("Gather"), {ts(FLOAT, {10, 4}), ts(INT64, {"S"})}).kind, FlopKind::NoArithmetic);

  const profile::FlopCount topk =
      node_flops(Op("TopK").outputs(2), {ts(FLOAT, {"B", 10}), constant(Tensor::vector({3}))});
  EXPECT_EQ(topk.kind, FlopKind::NotCounted);
  EXPECT_TRUE(topk.flops.is_unknown());
  EXPECT_NE(topk.note.find("no FLOP convention for ai.onnx::TopK"), std::string::npos) << topk.note;
}

TEST(ProfileCounts, UnknownDimsMakeTheCountUnknownNotZero) {
  const profile::FlopCount c = node_flops(Op("MatMul"), {ts(FLOAT), ts(FLOAT, {8, 4})});
  EXPECT_EQ(c.kind, FlopKind::Counted);
  EXPECT_TRUE(c.flops.is_unknown());
  EXPECT_EQ(c.flops.to_string(), "?");
  EXPECT_NE(c.note.find("unknown"), std::string::npos);
}

TEST(ProfileCounts, OverflowIsUnknownAndSaysSo) {
  // Y [2^30, 4] from K = 2^30: 2 x 2^32 x 2^30 = 2^63 does not fit int64; the shapes do.
  const int64_t big = int64_t{1} << 30;
  Model m = Op("MatMul").model({ts(FLOAT, {big, big}), ts(FLOAT, {big, 4})});
  const profile::ModelProfile p = infer_and_profile(m);
  EXPECT_TRUE(p.nodes[0].flops.flops.is_unknown());
  EXPECT_EQ(p.nodes[0].flops.note, "unknown: the count overflows int64");
  EXPECT_TRUE(p.flops.is_unknown());
}

TEST(ProfileCounts, EveryVersionOfAnOperatorHasTheSameCount) {
  // count_flops gives a node its operator's first row when the model's opset
  // does not reach one: sound because a count holds for every version.
  const RuleTable table = builtin_rule_table();
  std::size_t with_cost = 0;
  for (std::size_t i = 0; i < table.size; ++i) {
    const RuleEntry& e = table.entries[i];
    with_cost += e.cost != nullptr;
    if (i == 0) continue;
    const RuleEntry& before = table.entries[i - 1];
    if (before.domain == e.domain && before.op_type == e.op_type) {
      EXPECT_EQ(before.cost, e.cost) << e.domain << "::" << e.op_type << " " << e.since_version;
    }
  }
  EXPECT_GT(with_cost, 0u);
}

TEST(ProfileCounts, AnOpsetBeforeTheOperatorStillCountsIt) {
  // Gelu is ai.onnx 20: at opset 17 no rule serves it (its output stays
  // unknown), but its count is the operator's.
  Model m = Op("Gelu").opset(17).model({ts(FLOAT, {"B", 3})});
  infer_shapes(m);
  const profile::ModelProfile p = profile::profile_model(m, builtin_rule_table());
  ASSERT_EQ(p.nodes.size(), 1u);
  EXPECT_EQ(p.nodes[0].flops.kind, FlopKind::Counted);
  EXPECT_EQ(p.nodes[0].flops.note, "unknown: a dim the count needs is unknown");
}

TEST(ProfileCounts, CountsWithoutARuleHaveNoRuleRow) {
  // Once such an operator gets a rule, its count moves to the registration.
  const RuleTable table = builtin_rule_table();
  for (const profile::CostWithoutRule& c : profile::kCostsWithoutRule)
    EXPECT_EQ(newest_at(table.entries, table.size, c.domain, c.op_type, 1000), nullptr)
        << c.domain << "::" << c.op_type;
  // Inferred without a rule (outputs unknown), still counted from its input.
  Model m = Op("com.microsoft", "LayerNormalization").model({ts(FLOAT, {"B", 8}), ts(FLOAT, {8})});
  infer_shapes(m);
  const profile::ModelProfile p = profile::profile_model(m, builtin_rule_table());
  ASSERT_EQ(p.nodes.size(), 1u);
  expect_counted(p.nodes[0].flops, "6*B*8");
}

void no_shapes(Context&, Node&) {}

TEST(ProfileCounts, ATableWithoutTheOperatorDoesNotCountIt) {
  // A build that chose its families profiles with their table: the others' operators are not counted.
  static constexpr auto kOnlyAdd =
      make_rules({RuleEntry{"", "Add", 14, &no_shapes, "no_shapes", "", &ops::count_elementwise}});
  Model m = Op("Relu").model({ts(FLOAT, {"B", 3})});
  infer_shapes(m);
  const profile::ModelProfile p = profile::profile_model(m, kOnlyAdd);
  ASSERT_EQ(p.nodes.size(), 1u);
  EXPECT_EQ(p.nodes[0].flops.kind, FlopKind::NotCounted);
  EXPECT_EQ(p.nodes[0].flops.note, "not counted: no FLOP convention for ai.onnx::Relu");
}

}  // namespace
