// The ONNX models committed to the repository (examples, the light CNNs, the
// fuzzing corpus), for tests that check a property on each of them.
// SYMSHAPE_SOURCE_DIR: the project's root, defined by the test's CMake target.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace symshape::test_support {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The .onnx files of examples/models, tests/data/onnx-light and
// tests/fuzz/corpus_models, sorted within each folder.
inline std::vector<std::string> committed_models() {
  std::vector<std::string> out;
  for (const char* dir : {"/examples/models", "/tests/data/onnx-light", "/tests/fuzz/corpus_models"}) {
    std::vector<std::string> here;
    for (const auto& e : std::filesystem::directory_iterator(std::string(SYMSHAPE_SOURCE_DIR) + dir))
      if (e.path().extension() == ".onnx") here.push_back(e.path().string());
    std::sort(here.begin(), here.end());
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

}  // namespace symshape::test_support
