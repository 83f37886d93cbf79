// The JSON writer of the reports (include/symshape/report/json_writer.hpp):
// string escaping and the Pretty/Inline layout the report uses.
#include "symshape/report/json_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using symshape::report::json_quote;
using symshape::report::JsonWriter;
using Layout = JsonWriter::Layout;

TEST(JsonWriter, QuotesAndEscapes) {
  EXPECT_EQ(json_quote(""), "\"\"");
  EXPECT_EQ(json_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_quote("\n\r\t"), "\"\\n\\r\\t\"");
  // Other control characters as \u00XX; NUL inside the string is kept, escaped.
  EXPECT_EQ(json_quote(std::string("\x01\b\f\x1f", 4)), "\"\\u0001\\u0008\\u000c\\u001f\"");
  EXPECT_EQ(json_quote(std::string("a\0b", 3)), "\"a\\u0000b\"");
  // DEL and UTF-8 are copied as they are.
  EXPECT_EQ(json_quote("\x7f"
                       "\xc3\xa9"),
            "\"\x7f"
            "\xc3\xa9\"");
}

TEST(JsonWriter, ScalarsAtTopLevel) {
  EXPECT_EQ(JsonWriter().integer(int64_t{-9223372036854775807 - 1}).str(), "-9223372036854775808");
  EXPECT_EQ(JsonWriter().integer(std::size_t{18446744073709551615u}).str(), "18446744073709551615");
  EXPECT_EQ(JsonWriter().boolean(false).str(), "false");
  EXPECT_EQ(JsonWriter().null().str(), "null");
  EXPECT_EQ(JsonWriter().string("k\"").str(), "\"k\\\"\"");
}

TEST(JsonWriter, EmptyContainers) {
  EXPECT_EQ(JsonWriter().begin_object().end_object().str(), "{}");
  EXPECT_EQ(JsonWriter().begin_array(Layout::Inline).end_array().str(), "[]");
  JsonWriter j;
  j.begin_object().key("a").begin_array().end_array().key("b").begin_object().end_object().end_object();
  EXPECT_EQ(j.str(), "{\n  \"a\": [],\n  \"b\": {}\n}");
}

// The layout of the --json report: a Pretty object holding Pretty arrays of
// Inline objects.
TEST(JsonWriter, PrettyWithInlineMembers) {
  JsonWriter j;
  j.begin_object();
  j.key("n").integer(2).key("ok").boolean(true);
  j.key("items").begin_array();
  j.begin_object(Layout::Inline).key("name").string("x").key("v").null().end_object();
  j.begin_object(Layout::Inline).key("k\n").begin_array().integer(1).integer(2).end_array().end_object();
  j.end_array();
  j.end_object();
  EXPECT_EQ(j.str(),
            "{\n"
            "  \"n\": 2,\n"
            "  \"ok\": true,\n"
            "  \"items\": [\n"
            "    {\"name\": \"x\", \"v\": null},\n"
            "    {\"k\\n\": [1, 2]}\n"
            "  ]\n"
            "}");
}

}  // namespace
