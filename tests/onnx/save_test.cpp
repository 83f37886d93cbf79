// The ONNX writer: inferred types back into the proto, atomic saving,
// stripping; the output passes ONNX's checker and reloads with the same types.
// clang-format off
// onnx/checker.h before save.hpp: <sys/mman.h> (support/mapped_file.hpp)
// defines MAP_TYPE, a name that onnx/defs/parser.h's KeyWord enum uses.
#include <onnx/checker.h>
#include "symshape/onnx/save.hpp"
// clang-format on

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "symshape/onnx/proto.hpp"
#include "symshape/symshape.hpp"

namespace {

using namespace symshape;

const std::string kModels = SYMSHAPE_EXAMPLE_MODELS;

std::string check(const ::onnx::ModelProto& m) {
  try {
    ::onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "OK";
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// Every named value's type, main graph only.
std::map<std::string, std::string> types_of(const Model& m) {
  std::map<std::string, std::string> out;
  for (const auto& v : m.graph->values)
    if (!v->name.empty()) out[v->name] = v->type.to_string();
  return out;
}

// Loads, infers, writes back; returns the annotated proto.
::onnx::ModelProto infer_and_write(const std::string& path, Model* model_out = nullptr) {
  Result<::onnx::ModelProto> proto = symshape::onnx::read_model_proto(path);
  EXPECT_TRUE(proto) << proto.error();
  Result<Model> m = symshape::onnx::load_model_proto(*proto);
  EXPECT_TRUE(m) << m.error();
  Report r = infer_shapes(m.value());
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.to_string();
  ::onnx::ModelProto out = *proto;
  symshape::onnx::write_inferred_types(*m, out);
  if (model_out) *model_out = std::move(m.value());
  return out;
}

class ExampleModels : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleModels, WrittenModelPassesCheckerAndReinfersIdentically) {
  Model first;
  ::onnx::ModelProto out = infer_and_write(kModels + "/" + GetParam(), &first);
  EXPECT_EQ(check(out), "OK");
  // Every intermediate value of the main graph has a value_info entry.
  std::size_t intermediates = 0;
  for (const auto& n : first.graph->nodes)
    for (const Value* v : n->outputs)
      if (v && !v->is_graph_output) ++intermediates;
  EXPECT_EQ(static_cast<std::size_t>(out.graph().value_info_size()), intermediates);
  for (const auto& vi : out.graph().value_info()) {
    ASSERT_TRUE(vi.type().has_tensor_type()) << vi.name();
    ASSERT_TRUE(vi.type().tensor_type().has_shape()) << vi.name();
    for (const auto& d : vi.type().tensor_type().shape().dim())
      EXPECT_TRUE(d.has_dim_value() || !d.dim_param().empty()) << vi.name();
  }
  // Saved, reloaded: the loaded types are the written ones, and inferring
  // again changes nothing.
  const std::string path = ::testing::TempDir() + "out_" + GetParam();
  ASSERT_TRUE(symshape::onnx::save_model_file(out, path));
  EXPECT_FALSE(exists(path + ".tmp"));
  Result<Model> again = symshape::onnx::load_model_file(path);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(types_of(*again), types_of(first));
  Report r = infer_shapes(again.value());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(types_of(*again), types_of(first));
  ::onnx::ModelProto out2 = *symshape::onnx::read_model_proto(path);
  symshape::onnx::write_inferred_types(*again, out2);
  EXPECT_EQ(out2.SerializeAsString(), out.SerializeAsString());
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(OnnxSave, ExampleModels,
                         ::testing::Values("transformer_block.onnx", "small_cnn.onnx", "control_flow.onnx"));

TEST(OnnxSave, ExpressionDimsRoundTrip) {
  ::onnx::ModelProto p;
  p.set_ir_version(8);
  p.add_opset_import()->set_version(17);
  auto* g = p.mutable_graph();
  g->set_name("g");
  for (const char* name : {"a", "b"}) {
    auto* in = g->add_input();
    in->set_name(name);
    auto* tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(1);
    tt->mutable_shape()->add_dim()->set_dim_param("batch");
    tt->mutable_shape()->add_dim()->set_dim_param(std::string(name) == "a" ? "past + seq" : "(H + 1) // 2");
  }
  auto* n = g->add_node();
  n->set_op_type("Add");
  n->add_input("a");
  n->add_input("a");
  n->add_output("c");
  auto* n2 = g->add_node();
  n2->set_op_type("Add");
  n2->add_input("c");
  n2->add_input("c");
  n2->add_output("d");
  auto* out = g->add_output();
  out->set_name("d");
  Result<Model> m = symshape::onnx::load_model_proto(p);
  ASSERT_TRUE(m) << m.error();
  infer_shapes(m.value());
  symshape::onnx::write_inferred_types(*m, p);
  EXPECT_EQ(check(p), "OK");
  ASSERT_EQ(p.graph().value_info_size(), 1);
  EXPECT_EQ(p.graph().value_info(0).name(), "c");
  const auto& dims = p.graph().value_info(0).type().tensor_type().shape().dim();
  ASSERT_EQ(dims.size(), 2);
  EXPECT_EQ(dims[0].dim_param(), "batch");
  EXPECT_EQ(dims[1].dim_param(), "past+seq");
  const auto& odims = p.graph().output(0).type().tensor_type().shape().dim();
  ASSERT_EQ(odims.size(), 2);
  EXPECT_EQ(odims[1].dim_param(), "past+seq");
  Result<Model> again = symshape::onnx::load_model_proto(p);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->graph->find("c")->type.shape()[1], SymbolicDim(Expr::symbol("past") + Expr::symbol("seq")));
  EXPECT_EQ(again->graph->find("b")->type.shape()[1].to_string(), "(H+1)//2");
}

TEST(OnnxSave, UnknownDimsGetFreshUnusedNames) {
  Model m;
  m.opset_imports[""] = 17;
  GraphBuilder b(*m.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"_d0", 3})));
  b.node("Foo", {"x"}, {"y"}, {}, "custom");
  b.node("Foo", {"y"}, {"z"}, {}, "custom");
  b.output("z");
  m.graph->find("y")->type = Type::tensor(DataType::FLOAT, Shape({SymbolicDim(), SymbolicDim(), 2}));
  ::onnx::ModelProto p;
  p.set_ir_version(8);
  auto* g = p.mutable_graph();
  auto* in = g->add_input();
  in->set_name("x");
  auto* n = g->add_node();
  n->set_op_type("Foo");
  n->add_input("x");
  n->add_output("y");
  auto* n2 = g->add_node();
  n2->set_op_type("Foo");
  n2->add_input("y");
  n2->add_output("z");
  g->add_output()->set_name("z");
  symshape::onnx::write_inferred_types(m, p);
  ASSERT_EQ(p.graph().value_info_size(), 1);
  const auto& dims = p.graph().value_info(0).type().tensor_type().shape().dim();
  ASSERT_EQ(dims.size(), 3);
  EXPECT_EQ(dims[0].dim_param(), "_d1");  // _d0 is used by the input
  EXPECT_EQ(dims[1].dim_param(), "_d2");
  EXPECT_EQ(dims[2].dim_value(), 2);
  // z's type is unknown: the output entry is left alone.
  EXPECT_FALSE(p.graph().output(0).has_type());
}

TEST(OnnxSave, OtherValueInfoIsKeptAndSubgraphsAreWritten) {
  ::onnx::ModelProto out = infer_and_write(kModels + "/control_flow.onnx");
  // The If branches' outputs get their types.
  const ::onnx::NodeProto* if_node = nullptr;
  for (const auto& n : out.graph().node())
    if (n.op_type() == "If") if_node = &n;
  ASSERT_TRUE(if_node);
  for (const auto& a : if_node->attribute()) {
    ASSERT_TRUE(a.has_g());
    const auto& t = a.g().output(0).type().tensor_type();
    ASSERT_EQ(t.shape().dim_size(), 2);
    EXPECT_EQ(t.shape().dim(0).dim_param(), "batch");
    EXPECT_EQ(t.shape().dim(1).dim_value(), 16);
  }
}

TEST(OnnxSave, StripRemovesValueInfoAndOutputTypes) {
  ::onnx::ModelProto out = infer_and_write(kModels + "/control_flow.onnx");
  ASSERT_GT(out.graph().value_info_size(), 0);
  symshape::onnx::strip_inferred_types(out);
  EXPECT_EQ(out.graph().value_info_size(), 0);
  for (const auto& o : out.graph().output()) EXPECT_FALSE(o.has_type());
  for (const auto& n : out.graph().node())
    for (const auto& a : n.attribute()) {
      if (a.has_g()) {
        for (const auto& o : a.g().output()) EXPECT_FALSE(o.has_type());
      }
    }
  // Inputs are kept.
  EXPECT_TRUE(out.graph().input(0).has_type());
}

TEST(OnnxSave, SaveIsAtomic) {
  ::onnx::ModelProto p = *symshape::onnx::read_model_proto(kModels + "/small_cnn.onnx");
  // A directory that does not exist: failure, nothing written.
  Result<bool> r = symshape::onnx::save_model_file(p, "/nonexistent/dir/out.onnx");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("file /nonexistent/dir/out.onnx: cannot write"), std::string::npos) << r.error();
  // Renaming onto a directory fails: the temp file is removed and the directory stays.
  const std::string dir = ::testing::TempDir() + "save_target_dir";
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "/sub'").c_str()), 0);
  Result<bool> r2 = symshape::onnx::save_model_file(p, dir);
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().find("cannot rename"), std::string::npos) << r2.error();
  EXPECT_FALSE(exists(dir + ".tmp"));
  // A normal save replaces the file.
  const std::string path = ::testing::TempDir() + "atomic.onnx";
  std::ofstream(path) << "old";
  ASSERT_TRUE(symshape::onnx::save_model_file(p, path));
  EXPECT_FALSE(exists(path + ".tmp"));
  Result<::onnx::ModelProto> back = symshape::onnx::read_model_proto(path);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->SerializeAsString(), p.SerializeAsString());
  std::remove(path.c_str());
}

TEST(OnnxSave, ReadTensorProto) {
  ::onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(7);
  t.add_dims(2);
  t.add_int64_data(3);
  t.add_int64_data(4);
  const std::string path = ::testing::TempDir() + "tensor.pb";
  std::ofstream(path, std::ios::binary) << t.SerializeAsString();
  Result<::onnx::TensorProto> back = symshape::onnx::read_tensor_proto(path);
  ASSERT_TRUE(back) << back.error();
  Result<Tensor> x = symshape::onnx::tensor_from_proto(*back);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->int_data, (std::vector<int64_t>{3, 4}));
  std::remove(path.c_str());
  Result<::onnx::TensorProto> missing = symshape::onnx::read_tensor_proto(path);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "file " + path + ": cannot open for reading");
}

}  // namespace
