// MessagePiece and join_message: diagnostic messages as lists of pieces give
// the text the `+` / std::to_string chains they replace gave.
#include "symshape/support/message.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "symshape/infer/context.hpp"

namespace {

using symshape::join_message;

TEST(MessagePiece, JoinsTextCharactersAndIntegersInOrder) {
  const std::string name = "axes";
  const std::string_view view = "view";
  const char* pointer = "pointer";
  EXPECT_EQ(join_message({"label '", 'c', "' of ", name, " and ", view, ", ", pointer}),
            "label 'c' of axes and view, pointer");
  EXPECT_EQ(join_message({}), "");
}

TEST(MessagePiece, PrintsIntegersAsStdToString) {
  const int64_t negative = -42;
  const std::size_t size = 7;
  const unsigned u = 3;
  const uint8_t byte = 200;  // promoted to int: a number, not a character
  EXPECT_EQ(join_message({negative, " ", size, " ", u, " ", byte}), "-42 7 3 200");
  EXPECT_EQ(join_message({INT64_MIN, "|", UINT64_MAX}), std::to_string(INT64_MIN) + "|" + std::to_string(UINT64_MAX));
}

TEST(MessagePiece, PrintsObjectsWithTheirToString) {
  const symshape::Shape shape({"batch", 3});
  const symshape::SymbolicDim unknown;
  EXPECT_EQ(join_message({"got ", shape, " and ", shape[0], ", ", unknown}),
            "got " + shape.to_string() + " and batch, ?");
  // A temporary lives until the end of the full expression that joins it.
  EXPECT_EQ(join_message({symshape::Shape({2, 4})}), "[2,4]");
}

TEST(MessagePiece, ContextRecordsTheJoinedMessage) {
  symshape::Graph graph;
  symshape::Node& node = *graph.create_node();
  node.op_type = "Relu";
  symshape::Context ctx({{"", 17}});
  const symshape::Shape shape({"n", 2});
  ctx.record_error(node, {"input must have rank >= 3, got ", shape});
  ctx.usage_error(node, "a literal");
  ctx.usage_error(node, {"expected ", 2, " inputs"});
  const auto& d = ctx.report().diagnostics;
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].message, "input must have rank >= 3, got " + shape.to_string());
  EXPECT_EQ(d[0].kind, symshape::DiagnosticKind::Semantic);
  EXPECT_EQ(d[1].message, "a literal");
  EXPECT_EQ(d[1].kind, symshape::DiagnosticKind::Usage);
  EXPECT_EQ(d[2].message, "expected 2 inputs");
}

}  // namespace
