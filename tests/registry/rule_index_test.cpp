// The compile-time index of rule tables (infer/rule_index.hpp): it finds
// every operator of a table with the whole range of its versions, finds
// nothing for operators the table lacks however close their names, and is a
// constant expression for the built-in table, a table of chosen families and
// a make_rules table.
#include "symshape/infer/rule_index.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "symshape/infer/versioned_lookup.hpp"
#include "symshape/ops/all.hpp"

namespace {

using namespace symshape;

void rule_a(Context&, Node&) {}
void rule_b(Context&, Node&) {}

// Built at compile time: these are constant expressions, or this file does not compile.
inline constexpr auto kSelected = merge_rules(ops::kConvRules, ops::kElementwiseRules, ops::kReshapeRules);
// Names sharing long prefixes, a name that is a prefix of another, the same
// operator in several domains, a byte above 127.
inline constexpr auto kLocal = make_rules({
    RuleEntry{"", "Softmax", 13, &rule_a},
    RuleEntry{"", "Softmax", 1, &rule_b},
    RuleEntry{"", "SoftmaxCrossEntropyLoss", 12, &rule_a},
    RuleEntry{"", "Softmax\xc3", 1, &rule_a},
    RuleEntry{"com.microsoft", "Softmax", 1, &rule_a},
    RuleEntry{"ai.onnx.ml", "Adam", 1, &rule_a},
    RuleEntry{"ai.onnx.preview.training", "Adam", 1, &rule_b},
    RuleEntry{"ai.onnx.preview.training", "Adam", 5, &rule_a},
    RuleEntry{"x", "y.z", 1, &rule_a},
});
// The index alone, of a table sorted by hand.
inline constexpr std::array<RuleEntry, 3> kHandSorted = {RuleEntry{"", "A", 1, &rule_a}, RuleEntry{"", "A", 7, &rule_b},
                                                         RuleEntry{"", "B", 2, &rule_a}};
inline constexpr auto kHandIndex = index_rows(kHandSorted);

static_assert(ops::kBuiltinRules.index.complete && kSelected.index.complete && kLocal.index.complete &&
                  kHandIndex.complete,
              "every operator has a slot of its own");
static_assert(valid_rule_table(ops::kBuiltinRules) && valid_rule_table(kSelected) && valid_rule_table(kLocal));
constexpr KeyRows kConv = ops::kBuiltinRules.find("", "Conv");
static_assert(kConv && kConv.last - kConv.first >= 3 && ops::kBuiltinRules[kConv.first].op_type == "Conv" &&
                  ops::kBuiltinRules[kConv.first].since_version == 1,
              "Conv is found at compile time, from its first version");
static_assert(!ops::kBuiltinRules.find("", "Con") && !ops::kBuiltinRules.find("com.microsoft", "Conv"));
static_assert(kLocal.find("ai.onnx.preview.training", "Adam").last -
                  kLocal.find("ai.onnx.preview.training", "Adam").first ==
              2);
static_assert(kHandIndex.keys == 2 && kHandIndex.view().find(kHandSorted.data(), "", "A").last == 2);
static_assert(!kHandIndex.view().find(kHandSorted.data(), "", "C"));

// The ranges a linear scan gives: each (domain, op_type) and its rows.
template <class Table>
std::vector<std::pair<std::size_t, std::size_t>> ranges_by_scan(const Table& table) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (i == 0 || table[i].domain != table[i - 1].domain || table[i].op_type != table[i - 1].op_type)
      out.emplace_back(i, i + 1);
    else
      out.back().second = i + 1;
  return out;
}

// Every operator of `table` is found with its whole range, numbered in table order.
template <class Table>
void expect_finds_every_operator(const Table& table) {
  const auto ranges = ranges_by_scan(table);
  EXPECT_EQ(table.index.keys, ranges.size());
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const RuleEntry& e = table[ranges[k].first];
    const KeyRows found = table.find(e.domain, e.op_type);
    ASSERT_TRUE(found) << e.domain << "::" << e.op_type;
    EXPECT_EQ(found.key, k) << e.op_type;
    EXPECT_EQ(found.first, ranges[k].first) << e.op_type;
    EXPECT_EQ(found.last, ranges[k].second) << e.op_type;
  }
}

// Names near each operator's that the table does not have are not found: the
// same op type in every other domain of the table, its name one byte shorter
// or longer or with another first byte, an empty op type.
template <class Table>
void expect_finds_no_near_miss(const Table& table) {
  std::set<std::pair<std::string, std::string>> present;
  std::set<std::string> domains = {"", "ai.onnx.ml", "com.microsoft", "com.other"};
  for (const RuleEntry& e : table) {
    present.emplace(e.domain, e.op_type);
    domains.emplace(e.domain);
  }
  std::size_t tried = 0;
  auto expect_absent = [&](const std::string& domain, const std::string& op_type) {
    if (present.count({domain, op_type})) return;
    ++tried;
    EXPECT_FALSE(table.find(domain, op_type)) << domain << "::" << op_type;
  };
  for (const auto& [domain, op_type] : present) {
    for (const std::string& other : domains) expect_absent(other, op_type);
    expect_absent(domain, op_type.substr(0, op_type.size() - 1));
    expect_absent(domain, op_type + "X");
    expect_absent(domain, op_type + '\0');
    expect_absent(domain, static_cast<char>(op_type[0] ^ 0x20) + op_type.substr(1));
    expect_absent(domain + "x", op_type);
  }
  for (const std::string& domain : domains) expect_absent(domain, "");
  EXPECT_GT(tried, present.size() * 4);
}

TEST(RuleIndex, FindsEveryBuiltinOperatorWithAllItsVersions) { expect_finds_every_operator(ops::kBuiltinRules); }
TEST(RuleIndex, FindsNoNearMissInTheBuiltinTable) {
  expect_finds_no_near_miss(ops::kBuiltinRules);
  // "ai.onnx" is not canonical: find takes the domain as the table holds it.
  EXPECT_FALSE(ops::kBuiltinRules.find("ai.onnx", "Conv"));
  EXPECT_TRUE(ops::kBuiltinRules.find("", "Conv"));
}

TEST(RuleIndex, SelectedFamilies) {
  expect_finds_every_operator(kSelected);
  expect_finds_no_near_miss(kSelected);
  EXPECT_TRUE(kSelected.find("", "Reshape"));
  EXPECT_FALSE(kSelected.find("", "MatMul"));  // of the matmul family, left out
  EXPECT_FALSE(kSelected.find("", "Relu"));    // of the unary family
}

TEST(RuleIndex, MakeRulesTable) {
  expect_finds_every_operator(kLocal);
  expect_finds_no_near_miss(kLocal);
  EXPECT_FALSE(kLocal.find("x.y", "z"));
  EXPECT_FALSE(kLocal.find("", "SoftmaxCrossEntropy"));
  EXPECT_FALSE(kLocal.find("", ""));
  const KeyRows one = make_rules({RuleEntry{"", "Only", 4, &rule_a}}).find("", "Only");
  EXPECT_EQ(one.first, 0u);
  EXPECT_EQ(one.last, 1u);
  EXPECT_FALSE(RuleTable().find("", "Only"));  // an empty table
}

// Resolution through the index picks what the binary search of
// versioned_lookup.hpp picks, for every operator and opset.
TEST(RuleIndex, NewestVersionAgreesWithTheBinarySearch) {
  for (const RuleTable table : {RuleTable(ops::kBuiltinRules), RuleTable(kSelected), RuleTable(kLocal)}) {
    std::size_t resolved = 0;
    for (std::size_t i = 0; i < table.size; ++i) {
      const RuleEntry& e = table.entries[i];
      for (int64_t opset = 0; opset <= 26; ++opset) {
        const RuleEntry* expected = newest_at(table.entries, table.size, e.domain, e.op_type, opset);
        EXPECT_EQ(table.newest_at(e.domain, e.op_type, opset), expected) << e.op_type << " at " << opset;
        resolved += expected != nullptr;
        EXPECT_EQ(resolve_rule(table, e.domain, e.op_type, opset).fn, expected ? expected->fn : nullptr);
      }
    }
    EXPECT_GT(resolved, table.size);
  }
  // resolve_rule takes either spelling of ai.onnx.
  EXPECT_EQ(resolve_rule(ops::kBuiltinRules, "ai.onnx", "Conv", 11).since_version, 11);
}

}  // namespace
