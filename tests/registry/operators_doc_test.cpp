// docs/operators.md is generated from the built-in rule table. This test
// renders the table and fails when the file differs; run
//   build/bin/registry_operators_doc_test --update
// to rewrite the file after adding or changing rules.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "symshape/symshape.hpp"

namespace {

bool g_update = false;

std::string render_operators_md() {
  std::ostringstream out;
  out << "# Operators\n\n"
      << "Every built-in rule of symshape: the domain, the operator, each `since_version` at which the\n"
      << "rule applies (a model whose opset is at least that version and below the next one uses it),\n"
      << "the C++ function that implements it and the header it lives in (under `include/`). Generated from\n"
      << "`symshape::ops::kBuiltinRules` by `build/bin/registry_operators_doc_test --update`; the\n"
      << "test fails when this file is out of date.\n";
  std::map<std::string, std::vector<const symshape::RuleEntry*>> by_domain;
  for (const auto& e : symshape::ops::kBuiltinRules) by_domain[std::string(e.domain)].push_back(&e);
  std::size_t total = 0;
  for (const auto& [domain, entries] : by_domain) total += entries.size();
  out << "\n" << total << " rules in " << by_domain.size() << " domains.\n";
  for (const auto& [domain, entries] : by_domain) {
    out << "\n## " << (domain.empty() ? std::string("ai.onnx") : domain) << "\n\n"
        << "| operator | since_version | rule | header |\n|---|---:|---|---|\n";
    for (const auto* e : entries)
      out << "| " << e->op_type << " | " << e->since_version << " | `"
          << (e->rule.empty() ? std::string("(unnamed)") : std::string(e->rule)) << "` | `" << e->header << "` |\n";
  }
  return out.str();
}

}  // namespace

TEST(OperatorsDoc, IsUpToDate) {
  const std::string path = std::string(SYMSHAPE_SOURCE_DIR) + "/docs/operators.md";
  const std::string expected = render_operators_md();
  if (g_update) {
    std::ofstream(path, std::ios::binary) << expected;
    SUCCEED() << "wrote " << path;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing; run registry_operators_doc_test --update";
  std::stringstream actual;
  actual << in.rdbuf();
  EXPECT_TRUE(actual.str() == expected) << path
                                        << " is out of date: run build/bin/registry_operators_doc_test --update";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each entry's header registers its function beside the definition.
TEST(OperatorsDoc, EveryRuleIsRegisteredInItsHeader) {
  std::map<std::string, std::string> headers;
  for (const auto& e : symshape::ops::kBuiltinRules) {
    const std::string header(e.header);
    if (!headers.count(header)) headers[header] = read_file(std::string(SYMSHAPE_SOURCE_DIR) + "/include/" + header);
    const std::string& text = headers[header];
    ASSERT_FALSE(text.empty()) << e.op_type << ": header " << header << " not found";
    EXPECT_NE(text.find("SYMSHAPE_RULES(" + std::string(e.rule) + ","), std::string::npos)
        << e.op_type << " v" << e.since_version << ": " << header << " has no SYMSHAPE_RULES(" << e.rule << ", ...)";
  }
}

// A SYMSHAPE_RULES registration that its family's family_rules<...> list
// forgets would silently drop the rule: every registration in an ops header
// must be in the table.
TEST(OperatorsDoc, EveryRegistrationIsInTheTable) {
  std::set<std::string> in_table;
  for (const auto& e : symshape::ops::kBuiltinRules) in_table.insert(std::string(e.rule));
  const std::string all = read_file(std::string(SYMSHAPE_SOURCE_DIR) + "/include/symshape/ops/all.hpp");
  std::size_t registrations = 0;
  for (std::size_t pos = 0; (pos = all.find("#include \"symshape/ops/", pos)) != std::string::npos;) {
    const std::size_t begin = pos + 10, end = all.find('"', begin);
    const std::string header = all.substr(begin, end - begin);
    pos = end;
    const std::string text = read_file(std::string(SYMSHAPE_SOURCE_DIR) + "/include/" + header);
    ASSERT_FALSE(text.empty()) << header;
    const std::string macro = "\nSYMSHAPE_RULES(";
    for (std::size_t at = 0; (at = text.find(macro, at)) != std::string::npos; ++registrations) {
      at += macro.size();
      const std::string fn = text.substr(at, text.find(',', at) - at);
      EXPECT_TRUE(in_table.count(fn)) << header << ": SYMSHAPE_RULES(" << fn
                                      << ", ...) is not in the family's family_rules<...> list";
    }
  }
  EXPECT_EQ(registrations, in_table.size());
}

TEST(OperatorsDoc, EveryRuleIsNamedAndHasAFunction) {
  for (const auto& e : symshape::ops::kBuiltinRules) {
    EXPECT_FALSE(e.rule.empty()) << e.domain << "::" << e.op_type << " v" << e.since_version << " has no rule name";
    EXPECT_NE(e.fn, nullptr) << e.domain << "::" << e.op_type << " v" << e.since_version << " has no function";
  }
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--update") g_update = true;
  return RUN_ALL_TESTS();
}
