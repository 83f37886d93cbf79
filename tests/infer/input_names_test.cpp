// Inputs by name (Context::inputs): formal names resolved through the schema
// of the rule's version (optional and variadic formals, a version newer than
// the table), and the errors: a required input absent, a name the schema
// does not have, an operator without a schema. User rules call it here, since
// they are not checked against the schema first: the checks of inputs() are
// the only ones they get.
#include "graph_test_util.hpp"

namespace {

// What the probe rule saw: the position of each value it asked for among
// the node's inputs (-1 for nullptr).
std::vector<int> seen;
std::vector<std::string> asked;

int position_of(const Node& n, const Value* v) {
  if (!v) return -1;
  for (std::size_t i = 0; i < n.inputs.size(); ++i)
    if (n.inputs[i] == v) return static_cast<int>(i);
  return -2;  // not an input of n: a bug
}

// Asks for the names in `asked`, one to four of them.
void probe(Context& ctx, Node& n) {
  seen.clear();
  auto record = [&](const auto& values) {
    for (const Value* v : values) seen.push_back(position_of(n, v));
  };
  switch (asked.size()) {
    case 1:
      record(ctx.inputs(n, asked[0]));
      break;
    case 2:
      record(ctx.inputs(n, asked[0], asked[1]));
      break;
    case 3:
      record(ctx.inputs(n, asked[0], asked[1], asked[2]));
      break;
    default:
      record(ctx.inputs(n, asked[0], asked[1], asked[2], asked[3]));
  }
}

// Runs one node of `op` (domain `domain`, inputs named as given, "" for an
// omitted one) whose rule is `probe` at since_version `version`.
Report run_probe(const std::string& domain, const std::string& op, int version, const std::vector<std::string>& inputs,
                 std::vector<std::string> names) {
  asked = std::move(names);
  seen.clear();
  UserRules rules;
  rules.add(domain, op, version, &probe);
  Model m = make_model(version);
  if (!canonical_domain(domain).empty()) m.opset_imports[domain] = version;
  GraphBuilder g(*m.graph);
  for (const std::string& in : inputs)
    if (!in.empty()) g.input(in, ts(FLOAT, {2}));
  g.node(op, inputs, {"y"}, {}, domain, "probed");
  InferenceOptions options;
  options.user_rules = &rules;
  return infer_shapes(m, options);
}

}  // namespace

TEST(InputNames, OptionalFormalsResolveToTheirPositions) {
  // Resize-13: X, roi, scales, sizes (the last three optional).
  Report r = run_probe("", "Resize", 13, {"x", "", "", "s"}, {"sizes", "X", "roi", "scales"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{3, 0, -1, -1}));
  // Beyond the node's inputs: absent too.
  r = run_probe("", "Resize", 13, {"x"}, {"X", "sizes"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{0, -1}));
}

TEST(InputNames, VariadicFormalGivesItsFirstValue) {
  // Loop-16: M, cond (optional), v_initial (variadic, may be empty).
  Report r = run_probe("", "Loop", 16, {"", "c", "v0", "v1"}, {"v_initial", "cond", "M"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{2, 1, -1}));
  r = run_probe("", "Loop", 16, {"m", "c"}, {"v_initial", "M"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{-1, 0}));
  // Concat-13's variadic 'inputs' needs one value.
  r = run_probe("", "Concat", 13, {"a", "b"}, {"inputs"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{0}));
  r = run_probe("", "Concat", 13, {""}, {"inputs"});
  EXPECT_ERROR(r, "missing required input 'inputs' (input 0 of Concat-13)");
}

TEST(InputNames, AbsentRequiredInputIsAUsageErrorNamingNodeAndInput) {
  // Gemm-13: A, B, C (optional).
  Report r = run_probe("", "Gemm", 13, {"a", ""}, {"A", "B", "C"});
  ASSERT_ERROR(r, "missing required input 'B' (input 1 of Gemm-13)");
  EXPECT_EQ(r.diagnostics.at(0).node, "probed");
  EXPECT_EQ(r.diagnostics.at(0).op_type, "Gemm");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::Usage);
  EXPECT_EQ(seen, (std::vector<int>{-1, -1, -1}));  // every value null after an error
  r = run_probe("", "Gemm", 13, {"a", "b"}, {"A", "B", "C"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, -1}));
}

TEST(InputNames, UnknownNameIsAnError) {
  Report r = run_probe("", "Gemm", 13, {"a", "b"}, {"A", "W"});
  EXPECT_ERROR(r, "inputs by name: 'W' is not an input of Gemm-13 (its inputs: A B C)");
  EXPECT_EQ(seen, (std::vector<int>{-1, -1}));
  // Names are exact: ONNX's 'X' is not 'x'.
  r = run_probe("", "Resize", 13, {"x"}, {"x"});
  EXPECT_ERROR(r, "'x' is not an input of Resize-13");
}

TEST(InputNames, VersionNewerThanTheTableReadsTheNewestNames) {
  // The table stops before Gemm-21 (opset 17's onnx): Gemm-13's names serve.
  Report r = run_probe("", "Gemm", 21, {"a", "b", "c"}, {"C", "A"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, (std::vector<int>{2, 0}));
  r = run_probe("", "Gemm", 21, {"a", "b"}, {"Y"});
  EXPECT_ERROR(r, "'Y' is not an input of Gemm-13 (its inputs: A B C, the newest schema symshape has for version 21)");
}

TEST(InputNames, OperatorWithoutSchemaGetsAClearError) {
  Report r = run_probe("com.local", "Probe", 1, {"a"}, {"X"});
  EXPECT_ERROR(r, "inputs by name: com.local::Probe has no ONNX schema in symshape's table");
  EXPECT_EQ(seen, (std::vector<int>{-1}));
  // com.microsoft's operators have no schema in the table either.
  r = run_probe("com.microsoft", "Attention", 1, {"a", "w"}, {"input", "weights"});
  EXPECT_ERROR(r, "com.microsoft::Attention has no ONNX schema");
}

TEST(InputNames, OnlyTheRunningNodesInputs) {
  Context ctx({{"", 17}});
  Node other;
  auto [x] = ctx.inputs(other, "X");
  EXPECT_EQ(x, nullptr);
  ASSERT_EQ(ctx.report().diagnostics.size(), 1u);
  EXPECT_NE(ctx.report().diagnostics[0].message.find("this node's rule is not the one running"), std::string::npos);
}

TEST(InputNames, NamesOfEveryRowParse) {
  // One name per formal option letter, in every row of the table.
  const SchemaTable& t = builtin_schema_table();
  ASSERT_GT(t.size, 400u);
  for (std::size_t i = 0; i < t.size; ++i) {
    const OperatorSchema& s = t.rows[i];
    std::size_t names = s.input_names.empty() ? 0 : 1;
    for (char c : s.input_names) names += c == ' ';
    EXPECT_EQ(names, s.inputs.size()) << s.op_type << "-" << s.since_version;
  }
  const OperatorSchema* conv = t.find("", "Conv", 11);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->input_position("X"), 0);
  EXPECT_EQ(conv->input_position("B"), 2);
  EXPECT_EQ(conv->input_position(""), -1);
  EXPECT_EQ(conv->input_position("X W"), -1);
}
