// Every operator schema known to Debian's libonnx (every domain, every
// since_version) must have a rule registered at exactly that since_version,
// so that each opset where an operator's inputs, attributes or outputs
// changed is handled explicitly. Operators newer than that library, and the
// com.microsoft operators, are listed in the *.txt files beside this test
// (one `domain op since_version` per line, from the ONNX specification's
// changelog and onnxruntime's contrib schemas).
#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "symshape/symshape.hpp"

namespace {

using Key = std::tuple<std::string, std::string, int>;

std::set<Key> registered() {
  std::set<Key> keys;
  for (const auto& e : symshape::ops::kBuiltinRules)
    keys.emplace(std::string(e.domain), std::string(e.op_type), e.since_version);
  return keys;
}

std::string describe(const Key& k) {
  return (std::get<0>(k).empty() ? std::string("ai.onnx") : std::get<0>(k)) + "::" + std::get<1>(k) + " v" +
         std::to_string(std::get<2>(k));
}

}  // namespace

TEST(RegistryCoverage, EveryLibonnxSchemaVersionHasARule) {
  const std::set<Key> keys = registered();
  std::vector<std::string> missing;
  std::size_t schemas = 0;
  for (const auto& s : ONNX_NAMESPACE::OpSchemaRegistry::get_all_schemas_with_history()) {
    ++schemas;
    const std::string domain = s.domain() == "ai.onnx" ? "" : s.domain();
    if (!keys.count(Key(domain, s.Name(), s.SinceVersion())))
      missing.push_back(describe(Key(domain, s.Name(), s.SinceVersion())));
  }
  EXPECT_GT(schemas, 400u);
  std::string list;
  for (const auto& m : missing) list += "  " + m + "\n";
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << schemas << " schema versions have no rule:\n" << list;
}

TEST(RegistryCoverage, EveryListedNewerOperatorHasARule) {
  const std::set<Key> keys = registered();
  const char* lists[] = {"ai_onnx_newer.txt", "ai_onnx_ml_newer.txt", "com_microsoft.txt"};
  std::size_t listed = 0;
  std::vector<std::string> missing;
  for (const char* file : lists) {
    const std::string path = std::string(SYMSHAPE_REGISTRY_LISTS) + "/" + file;
    std::ifstream in(path);
    ASSERT_TRUE(in) << "cannot read " << path;
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      const auto hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      std::istringstream fields(line);
      std::string domain, op;
      int version = 0;
      if (!(fields >> domain)) continue;  // blank or comment line
      ASSERT_TRUE(fields >> op >> version) << path << ":" << line_no << ": expected `domain op since_version`";
      if (domain == "ai.onnx") domain.clear();
      ++listed;
      if (!keys.count(Key(domain, op, version))) missing.push_back(describe(Key(domain, op, version)));
    }
  }
  EXPECT_GT(listed, 0u);
  std::string list;
  for (const auto& m : missing) list += "  " + m + "\n";
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << listed << " listed operators have no rule:\n" << list;
}

namespace {

char option_letter(ONNX_NAMESPACE::OpSchema::FormalParameterOption o) {
  using Option = ONNX_NAMESPACE::OpSchema::FormalParameterOption;
  return o == Option::Single ? 'S' : o == Option::Optional ? 'O' : 'V';
}
std::string options_of(const std::vector<ONNX_NAMESPACE::OpSchema::FormalParameter>& params) {
  std::string s;
  for (const auto& p : params) s += option_letter(p.GetOption());
  return s;
}
int bounded(int n) { return n == std::numeric_limits<int>::max() ? symshape::kUnbounded : n; }

}  // namespace

// include/symshape/ops/schemas.hpp (written by scripts/gen_schema_table.py from
// Debian's python3-onnx) says what this libonnx says, row for row.
TEST(RegistryCoverage, SchemaTableMatchesLibonnx) {
  const symshape::SchemaTable& table = symshape::ops::kSchemas;
  std::size_t compared = 0;
  for (const auto& s : ONNX_NAMESPACE::OpSchemaRegistry::get_all_schemas_with_history()) {
    const std::string label = s.domain() + "::" + s.Name() + "-" + std::to_string(s.SinceVersion());
    const symshape::OperatorSchema* row = table.find(s.domain(), s.Name(), s.SinceVersion());
    if (!row) {
      ADD_FAILURE() << label << " is not in the schema table";
      continue;
    }
    ++compared;
    EXPECT_EQ(row->min_inputs, s.min_input()) << label;
    EXPECT_EQ(row->max_inputs, bounded(s.max_input())) << label;
    EXPECT_EQ(row->min_outputs, s.min_output()) << label;
    EXPECT_EQ(row->max_outputs, bounded(s.max_output())) << label;
    EXPECT_EQ(row->inputs, options_of(s.inputs())) << label;
    EXPECT_EQ(row->outputs, options_of(s.outputs())) << label;
    std::string names;  // as Context::inputs reads them
    for (const auto& formal : s.inputs()) names += (names.empty() ? "" : " ") + formal.GetName();
    EXPECT_EQ(row->input_names, names) << label;
    EXPECT_EQ(row->attribute_count, static_cast<int>(s.attributes().size())) << label;
    for (const auto& [name, attribute] : s.attributes()) {
      const symshape::SchemaAttribute* a = table.attribute(*row, name);
      ASSERT_NE(a, nullptr) << label << " attribute " << name;
      EXPECT_EQ(a->required, attribute.required) << label << " attribute " << name;
      EXPECT_EQ(std::string(symshape::to_string(a->kind)),
                ONNX_NAMESPACE::AttributeProto::AttributeType_Name(
                    static_cast<ONNX_NAMESPACE::AttributeProto::AttributeType>(attribute.type)))
          << label << " attribute " << name;
    }
  }
  EXPECT_EQ(compared, table.size) << "the table has rows libonnx does not know";
}
