// docs/operators.md is generated from the built-in rule table. This test
// renders the table and fails when the file differs; run
//   build/bin/registry_operators_doc_test --update
// to rewrite the file after adding or changing rules.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
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
      << "and the C++ function that implements it (in `include/symshape/ops/`). Generated from\n"
      << "`symshape::ops::kBuiltinRules` by `build/bin/registry_operators_doc_test --update`; the\n"
      << "test fails when this file is out of date.\n";
  std::map<std::string, std::vector<const symshape::RuleEntry*>> by_domain;
  for (const auto& e : symshape::ops::kBuiltinRules) by_domain[std::string(e.domain)].push_back(&e);
  std::size_t total = 0;
  for (const auto& [domain, entries] : by_domain) total += entries.size();
  out << "\n" << total << " rules in " << by_domain.size() << " domains.\n";
  for (const auto& [domain, entries] : by_domain) {
    out << "\n## " << (domain.empty() ? std::string("ai.onnx") : domain) << "\n\n"
        << "| operator | since_version | rule |\n|---|---:|---|\n";
    for (const auto* e : entries)
      out << "| " << e->op_type << " | " << e->since_version << " | `"
          << (e->rule.empty() ? std::string("(unnamed)") : std::string(e->rule)) << "` |\n";
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
