// The data of the report page (include/symshape/report/report_data.hpp) on
// models built here: every value of every graph with its dims and bytes, the
// If's branches nested under it, FLOPs, totals and diagnostics; and the short
// text of attributes (report/attribute_text.hpp).
#include "symshape/report/report_data.hpp"

#include <string>

#include "infer/graph_test_util.hpp"

using namespace symshape;
using namespace symshape::testing;

namespace {

// x [N,4] -> h = MatMul(x, W [4,8]) -> y = If(c): then Relu(h), else Mul(h, h).
Model if_model() {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("c", ts(BOOL, {}));
  g.input("x", ts(FLOAT, {"N", 4}));
  g.initializer("W", Tensor::floats(std::vector<double>(32, 0.5), {4, 8}));
  g.node("MatMul", {"x", "W"}, {"h"}, {}, "", "/proj/MatMul");
  auto then_g = make_subgraph(*m.graph, "then");
  GraphBuilder(*then_g).node("Relu", {"h"}, {"t"}, {}, "", "relu");
  GraphBuilder(*then_g).output("t");
  auto else_g = make_subgraph(*m.graph, "else");
  GraphBuilder(*else_g).node("Mul", {"h", "h"}, {"u"}, {}, "", "mul");
  GraphBuilder(*else_g).output("u");
  g.node("If", {"c"}, {"y"}, {graph_attr("then_branch", then_g), graph_attr("else_branch", else_g)}, "", "if");
  g.output("y");
  return m;
}

struct Written {
  Report report;
  std::string json;
};

Written report_of(Model& m, report::ReportDataOptions options = {}) {
  Written w;
  w.report = infer_shapes(m);
  const profile::ModelProfile p = profile::profile_model(m, builtin_rule_table());
  options.model_path = "m.onnx";
  w.json = report::report_data_json(m, w.report, p, builtin_rule_table(), options);
  return w;
}

bool has_line(const std::string& json, const std::string& line) {
  return json.find("\n" + line + "\n") != std::string::npos;
}

TEST(ReportData, EveryValueWithDimsBytesAndRole) {
  Model m = if_model();
  const Written w = report_of(m);
  ASSERT_TRUE(w.report.ok()) << diagnostics_text(w.report);
  const std::string& j = w.json;
  EXPECT_EQ(
      j.rfind("{\n  \"schema\": \"symshape/report/1\",\n  \"model\": \"m.onnx\",\n  \"policy\": \"refine\",\n", 0), 0u)
      << j;
  EXPECT_TRUE(has_line(j, "  \"symbols\": [\"N\"],")) << j;
  EXPECT_TRUE(has_line(j, "  \"bindings\": {},")) << j;
  // Numbered: graph inputs, initializers, then node outputs (a subgraph's where its node is).
  const char* values[] = {
      R"j({"name": "c", "dtype": "bool", "dims": [], "bytes": 1, "role": "input", "parameter": false},)j",
      R"j({"name": "x", "dtype": "float", "dims": ["N", 4], "bytes": "16*N", "role": "input", "parameter": false},)j",
      R"j({"name": "W", "dtype": "float", "dims": [4, 8], "bytes": 128, "role": "initializer", "parameter": true},)j",
      R"j({"name": "h", "dtype": "float", "dims": ["N", 8], "bytes": "32*N", "role": "intermediate", "parameter": false},)j",
      R"j({"name": "y", "dtype": "float", "dims": ["N", 8], "bytes": "32*N", "role": "output", "parameter": false},)j",
      R"j({"name": "t", "dtype": "float", "dims": ["N", 8], "bytes": "32*N", "role": "output", "parameter": false},)j",
      R"j({"name": "u", "dtype": "float", "dims": ["N", 8], "bytes": "32*N", "role": "output", "parameter": false})j"};
  std::size_t at = j.find("  \"values\": [\n");
  ASSERT_NE(at, std::string::npos) << j;
  for (const char* v : values) {
    const std::size_t next = j.find("\n    " + std::string(v) + "\n", at);
    EXPECT_NE(next, std::string::npos) << "value line " << v << " missing or out of order in\n" << j;
    if (next != std::string::npos) at = next;
  }
}

// An Identity or Cast of a weight holds weights, as `profile --json` marks it
// (profile/memory.hpp, holds_weights); the MatMul's output does not.
TEST(ReportData, IdentityAndCastOfWeightsAreParameters) {
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.initializer("W", Tensor::floats(std::vector<double>(32, 0.5), {4, 8}));
  g.node("Identity", {"W"}, {"Wi"});
  g.node("Cast", {"Wi"}, {"Wc"}, {Attribute::make_int("to", 1)});
  g.node("MatMul", {"x", "Wc"}, {"y"});
  g.output("y");
  const Written w = report_of(m);
  ASSERT_TRUE(w.report.ok()) << diagnostics_text(w.report);
  for (const char* name : {"W", "Wi", "Wc"})
    EXPECT_NE(w.json.find("{\"name\": \"" + std::string(name) +
                          "\", \"dtype\": \"float\", \"dims\": [4, 8], "
                          "\"bytes\": 128, \"role\": \""),
              std::string::npos)
        << name << " in\n"
        << w.json;
  EXPECT_NE(w.json.find("\"role\": \"intermediate\", \"parameter\": true}"), std::string::npos) << w.json;
  EXPECT_EQ(w.json.find("\"role\": \"intermediate\", \"parameter\": false}"), std::string::npos) << w.json;
  EXPECT_NE(w.json.find("\"name\": \"y\", \"dtype\": \"float\", \"dims\": [\"N\", 8], \"bytes\": \"32*N\", \"role\": "
                        "\"output\", \"parameter\": false}"),
            std::string::npos)
      << w.json;
}

TEST(ReportData, SubgraphsNestedUnderTheirNode) {
  Model m = if_model();
  const std::string j = report_of(m).json;
  EXPECT_TRUE(has_line(j, "    \"inputs\": [0, 1],")) << j;
  EXPECT_TRUE(has_line(j, "    \"outputs\": [4],")) << j;
  EXPECT_TRUE(has_line(j, "    \"initializers\": [2],")) << j;
  // MatMul: 2*N*4*8 FLOPs, the 32 weights of W.
  EXPECT_TRUE(has_line(j, R"j(      {"name": "/proj/MatMul", "op_type": "MatMul", "domain": "", "inputs": [1, 2], )j"
                          R"j("outputs": [3], "attributes": [], "where": "node #0 '/proj/MatMul' (MatMul)", )j"
                          R"j("flops": "64*N", "flops_note": "", "params": 32, "subgraphs": []},)j"))
      << j;
  // The If counts its larger branch; each branch is a graph under it, its nodes placed as diagnostics place them.
  EXPECT_TRUE(has_line(j, R"j(        "attributes": [{"name": "then_branch", "text": "graph 'then' (1 node)"}, )j"
                          R"j({"name": "else_branch", "text": "graph 'else' (1 node)"}],)j"))
      << j;
  EXPECT_TRUE(has_line(j, R"j(        "flops": "8*N",)j")) << j;
  EXPECT_TRUE(has_line(j, R"j(        "flops_note": "the larger branch",)j")) << j;
  EXPECT_TRUE(has_line(j, R"j(            "attribute": "then_branch",)j")) << j;
  EXPECT_TRUE(has_line(j, R"j(                {"name": "relu", "op_type": "Relu", "domain": "", "inputs": [3], )j"
                          R"j("outputs": [5], "attributes": [], )j"
                          R"j("where": "node #0 'relu' (Relu) in subgraph 'then' of node #1 'if' (If)", )j"
                          R"j("flops": "8*N", "flops_note": "", "params": 0, "subgraphs": []})j"))
      << j;
  EXPECT_TRUE(has_line(j, R"j(                {"name": "mul", "op_type": "Mul", "domain": "", "inputs": [3, 3], )j"
                          R"j("outputs": [6], "attributes": [], )j"
                          R"j("where": "node #0 'mul' (Mul) in subgraph 'else' of node #1 'if' (If)", )j"
                          R"j("flops": "8*N", "flops_note": "", "params": 0, "subgraphs": []})j"))
      << j;
}

TEST(ReportData, Totals) {
  Model m = if_model();
  const std::string j = report_of(m).json;
  // FLOPs 64N + 8N; activations h and y, 32N each, both live at the If.
  EXPECT_TRUE(has_line(j, "    \"flops\": \"72*N\",")) << j;
  EXPECT_TRUE(has_line(j, "    \"params\": 32,")) << j;
  EXPECT_TRUE(has_line(j, "    \"param_bytes\": 128,")) << j;
  EXPECT_TRUE(has_line(j, "    \"output_bytes\": \"64*N\",")) << j;
  EXPECT_TRUE(has_line(j, "    \"peak_activation_bytes\": \"64*N\",")) << j;
  EXPECT_TRUE(has_line(j, R"j(    "peak_candidates": [{"node": 1, "bytes": "64*N"}])j")) << j;
}

TEST(ReportData, MainGraphTypesAsWrittenAndBindings) {
  // The command gives the main graph's types as the written model holds them.
  Model m = if_model();
  report::ReportDataOptions options;
  options.bindings = {{"N", 3}};
  options.main_graph_type = [](const Value& v) { return v.name == "x" ? ts(FLOAT, {"batch", 4}) : v.type; };
  const std::string j = report_of(m, options).json;
  EXPECT_TRUE(has_line(j, "  \"symbols\": [\"N\", \"batch\"],")) << j;
  EXPECT_TRUE(has_line(j, "  \"bindings\": {\"N\": 3},")) << j;
  EXPECT_NE(j.find(R"j({"name": "x", "dtype": "float", "dims": ["batch", 4], )j"), std::string::npos) << j;
  // Subgraph values keep the IR's types.
  EXPECT_NE(j.find(R"j({"name": "t", "dtype": "float", "dims": ["N", 8], )j"), std::string::npos) << j;
}

TEST(ReportData, DiagnosticsAndUnknowns) {
  // MatMul of [N,4] by [5,8]: an error; its output type unknown, and so are its bytes and FLOPs.
  Model m = make_model(13);
  GraphBuilder g(*m.graph);
  g.input("x", ts(FLOAT, {"N", 4}));
  g.input("w", ts(FLOAT, {5, 8}));
  g.node("MatMul", {"x", "w"}, {"h"}, {}, "", "bad");
  g.output("h");
  const Written w = report_of(m);
  ASSERT_FALSE(w.report.ok());
  const std::string& j = w.json;
  EXPECT_NE(j.find(R"j({"severity": "error", "kind": "semantic", "node": "bad", "op_type": "MatMul", )j"
                   R"j("where": "node #0 'bad' (MatMul)", "message": )j"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find(R"j({"name": "h", "dtype": null, "dims": null, "bytes": null, "role": "output", )j"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find(R"j("flops": null, "flops_note": "unknown: a dim the count needs is unknown")j"), std::string::npos)
      << j;
  EXPECT_TRUE(has_line(j, "    \"flops\": null,")) << j;
}

TEST(AttributeText, ShortAndReadable) {
  using report::attribute_text;
  EXPECT_EQ(attribute_text(Attribute::make_int("axis", -1)), "-1");
  EXPECT_EQ(attribute_text(Attribute::make_float("epsilon", 1e-5)), "1e-05");
  EXPECT_EQ(attribute_text(Attribute::make_string("auto_pad", "SAME_UPPER")), "\"SAME_UPPER\"");
  EXPECT_EQ(attribute_text(Attribute::make_ints("pads", {1, 1, 0, 0})), "[1, 1, 0, 0]");
  EXPECT_EQ(attribute_text(Attribute::make_ints("perm", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})),
            "[0, 1, 2, 3, 4, 5, 6, 7, … (10 values)]");
  EXPECT_EQ(attribute_text(Attribute::make_floats("scales", {1, 2.5})), "[1, 2.5]");
  EXPECT_EQ(attribute_text(Attribute::make_strings("dirs", {"forward", "reverse"})), "[\"forward\", \"reverse\"]");
  // A long string is cut at a character boundary ("é" is two bytes, at bytes 59 and 60).
  EXPECT_EQ(attribute_text(Attribute::make_string("s", std::string(59, 'a') + "\xc3\xa9tail")),
            "\"" + std::string(59, 'a') + "…\"");
  // Tensors: the type, and the values of a small one.
  EXPECT_EQ(attribute_text(Attribute::make_tensor("value", Tensor::vector({0, -1}))), "tensor int64[2] = [0, -1]");
  EXPECT_EQ(attribute_text(Attribute::make_tensor("value", Tensor::floats(std::vector<double>(12, 0.5), {3, 4}))),
            "tensor float[3,4]");
  Model m = if_model();
  EXPECT_EQ(attribute_text(*m.graph->nodes[1]->attr("else_branch")), "graph 'else' (1 node)");
}

}  // namespace
