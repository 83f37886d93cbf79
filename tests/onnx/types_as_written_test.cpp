// The types as written (include/symshape/onnx/types_as_written.hpp,
// WrittenTypes): known(v) answers a node output's entry from its Value, with
// no lookup, and of(v) gives its type when it takes no fresh name (no entry
// is kept for it); both must agree with what the file holds, and the types
// recorded without an output (record_types) must be those written, and
// type_bytes(v) must be the bytes that of(v) reads.
#include "symshape/onnx/types_as_written.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "committed_models.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/symshape.hpp"

namespace {

using namespace symshape;

// "" when, for every node output of the main graph, known() agrees with of()
// and the recorded types print as the written ones; else the first that differs.
// Counts the node outputs whose entry is not written from their Value in `others`.
std::string check(const std::string& bytes, std::size_t& others) {
  Result<Model> recorded = onnx::load_model_bytes(bytes, "model");
  if (!recorded) return "";  // the malformed corpus models: nothing is written
  Result<Model> written = onnx::load_model_bytes(bytes, "model");
  infer_shapes(recorded.value());
  infer_shapes(written.value());
  onnx::Splice record(bytes, *recorded);
  record.record_types();
  onnx::Splice write(bytes, *written);
  write.write_types();
  const onnx::WrittenTypes a(record.main_graph_value_infos()), b(write.main_graph_value_infos());
  std::size_t i = 0;
  for (const Node* n : recorded->graph->nodes) {
    const Node* m = written->graph->nodes[i++];
    for (std::size_t k = 0; k < n->outputs.size(); ++k) {
      const Value* v = n->outputs[k];
      if (!v) continue;
      const std::string name = "'" + v->name + "'";
      others += !onnx::writes_value_info(*v);
      if (onnx::writes_value_info(*v) && !onnx::detail::takes_fresh_names(v->type)) {
        // No entry: of() gives v's type, which must be what the file holds.
        std::string bytes;
        onnx::detail::FreshDims fresh(std::set<std::string>{});
        onnx::detail::append_type(bytes, v->type, fresh);
        const Result<Type> read = onnx::type_from_bytes(bytes, v->name);
        if (!read || read->to_string() != v->type.to_string())
          return name + ": " + v->type.to_string() + " is written as " + (read ? read->to_string() : read.error());
      }
      if (a.known(*v) != onnx::WrittenTypes::is_known(a.of(*v))) return name + ": known() disagrees with of()";
      if (a.of(*v).to_string() != b.of(*m->outputs[k]).to_string())
        return name + ": recorded " + a.of(*v).to_string() + ", written " + b.of(*m->outputs[k]).to_string();
    }
  }
  for (const Value* v : recorded->graph->outputs)
    if (a.known(*v) != onnx::WrittenTypes::is_known(a.of(*v))) return "output '" + v->name + "': known() disagrees";
  // type_bytes(v), when there are any, are what of(v) is read from: the
  // summary prints the type of values that share them once.
  for (const auto* values : {&recorded->graph->inputs, &recorded->graph->outputs})
    for (const Value* v : *values) {
      const std::string_view bytes = v ? a.type_bytes(*v) : std::string_view();
      if (bytes.empty()) continue;
      const Result<Type> read = onnx::type_from_bytes(bytes, v->name);
      const std::string text = read ? read->to_string() : Type().to_string();
      if (text != a.of(*v).to_string()) return "'" + v->name + "': its type_bytes read " + text;
    }
  return "";
}

TEST(WrittenTypes, KnownAgreesWithTheWrittenTypeOnTheCorpus) {
  std::size_t n = 0, others = 0;
  for (const std::string& path : test_support::committed_models()) {
    EXPECT_EQ(check(test_support::read_file(path), others), "") << path;
    ++n;
  }
  EXPECT_GE(n, 30u);
  EXPECT_GT(others, 0u);  // graph outputs, unwritable types: the lookup path is checked too
}

}  // namespace
