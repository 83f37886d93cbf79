// The splicing writer (splice.hpp): parsed, its output equals what the proto
// path (write_inferred_types + relocate_external_data) makes of the same
// file, on the committed models and on models built here with subgraphs,
// external data, unknown dims and singular fields split in two.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "committed_models.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/symshape.hpp"

namespace {

using namespace symshape;
namespace fs = std::filesystem;

using test_support::read_file;

std::string concat(const symshape::onnx::SplicedModel& m) {
  Result<std::string> bytes = m.bytes();
  EXPECT_TRUE(bytes) << bytes.error();
  return bytes ? bytes.value() : std::string();
}

Result<::onnx::ModelProto> parse(const std::string& bytes) {
  std::istringstream in(bytes);
  return symshape::onnx::read_model_proto(in, "model");
}

std::string deterministic(const ::onnx::ModelProto& m) {
  std::string out;
  google::protobuf::io::StringOutputStream s(&out);
  google::protobuf::io::CodedOutputStream c(&s);
  c.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&c);
  return out;
}

struct Run {
  std::vector<std::string> inputs_too;
  bool all_inputs = false;  // every graph input is listed in inputs_too
  std::string from_dir = ".", to_dir = ".";
  bool infer = true;  // false: the types as loaded are written back (their unknown dims take fresh names)
};

// "" when the spliced output of `bytes` parses to the proto path's result
// (or both fail with the same message), else what differs.
std::string compare(const std::string& bytes, const Run& run = {}) {
  Result<::onnx::ModelProto> proto = parse(bytes);
  if (!proto) return "unreadable: " + proto.error();
  Result<Model> a = symshape::onnx::load_model_proto(*proto);
  if (!a) return "not loadable: " + a.error();
  Result<Model> b = symshape::onnx::load_model_proto(*proto);
  // The splice reads the file's graph before the model is inferred, as the
  // command does (it lets the file's pages go meanwhile).
  symshape::onnx::Splice splice(bytes, *b);
  if (run.infer) {
    infer_shapes(a.value());
    infer_shapes(b.value());
  }
  // The proto path.
  std::vector<std::string> inputs_too = run.inputs_too;
  if (run.all_inputs)
    for (const auto& in : proto->graph().input()) inputs_too.push_back(in.name());
  ::onnx::ModelProto expected = *proto;
  symshape::onnx::write_inferred_types(*a, expected, inputs_too);
  Result<bool> moved = symshape::onnx::relocate_external_data(expected, run.from_dir, run.to_dir);
  splice.write_types(inputs_too);
  Result<bool> spliced_moved = splice.relocate(run.from_dir, run.to_dir);
  if (!moved || !spliced_moved) {
    if (moved.ok() != spliced_moved.ok()) return "relocation: one failed, the other did not";
    return moved.error() == spliced_moved.error() ? "" : "relocation errors differ: " + spliced_moved.error();
  }
  Result<symshape::onnx::SplicedModel> out = splice.finish();
  if (!out) return "splice failed: " + out.error();
  Result<::onnx::ModelProto> got = parse(concat(*out));
  if (!got) return "spliced output does not parse: " + got.error();
  if (!google::protobuf::util::MessageDifferencer::Equals(expected, *got)) return "messages differ";
  if (deterministic(expected) != deterministic(*got)) return "serializations differ";
  return "";
}

TEST(SpliceTest, CommittedModelsMatchTheProtoPath) {
  std::size_t n = 0;
  for (const std::string& path : test_support::committed_models()) {
    EXPECT_EQ(compare(read_file(path)), "") << path;
    EXPECT_EQ(compare(read_file(path), {{"nonexistent"}, true, ".", "."}), "") << path;
    ++n;
  }
  EXPECT_GE(n, 30u);
}

// ---- models built here ----

::onnx::ValueInfoProto value_info(const std::string& name, const std::vector<std::string>& dims,
                                  int elem = ::onnx::TensorProto_DataType_FLOAT) {
  ::onnx::ValueInfoProto v;
  v.set_name(name);
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem);
  auto* s = t->mutable_shape();
  for (const std::string& d : dims) {
    auto* dim = s->add_dim();
    if (d == "?") continue;  // neither value nor param: unknown
    if (!d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) != 0))
      dim->set_dim_value(std::stoll(d));
    else
      dim->set_dim_param(d);
  }
  return v;
}

::onnx::NodeProto node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
  ::onnx::NodeProto n;
  n.set_op_type(op);
  for (auto& i : in) n.add_input(i);
  for (auto& o : out) n.add_output(o);
  return n;
}

// x [?, 3] -> Relu -> r -> If(cond) {then: Neg(r) ; else: Abs(r) with an
// external Constant} -> y; value_info of r stale, of "other" kept; symbols
// _d0 and, in a subgraph only, _d1 already used (so the fresh names start at
// _d2).
::onnx::ModelProto control_flow_model() {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("main");
  *g->add_input() = value_info("x", {"?", "3"});
  *g->add_input() = value_info("cond", {}, ::onnx::TensorProto_DataType_BOOL);
  *g->add_input() = value_info("z", {"_d0"});
  *g->add_node() = node("Relu", {"x"}, {"r"});
  ::onnx::NodeProto iff = node("If", {"cond"}, {"y"});
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = iff.add_attribute();
    a->set_name(branch);
    a->set_type(::onnx::AttributeProto_AttributeType_GRAPH);
    auto* sg = a->mutable_g();
    sg->set_name(branch);
    *sg->add_node() = node(std::string(branch) == "then_branch" ? "Neg" : "Abs", {"r"}, {"s"});
    *sg->add_node() = node("Identity", {"s"}, {std::string(branch) + "_out"});
    *sg->add_output() = ::onnx::ValueInfoProto();
    sg->mutable_output(0)->set_name(std::string(branch) + "_out");
    if (std::string(branch) == "else_branch") {  // the loader keeps the last type of s: _d1 is in the file only
      *sg->add_value_info() = value_info("s", {"_d1"});
      *sg->add_value_info() = value_info("s", {"?", "3"});
    }
  }
  *g->add_node() = iff;
  *g->add_node() = node("Neg", {"z"}, {"zn"});
  *g->add_output() = value_info("y", {"?", "?"});
  *g->add_output() = value_info("zn", {});
  *g->add_value_info() = value_info("r", {"7", "7"});
  *g->add_value_info() = value_info("other", {"k"});
  g->add_output()->set_name("untyped");
  *g->add_node() = node("Identity", {"y"}, {"untyped"});
  return m;
}

TEST(SpliceTest, SubgraphsFreshDimsAndListedInputs) {
  const std::string bytes = control_flow_model().SerializeAsString();
  EXPECT_EQ(compare(bytes), "");
  // Listed inputs are rewritten; a name listed twice takes fresh names twice.
  EXPECT_EQ(compare(bytes, {{"x", "z", "x"}, false, ".", "."}), "");
  // Written back as loaded, the unknown dims take fresh names that skip _d1,
  // which only a subgraph's value_info in the file has.
  EXPECT_EQ(compare(bytes, {{}, false, ".", ".", false}), "");
}

// Adds a length-delimited field `number` with `content` to the message's
// unknown fields: serialized, the message then has that field twice.
template <class Proto>
void add_raw(Proto& p, int number, const std::string& content) {
  p.GetReflection()->MutableUnknownFields(&p)->AddLengthDelimited(number, content);
}

// The dim_params of the file's types are avoided by the fresh names wherever
// protobuf's parser sees them (in sequence, optional and map types), and only
// there: a tensor type replaced by a later member of TypeProto's oneof, and a
// dim_param replaced by a later dim_value, do not count.
TEST(SpliceTest, FreshDimsAvoidTheFileSymbolsAsParsed) {
  // Abs(a) -> c1, Abs(c1) -> c2, Abs(c2) -> c3, with value_info and output
  // types holding three unknown dims; written back without inference, the
  // unknown dims take fresh names.
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  *g->add_input() = value_info("a", {"N", "3"});
  *g->add_input() = value_info("z", {"_d0"});
  *g->add_node() = node("Abs", {"a"}, {"c1"});
  *g->add_node() = node("Abs", {"c1"}, {"c2"});
  *g->add_node() = node("Abs", {"c2"}, {"c3"});
  *g->add_value_info() = value_info("c1", {"?", "3"});
  *g->add_value_info() = value_info("c2", {"?", "3"});
  *g->add_output() = value_info("c3", {"?", "3"});
  ::onnx::ValueInfoProto seq;
  seq.set_name("seqv");
  *seq.mutable_type()->mutable_sequence_type()->mutable_elem_type() = value_info("", {"_d1"}).type();
  *g->add_value_info() = seq;
  ::onnx::ValueInfoProto map;
  map.set_name("mapv");
  map.mutable_type()->mutable_map_type()->set_key_type(::onnx::TensorProto_DataType_INT64);
  *map.mutable_type()->mutable_map_type()->mutable_value_type()->mutable_optional_type()->mutable_elem_type() =
      value_info("", {"_d2"}).type();
  *g->add_value_info() = map;
  ::onnx::ValueInfoProto switched = value_info("switched", {"_d3"});
  ::onnx::TypeProto later;
  later.mutable_sequence_type();
  add_raw(switched, 2, later.SerializeAsString());  // type given twice: the sequence member wins
  *g->add_value_info() = switched;
  ::onnx::ValueInfoProto valued = value_info("valued", {"_d4"});
  auto* dim = valued.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
  dim->GetReflection()->MutableUnknownFields(dim)->AddVarint(1, 5);  // then dim_value 5: the dim_param is gone
  *g->add_value_info() = valued;
  const std::string bytes = m.SerializeAsString();
  EXPECT_EQ(compare(bytes, {{}, false, ".", ".", false}), "");
  // The fresh names skip _d0, _d1 and _d2 and take _d3, _d4 and _d5.
  Result<Model> model = symshape::onnx::load_model_bytes(bytes, "model");
  ASSERT_TRUE(model.ok()) << model.error();
  symshape::onnx::Splice splice(bytes, *model);
  splice.write_types();
  Result<symshape::onnx::SplicedModel> out = splice.finish();
  ASSERT_TRUE(out.ok()) << out.error();
  Result<::onnx::ModelProto> got = parse(concat(*out));
  ASSERT_TRUE(got.ok()) << got.error();
  std::set<std::string> fresh;
  auto add = [&](const ::onnx::ValueInfoProto& v) {
    if (v.name() == "c1" || v.name() == "c2" || v.name() == "c3")
      for (const auto& d : v.type().tensor_type().shape().dim()) fresh.insert(d.dim_param());
  };
  for (const auto& v : got->graph().value_info()) add(v);
  for (const auto& v : got->graph().output()) add(v);
  EXPECT_EQ(fresh, (std::set<std::string>{"", "_d3", "_d4", "_d5"}));  // "": the dim_value 3s
}

TEST(SpliceTest, SingularFieldsSplitInTwoAreMerged) {
  ::onnx::ModelProto m = control_flow_model();
  // The main graph in two parts: ModelProto.graph twice.
  ::onnx::GraphProto second;
  second.mutable_output()->Swap(m.mutable_graph()->mutable_output());
  *second.add_value_info() = value_info("other2", {"q"});
  std::string bytes = m.SerializeAsString();
  ::onnx::ModelProto tail;
  *tail.mutable_graph() = second;
  bytes += tail.SerializeAsString();
  EXPECT_EQ(compare(bytes), "");

  // The If's then_branch in two parts (AttributeProto.g twice), and an
  // output's type given twice.
  ::onnx::ModelProto m2 = control_flow_model();
  auto* attr = m2.mutable_graph()->mutable_node(1)->mutable_attribute(0);
  ::onnx::GraphProto part;
  part.mutable_output()->Swap(attr->mutable_g()->mutable_output());
  *part.add_value_info() = value_info("s", {"1"});
  add_raw(*attr, 6, part.SerializeAsString());
  ::onnx::TypeProto extra;
  extra.mutable_tensor_type()->set_elem_type(1);
  add_raw(*m2.mutable_graph()->mutable_output(0), 2, extra.SerializeAsString());
  EXPECT_EQ(compare(m2.SerializeAsString()), "");
}

// Marks t as stored in `location` (relative to the model's folder).
void make_external(::onnx::TensorProto& t, const std::string& location) {
  t.set_data_location(::onnx::TensorProto_DataLocation_EXTERNAL);
  auto* e = t.add_external_data();
  e->set_key("location");
  e->set_value(location);
  auto* o = t.add_external_data();
  o->set_key("offset");
  o->set_value("0");
}

TEST(SpliceTest, ExternalDataLocationsAreRelocated) {
  ::onnx::ModelProto m = control_flow_model();
  auto* g = m.mutable_graph();
  ::onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(1);
  w.add_dims(3);
  make_external(w, "data/w.bin");
  *g->add_initializer() = w;
  // In a subgraph: a Constant's tensor; a sparse initializer.
  auto* sg = g->mutable_node(1)->mutable_attribute(1)->mutable_g();
  ::onnx::NodeProto c = node("Constant", {}, {"c"});
  auto* a = c.add_attribute();
  a->set_name("value");
  a->set_type(::onnx::AttributeProto_AttributeType_TENSOR);
  *a->mutable_t() = w;
  a->mutable_t()->set_name("c");
  *sg->add_node() = c;
  auto* sp = g->add_sparse_initializer();
  *sp->mutable_values() = w;
  sp->mutable_values()->set_name("sv");
  sp->mutable_indices()->set_name("si");
  sp->mutable_indices()->set_data_type(7);
  sp->mutable_indices()->add_dims(3);
  sp->mutable_indices()->add_int64_data(0);
  sp->mutable_indices()->add_int64_data(1);
  sp->mutable_indices()->add_int64_data(2);
  sp->add_dims(5);
  // An unknown data_location after EXTERNAL leaves it external.
  ::onnx::TensorProto& first = *g->mutable_initializer(0);
  first.GetReflection()->MutableUnknownFields(&first)->AddVarint(14, 7);
  const std::string bytes = m.SerializeAsString();
  const std::string dir = ::testing::TempDir() + "splice_ext";
  fs::create_directories(dir + "/sub/data");
  EXPECT_EQ(compare(bytes, {{}, false, dir + "/sub", dir}), "");
  EXPECT_EQ(compare(bytes, {{}, false, dir + "/sub", dir + "/sub"}), "");
  // A folder the data file is not inside: both fail with the same message.
  EXPECT_EQ(compare(bytes, {{}, false, dir, dir + "/sub"}), "");
  std::vector<std::string> files = symshape::onnx::external_data_files(std::string_view(bytes), dir);
  ::onnx::ModelProto copy = m;
  EXPECT_EQ(files, symshape::onnx::external_data_files(copy, dir));
  EXPECT_EQ(files.size(), 1u);
}

// The direct encoding of types parses to what write_type builds, fresh

// load_model_bytes tells whether a tensor may be external, from the wire check
// alone: never "no" when the walk of external_data finds one, wherever the
// tensor is, and "no" on a model without any.
TEST(SpliceTest, LoadTellsWhetherAnyTensorMayBeExternal) {
  ::onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(1);
  w.add_dims(3);
  make_external(w, "w.bin");
  ::onnx::NodeProto constant = node("Constant", {}, {"c"});
  auto* a = constant.add_attribute();
  a->set_name("value");
  a->set_type(::onnx::AttributeProto_AttributeType_TENSOR);
  *a->mutable_t() = w;
  const auto may_be_external = [](const ::onnx::ModelProto& m) {
    const std::string bytes = m.SerializeAsString();
    bool may = true;
    (void)symshape::onnx::load_model_bytes(bytes, "m.onnx", &may);  // the flag is set even if loading fails
    const std::size_t walked = symshape::onnx::external_data(bytes, ".").tensors;
    EXPECT_TRUE(may || walked == 0) << "the walk found " << walked << " external tensors";
    return may;
  };
  EXPECT_FALSE(may_be_external(control_flow_model()));
  {
    ::onnx::ModelProto m = control_flow_model();
    *m.mutable_graph()->add_initializer() = w;
    EXPECT_TRUE(may_be_external(m)) << "an initializer";
  }
  {
    ::onnx::ModelProto m = control_flow_model();
    *m.mutable_graph()->mutable_node(1)->mutable_attribute(1)->mutable_g()->add_node() = constant;
    EXPECT_TRUE(may_be_external(m)) << "a Constant in a subgraph";
  }
  {
    ::onnx::ModelProto m = control_flow_model();
    auto* sp = m.mutable_graph()->add_sparse_initializer();
    *sp->mutable_values() = w;
    sp->mutable_indices()->set_data_type(7);
    sp->add_dims(5);
    EXPECT_TRUE(may_be_external(m)) << "a sparse initializer's values";
  }
  {
    ::onnx::ModelProto m = control_flow_model();
    auto* f = m.add_functions();
    f->set_name("f");
    f->set_domain("local");
    *f->add_node() = constant;
    EXPECT_TRUE(may_be_external(m)) << "a Constant in a model-local function";
  }
  {
    // An unknown data_location after EXTERNAL leaves the tensor external.
    ::onnx::ModelProto m = control_flow_model();
    ::onnx::TensorProto& t = *m.mutable_graph()->add_initializer() = w;
    t.GetReflection()->MutableUnknownFields(&t)->AddVarint(14, 7);
    EXPECT_TRUE(may_be_external(m)) << "EXTERNAL, then an unknown value";
  }
  {
    // A DEFAULT after EXTERNAL makes it not external: "may be" errs towards yes.
    ::onnx::ModelProto m = control_flow_model();
    ::onnx::TensorProto& t = *m.mutable_graph()->add_initializer() = w;
    t.GetReflection()->MutableUnknownFields(&t)->AddVarint(14, 0);
    EXPECT_TRUE(may_be_external(m)) << "EXTERNAL, then DEFAULT";
  }
  {
    // EXTERNAL written as a varint of three bytes (protobuf reads it as 1).
    ::onnx::TensorProto plain = w;
    plain.clear_data_location();
    ::onnx::ModelProto m = control_flow_model();
    add_raw(*m.mutable_graph(), 5, plain.SerializeAsString() + std::string("\x70\x81\x80\x00", 4));
    EXPECT_TRUE(may_be_external(m)) << "a long varint";
    EXPECT_EQ(symshape::onnx::external_data(m.SerializeAsString(), ".").tensors, 1u);
  }
}
// names drawn in the same order.
TEST(SpliceTest, TypesEncodeAsWriteTypeBuildsThem) {
  const Shape mixed(
      {SymbolicDim(2), SymbolicDim("batch"), SymbolicDim(), SymbolicDim(-3), SymbolicDim("seq+1"), SymbolicDim("_d1")});
  std::vector<SymbolicDim> many;
  for (int i = 0; i < 600; ++i) many.push_back(SymbolicDim("a_rather_long_symbolic_dimension_" + std::to_string(i)));
  const Shape long_shape(many);
  const std::vector<Type> types = {
      Type::tensor(DataType::FLOAT, mixed),
      Type::tensor(DataType::INT64),  // no rank
      Type::tensor(DataType::BOOL, Shape::scalar()),
      Type::sparse_tensor(DataType::FLOAT16, mixed),
      Type::sequence(Type::tensor(DataType::DOUBLE, mixed)),
      Type::optional(Type::sequence(Type::tensor(DataType::UINT8, mixed))),
      Type::map(DataType::STRING, Type::tensor(DataType::FLOAT, mixed)),
      Type::optional(Type::tensor(DataType::INT32)),
      Type::tensor(DataType::FLOAT, Shape(std::vector<SymbolicDim>(many.begin(), many.begin() + 10))),
      Type::sequence(Type::tensor(DataType::FLOAT, long_shape)),  // lengths of 2 and 3 bytes
  };
  symshape::onnx::detail::FreshDims a(std::set<std::string>{"_d1"}), b(std::set<std::string>{"_d1"});
  for (const Type& t : types) {
    ::onnx::TypeProto expected;
    symshape::onnx::detail::write_type(t, expected, a);
    std::string bytes;
    symshape::onnx::detail::append_type(bytes, t, b);
    ::onnx::TypeProto got;
    ASSERT_TRUE(got.ParseFromString(bytes)) << t.to_string();
    EXPECT_EQ(bytes, expected.SerializeAsString()) << t.to_string();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(expected, got)) << t.to_string() << "\n"
                                                                                   << expected.DebugString() << "\n"
                                                                                   << got.DebugString();
  }
  EXPECT_EQ(a.next(), b.next());
}

// Bytes the loader would refuse are not written (the splice is defensive).
TEST(SpliceTest, MalformedBytesAreRefused) {
  const std::string good = control_flow_model().SerializeAsString();
  Result<Model> model = symshape::onnx::load_model_proto(control_flow_model());
  ASSERT_TRUE(model) << model.error();
  infer_shapes(model.value());
  // A last field (producer_name) that claims more bytes than there are.
  const std::string bad = good + std::string("\x12\x7f", 2);
  symshape::onnx::Splice splice(bad, *model);
  splice.write_types();
  Result<symshape::onnx::SplicedModel> out = splice.finish();
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("malformed"), std::string::npos);
  symshape::onnx::Splice fine(good, *model);
  fine.write_types();
  EXPECT_TRUE(fine.finish());
}

TEST(SpliceTest, WriterCopiesPiecesToAFile) {
  const std::string dir = ::testing::TempDir();
  const std::string in_path = dir + "splice_in.onnx", out_path = dir + "splice_out.onnx";
  const std::string bytes = control_flow_model().SerializeAsString();
  { std::ofstream(in_path, std::ios::binary) << bytes; }
  Result<Model> model = symshape::onnx::load_model_file(in_path);
  ASSERT_TRUE(model) << model.error();
  infer_shapes(model.value());
  symshape::onnx::Splice splice(bytes, *model);
  splice.write_types();
  Result<symshape::onnx::SplicedModel> out = splice.finish();
  ASSERT_TRUE(out) << out.error();
  EXPECT_GT(out->pieces.size(), 1u);
  const int fd = ::open(in_path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  Result<symshape::PendingFile> f = symshape::PendingFile::prepare(out_path, symshape::onnx::spliced_writer(*out, fd));
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f.value().commit());
  ::close(fd);
  EXPECT_EQ(read_file(out_path), concat(*out));
  // Without the input's descriptor: the same bytes.
  std::remove(out_path.c_str());
  Result<symshape::PendingFile> g = symshape::PendingFile::prepare(out_path, symshape::onnx::spliced_writer(*out, -1));
  ASSERT_TRUE(g && g.value().commit());
  EXPECT_EQ(read_file(out_path), concat(*out));
}

// x [N, ?] -> `count` times: r_i = Relu(previous r) (its unknown dim takes a
// fresh name), s_i = Shape(r_i) (a type the splice encodes once), q_i =
// SequenceConstruct(r_i) (no tensor type); enough value_info entries that the
// splice makes them in several chunks as it writes them.
::onnx::ModelProto long_mixed_chain(int count) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("chain");
  *g->add_input() = value_info("x", {"N", "?"});
  std::string previous = "x";
  for (int i = 0; i < count; ++i) {
    const std::string k = std::to_string(i);
    *g->add_node() = node("Relu", {previous}, {"relu_output_" + k});
    *g->add_node() = node("Shape", {"relu_output_" + k}, {"shape_of_relu_" + k});
    *g->add_node() = node("SequenceConstruct", {"relu_output_" + k}, {"sequence_of_relu_" + k});
    previous = "relu_output_" + k;
  }
  g->add_output()->set_name(previous);
  return m;
}

// `bytes` loaded, inferred and spliced; the model stays beside the output,
// whose made pieces read its graph.
struct InferredSplice {
  Result<Model> model;
  Result<symshape::onnx::SplicedModel> out = Result<symshape::onnx::SplicedModel>::failure("not loaded");
};
InferredSplice splice_inferred(const std::string& bytes) {
  InferredSplice run{symshape::onnx::load_model_bytes(bytes, "chain.onnx")};
  if (!run.model) return run;
  infer_shapes(run.model.value());
  symshape::onnx::Splice splice(bytes, *run.model);
  splice.write_types();
  run.out = splice.finish();
  return run;
}

TEST(SpliceTest, AddedValueInfoIsMadeAsWrittenInChunks) {
  const std::string bytes = long_mixed_chain(2000).SerializeAsString();
  EXPECT_EQ(compare(bytes), "");
  InferredSplice run = splice_inferred(bytes);
  ASSERT_TRUE(run.model) << run.model.error();
  ASSERT_TRUE(run.out) << run.out.error();
  const Result<symshape::onnx::SplicedModel>& out = run.out;
  // One made piece: the main graph's 5,999 entries (the last Relu's output is
  // the graph's output), over 64 KiB.
  std::size_t made = 0, made_bytes = 0;
  for (const auto& p : out->pieces)
    if (p.made >= 0) ++made, made_bytes += p.size;
  EXPECT_EQ(made, 1u);
  EXPECT_GT(made_bytes, 3u * 64 * 1024);
  std::size_t chunks = 0;
  for (const auto& p : out->pieces)
    if (p.made >= 0) out->emit(p, [&chunks](std::string_view) { return ++chunks, true; });
  EXPECT_GE(chunks, 3u);
  // A sink that refuses stops the making.
  for (const auto& p : out->pieces)
    if (p.made >= 0) {
      EXPECT_FALSE(out->emit(p, [](std::string_view) { return false; }));
    }
}

// The constructor tells how far its walk over the main graph's fields has
// got: offsets in the file, increasing by `step` at least. The output is the
// same, also when the mapped pages before each offset are let go meanwhile.
TEST(SpliceTest, ProgressThroughTheMainGraphIsReported) {
  const std::string bytes = long_mixed_chain(2000).SerializeAsString();
  Result<Model> model = symshape::onnx::load_model_bytes(bytes, "chain.onnx");
  ASSERT_TRUE(model) << model.error();
  infer_shapes(model.value());
  const auto spliced = [&model](std::string_view in, ReadProgress progress) {
    symshape::onnx::Splice splice(in, *model, std::move(progress));
    splice.write_types();
    Result<symshape::onnx::SplicedModel> out = splice.finish();
    EXPECT_TRUE(out) << out.error();
    return out ? concat(*out) : std::string();
  };
  const std::string expected = spliced(bytes, {});
  ASSERT_FALSE(expected.empty());
  constexpr std::size_t kStep = 4096;
  std::vector<std::size_t> offsets;
  EXPECT_EQ(spliced(bytes, ReadProgress([&offsets](std::size_t offset) { offsets.push_back(offset); }, kStep)),
            expected);
  ASSERT_GE(offsets.size(), bytes.size() / kStep / 2);
  EXPECT_GE(offsets.front(), kStep);
  for (std::size_t i = 1; i < offsets.size(); ++i) EXPECT_GE(offsets[i], offsets[i - 1] + kStep);
  EXPECT_LT(offsets.back(), bytes.size());
  // Mapped, the pages let go as the command does.
  const std::string path = ::testing::TempDir() + "splice_progress.onnx";
  { std::ofstream(path, std::ios::binary) << bytes; }
  Result<symshape::MappedFile> f = symshape::MappedFile::open(path);
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f->mapped());
  std::size_t released = 0;
  const auto release = [&](std::size_t offset) {
    f->release_pages_before(offset);
    ++released;
  };
  EXPECT_EQ(spliced(f->bytes(), ReadProgress(release, kStep)), expected);
  EXPECT_EQ(released, offsets.size());
  std::remove(path.c_str());
}

TEST(SpliceTest, MadeValueInfoOfAChangedGraphIsRefused) {
  const std::string bytes = long_mixed_chain(3).SerializeAsString();
  InferredSplice run = splice_inferred(bytes);
  ASSERT_TRUE(run.model) << run.model.error();
  ASSERT_TRUE(run.out) << run.out.error();
  const Result<symshape::onnx::SplicedModel>& out = run.out;
  ASSERT_TRUE(out->bytes());
  // A type the splice never encoded: the entries cannot be made again.
  symshape::Value* shape = run.model->graph->find("shape_of_relu_1");
  ASSERT_NE(shape, nullptr);
  shape->type = symshape::Type::tensor(symshape::DataType::INT64, symshape::Shape{5});
  Result<std::string> changed = out->bytes();
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().find("internal error"), std::string::npos) << changed.error();
  const std::string path = ::testing::TempDir() + "splice_changed.onnx";
  Result<symshape::PendingFile> f = symshape::PendingFile::prepare(path, symshape::onnx::spliced_writer(*out, -1));
  ASSERT_FALSE(f);  // the writer failed: nothing is put in place
  EXPECT_NE(f.error().find(path), std::string::npos) << f.error();
}

// If(c) whose then_branch holds If(c) ... `depth` levels down, every branch
// ending in x (as load_test.cpp's nested_ifs).
::onnx::ModelProto nested_ifs(int depth) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  ::onnx::GraphProto* g = m.mutable_graph();
  auto input = [&](const std::string& name, int elem_type, const std::vector<std::string>& dims) {
    auto* t = g->add_input();
    t->set_name(name);
    auto* tt = t->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem_type);
    auto* shape = tt->mutable_shape();
    for (const std::string& d : dims) {
      if (d == "3")
        shape->add_dim()->set_dim_value(3);
      else
        shape->add_dim()->set_dim_param(d);
    }
  };
  input("c", ::onnx::TensorProto::BOOL, {});
  input("x", ::onnx::TensorProto::FLOAT, {"N", "3"});
  g->add_output()->set_name("y0");
  for (int level = 0; level < depth; ++level) {
    const std::string l = std::to_string(level);
    auto* n = g->add_node();
    n->set_op_type("If");
    n->set_name("if" + l);
    n->add_input("c");
    n->add_output("y" + l);
    auto* else_attr = n->add_attribute();
    else_attr->set_name("else_branch");
    else_attr->set_type(::onnx::AttributeProto::GRAPH);
    auto* e = else_attr->mutable_g();
    e->set_name("else" + l);
    auto* id = e->add_node();
    id->set_op_type("Identity");
    id->add_input("x");
    id->add_output("e" + l);
    e->add_output()->set_name("e" + l);
    auto* then_attr = n->add_attribute();
    then_attr->set_name("then_branch");
    then_attr->set_type(::onnx::AttributeProto::GRAPH);
    g = then_attr->mutable_g();
    g->set_name("then" + l);
    g->add_output()->set_name("y" + std::to_string(level + 1));
  }
  auto* id = g->add_node();
  id->set_op_type("Identity");
  id->add_input("x");
  id->add_output("y" + std::to_string(depth));
  return m;
}

// Subgraphs deeper than the type-nesting limit (kMaxNesting) but within the
// loader's kMaxSubgraphNesting are written to the innermost one, as the
// proto path writes them.
TEST(SpliceTest, SubgraphsDeeperThanTypeNestingAreWritten) {
  constexpr int kDepth = 100;
  static_assert(kDepth > symshape::onnx::kMaxNesting && kDepth <= symshape::onnx::kMaxSubgraphNesting);
  const std::string bytes = nested_ifs(kDepth).SerializeAsString();
  EXPECT_EQ(compare(bytes), "");

  Result<Model> m = symshape::onnx::load_model_bytes(bytes, "nested");
  ASSERT_TRUE(m) << m.error();
  ASSERT_TRUE(infer_shapes(m.value()).ok());
  symshape::onnx::Splice splice(bytes, *m);
  splice.write_types();
  Result<symshape::onnx::SplicedModel> out = splice.finish();
  ASSERT_TRUE(out) << out.error();
  Result<::onnx::ModelProto> got = parse(concat(*out));
  ASSERT_TRUE(got) << got.error();
  const ::onnx::GraphProto* g = &got->graph();
  for (int level = 0; level < kDepth; ++level) {
    ASSERT_EQ(g->node(0).op_type(), "If") << level;
    g = &g->node(0).attribute(1).g();  // then_branch
  }
  ASSERT_EQ(g->output_size(), 1);
  const ::onnx::TypeProto& t = g->output(0).type();
  ASSERT_EQ(t.tensor_type().shape().dim_size(), 2);
  EXPECT_EQ(t.tensor_type().shape().dim(0).dim_param(), "N");
  EXPECT_EQ(t.tensor_type().shape().dim(1).dim_value(), 3);
}

}  // namespace
