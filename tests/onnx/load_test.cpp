// The ONNX loader: ModelProto -> Model, and its errors.
#include "symshape/onnx/load.hpp"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "symshape/onnx/input_file.hpp"
#include "symshape/onnx/proto.hpp"
#include "symshape/symshape.hpp"

namespace {

using namespace symshape;
using symshape::onnx::load_model_file;
using symshape::onnx::load_model_proto;

const std::string kModels = SYMSHAPE_EXAMPLE_MODELS;

// views.hpp's own copies of onnx.proto's enums (load.hpp needs no generated
// code) have libonnx's values, and no value of libonnx's is missing.
#define SYMSHAPE_SAME_ENUM(ours, theirs) static_assert(static_cast<int>(ours) == static_cast<int>(theirs), #ours)
using AT = symshape::onnx::view::AttributeType;
using OnnxAT = ::onnx::AttributeProto;
SYMSHAPE_SAME_ENUM(AT::UNDEFINED, OnnxAT::UNDEFINED);
SYMSHAPE_SAME_ENUM(AT::FLOAT, OnnxAT::FLOAT);
SYMSHAPE_SAME_ENUM(AT::INT, OnnxAT::INT);
SYMSHAPE_SAME_ENUM(AT::STRING, OnnxAT::STRING);
SYMSHAPE_SAME_ENUM(AT::TENSOR, OnnxAT::TENSOR);
SYMSHAPE_SAME_ENUM(AT::GRAPH, OnnxAT::GRAPH);
SYMSHAPE_SAME_ENUM(AT::FLOATS, OnnxAT::FLOATS);
SYMSHAPE_SAME_ENUM(AT::INTS, OnnxAT::INTS);
SYMSHAPE_SAME_ENUM(AT::STRINGS, OnnxAT::STRINGS);
SYMSHAPE_SAME_ENUM(AT::TENSORS, OnnxAT::TENSORS);
SYMSHAPE_SAME_ENUM(AT::GRAPHS, OnnxAT::GRAPHS);
SYMSHAPE_SAME_ENUM(AT::SPARSE_TENSOR, OnnxAT::SPARSE_TENSOR);
SYMSHAPE_SAME_ENUM(AT::SPARSE_TENSORS, OnnxAT::SPARSE_TENSORS);
SYMSHAPE_SAME_ENUM(AT::TYPE_PROTO, OnnxAT::TYPE_PROTO);
SYMSHAPE_SAME_ENUM(AT::TYPE_PROTOS, OnnxAT::TYPE_PROTOS);
SYMSHAPE_SAME_ENUM(symshape::onnx::view::DataLocation::DEFAULT, ::onnx::TensorProto_DataLocation_DEFAULT);
SYMSHAPE_SAME_ENUM(symshape::onnx::view::DataLocation::EXTERNAL, ::onnx::TensorProto_DataLocation_EXTERNAL);
#undef SYMSHAPE_SAME_ENUM

// fields.hpp's field numbers are libonnx's (FunctionProto.attribute_proto,
// newer than libonnx-dev's onnx.proto, is not there to compare).
#define SYMSHAPE_SAME_FIELD(ours, theirs, name) \
  static_assert(symshape::onnx::fields::ours::k##name == ::onnx::theirs::k##name##FieldNumber, #theirs "." #name)
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, IrVersion);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, ProducerName);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, ProducerVersion);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, Domain);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, ModelVersion);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, DocString);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, Graph);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, OpsetImport);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, MetadataProps);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, TrainingInfo);
SYMSHAPE_SAME_FIELD(ModelProto, ModelProto, Functions);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, Node);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, Name);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, Initializer);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, DocString);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, Input);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, Output);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, ValueInfo);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, QuantizationAnnotation);
SYMSHAPE_SAME_FIELD(GraphProto, GraphProto, SparseInitializer);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, Input);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, Output);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, Name);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, OpType);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, Attribute);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, DocString);
SYMSHAPE_SAME_FIELD(NodeProto, NodeProto, Domain);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Name);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, F);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, I);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, S);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, T);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, G);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Floats);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Ints);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Strings);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Tensors);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Graphs);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, DocString);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Tp);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, TypeProtos);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, Type);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, RefAttrName);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, SparseTensor);
SYMSHAPE_SAME_FIELD(AttributeProto, AttributeProto, SparseTensors);
SYMSHAPE_SAME_FIELD(ValueInfoProto, ValueInfoProto, Name);
SYMSHAPE_SAME_FIELD(ValueInfoProto, ValueInfoProto, Type);
SYMSHAPE_SAME_FIELD(ValueInfoProto, ValueInfoProto, DocString);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, TensorType);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, SequenceType);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, MapType);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, Denotation);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, OpaqueType);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, SparseTensorType);
SYMSHAPE_SAME_FIELD(TypeProto, TypeProto, OptionalType);
SYMSHAPE_SAME_FIELD(TypeProto::Tensor, TypeProto_Tensor, ElemType);
SYMSHAPE_SAME_FIELD(TypeProto::Tensor, TypeProto_Tensor, Shape);
SYMSHAPE_SAME_FIELD(TypeProto::Sequence, TypeProto_Sequence, ElemType);
SYMSHAPE_SAME_FIELD(TypeProto::Map, TypeProto_Map, KeyType);
SYMSHAPE_SAME_FIELD(TypeProto::Map, TypeProto_Map, ValueType);
SYMSHAPE_SAME_FIELD(TypeProto::Opaque, TypeProto_Opaque, Domain);
SYMSHAPE_SAME_FIELD(TypeProto::Opaque, TypeProto_Opaque, Name);
SYMSHAPE_SAME_FIELD(TensorShapeProto, TensorShapeProto, Dim);
SYMSHAPE_SAME_FIELD(TensorShapeProto::Dimension, TensorShapeProto_Dimension, DimValue);
SYMSHAPE_SAME_FIELD(TensorShapeProto::Dimension, TensorShapeProto_Dimension, DimParam);
SYMSHAPE_SAME_FIELD(TensorShapeProto::Dimension, TensorShapeProto_Dimension, Denotation);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Dims);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, DataType);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Segment);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, FloatData);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Int32Data);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, StringData);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Int64Data);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Name);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, RawData);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, DoubleData);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, Uint64Data);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, DocString);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, ExternalData);
SYMSHAPE_SAME_FIELD(TensorProto, TensorProto, DataLocation);
SYMSHAPE_SAME_FIELD(TensorProto::Segment, TensorProto_Segment, Begin);
SYMSHAPE_SAME_FIELD(TensorProto::Segment, TensorProto_Segment, End);
SYMSHAPE_SAME_FIELD(SparseTensorProto, SparseTensorProto, Values);
SYMSHAPE_SAME_FIELD(SparseTensorProto, SparseTensorProto, Indices);
SYMSHAPE_SAME_FIELD(SparseTensorProto, SparseTensorProto, Dims);
SYMSHAPE_SAME_FIELD(OperatorSetIdProto, OperatorSetIdProto, Domain);
SYMSHAPE_SAME_FIELD(OperatorSetIdProto, OperatorSetIdProto, Version);
SYMSHAPE_SAME_FIELD(StringStringEntryProto, StringStringEntryProto, Key);
SYMSHAPE_SAME_FIELD(StringStringEntryProto, StringStringEntryProto, Value);
SYMSHAPE_SAME_FIELD(TensorAnnotation, TensorAnnotation, TensorName);
SYMSHAPE_SAME_FIELD(TensorAnnotation, TensorAnnotation, QuantParameterTensorNames);
SYMSHAPE_SAME_FIELD(TrainingInfoProto, TrainingInfoProto, Initialization);
SYMSHAPE_SAME_FIELD(TrainingInfoProto, TrainingInfoProto, Algorithm);
SYMSHAPE_SAME_FIELD(TrainingInfoProto, TrainingInfoProto, InitializationBinding);
SYMSHAPE_SAME_FIELD(TrainingInfoProto, TrainingInfoProto, UpdateBinding);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Name);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Input);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Output);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Attribute);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Node);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, DocString);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, OpsetImport);
SYMSHAPE_SAME_FIELD(FunctionProto, FunctionProto, Domain);
#undef SYMSHAPE_SAME_FIELD

TEST(OnnxLoad, OwnEnumsCoverOnnxEnums) {
  // Every value libonnx knows is one of ours (a new onnx.proto value would
  // otherwise be read as unknown).
  const auto* at = ::onnx::AttributeProto_AttributeType_descriptor();
  EXPECT_EQ(at->value_count(), static_cast<int>(AT::TYPE_PROTOS) + 1);
  for (int i = 0; i < at->value_count(); ++i) {
    const int v = at->value(i)->number();
    EXPECT_GE(v, static_cast<int>(AT::UNDEFINED)) << at->value(i)->name();
    EXPECT_LE(v, static_cast<int>(AT::TYPE_PROTOS)) << at->value(i)->name();
  }
  const auto* dl = ::onnx::TensorProto_DataLocation_descriptor();
  EXPECT_EQ(dl->value_count(), 2);
  EXPECT_EQ(dl->FindValueByName("EXTERNAL")->number(), static_cast<int>(symshape::onnx::view::DataLocation::EXTERNAL));
}

// A tiny proto builder for the tests.
struct P {
  ::onnx::ModelProto m;
  P(int64_t opset = 17, const std::string& domain = "") {
    m.set_ir_version(8);
    auto* o = m.add_opset_import();
    o->set_domain(domain);
    o->set_version(opset);
    m.mutable_graph()->set_name("g");
  }
  ::onnx::GraphProto& g() { return *m.mutable_graph(); }
  static void set_tensor_type(::onnx::TypeProto* t, int elem, const std::vector<std::string>& dims) {
    auto* tt = t->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* s = tt->mutable_shape();
    for (const auto& d : dims) {
      auto* dim = s->add_dim();
      if (d == "?") continue;
      if (!d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) || d[0] == '-'))
        dim->set_dim_value(std::stoll(d));
      else
        dim->set_dim_param(d);
    }
  }
  P& input(const std::string& name, int elem, const std::vector<std::string>& dims) {
    auto* v = g().add_input();
    v->set_name(name);
    set_tensor_type(v->mutable_type(), elem, dims);
    return *this;
  }
  P& output(const std::string& name) {
    g().add_output()->set_name(name);
    return *this;
  }
  ::onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& ins,
                          const std::vector<std::string>& outs, const std::string& name = "") {
    auto* n = g().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) n->add_output(o);
    return *n;
  }
  ::onnx::TensorProto& init_ints(const std::string& name, const std::vector<int64_t>& v) {
    auto* t = g().add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(v.size()));
    for (int64_t x : v) t->add_int64_data(x);
    return *t;
  }
};

std::string error_of(const ::onnx::ModelProto& m) {
  Result<Model> r = load_model_proto(m);
  return r ? std::string("OK") : r.error();
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(OnnxLoad, TransformerExample) {
  Result<Model> m = load_model_file(kModels + "/transformer_block.onnx");
  ASSERT_TRUE(m) << m.error();
  const Graph& g = *m->graph;
  EXPECT_EQ(m->opset(""), 17);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.inputs[0]->type, Type::tensor(DataType::FLOAT, Shape({"batch", "seq", 32})));
  EXPECT_TRUE(g.inputs[0]->is_graph_input);
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_TRUE(g.outputs[0]->is_graph_output);
  EXPECT_EQ(g.outputs[0]->type.shape().rank(), 3);
  // Small integer initializers keep their values, weights do not.
  const Value* heads = g.find("heads_dims");
  ASSERT_TRUE(heads && heads->initializer);
  EXPECT_TRUE(heads->initializer->has_data);
  EXPECT_EQ(heads->initializer->int_data, (std::vector<int64_t>{4, 8}));
  const Value* wq = g.find("wq");
  ASSERT_TRUE(wq && wq->initializer);
  EXPECT_FALSE(wq->initializer->has_data);
  EXPECT_EQ(wq->type, Type::tensor(DataType::FLOAT, Shape({32, 32})));
  const Value* scale = g.find("scale");
  ASSERT_TRUE(scale && scale->initializer && scale->initializer->has_data);
  ASSERT_EQ(scale->initializer->float_data.size(), 1u);
  EXPECT_NEAR(scale->initializer->float_data[0], 0.35355339, 1e-6);
  // Nodes keep their order, producers and attributes.
  ASSERT_FALSE(g.nodes.empty());
  EXPECT_EQ(g.nodes[0]->op_type, "LayerNormalization");
  EXPECT_EQ(g.nodes[0]->attr_int("axis", 0), -1);
  EXPECT_NEAR(g.nodes[0]->attr_float("epsilon", 0), 1e-5, 1e-9);
  EXPECT_EQ(g.find("ln1")->producer, g.nodes[0]);
}

TEST(OnnxLoad, SubgraphsAndFunctions) {
  Result<Model> m = load_model_file(kModels + "/control_flow.onnx");
  ASSERT_TRUE(m) << m.error();
  ASSERT_EQ(m->functions.size(), 1u);
  const Function& f = m->functions[0];
  EXPECT_EQ(f.domain, "local");
  EXPECT_EQ(f.name, "ScaleAdd");
  ASSERT_EQ(f.body->inputs.size(), 2u);
  EXPECT_EQ(f.body->inputs[0]->name, "X");
  ASSERT_EQ(f.body->outputs.size(), 1u);
  EXPECT_EQ(f.body->outputs[0]->name, "Y");
  EXPECT_EQ(f.opset_imports.at(""), 17);
  EXPECT_EQ(m->opset("local"), 1);
  const Graph& g = *m->graph;
  const Node* if_node = nullptr;
  for (const auto& n : g.nodes)
    if (n->op_type == "If") if_node = n;
  ASSERT_TRUE(if_node);
  const Attribute* then_branch = if_node->attr("then_branch");
  ASSERT_TRUE(then_branch && then_branch->kind == Attribute::Kind::Graph && then_branch->graphs.size() == 1);
  const Graph& sub = *then_branch->graphs[0];
  EXPECT_EQ(sub.parent, &g);
  ASSERT_EQ(sub.nodes.size(), 1u);
  // The branch reads the outer value `a`.
  EXPECT_EQ(sub.nodes[0]->inputs[0], g.find("a"));
  EXPECT_TRUE(sub.outputs[0]->is_graph_output);
  EXPECT_FALSE(g.find("a")->is_graph_output);
}

TEST(OnnxLoad, DimsTypesAndOpsetDomains) {
  P p(13, "ai.onnx");
  p.input("x", 1, {"batch", "past + seq", "?", "0", "(H+1)//2"}).output("y");
  p.node("Relu", {"x"}, {"y"}).set_domain("ai.onnx");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->opset(""), 13);
  EXPECT_EQ(m->graph->nodes[0]->domain, "");
  const Shape& s = m->graph->inputs[0]->type.shape();
  ASSERT_EQ(s.rank(), 5);
  EXPECT_EQ(s[0], SymbolicDim("batch"));
  EXPECT_EQ(s[1], SymbolicDim(Expr::symbol("past") + Expr::symbol("seq")));
  EXPECT_TRUE(s[2].is_unknown());
  EXPECT_TRUE(s[3].is_int(0));
  EXPECT_EQ(s[4].to_string(), "(H+1)//2");
}

TEST(OnnxLoad, NonTensorTypes) {
  P p;
  auto* seq = p.g().add_input();
  seq->set_name("s");
  P::set_tensor_type(seq->mutable_type()->mutable_sequence_type()->mutable_elem_type(), 7, {"n"});
  auto* opt = p.g().add_input();
  opt->set_name("o");
  P::set_tensor_type(opt->mutable_type()->mutable_optional_type()->mutable_elem_type(), 1, {"2"});
  auto* map = p.g().add_input();
  map->set_name("m");
  map->mutable_type()->mutable_map_type()->set_key_type(8);
  P::set_tensor_type(map->mutable_type()->mutable_map_type()->mutable_value_type(), 1, {});
  auto* sp = p.g().add_input();
  sp->set_name("sp");
  sp->mutable_type()->mutable_sparse_tensor_type()->set_elem_type(1);
  sp->mutable_type()->mutable_sparse_tensor_type()->mutable_shape()->add_dim()->set_dim_value(5);
  auto* notype = p.g().add_input();
  notype->set_name("u");
  auto* norank = p.g().add_input();
  norank->set_name("r");
  norank->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Graph& g = *m->graph;
  EXPECT_EQ(g.find("s")->type, Type::sequence(Type::tensor(DataType::INT64, Shape({"n"}))));
  EXPECT_EQ(g.find("o")->type, Type::optional(Type::tensor(DataType::FLOAT, Shape({2}))));
  EXPECT_EQ(g.find("m")->type, Type::map(DataType::STRING, Type::tensor(DataType::FLOAT, Shape::scalar())));
  EXPECT_EQ(g.find("sp")->type, Type::sparse_tensor(DataType::FLOAT, Shape({5})));
  EXPECT_TRUE(g.find("u")->type.is_unknown());
  EXPECT_EQ(g.find("r")->type, Type::tensor(DataType::FLOAT, Shape()));
}

TEST(OnnxLoad, InitializerData) {
  P p;
  p.init_ints("a", {3, -1, 7});
  // int32 raw little-endian, with a negative value.
  auto& b = *p.g().add_initializer();
  b.set_name("b");
  b.set_data_type(::onnx::TensorProto::INT32);
  b.add_dims(2);
  const unsigned char raw_b[] = {0x05, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff};
  b.set_raw_data(std::string(reinterpret_cast<const char*>(raw_b), sizeof raw_b));
  // int64 raw.
  auto& c = *p.g().add_initializer();
  c.set_name("c");
  c.set_data_type(::onnx::TensorProto::INT64);
  c.add_dims(1);
  const unsigned char raw_c[] = {0x00, 0x01, 0, 0, 0, 0, 0, 0};
  c.set_raw_data(std::string(reinterpret_cast<const char*>(raw_c), sizeof raw_c));
  // float raw (Resize scales) and a double.
  auto& d = *p.g().add_initializer();
  d.set_name("d");
  d.set_data_type(::onnx::TensorProto::FLOAT);
  d.add_dims(2);
  const float fs[] = {1.0f, 2.5f};
  d.set_raw_data(std::string(reinterpret_cast<const char*>(fs), sizeof fs));
  auto& e = *p.g().add_initializer();
  e.set_name("e");
  e.set_data_type(::onnx::TensorProto::DOUBLE);
  e.add_double_data(0.5);
  // A large tensor: dims only.
  auto& big = *p.g().add_initializer();
  big.set_name("big");
  big.set_data_type(::onnx::TensorProto::INT64);
  big.add_dims(65);
  for (int i = 0; i < 65; ++i) big.add_int64_data(i);
  // External data: dims, flag, never read.
  auto& ext = *p.g().add_initializer();
  ext.set_name("ext");
  ext.set_data_type(::onnx::TensorProto::FLOAT);
  ext.add_dims(1000);
  ext.add_dims(10);
  ext.set_data_location(::onnx::TensorProto::EXTERNAL);
  auto* loc = ext.add_external_data();
  loc->set_key("location");
  loc->set_value("does_not_exist.bin");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Graph& g = *m->graph;
  EXPECT_EQ(g.find("a")->initializer->int_data, (std::vector<int64_t>{3, -1, 7}));
  EXPECT_EQ(g.find("b")->initializer->int_data, (std::vector<int64_t>{5, -2}));
  EXPECT_EQ(g.find("c")->initializer->int_data, (std::vector<int64_t>{256}));
  EXPECT_EQ(g.find("d")->initializer->float_data, (std::vector<double>{1.0, 2.5}));
  EXPECT_EQ(g.find("e")->initializer->float_data, (std::vector<double>{0.5}));
  EXPECT_EQ(g.find("e")->type, Type::tensor(DataType::DOUBLE, Shape::scalar()));
  EXPECT_FALSE(g.find("big")->initializer->has_data);
  EXPECT_EQ(g.find("big")->type, Type::tensor(DataType::INT64, Shape({65})));
  EXPECT_TRUE(g.find("ext")->initializer->external);
  EXPECT_FALSE(g.find("ext")->initializer->has_data);
  EXPECT_EQ(g.find("ext")->type, Type::tensor(DataType::FLOAT, Shape({1000, 10})));
}

TEST(OnnxLoad, InitializerAlsoInputKeepsDeclaredType) {
  P p;
  p.input("w", 7, {"n"});
  p.init_ints("w", {1, 2});
  p.node("Identity", {"w"}, {"y"});
  p.output("y");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Value* w = m->graph->find("w");
  EXPECT_EQ(w->type, Type::tensor(DataType::INT64, Shape({"n"})));
  EXPECT_TRUE(w->is_graph_input);
  ASSERT_TRUE(w->initializer);
  EXPECT_EQ(w->initializer->int_data, (std::vector<int64_t>{1, 2}));
}

TEST(OnnxLoad, SparseInitializer) {
  P p;
  auto* sp = p.g().add_sparse_initializer();
  sp->add_dims(10);
  sp->add_dims(20);
  sp->mutable_values()->set_name("sp");
  sp->mutable_values()->set_data_type(1);
  sp->mutable_values()->add_dims(2);
  sp->mutable_values()->add_float_data(1);
  sp->mutable_values()->add_float_data(2);
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->find("sp")->type, Type::sparse_tensor(DataType::FLOAT, Shape({10, 20})));
}

TEST(OnnxLoad, AttributesOfEveryKind) {
  P p;
  p.input("x", 1, {"2"});
  auto& n = p.node("Custom", {"x", "", "x"}, {"y", ""}, "custom");
  n.set_domain("my");
  using AP = ::onnx::AttributeProto;
  auto add = [&](const std::string& name, AP::AttributeType t) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(t);
    return a;
  };
  add("f", AP::FLOAT)->set_f(1.5f);
  add("i", AP::INT)->set_i(-3);
  add("s", AP::STRING)->set_s("hello");
  auto* t = add("t", AP::TENSOR)->mutable_t();
  t->set_data_type(7);
  t->add_dims(2);
  t->add_int64_data(4);
  t->add_int64_data(5);
  auto* g = add("g", AP::GRAPH)->mutable_g();
  g->set_name("body");
  auto* gn = g->add_node();
  gn->set_op_type("Neg");
  gn->add_input("x");  // outer scope
  gn->add_output("z");
  g->add_output()->set_name("z");
  auto* st = add("st", AP::SPARSE_TENSOR)->mutable_sparse_tensor();
  st->add_dims(4);
  st->mutable_values()->set_data_type(1);
  P::set_tensor_type(add("tp", AP::TYPE_PROTO)->mutable_tp(), 7, {"k"});
  auto* fl = add("floats", AP::FLOATS);
  fl->add_floats(0.5f);
  fl->add_floats(2);
  auto* is = add("ints", AP::INTS);
  is->add_ints(1);
  is->add_ints(-1);
  auto* ss = add("strings", AP::STRINGS);
  ss->add_strings("a");
  ss->add_strings("b");
  auto* ts = add("tensors", AP::TENSORS);
  ts->add_tensors()->set_data_type(1);
  ts->add_tensors()->set_data_type(7);
  auto* gs = add("graphs", AP::GRAPHS);
  gs->add_graphs()->set_name("g1");
  gs->add_graphs()->set_name("g2");
  auto* sts = add("sparse_tensors", AP::SPARSE_TENSORS);
  sts->add_sparse_tensors()->mutable_values()->set_data_type(1);
  auto* tps = add("type_protos", AP::TYPE_PROTOS);
  P::set_tensor_type(tps->add_type_protos(), 1, {});
  auto* ref = add("ref", AP::INT);
  ref->set_ref_attr_name("outer");
  auto* old = n.add_attribute();  // type not set (old models): guessed from the field
  old->set_name("old");
  old->set_i(9);
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Node& node = *m->graph->nodes[0];
  using K = Attribute::Kind;
  EXPECT_EQ(node.domain, "my");
  ASSERT_EQ(node.inputs.size(), 3u);
  EXPECT_EQ(node.inputs[1], nullptr);
  ASSERT_EQ(node.outputs.size(), 2u);
  EXPECT_EQ(node.outputs[1], nullptr);
  EXPECT_EQ(node.attr("f")->kind, K::Float);
  EXPECT_EQ(node.attr_float("f", 0), 1.5);
  EXPECT_EQ(node.attr_int("i", 0), -3);
  EXPECT_EQ(node.attr_string("s"), "hello");
  ASSERT_EQ(node.attr("t")->kind, K::Tensor);
  EXPECT_EQ(node.attr("t")->tensors[0].int_data, (std::vector<int64_t>{4, 5}));
  ASSERT_EQ(node.attr("g")->kind, K::Graph);
  const Graph& body = *node.attr("g")->graphs[0];
  EXPECT_EQ(body.parent, m->graph.get());
  EXPECT_EQ(body.nodes[0]->inputs[0], m->graph->find("x"));
  EXPECT_EQ(node.attr("st")->kind, K::SparseTensor);
  EXPECT_EQ(node.attr("st")->tensors[0].dims, (SmallVector<int64_t, 4>{4}));
  ASSERT_EQ(node.attr("tp")->kind, K::TypeProto);
  EXPECT_EQ(node.attr("tp")->types[0], Type::tensor(DataType::INT64, Shape({"k"})));
  EXPECT_EQ(node.attr("floats")->floats, (std::vector<double>{0.5, 2.0}));
  EXPECT_EQ(node.attr_ints("ints"), (std::vector<int64_t>{1, -1}));
  EXPECT_EQ(node.attr("strings")->strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(node.attr("tensors")->tensors.size(), 2u);
  EXPECT_EQ(node.attr("graphs")->graphs.size(), 2u);
  EXPECT_EQ(node.attr("sparse_tensors")->kind, K::SparseTensors);
  EXPECT_EQ(node.attr("type_protos")->types.size(), 1u);
  EXPECT_EQ(node.attr("ref")->ref_attr_name, "outer");
  EXPECT_EQ(node.attr_int("old", 0), 9);
}

TEST(OnnxLoad, ValueInfoIsKept) {
  P p;
  p.input("x", 1, {"b"});
  p.node("Relu", {"x"}, {"y"});
  p.node("Relu", {"y"}, {"z"});
  p.output("z");
  auto* vi = p.g().add_value_info();
  vi->set_name("y");
  P::set_tensor_type(vi->mutable_type(), 1, {"b"});
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->find("y")->type, Type::tensor(DataType::FLOAT, Shape({"b"})));
  EXPECT_TRUE(m->graph->find("z")->type.is_unknown());
}

TEST(OnnxLoad, NodesOutOfOrder) {
  P p;
  p.input("x", 1, {"b"});
  p.node("Add", {"y", "y"}, {"z"}, "second");
  p.node("Add", {"x", "x"}, {"y"}, "first");
  p.output("z");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  // The first node reads an output of the second, which the walk that
  // creates the nodes has not reached when it comes to the first.
  const Graph& g = *m->graph;
  ASSERT_EQ(g.nodes[0]->inputs.size(), 2u);
  EXPECT_EQ(g.nodes[0]->inputs[0], g.find("y"));
  EXPECT_EQ(g.nodes[0]->inputs[1], g.find("y"));
  EXPECT_EQ(g.nodes[1]->inputs[0], g.find("x"));
  Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(m->graph->find("z")->type, Type::tensor(DataType::FLOAT, Shape({"b"})));
}

// A subgraph attribute: the subgraph is loaded once every outer node
// exists (it may read a later node's output), and its own values shadow
// outer ones of the same name, even those its later nodes produce.
TEST(OnnxLoad, SubgraphReadsLaterOuterValuesAndShadowsOuterNames) {
  P p;
  p.input("x", 1, {"n"});
  p.input("c", 9, {});
  auto& n = p.node("If", {"c"}, {"out"}, "if");
  p.node("Abs", {"x"}, {"later"}, "abs");
  p.node("Neg", {"x"}, {"y"}, "neg");
  p.node("Relu", {"out"}, {"after"}, "relu");
  auto* a = n.add_attribute();
  a->set_name("then_branch");
  a->set_type(::onnx::AttributeProto::GRAPH);
  auto* body = a->mutable_g();
  auto add = [&](const std::string& op, const std::string& in, const std::string& out) {
    auto* sn = body->add_node();
    sn->set_op_type(op);
    sn->add_input(in);
    sn->add_output(out);
  };
  add("Sigmoid", "y", "s");  // the body's own y, produced below
  add("Add", "later", "y");  // outer `later`, produced after the If
  body->mutable_node(1)->add_input("later");
  body->add_output()->set_name("s");
  p.output("after");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Graph& g = *m->graph;
  const Graph& sub = *g.nodes[0]->attr("then_branch")->graphs[0];
  ASSERT_EQ(sub.nodes.size(), 2u);
  EXPECT_EQ(sub.nodes[0]->inputs[0], sub.by_name.find("y"));
  EXPECT_NE(sub.nodes[0]->inputs[0], g.find("y"));
  EXPECT_EQ(sub.nodes[1]->inputs[0], g.find("later"));
  EXPECT_EQ(g.nodes[3]->inputs[0], g.find("out"));  // a node after the If is linked too
  EXPECT_EQ(g.nodes[3]->inputs[0]->producer, g.nodes[0]);
}

// ---- errors ----

TEST(OnnxLoadErrors, DanglingInput) {
  P p;
  p.input("x", 1, {"2"});
  p.node("Add", {"x", "missing"}, {"y"}, "add1");
  EXPECT_EQ(error_of(p.m), "node #0 'add1' (Add): input 'missing' is not produced by any node, input or initializer");
}

TEST(OnnxLoadErrors, DanglingInputOfUnnamedNodeAndInSubgraph) {
  P p;
  p.input("x", 1, {"2"});
  p.node("Relu", {"nothing"}, {"y"});
  EXPECT_EQ(error_of(p.m), "node #0 (Relu): input 'nothing' is not produced by any node, input or initializer");
  P q;
  auto& n = q.node("If", {"c"}, {"y"}, "if");
  q.input("c", 9, {});
  auto* a = n.add_attribute();
  a->set_name("then_branch");
  a->set_type(::onnx::AttributeProto::GRAPH);
  auto* sn = a->mutable_g()->add_node();
  sn->set_op_type("Neg");
  sn->set_name("neg");
  sn->add_input("ghost");
  sn->add_output("o");
  const std::string e = error_of(q.m);
  EXPECT_NE(e.find("node #0 'neg' (Neg): input 'ghost' is not produced"), std::string::npos) << e;
  EXPECT_NE(e.find("subgraph 'then_branch'"), std::string::npos) << e;
}

TEST(OnnxLoadErrors, DanglingOutput) {
  P p;
  p.input("x", 1, {"2"});
  p.output("nowhere");
  EXPECT_EQ(error_of(p.m), "graph output 'nowhere' is not produced by any node, input or initializer");
}

TEST(OnnxLoadErrors, ProducedTwice) {
  P p;
  p.input("x", 1, {"2"});
  p.node("Relu", {"x"}, {"y"}, "a");
  p.node("Neg", {"x"}, {"y"}, "b");
  EXPECT_EQ(error_of(p.m), "value 'y' is produced twice (by node #0 'a' (Relu) and by node #1 'b' (Neg))");
  P q;
  q.input("x", 1, {"2"});
  q.node("Relu", {"x"}, {"x"}, "r");
  EXPECT_EQ(error_of(q.m), "value 'x' is produced twice (by a graph input and by node #0 'r' (Relu))");
  P r;
  r.init_ints("w", {1});
  r.init_ints("w", {2});
  EXPECT_EQ(error_of(r.m), "value 'w' is produced twice (two initializers)");
}

// Gives n a tensor attribute "value" of 2 int64 elements with 1 value: an
// error of the load.
void add_short_tensor_attribute(::onnx::NodeProto& n) {
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(::onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(::onnx::TensorProto::INT64);
  a->mutable_t()->add_dims(2);
  a->mutable_t()->add_int64_data(7);
}

// Which of two errors is reported does not depend on where nodes can be
// linked: a value produced twice before any node's inputs and attributes,
// then those in node order.
TEST(OnnxLoadErrors, FirstErrorInTheOrderOfTheSteps) {
  const auto bad_tensor = add_short_tensor_attribute;
  const std::string bad_value = "node #0 'const' (Constant): attribute 'value': int64_data has 1 value(s)";
  P twice;  // a bad attribute at node 0, a value produced twice at node 1
  twice.input("x", 1, {"2"});
  bad_tensor(twice.node("Constant", {}, {"c"}, "const"));
  twice.node("Neg", {"x"}, {"c"}, "neg");
  EXPECT_EQ(error_of(twice.m),
            "value 'c' is produced twice (by node #0 'const' (Constant) and by node #1 'neg' (Neg))");
  P dangling;  // node 0 reads nothing that exists, node 1 has a bad attribute
  dangling.input("x", 1, {"2"});
  dangling.node("Neg", {"ghost"}, {"y"}, "neg");
  bad_tensor(dangling.node("Constant", {}, {"c"}, "const"));
  EXPECT_EQ(error_of(dangling.m),
            "node #0 'neg' (Neg): input 'ghost' is not produced by any node, input or initializer");
  P forward;  // node 0 reads node 2's output, node 1 has a bad attribute
  forward.input("x", 1, {"2"});
  forward.node("Neg", {"z"}, {"y"}, "neg");
  bad_tensor(forward.node("Constant", {}, {"c"}, "const"));
  forward.node("Relu", {"x"}, {"z"}, "relu");
  const std::string e = error_of(forward.m);
  EXPECT_EQ(e.rfind("node #1 'const' (Constant): attribute 'value': int64_data has 1 value(s)", 0), 0u) << e;
  P first;  // the bad attribute at node 0, linked in the first walk
  first.input("x", 1, {"2"});
  bad_tensor(first.node("Constant", {}, {"c"}, "const"));
  first.node("Neg", {"x"}, {"y"}, "neg");
  const std::string f = error_of(first.m);
  EXPECT_EQ(f.rfind(bad_value, 0), 0u) << f;
}

TEST(OnnxLoadErrors, InvalidDataTypeAndNegativeDims) {
  P p;
  p.input("x", 99, {"2"});
  EXPECT_EQ(error_of(p.m), "graph input 'x': invalid element type code 99");
  P q;
  q.input("x", 1, {"-3"});
  EXPECT_EQ(error_of(q.m), "graph input 'x': negative dim_value -3");
  P r;
  auto& t = r.init_ints("w", {1});
  t.set_data_type(1234);
  EXPECT_EQ(error_of(r.m), "initializer 'w': invalid data type code 1234");
  P s;
  s.init_ints("w", {}).set_dims(0, -1);
  EXPECT_EQ(error_of(s.m), "initializer 'w': negative dim -1");
  P u;
  auto& big = u.init_ints("w", {});
  big.set_dims(0, int64_t{1} << 40);
  big.add_dims(int64_t{1} << 40);
  EXPECT_EQ(error_of(u.m), "initializer 'w': element count overflows int64");
}

TEST(OnnxLoadErrors, NoGraph) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  EXPECT_EQ(error_of(m), "the model has no graph");
}

TEST(OnnxLoadErrors, MissingFile) {
  Result<Model> m = load_model_file("/nonexistent/dir/model.onnx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "file /nonexistent/dir/model.onnx: cannot open for reading");
}

TEST(OnnxLoadErrors, TruncatedFile) {
  std::ifstream in(kModels + "/transformer_block.onnx", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  const std::string path = write_temp("truncated.onnx", bytes.substr(0, bytes.size() / 2));
  Result<Model> m = load_model_file(path);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "file " + path + ": not a valid ONNX model (protobuf parse failed)");
  std::remove(path.c_str());
}

TEST(OnnxLoadErrors, RandomBytes) {
  std::mt19937 rng(42);
  for (int round = 0; round < 20; ++round) {
    std::string bytes(1 + rng() % 4096, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    const std::string path = write_temp("random.onnx", bytes);
    Result<Model> m = load_model_file(path);
    EXPECT_FALSE(m);  // not a model (may parse as protobuf, but then has no graph)
    if (!m) {
      EXPECT_EQ(m.error().rfind("file " + path + ": not a valid ONNX model", 0), 0u) << m.error();
    }
    std::remove(path.c_str());
  }
}

TEST(OnnxLoadErrors, EmptyFileHasNoGraph) {
  const std::string path = write_temp("empty.onnx", "");
  Result<Model> m = load_model_file(path);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "file " + path + ": not a valid ONNX model (no graph)");
  std::remove(path.c_str());
}

TEST(OnnxLoadErrors, StructuralErrorsNameTheFile) {
  P p;
  p.input("x", 1, {"2"});
  p.node("Add", {"x", "missing"}, {"y"}, "add1");
  const std::string path = write_temp("dangling.onnx", p.m.SerializeAsString());
  Result<Model> m = load_model_file(path);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "file " + path +
                           ": node #0 'add1' (Add): input 'missing' is not produced by any node, input or initializer");
  std::remove(path.c_str());
}

TEST(OnnxLoadErrors, CycleLoadsAndTheEngineReportsIt) {
  P p;
  p.input("x", 1, {"2"});
  p.node("Add", {"x", "b"}, {"a"}, "n1");
  p.node("Relu", {"a"}, {"b"}, "n2");
  p.output("b");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  Report r = infer_shapes(m.value());
  ASSERT_EQ(r.errors(), 1u);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::Graph);
  EXPECT_NE(r.diagnostics[0].message.find("cycle"), std::string::npos);
}

TEST(OnnxLoad, EightyNestedSubgraphs) {
  P p;
  p.input("c", 9, {});
  ::onnx::GraphProto* g = p.m.mutable_graph();
  for (int i = 0; i < 80; ++i) {
    auto* n = g->add_node();
    n->set_op_type("If");
    n->add_input("c");
    auto* a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(::onnx::AttributeProto::GRAPH);
    g = a->mutable_g();
  }
  EXPECT_EQ(error_of(p.m), "OK");  // 80 levels are fine; see OnnxLoadDepth for the limit
}

TEST(OnnxLoadErrors, FunctionDanglingInput) {
  P p;
  auto* f = p.m.add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_input("X");
  f->add_output("Y");
  auto* n = f->add_node();
  n->set_op_type("Add");
  n->add_input("X");
  n->add_input("Z");
  n->add_output("Y");
  EXPECT_EQ(error_of(p.m),
            "function 'local::F': node #0 (Add): input 'Z' is not produced by any node, input or initializer");
}

}  // namespace

namespace {

// FunctionProto.attribute_proto (field 11) is newer than this libonnx: the
// loader reads the defaults from the unknown fields.
TEST(OnnxLoad, FunctionAttributeDefaultsFromNewerOnnx) {
  P p(17);
  auto* o = p.m.add_opset_import();
  o->set_domain("local");
  o->set_version(1);
  auto* f = p.m.add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_input("X");
  f->add_output("Y");
  f->add_attribute("required_one");
  auto* n = f->add_node();
  n->set_op_type("Flatten");
  n->add_input("X");
  n->add_output("Y");
  auto* ref = n->add_attribute();
  ref->set_name("axis");
  ref->set_type(::onnx::AttributeProto::INT);
  ref->set_ref_attr_name("flat_axis");
  ::onnx::AttributeProto def;
  def.set_name("flat_axis");
  def.set_type(::onnx::AttributeProto::INT);
  def.set_i(2);
  f->GetReflection()->MutableUnknownFields(f)->AddLengthDelimited(11, def.SerializeAsString());
  p.input("x", 1, {"a", "b", "c"});
  p.node("F", {"x"}, {"y"}, "call").set_domain("local");
  p.output("y");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  const Function& fn = m->functions[0];
  EXPECT_EQ(fn.attribute_names, (std::vector<std::string>{"required_one", "flat_axis"}));
  ASSERT_EQ(fn.attribute_defaults.size(), 1u);
  EXPECT_EQ(fn.attribute_defaults[0].name, "flat_axis");
  EXPECT_EQ(fn.attribute_defaults[0].i, 2);
  // The call uses the default: Flatten(axis=2) of [a,b,c] is [a*b,c].
  Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(m->graph->find("y")->type,
            Type::tensor(DataType::FLOAT, Shape({SymbolicDim("a") * SymbolicDim("b"), "c"})));
}

}  // namespace

namespace {

// Files beyond protobuf's historical 64 MB default limit load, and the
// weights are not copied into the IR.
TEST(OnnxLoad, LargeFile) {
  P p;
  p.input("x", 1, {"n", "4096"});
  auto* w = p.g().add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  w->add_dims(4096);
  w->add_dims(4608);
  w->mutable_raw_data()->assign(std::size_t{4096} * 4608 * 4, '\x01');  // 72 MiB
  p.node("MatMul", {"x", "w"}, {"y"}, "mm");
  p.output("y");
  const std::string path = ::testing::TempDir() + "large.onnx";
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(p.m.SerializeToOstream(&out));
  }
  p.m.Clear();
  Result<Model> m = load_model_file(path);
  std::remove(path.c_str());
  ASSERT_TRUE(m) << m.error();
  const Value* v = m->graph->find("w");
  ASSERT_TRUE(v && v->initializer);
  EXPECT_FALSE(v->initializer->has_data);
  EXPECT_TRUE(v->initializer->float_data.empty());
  EXPECT_EQ(v->type, Type::tensor(DataType::FLOAT, Shape({4096, 4608})));
}

// ---- tensor data that does not match dims and type ----

// A model with one initializer 'w' of that type and dims, to fill with data.
::onnx::TensorProto& tensor_model(P& p, int dtype, const std::vector<int64_t>& dims) {
  auto& t = *p.g().add_initializer();
  t.set_name("w");
  t.set_data_type(dtype);
  for (int64_t d : dims) t.add_dims(d);
  return t;
}

TEST(OnnxLoadErrors, RawDataOfTheWrongLength) {
  P a;
  tensor_model(a, ::onnx::TensorProto::INT64, {3}).set_raw_data(std::string(16, '\0'));
  EXPECT_EQ(error_of(a.m), "initializer 'w': raw_data has 16 bytes, 3 element(s) of type int64 need 24");
  P b;  // longer, and a large tensor (no values kept) is checked too
  tensor_model(b, ::onnx::TensorProto::FLOAT, {100, 10}).set_raw_data(std::string(4001, '\0'));
  EXPECT_EQ(error_of(b.m), "initializer 'w': raw_data has 4001 bytes, 1000 element(s) of type float need 4000");
  P c;  // int4: two per byte
  tensor_model(c, 22 /* INT4 */, {5}).set_raw_data(std::string(2, '\0'));
  EXPECT_EQ(error_of(c.m), "initializer 'w': raw_data has 2 bytes, 5 element(s) of type int4 need 3");
  P d;
  tensor_model(d, 22 /* INT4 */, {5}).set_raw_data(std::string(3, '\0'));
  EXPECT_EQ(error_of(d.m), "OK");
  P e;
  tensor_model(e, ::onnx::TensorProto::STRING, {1}).set_raw_data("x");
  EXPECT_EQ(error_of(e.m), "initializer 'w': a string tensor cannot have raw_data");
}

TEST(OnnxLoadErrors, ExternalDataFields) {
  auto external = [](P& p, std::vector<std::pair<std::string, std::string>> fields) -> ::onnx::TensorProto& {
    auto& t = tensor_model(p, ::onnx::TensorProto::FLOAT, {4});
    t.set_data_location(::onnx::TensorProto_DataLocation_EXTERNAL);
    for (const auto& [k, v] : fields) {
      auto* e = t.add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    return t;
  };
  P ok;
  external(ok, {{"location", "weights/w.bin"}, {"offset", "4096"}, {"length", "16"}});
  EXPECT_EQ(error_of(ok.m), "OK");
  P a;
  external(a, {{"offset", "0"}});
  EXPECT_EQ(error_of(a.m), "initializer 'w': external data without a 'location'");
  P b;
  external(b, {{"location", "../w.bin"}});
  EXPECT_EQ(error_of(b.m), "initializer 'w': external data location '../w.bin' leaves the model's folder ('..')");
  P c;
  external(c, {{"location", "/etc/w.bin"}});
  EXPECT_EQ(error_of(c.m), "initializer 'w': external data location '/etc/w.bin' is not a relative path");
  P d;
  external(d, {{"location", "w.bin"}, {"offset", "-8"}});
  EXPECT_EQ(error_of(d.m), "initializer 'w': external data offset '-8' is not a non-negative integer");
  P e;
  external(e, {{"location", "w.bin"}, {"location", "v.bin"}});
  EXPECT_EQ(error_of(e.m), "initializer 'w': external_data key 'location' given twice");
  P f;
  external(f, {{"location", "w.bin"}}).set_raw_data(std::string(16, '\0'));
  EXPECT_EQ(error_of(f.m), "initializer 'w': external data with raw_data in the model as well");
}

TEST(OnnxLoadErrors, IrVersionAndOpsetImports) {
  P a;
  a.m.set_ir_version(0);
  EXPECT_EQ(error_of(a.m), "ir_version 0: the model does not set its IR version");
  P b;  // "" and "ai.onnx" are one domain
  auto* dup = b.m.add_opset_import();
  dup->set_domain("ai.onnx");
  dup->set_version(13);
  EXPECT_EQ(error_of(b.m), "the model has ai.onnx imported twice in opset_import (versions 17 and 13)");
  P c(17, "com.microsoft");
  c.m.mutable_opset_import(0)->set_version(0);
  EXPECT_EQ(error_of(c.m), "the model imports com.microsoft at version 0 (opset versions start at 1)");
  P d;
  auto* f = d.m.add_functions();
  f->set_domain("local");
  f->set_name("F");
  for (int i = 0; i < 2; ++i) {
    auto* o = f->add_opset_import();
    o->set_domain("");
    o->set_version(17);
  }
  EXPECT_EQ(error_of(d.m), "function 'local::F' has ai.onnx imported twice in opset_import (versions 17 and 17)");
}

TEST(OnnxLoadErrors, TypedDataOfTheWrongCount) {
  P a;
  tensor_model(a, ::onnx::TensorProto::INT64, {3}).add_int64_data(1);
  EXPECT_EQ(error_of(a.m), "initializer 'w': int64_data has 1 value(s), 3 element(s) of type int64 need 3");
  P b;
  auto& fb = tensor_model(b, ::onnx::TensorProto::FLOAT, {2, 50});
  for (int i = 0; i < 101; ++i) fb.add_float_data(0.5f);
  EXPECT_EQ(error_of(b.m), "initializer 'w': float_data has 101 value(s), 100 element(s) of type float need 100");
  P c;  // complex64: two floats per element
  auto& fc = tensor_model(c, ::onnx::TensorProto::COMPLEX64, {2});
  for (int i = 0; i < 4; ++i) fc.add_float_data(0.0f);
  EXPECT_EQ(error_of(c.m), "OK");
  P d;
  auto& fd = tensor_model(d, ::onnx::TensorProto::FLOAT16, {3});
  fd.add_int32_data(0);
  fd.add_int32_data(0);
  EXPECT_EQ(error_of(d.m), "initializer 'w': int32_data has 2 value(s), 3 element(s) of type float16 need 3");
  P e;  // values in the field of another type
  tensor_model(e, ::onnx::TensorProto::FLOAT, {1}).add_int64_data(1);
  EXPECT_EQ(error_of(e.m), "initializer 'w': has values in a field other than float_data (the field of type float)");
  P f;  // a tensor without data is dims only
  tensor_model(f, ::onnx::TensorProto::FLOAT, {8, 3});
  EXPECT_EQ(error_of(f.m), "OK");
}

TEST(OnnxLoadErrors, BadTensorInAnAttributeNamesTheNode) {
  P p;
  p.input("x", 1, {"2"});
  add_short_tensor_attribute(p.node("Constant", {}, {"c"}, "const"));
  p.output("c");
  EXPECT_EQ(
      error_of(p.m),
      "node #0 'const' (Constant): attribute 'value': int64_data has 1 value(s), 2 element(s) of type int64 need 2");
}

// ---- attributes of the wrong type ----

TEST(OnnxLoadInfer, AttributeOfTheWrongTypeIsAUsageError) {
  P p;
  p.input("x", 1, {"2", "3"});
  auto& n = p.node("Transpose", {"x"}, {"y"}, "transpose");
  auto* a = n.add_attribute();
  a->set_name("perm");
  a->set_type(::onnx::AttributeProto::FLOATS);
  a->add_floats(1);
  a->add_floats(0);
  p.output("y");
  Result<Model> m = load_model_proto(p.m);
  ASSERT_TRUE(m) << m.error();
  Report r = infer_shapes(m.value());
  ASSERT_EQ(r.errors(), 1u);
  EXPECT_EQ(r.diagnostics.at(0).to_string(),
            "error: node 'transpose' (Transpose): attribute 'perm' is FLOATS, expected INTS");
  EXPECT_EQ(r.diagnostics.at(0).kind, DiagnosticKind::Usage);
  // No default perm (reversed dims) was applied.
  const Type& y = m->graph->find("y")->type;
  EXPECT_FALSE(y.is_tensor() && y.shape().has_rank() && y.shape()[0].is_int(3)) << y.to_string();
}

}  // namespace

namespace {

// ---- deep nesting and huge dims ----

// A model whose graph holds If(c) with a then_branch holding If(c) ...
// `depth` levels down; the innermost branch returns x. Every else_branch
// returns x too. Built with pointers into the proto, no recursion.
::onnx::ModelProto nested_ifs(int depth) {
  P p;
  p.input("c", ::onnx::TensorProto::BOOL, {});
  p.input("x", ::onnx::TensorProto::FLOAT, {"N", "3"});
  p.output("y0");
  ::onnx::GraphProto* g = p.m.mutable_graph();
  for (int level = 0; level < depth; ++level) {
    auto* n = g->add_node();
    n->set_op_type("If");
    n->set_name("if" + std::to_string(level));
    n->add_input("c");
    n->add_output("y" + std::to_string(level));
    auto* else_attr = n->add_attribute();
    else_attr->set_name("else_branch");
    else_attr->set_type(::onnx::AttributeProto::GRAPH);
    auto* e = else_attr->mutable_g();
    e->set_name("else" + std::to_string(level));
    auto* id = e->add_node();
    id->set_op_type("Identity");
    id->add_input("x");
    id->add_output("e" + std::to_string(level));
    e->add_output()->set_name("e" + std::to_string(level));
    auto* then_attr = n->add_attribute();
    then_attr->set_name("then_branch");
    then_attr->set_type(::onnx::AttributeProto::GRAPH);
    g = then_attr->mutable_g();
    g->set_name("then" + std::to_string(level));
    g->add_output()->set_name("y" + std::to_string(level + 1));
  }
  auto* id = g->add_node();
  id->set_op_type("Identity");
  id->add_input("x");
  id->add_output("y" + std::to_string(depth));
  return p.m;
}

void put_varint(std::string& out, uint64_t v) {
  do {
    const auto byte = static_cast<unsigned char>(v & 0x7f);
    v >>= 7;
    out += static_cast<char>(v ? byte | 0x80 : byte);
  } while (v);
}

std::size_t varint_size(uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// The serialized ModelProto of `depth` nested If nodes (then_branch only),
// written directly in protobuf's wire format: building a message this deep
// with the protobuf classes would recurse as deep in their destructors.
std::string nested_ifs_bytes(int depth) {
  ::onnx::NodeProto node;
  node.set_op_type("If");
  node.add_input("c");
  ::onnx::AttributeProto attr;
  attr.set_name("then_branch");
  attr.set_type(::onnx::AttributeProto::GRAPH);
  const std::string node_head = node.SerializeAsString(), attr_head = attr.SerializeAsString();
  // Sizes from the innermost (empty) graph outwards.
  std::vector<uint64_t> graph(depth + 1, 0), node_size(depth + 1), attr_size(depth + 1);
  for (int k = 1; k <= depth; ++k) {
    attr_size[k] = attr_head.size() + 1 + varint_size(graph[k - 1]) + graph[k - 1];
    node_size[k] = node_head.size() + 1 + varint_size(attr_size[k]) + attr_size[k];
    graph[k] = 1 + varint_size(node_size[k]) + node_size[k];
  }
  P p;
  p.m.clear_graph();
  std::string out = p.m.SerializeAsString();
  out += '\x3a';  // ModelProto.graph (7)
  put_varint(out, graph[depth]);
  for (int k = depth; k >= 1; --k) {
    out += '\x0a';  // GraphProto.node (1)
    put_varint(out, node_size[k]);
    out += node_head;
    out += '\x2a';  // NodeProto.attribute (5)
    put_varint(out, attr_size[k]);
    out += attr_head;
    out += '\x32';  // AttributeProto.g (6)
    put_varint(out, graph[k - 1]);
  }
  return out;
}

TEST(OnnxLoadDepth, ThousandNestedIfsLoadAndInfer) {
  const std::string path = write_temp("nested_1000.onnx", nested_ifs(1000).SerializeAsString());
  Result<Model> m = load_model_file(path);
  ASSERT_TRUE(m) << m.error();
  Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].to_string());
  EXPECT_EQ(m->graph->find("y0")->type, Type::tensor(DataType::FLOAT, Shape({"N", 3})));
  std::remove(path.c_str());
}

TEST(OnnxLoadDepth, NestingAtTheLimitLoadsAndInfers) {
  Result<Model> m = load_model_proto(nested_ifs(symshape::onnx::kMaxSubgraphNesting));
  ASSERT_TRUE(m) << m.error();
  Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].to_string());
  EXPECT_EQ(m->graph->find("y0")->type, Type::tensor(DataType::FLOAT, Shape({"N", 3})));
}

TEST(OnnxLoadDepth, DeeperThanTheLimitIsAnError) {
  Result<Model> m = load_model_proto(nested_ifs(symshape::onnx::kMaxSubgraphNesting + 1));
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find("subgraphs nested deeper than 1024"), std::string::npos) << m.error();
  EXPECT_LT(m.error().size(), 1000u);  // the scope is shortened
  EXPECT_EQ(m.error().rfind("node #0 'if0' (If) subgraph 'then_branch': ", 0), 0u) << m.error();
}

TEST(OnnxLoadDepth, HundredThousandLevelsAreRefusedByTheParser) {
  const std::string path = write_temp("nested_100000.onnx", nested_ifs_bytes(100000));
  Result<Model> m = load_model_file(path);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "file " + path + ": not a valid ONNX model (protobuf parse failed)");
  std::remove(path.c_str());
  // The same writer at a modest depth gives a model that loads.
  const std::string ok_path = write_temp("nested_50.onnx", nested_ifs_bytes(50));
  Result<::onnx::ModelProto> proto = symshape::onnx::read_model_proto(ok_path);
  EXPECT_TRUE(proto) << proto.error();
  std::remove(ok_path.c_str());
}

TEST(OnnxLoadDepth, MillionTermDimIsHandled) {
  std::string dim;
  for (int i = 1; i <= 1000000; ++i) dim += (i > 1 ? "+a" : "a") + std::to_string(i);
  P p;
  p.input("x", ::onnx::TensorProto::FLOAT, {dim, "4"});
  p.node("Relu", {"x"}, {"y"}, "relu");
  p.output("y");
  const std::string path = write_temp("million_terms.onnx", p.m.SerializeAsString());
  Result<Model> m = load_model_file(path);
  ASSERT_TRUE(m) << m.error();
  const SymbolicDim& d = m->graph->find("x")->type.shape()[0];
  ASSERT_TRUE(d.is_symbolic());
  // More nodes than an expression may have (kMaxExprSize): kept as one opaque
  // symbol, the text as written, as for any dim_param that is not an expression.
  EXPECT_GT(1000000u, kMaxExprSize);
  EXPECT_TRUE(d.expr().is_symbol());
  EXPECT_EQ(d.expr().name(), dim);
  Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].to_string());
  EXPECT_EQ(m->graph->find("y")->type.shape().rank(), 2);
  std::remove(path.c_str());
}

}  // namespace

// ---- The wire-format reader (wire.hpp, views.hpp) ----
// Hand-written protobuf bytes, each case checked against libprotobuf's own
// parser (read_model_proto): the two accept and refuse the same files.

namespace {

// A protobuf wire-format writer.
struct W {
  std::string b;
  W& varint(uint64_t v) {
    while (v >= 0x80) {
      b += static_cast<char>(static_cast<uint8_t>(v) | 0x80);
      v >>= 7;
    }
    b += static_cast<char>(v);
    return *this;
  }
  W& tag(uint32_t field, uint32_t wire_type) { return varint(uint64_t{field} << 3 | wire_type); }
  W& i(uint32_t field, uint64_t v) { return tag(field, 0).varint(v); }
  W& s(uint32_t field, const std::string& bytes) {
    tag(field, 2).varint(bytes.size());
    b += bytes;
    return *this;
  }
  W& m(uint32_t field, const W& msg) { return s(field, msg.b); }
  W& f32(uint32_t field, float v) {
    tag(field, 5);
    char c[4];
    std::memcpy(c, &v, 4);
    b.append(c, 4);
    return *this;
  }
  W& raw(const std::string& bytes) {
    b += bytes;
    return *this;
  }
};

// ModelProto fields: ir_version 1, graph 7, opset_import 8. GraphProto: node
// 1, name 2, initializer 5, input 11, output 12. NodeProto: input 1, output
// 2, op_type 4, attribute 5. ValueInfoProto: name 1, type 2. TypeProto:
// tensor_type 1, sequence_type 4; .Tensor: elem_type 1, shape 2.
W opset17() { return W().i(2, 17); }
W float_input(const std::string& name, int64_t dim) {
  W shape = W().m(1, W().i(1, static_cast<uint64_t>(dim)));
  return W().s(1, name).m(2, W().m(1, W().i(1, 1).m(2, shape)));
}
W relu(const std::string& in, const std::string& out) { return W().s(1, in).s(2, out).s(4, "Relu"); }
W model_with(const W& graph) { return W().i(1, 8).m(8, opset17()).m(7, graph); }
W relu_model() {
  return model_with(W().m(1, relu("x", "y")).s(2, "g").m(11, float_input("x", 3)).m(12, W().s(1, "y")));
}

// Loads bytes with the wire loader, after checking that libprotobuf accepts
// them exactly when the wire loader gets past parsing.
Result<Model> load_bytes(const std::string& bytes) {
  std::istringstream in(bytes);
  Result<::onnx::ModelProto> proto = symshape::onnx::read_model_proto(in, "m");
  Result<Model> m = symshape::onnx::load_model_bytes(bytes, "m");
  const bool parsed = m || m.error().find("(protobuf parse failed)") == std::string::npos;
  EXPECT_EQ(parsed, proto || proto.error().find("(protobuf parse failed)") == std::string::npos)
      << (m ? std::string("loaded") : m.error()) << " / " << (proto ? std::string("parsed") : proto.error());
  return m;
}

const char* const kParseFailed = "file m: not a valid ONNX model (protobuf parse failed)";

}  // namespace

TEST(OnnxWire, HandWrittenModelLoads) {
  Result<Model> m = load_bytes(relu_model().b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->name, "g");
  ASSERT_EQ(m->graph->nodes.size(), 1u);
  EXPECT_EQ(m->graph->nodes[0]->op_type, "Relu");
  EXPECT_EQ(m->graph->find("x")->type, Type::tensor(DataType::FLOAT, Shape({3})));
}

TEST(OnnxWire, TruncatedVarintAndLengthPastTheEnd) {
  const std::string ok = relu_model().b;
  EXPECT_EQ(load_bytes(ok + "\x08\x80").error(), kParseFailed);  // ir_version: varint cut short
  EXPECT_EQ(load_bytes(ok + "\x08" + std::string(10, '\xff') + "\x01").error(), kParseFailed);  // 11-byte varint
  EXPECT_EQ(load_bytes(ok + "\x12\x05" + "abc").error(), kParseFailed);          // producer_name: 5 bytes, 3 left
  EXPECT_EQ(load_bytes(ok + "\x12\xff\xff\xff\xff\x0f").error(), kParseFailed);  // a 4 GB length
  // Every prefix: refused exactly when libprotobuf refuses it (load_bytes checks).
  for (std::size_t cut = 1; cut < ok.size(); ++cut) load_bytes(ok.substr(0, cut));
  // And every prefix of fields whose tag, value or length takes more than one
  // byte (the reader takes one-byte ones on a path of their own): unknown
  // fields 20 and 2047, a 3-byte varint, a 200-byte string, and inside a
  // node the attribute's type (field 20). The graph merges into the first
  // one: a second node and output.
  const W node = W().s(1, "y").s(2, "w").s(4, "Relu").m(5, W().s(1, "a_seventeen_chars").i(20, 2));
  const W longer = W().i(20, 300000).s(21, std::string(200, 'x')).i(2047, 1).m(7, W().m(1, node).m(12, W().s(1, "w")));
  const std::string more = ok + longer.b;
  ASSERT_TRUE(load_bytes(more)) << "the whole of it loads";
  for (std::size_t cut = ok.size() + 1; cut < more.size(); ++cut) load_bytes(more.substr(0, cut));
}

TEST(OnnxWire, InputsThatRepeatATypeProto) {
  // The loader decodes a graph input's TypeProto once per bytes (in one
  // piece) and copies it for the inputs that repeat them: each input still
  // has a type of its own, and a type merged from two pieces is not taken
  // for the type of its first piece.
  const W batch_by_3 = W().m(1, W().s(2, "batch")).m(1, W().i(1, 3));               // TensorShapeProto: dims
  const W type_a = W().m(1, W().i(1, 1).m(2, batch_by_3));                          // float[batch,3]
  const W anonymous = W().m(1, W().i(1, 1).m(2, W().m(1, W()).m(1, W().i(1, 3))));  // float[?,3]
  const W more_dims = W().m(1, W().m(2, W().m(1, W().i(1, 5))));                    // shape [5], merged into a
  const W graph = W().m(1, relu("a1", "y1"))
                      .m(1, relu("u1", "y2"))
                      .m(11, W().s(1, "a1").m(2, type_a))
                      .m(11, W().s(1, "a2").m(2, type_a))
                      .m(11, W().s(1, "merged").m(2, type_a).m(2, more_dims))
                      .m(11, W().s(1, "u1").m(2, anonymous))
                      .m(11, W().s(1, "u2").m(2, anonymous))
                      .m(12, W().s(1, "y1"))
                      .m(12, W().s(1, "y2"));
  Result<Model> m = load_bytes(model_with(graph).b);
  ASSERT_TRUE(m) << m.error();
  const Graph& g = *m->graph;
  EXPECT_EQ(g.find("a1")->type.to_string(), "float[batch,3]");
  EXPECT_EQ(g.find("a2")->type.to_string(), "float[batch,3]");
  EXPECT_EQ(g.find("merged")->type.to_string(), "float[batch,3,5]");
  EXPECT_EQ(g.find("u1")->type.to_string(), "float[?,3]");
  EXPECT_EQ(g.find("u2")->type.to_string(), "float[?,3]");
  m->graph->find("a1")->type.shape()[1] = SymbolicDim(7);
  EXPECT_EQ(g.find("a2")->type.to_string(), "float[batch,3]");
  // Inference names each input's unknown dim on its own.
  const Report r = infer_shapes(m.value());
  EXPECT_TRUE(r.ok());
  EXPECT_NE(g.find("u1")->type.shape()[0], g.find("u2")->type.shape()[0]);
  EXPECT_EQ(g.find("y2")->type, g.find("u1")->type);
}

TEST(OnnxWire, BadTagsAndWireTypes) {
  const std::string ok = relu_model().b;
  EXPECT_EQ(load_bytes(ok + std::string(1, '\0')).error(), kParseFailed);  // tag 0
  EXPECT_EQ(load_bytes(ok + "\x0e").error(), kParseFailed);                // wire type 6
  EXPECT_EQ(load_bytes(ok + "\x0f").error(), kParseFailed);                // wire type 7
  EXPECT_EQ(load_bytes(ok + "\x02\x00").error(), kParseFailed);            // field number 0
  EXPECT_EQ(load_bytes(ok + "\x9c\x01").error(), kParseFailed);            // end of a group never opened
  EXPECT_EQ(load_bytes(ok + "\x9b\x01\x08\x01").error(), kParseFailed);    // a group never closed
  EXPECT_EQ(load_bytes(ok + "\x9b\x01\xa4\x01").error(), kParseFailed);    // closed by another field's end
  EXPECT_TRUE(load_bytes(ok + "\x9b\x01\x08\x01\x9c\x01"));                // unknown group 19, closed
}

TEST(OnnxWire, OneByteTagsTakeTheStepsOfTheirFields) {
  // check_message looks the steps of one-byte tags up (MessageSpec::steps):
  // the table must be step_for's answer for every message type and tag.
  namespace wire = symshape::onnx::wire;
  using wire::Step;
  for (int type = 0; type < symshape::onnx::view::kTypeCount; ++type) {
    const wire::MessageSpec& spec = symshape::onnx::view::kSchema.specs[type];
    for (uint32_t tag = 0; tag < wire::kOneByteTags; ++tag)
      EXPECT_EQ(spec.steps[tag], wire::step_for(spec.fields, tag >> 3, tag & 7)) << type << " " << tag;
  }
  for (uint32_t field = 0; field <= wire::kMaxFieldNumber; ++field)
    EXPECT_EQ(wire::kGroupSpec.fields[field].kind, wire::Kind::kUnknown) << field;
  for (uint32_t tag = 0; tag < wire::kOneByteTags; ++tag)
    EXPECT_EQ(wire::kGroupSpec.steps[tag], wire::step_for(wire::kGroupSpec.fields, tag >> 3, tag & 7)) << tag;
  const wire::MessageSpec& node = symshape::onnx::view::kSchema.specs[symshape::onnx::view::kNode];
  EXPECT_EQ(node.steps[0x0a], Step::kSkipLen);   // input (1), a string
  EXPECT_EQ(node.steps[0x2a], Step::kEnterLen);  // attribute (5), a message
  EXPECT_EQ(node.steps[0x08], Step::kVarint);    // field 1 as a varint: an unknown field
  EXPECT_EQ(node.steps[0x00], Step::kFail);      // tag 0
  EXPECT_EQ(node.steps[0x0e], Step::kFail);      // wire type 6
  const wire::MessageSpec& attribute = symshape::onnx::view::kSchema.specs[symshape::onnx::view::kAttribute];
  EXPECT_EQ(attribute.steps[0x42], Step::kPackedVarints);   // ints (8)
  EXPECT_EQ(attribute.steps[0x3a], Step::kPackedFixed32);   // floats (7)
  EXPECT_EQ(attribute.steps[0x32], Step::kEnterLen);        // t (6), a tensor
  EXPECT_EQ(wire::kGroupSpec.steps[0x3a], Step::kSkipLen);  // a group's fields are unknown
  // Inside an unknown group, fields 7 and 20 (ModelProto's graph and
  // training_info: a one-byte and a two-byte tag) are not looked into; in the
  // model they are.
  const std::string ok = relu_model().b;
  const std::string not_a_graph = W().tag(1, 7).b;  // wire type 7
  EXPECT_TRUE(load_bytes(ok + W().tag(19, 3).s(7, not_a_graph).s(20, not_a_graph).tag(19, 4).b));
  EXPECT_EQ(load_bytes(ok + W().s(7, not_a_graph).b).error(), kParseFailed);
  EXPECT_EQ(load_bytes(ok + W().s(20, not_a_graph).b).error(), kParseFailed);
}

TEST(OnnxWire, UnknownFieldsAreSkipped) {
  W unknown;
  unknown.i(30, 5).s(31, "junk").f32(29, 1.5f).tag(28, 1).raw(std::string(8, '\x01'));
  unknown.tag(27, 3).i(1, 2).s(2, "inside a group").tag(27, 4);
  W graph = W().raw(unknown.b).m(1, relu("x", "y").raw(unknown.b)).m(11, float_input("x", 3).raw(unknown.b));
  graph.m(12, W().s(1, "y"));
  Result<Model> m = load_bytes(model_with(graph).raw(unknown.b).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->nodes[0]->op_type, "Relu");
  // A known field of another wire type is an unknown field: a graph given as
  // a varint is no graph; an ir_version given as bytes is no ir_version.
  EXPECT_EQ(load_bytes(W().i(1, 8).m(8, opset17()).i(7, 1).b).error(), "file m: not a valid ONNX model (no graph)");
  W graph_only = W().m(1, relu("x", "y")).m(11, float_input("x", 3)).m(12, W().s(1, "y"));
  EXPECT_EQ(load_bytes(W().s(1, "8").m(8, opset17()).m(7, graph_only).b).error(),
            "file m: ir_version 0: the model does not set its IR version");
}

TEST(OnnxWire, RepeatedSingularFieldsAndMergedMessages) {
  // A singular scalar given twice: the last one counts.
  Result<Model> m = load_bytes(relu_model().i(1, 3).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->ir_version, 3);
  // A graph given twice: one graph, the merge of both (lists appended, the
  // last name).
  W first = W().s(2, "first").m(11, float_input("x", 3)).m(1, relu("x", "y"));
  W second = W().s(2, "second").m(1, relu("y", "z")).m(12, W().s(1, "z"));
  m = load_bytes(W().i(1, 8).m(8, opset17()).m(7, first).m(7, second).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->name, "second");
  ASSERT_EQ(m->graph->nodes.size(), 2u);
  EXPECT_EQ(m->graph->nodes[1]->inputs[0], m->graph->find("y"));
  EXPECT_EQ(m->graph->outputs.size(), 1u);
  // The type of an input given twice: the shapes' dims are appended.
  W typed = float_input("x", 3).raw(W().m(2, W().m(1, W().m(2, W().m(1, W().i(1, 5))))).b);
  m = load_bytes(model_with(W().m(11, typed).m(1, relu("x", "y")).m(12, W().s(1, "y"))).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->find("x")->type, Type::tensor(DataType::FLOAT, Shape({3, 5})));
}

TEST(OnnxWire, OneofTakesTheMemberSetLast) {
  // tensor_type, then sequence_type (of float tensors): a sequence.
  W seq = W().m(1, W().m(1, W().i(1, 1)));
  W in = float_input("x", 3).raw(W().m(2, W().m(4, seq)).b);
  Result<Model> m = load_bytes(model_with(W().m(11, in).m(1, relu("x", "y")).m(12, W().s(1, "y"))).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->find("x")->type.to_string(), "seq(float?)");
  // dim_value then dim_param: the param.
  W dim = W().i(1, 4).s(2, "N");
  W in2 = W().s(1, "x").m(2, W().m(1, W().i(1, 1).m(2, W().m(1, dim))));
  m = load_bytes(model_with(W().m(11, in2).m(1, relu("x", "y")).m(12, W().s(1, "y"))).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->find("x")->type, Type::tensor(DataType::FLOAT, Shape({"N"})));
}

TEST(OnnxWire, PackedAndUnpackedRepeatedScalars) {
  // AttributeProto: name 1, ints 8 (type 20 left out: guessed); TensorProto:
  // dims 1, data_type 2, int64_data 7, name 8.
  auto packed = [](std::initializer_list<uint64_t> vs) {
    W p;
    for (uint64_t v : vs) p.varint(v);
    return p.b;
  };
  W attr_packed = W().s(1, "perm").s(8, packed({1, 0}));
  W attr_unpacked = W().s(1, "perm").i(8, 1).i(8, 0);
  W attr_mixed = W().s(1, "perm").i(8, 1).s(8, packed({0}));
  W shape_packed = W().s(1, packed({2})).i(2, 7).s(7, packed({3, static_cast<uint64_t>(-1)})).s(8, "shape");
  W shape_unpacked = W().i(1, 2).i(2, 7).i(7, 3).i(7, static_cast<uint64_t>(-1)).s(8, "shape");
  for (const W* attr : {&attr_packed, &attr_unpacked, &attr_mixed}) {
    for (const W* init : {&shape_packed, &shape_unpacked}) {
      W t = W().s(1, "x").s(2, "t").s(4, "Transpose").m(5, *attr);
      W r = W().s(1, "t").s(1, "shape").s(2, "y").s(4, "Reshape");
      W graph = W().m(11, float_input("x", 3)).m(5, *init).m(1, t).m(1, r).m(12, W().s(1, "y"));
      Result<Model> m = load_bytes(model_with(graph).b);
      ASSERT_TRUE(m) << m.error();
      EXPECT_EQ(m->graph->nodes[0]->attr_ints("perm"), (std::vector<int64_t>{1, 0}));
      const Tensor* shape = m->graph->find("shape")->initializer;
      ASSERT_TRUE(shape && shape->has_data);
      EXPECT_EQ(shape->int_data, (std::vector<int64_t>{3, -1}));
    }
  }
  // A packed float field whose length is not a multiple of 4 does not parse.
  W bad = W().s(1, "scales").s(7, std::string(6, '\0'));
  W graph = W().m(11, float_input("x", 3)).m(1, relu("x", "y").m(5, bad)).m(12, W().s(1, "y"));
  EXPECT_EQ(load_bytes(model_with(graph).b).error(), kParseFailed);
}

TEST(OnnxWire, EnumValueOutsideTheEnumIsUnknown) {
  // AttributeProto.type 99 is not an AttributeType: an unknown field, and the
  // type is guessed from the field set (i, 3).
  W attr = W().s(1, "axis").i(20, 99).i(3, 1);
  W graph = W().m(11, float_input("x", 3)).m(1, relu("x", "y").m(5, attr)).m(12, W().s(1, "y"));
  Result<Model> m = load_bytes(model_with(graph).b);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->graph->nodes[0]->attr_int("axis", 0), 1);
}

TEST(OnnxWire, NestingBudget) {
  // Unknown groups count against the 10000 levels as messages do.
  auto groups = [](int n) {
    W w;
    for (int i = 0; i < n; ++i) w.tag(19, 3);
    for (int i = 0; i < n; ++i) w.tag(19, 4);
    return relu_model().raw(w.b).b;
  };
  EXPECT_TRUE(load_bytes(groups(symshape::onnx::kProtobufRecursionLimit)));
  EXPECT_EQ(load_bytes(groups(symshape::onnx::kProtobufRecursionLimit + 1)).error(), kParseFailed);
}

TEST(OnnxWire, WeightsStayInTheFile) {
  // A 1 MB raw_data initializer: its size checked, its bytes not kept.
  W w = W().i(1, 1024).i(1, 256).i(2, 1).s(8, "w").s(9, std::string(1 << 20, '\x7f'));
  W graph = W().m(11, float_input("x", 3)).m(5, w).m(1, relu("x", "y")).m(12, W().s(1, "y"));
  Result<Model> m = load_bytes(model_with(graph).b);
  ASSERT_TRUE(m) << m.error();
  const Tensor* t = m->graph->find("w")->initializer;
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->has_data);
  EXPECT_EQ(t->dims.size(), 2u);
  W short_w = W().i(1, 1024).i(1, 256).i(2, 1).s(8, "w").s(9, std::string(100, '\0'));
  graph = W().m(11, float_input("x", 3)).m(5, short_w).m(1, relu("x", "y")).m(12, W().s(1, "y"));
  EXPECT_EQ(load_bytes(model_with(graph).b).error(),
            "file m: initializer 'w': raw_data has 100 bytes, 262144 element(s) of type float need 1048576");
}

TEST(OnnxWire, MappedFileOfEveryKind) {
  const std::string bytes = relu_model().b;
  const std::string path = write_temp("wire_relu.onnx", bytes);
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path);
  ASSERT_TRUE(f) << f.error();
  EXPECT_TRUE(f->mapped());
  EXPECT_EQ(f->bytes(), bytes);
  Result<symshape::onnx::MappedModel> mm = symshape::onnx::load_mapped_model(path, "shown");
  ASSERT_TRUE(mm) << mm.error();
  EXPECT_EQ(mm->file.bytes(), bytes);
  EXPECT_EQ(mm->model.graph->nodes.size(), 1u);
  // A pipe is read, not mapped.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fds[1]);
  Result<symshape::MappedFile> p = symshape::MappedFile::from_fd(fds[0], "<pipe>");
  ::close(fds[0]);
  ASSERT_TRUE(p) << p.error();
  EXPECT_FALSE(p->mapped());
  EXPECT_EQ(p->bytes(), bytes);
  // An empty file maps to no bytes; a directory and a missing file are named.
  const std::string empty = write_temp("wire_empty.onnx", "");
  EXPECT_EQ(symshape::MappedFile::open(empty)->bytes().size(), 0u);
  EXPECT_EQ(symshape::MappedFile::open(::testing::TempDir()).error(),
            "file " + ::testing::TempDir() + ": is a directory, not an ONNX model");
  EXPECT_EQ(symshape::onnx::load_mapped_model("/nonexistent/m.onnx", "shown").error(),
            "file shown: cannot open for reading");
  std::remove(path.c_str());
  std::remove(empty.c_str());
}

// Resident pages of this process (statm's second field), in bytes.
std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long size = 0, resident = 0;
  const bool read = f && std::fscanf(f, "%lu %lu", &size, &resident) == 2;
  if (f) std::fclose(f);
  return read ? resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

// Released pages leave the process's resident memory and read back as the
// same bytes; read (not mapped) bytes are kept.
TEST(OnnxWire, ReleasedPagesReadTheSameBytes) {
  std::string bytes(std::size_t{8} << 20, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + i / 4096);
  const std::string path = write_temp("wire_release.bin", bytes);
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path);
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f->mapped());
  ASSERT_EQ(f->bytes(), bytes);  // every page read
  const std::size_t before = resident_bytes();
  f->release_pages();
  const std::size_t after = resident_bytes();
  EXPECT_GE(before, after + (std::size_t{6} << 20)) << before << " -> " << after;
  EXPECT_EQ(f->bytes(), bytes);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "abc", 3), 3);
  ::close(fds[1]);
  Result<symshape::MappedFile> p = symshape::MappedFile::from_fd(fds[0], "<pipe>");
  ::close(fds[0]);
  ASSERT_TRUE(p) << p.error();
  p->release_pages();
  EXPECT_EQ(p->bytes(), "abc");
  std::remove(path.c_str());
}

// Only the pages wholly before the offset are let go, never past the end of
// the mapping, and they read back as the same bytes; read bytes are kept.
TEST(OnnxWire, PagesBeforeAnOffsetAreReleased) {
  std::string bytes((std::size_t{8} << 20) + 1000, '\0');  // the last page is partly the file's
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 13 + i / 4096);
  const std::string path = write_temp("wire_release_before.bin", bytes);
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path);
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f->mapped());
  ASSERT_EQ(f->bytes(), bytes);  // every page read
  const std::size_t before = resident_bytes();
  f->release_pages_before(bytes.size() / 2 + 100);  // inside a page, which stays
  const std::size_t after = resident_bytes();
  EXPECT_GE(before, after + (std::size_t{3} << 20)) << before << " -> " << after;
  EXPECT_LE(before, after + (std::size_t{5} << 20)) << before << " -> " << after;  // not the second half
  EXPECT_EQ(f->bytes(), bytes);
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, page - 1, page, page + 1, bytes.size() - 1,
                                   bytes.size(), bytes.size() + page, SIZE_MAX}) {
    f->release_pages_before(offset);
    EXPECT_EQ(f->bytes(), bytes) << "after releasing before " << offset;
  }
  // InputFile lets its mapped pages go the same way.
  symshape::onnx::InputFile input;
  Result<bool> opened = input.open(path);
  ASSERT_TRUE(opened) << opened.error();
  ASSERT_EQ(input.bytes(), bytes);
  input.release_pages_before(bytes.size() / 2);
  EXPECT_EQ(input.bytes(), bytes);
  input.release_pages_before(SIZE_MAX);
  EXPECT_EQ(input.bytes(), bytes);
  // Read bytes: nothing to let go.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "abc", 3), 3);
  ::close(fds[1]);
  Result<symshape::MappedFile> p = symshape::MappedFile::from_fd(fds[0], "<pipe>");
  ::close(fds[0]);
  ASSERT_TRUE(p) << p.error();
  ASSERT_FALSE(p->mapped());
  p->release_pages_before(2);
  p->release_pages_before(SIZE_MAX);
  EXPECT_EQ(p->bytes(), "abc");
  std::remove(path.c_str());
}

namespace {

// x [N, 8] -> `count` Relu nodes with long names (about 165 bytes each in
// the file), and an unused function after the graph (its body is loaded
// before the main graph, from the end of the file).
std::string long_relu_chain(int count) {
  P p;
  p.input("x", ::onnx::TensorProto::FLOAT, {"N", "8"});
  std::string previous = "x";
  for (int i = 0; i < count; ++i) {
    const std::string k = std::to_string(i);
    const std::string out = "the_output_of_a_relu_node_with_a_rather_long_name_" + k;
    p.node("Relu", {previous}, {out}, "a_relu_node_with_a_rather_long_name_" + k);
    previous = out;
  }
  p.output(previous);
  auto* o = p.m.add_opset_import();
  o->set_domain("local");
  o->set_version(1);
  auto* f = p.m.add_functions();
  f->set_domain("local");
  f->set_name("TwoRelus");
  f->add_input("a");
  f->add_output("b");
  f->add_opset_import()->set_version(17);
  for (const auto& [in, out] : {std::pair<const char*, const char*>{"a", "t"}, {"t", "b"}}) {
    auto* n = f->add_node();
    n->set_op_type("Relu");
    n->add_input(in);
    n->add_output(out);
  }
  return p.m.SerializeAsString();
}

// The nodes and, once inferred, their outputs' types: what a load makes.
std::string described(Model& m) {
  infer_shapes(m);
  std::string out;
  for (const Node* n : m.graph->nodes) {
    out += n->name + " " + n->op_type + ":";
    for (const Value* v : n->inputs) out += " " + (v ? v->name : std::string("-"));
    out += " ->";
    for (const Value* v : n->outputs) out += " " + (v ? v->name + " " + v->type.to_string() : std::string("-"));
    out += "\n";
  }
  return out;
}

// The offsets a load of `bytes` reports in steps of `step`; the model loaded
// must be described as `expected`.
std::vector<std::size_t> load_progress(const std::string& bytes, std::size_t step, const std::string& expected) {
  std::vector<std::size_t> offsets;
  Result<Model> m = symshape::onnx::load_model_bytes(
      bytes, "m", nullptr, ReadProgress([&offsets](std::size_t offset) { offsets.push_back(offset); }, step));
  EXPECT_TRUE(m) << m.error();
  EXPECT_EQ(m ? described(m.value()) : std::string(), expected);
  return offsets;
}

}  // namespace

// The loader tells how far its walk over the main graph's nodes has got:
// offsets in the file, increasing by `step` at least; the function's nodes
// (depth 1, at the end of the file) do not count. The model is the same.
TEST(OnnxLoad, ProgressThroughTheMainGraphIsReported) {
  const std::string bytes = long_relu_chain(40000);
  ASSERT_GT(bytes.size(), ReadProgress::kDefaultStep);
  Result<Model> plain = symshape::onnx::load_model_bytes(bytes, "m");
  ASSERT_TRUE(plain) << plain.error();
  ASSERT_EQ(plain->graph->nodes.size(), 40000u);
  ASSERT_EQ(plain->functions.size(), 1u);
  const std::string expected = described(plain.value());
  for (const std::size_t step : {std::size_t{64} << 10, ReadProgress::kDefaultStep}) {
    const std::vector<std::size_t> offsets = load_progress(bytes, step, expected);
    ASSERT_FALSE(offsets.empty()) << step;
    EXPECT_GE(offsets.size(), bytes.size() / step / 2) << step;
    EXPECT_GE(offsets.front(), step);
    for (std::size_t i = 1; i < offsets.size(); ++i) EXPECT_GE(offsets[i], offsets[i - 1] + step) << step;
    EXPECT_LT(offsets.back(), bytes.size());
  }
  // A model smaller than the step: nothing to tell.
  const std::string small = long_relu_chain(10);
  Result<Model> small_plain = symshape::onnx::load_model_bytes(small, "m");
  ASSERT_TRUE(small_plain) << small_plain.error();
  EXPECT_TRUE(load_progress(small, ReadProgress::kDefaultStep, described(small_plain.value())).empty());
  // Mapped, with the pages before each offset let go as the command does:
  // the same model.
  const std::string path = write_temp("progress_chain.onnx", bytes);
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path);
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f->mapped());
  std::size_t released = 0;
  const auto release = [&](std::size_t offset) {
    f->release_pages_before(offset);
    ++released;
  };
  Result<Model> m = symshape::onnx::load_model_bytes(f->bytes(), "m", nullptr, ReadProgress(release, 4096));
  ASSERT_TRUE(m) << m.error();
  EXPECT_GT(released, 100u);
  EXPECT_EQ(described(m.value()), expected);
  std::remove(path.c_str());
}

TEST(OnnxWire, SchemaMatchesTheGeneratedDescriptors) {
  // views.hpp's table against libonnx's own descriptors, from ModelProto down
  // through every message field: each field's number, wire kind and message
  // type, in both directions.
  using google::protobuf::Descriptor;
  using google::protobuf::FieldDescriptor;
  using K = symshape::onnx::wire::Kind;
  auto kind_of = [](const FieldDescriptor* f) {
    switch (f->type()) {
      case FieldDescriptor::TYPE_MESSAGE:
        return K::kMessage;
      case FieldDescriptor::TYPE_STRING:
      case FieldDescriptor::TYPE_BYTES:
        return K::kBytes;
      case FieldDescriptor::TYPE_FLOAT:
        return f->is_repeated() ? K::kPackedFixed32 : K::kFixed32;
      case FieldDescriptor::TYPE_DOUBLE:
        return f->is_repeated() ? K::kPackedFixed64 : K::kFixed64;
      case FieldDescriptor::TYPE_INT32:
      case FieldDescriptor::TYPE_INT64:
      case FieldDescriptor::TYPE_UINT64:
      case FieldDescriptor::TYPE_ENUM:
        return f->is_repeated() ? K::kPackedVarint : K::kVarint;
      default:
        return K::kUnknown;  // not in onnx-ml.proto
    }
  };
  std::set<std::pair<const Descriptor*, int>> seen;
  std::vector<std::pair<const Descriptor*, int>> todo{{::onnx::ModelProto::descriptor(), symshape::onnx::view::kModel}};
  while (!todo.empty()) {
    const auto [d, type] = todo.back();
    todo.pop_back();
    if (!seen.insert({d, type}).second) continue;
    const symshape::onnx::wire::MessageSpec& spec = symshape::onnx::view::kSchema.specs[type];
    int known = 0;
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      ASSERT_LE(f->number(), static_cast<int>(symshape::onnx::wire::kMaxFieldNumber))
          << d->full_name() << "." << f->name();
      const symshape::onnx::wire::FieldSpec s = spec.fields[f->number()];
      EXPECT_EQ(s.kind, kind_of(f)) << d->full_name() << "." << f->name();
      if (f->type() == FieldDescriptor::TYPE_MESSAGE) todo.push_back({f->message_type(), s.type});
      ++known;
    }
    int in_table = 0;
    for (const symshape::onnx::wire::FieldSpec& s : spec.fields) in_table += s.kind != K::kUnknown;
    EXPECT_EQ(in_table, known) << d->full_name();
  }
  EXPECT_EQ(seen.size(), 22u);  // every message of onnx-ml.proto
  // Enum values outside the enum are unknown fields: the ranges the views take.
  for (int v = -2; v < 20; ++v) {
    EXPECT_EQ(::onnx::AttributeProto_AttributeType_IsValid(v), v >= 0 && v <= 14) << v;
    EXPECT_EQ(::onnx::TensorProto_DataLocation_IsValid(v), v == 0 || v == 1) << v;
  }
}
