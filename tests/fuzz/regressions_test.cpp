// Replays the fuzzers' findings (tests/fuzz/regressions/) and the model fuzzer's
// seeds (tests/fuzz/corpus_models/) through the same path as the fuzz targets,
// in the ordinary and the sanitizer builds:
// - model files (*.onnx, *.bin): bytes -> ModelProto -> symshape::onnx::load_model_proto ->
//   infer_shapes (Refine, Strict, then under facts: facts_run.hpp) ->
//   symshape::onnx::write_inferred_types -> load again.
//   No crash, and the written model loads again. A file NAME.expect next to a
//   finding holds a substring of the error it must give (loader error or a
//   diagnostic of the report).
// - parser findings (regressions/parse/*.txt): parse_expr gives an expression
//   that prints and parses back the same, or an error with a message, within a
//   time bound (the finding was a hang).
// - the hand-made seeds (seed_*.onnx) infer without any error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "facts_run.hpp"
#include "symshape/expr.hpp"
#include "symshape/onnx/proto.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"

namespace {

namespace fs = std::filesystem;
using namespace symshape;

const fs::path kFuzzDir = SYMSHAPE_FUZZ_DIR;

std::vector<std::string> files_in(const fs::path& dir, const std::vector<std::string>& extensions) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What one file gave: the loader's error, or every diagnostic's message.
struct Outcome {
  bool parsed = false;
  std::string load_error;
  std::size_t errors = 0;
  std::string messages;
  std::size_t errors_under_facts = 0;  // of the run under facts (facts_run.hpp)
  std::string messages_under_facts;
};

Outcome run_model(const std::string& bytes) {
  Outcome out;
  ::onnx::ModelProto proto;
  out.parsed = proto.ParseFromString(bytes);
  if (!out.parsed) return out;
  Result<Model> model = symshape::onnx::load_model_proto(proto);
  if (!model) {
    out.load_error = model.error();
    return out;
  }
  for (MergePolicy policy : {MergePolicy::Refine, MergePolicy::Strict}) {
    InferenceOptions options;
    options.policy = policy;
    const Report report = infer_shapes(model.value(), options);
    out.errors += report.errors();
    for (const Diagnostic& d : report.diagnostics) out.messages += d.message + "\n";
  }
  const Report under_facts = symshape::fuzz::infer_under_facts(proto);
  out.errors_under_facts = under_facts.errors();
  for (const Diagnostic& d : under_facts.diagnostics) out.messages_under_facts += d.message + "\n";
  symshape::onnx::write_inferred_types(*model, proto);
  Result<Model> again = symshape::onnx::load_model_proto(proto);
  EXPECT_TRUE(again.ok()) << "the written model does not load again: " << (again ? "" : again.error());
  return out;
}

std::string file_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + std::to_string(info.index);
}

class ModelRegression : public testing::TestWithParam<std::string> {};

TEST_P(ModelRegression, LoadsInfersAndSavesWithoutCrash) {
  const Outcome out = run_model(read_bytes(GetParam()));
  const fs::path expect = fs::path(GetParam()).replace_extension(".expect");
  if (!fs::exists(expect)) return;
  std::string wanted = read_bytes(expect.string());
  while (!wanted.empty() && (wanted.back() == '\n' || wanted.back() == '\r')) wanted.pop_back();
  ASSERT_TRUE(out.parsed) << "the finding no longer parses as a ModelProto";
  const std::string seen = out.load_error + out.messages;
  EXPECT_NE(seen.find(wanted), std::string::npos) << "expected an error with '" << wanted << "', got: " << seen;
}

INSTANTIATE_TEST_SUITE_P(Findings, ModelRegression,
                         testing::ValuesIn(files_in(kFuzzDir / "regressions", {".onnx", ".bin"})), file_name);
INSTANTIATE_TEST_SUITE_P(Seeds, ModelRegression, testing::ValuesIn(files_in(kFuzzDir / "corpus_models", {".onnx"})),
                         file_name);

// The hand-made seeds are valid models: every dim inferred without an error, with
// and without the fuzz target's facts, so the fuzzer starts from models that
// reach every rule of their graph.
TEST(SeedModels, HandMadeSeedsInferWithoutErrors) {
  int seeds = 0;
  for (const std::string& path : files_in(kFuzzDir / "corpus_models", {".onnx"})) {
    if (fs::path(path).filename().string().rfind("seed_", 0) != 0) continue;
    ++seeds;
    const Outcome out = run_model(read_bytes(path));
    EXPECT_TRUE(out.parsed) << path;
    EXPECT_EQ(out.load_error, "") << path;
    EXPECT_EQ(out.errors, 0u) << path << ":\n" << out.messages;
    EXPECT_EQ(out.errors_under_facts, 0u) << path << " under facts:\n" << out.messages_under_facts;
  }
  EXPECT_GE(seeds, 9);
}

class ParseRegression : public testing::TestWithParam<std::string> {};

// As fuzz_parse does: parse, print, parse the text again (same expression).
TEST_P(ParseRegression, ParsesAndRoundTripsOrFailsWithAMessageQuickly) {
  const std::string text = read_bytes(GetParam());
  const auto start = std::chrono::steady_clock::now();
  const Result<Expr> e = parse_expr(text);
  if (!e) {
    EXPECT_FALSE(e.error().empty());
  } else {
    const Result<Expr> back = parse_expr(to_string(*e));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, *e);
  }
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Generous for sanitizer builds; the finding took more than 10 s in fuzz_parse.
  EXPECT_LT(seconds, 2.0) << "took " << seconds << " s";
}

INSTANTIATE_TEST_SUITE_P(Findings, ParseRegression,
                         testing::ValuesIn(files_in(kFuzzDir / "regressions" / "parse", {".txt"})), file_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParseRegression);

}  // namespace
