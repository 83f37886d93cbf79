// load.hpp stays protobuf-free: this program includes it alone, is linked
// without libprotobuf and onnx_proto (tests/build/CMakeLists.txt), loads a
// model file and prints its node count. It also checks that no protobuf or
// onnx header was included and no such library was loaded at run time.
//   load_noproto MODEL EXPECTED_NODES
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "symshape/onnx/load.hpp"

#if defined(GOOGLE_PROTOBUF_VERSION) || defined(ONNX_ONNX_PB_H) || defined(ONNX_API)
#error "symshape/onnx/load.hpp includes a protobuf or onnx header"
#endif

namespace {

// Counts the loaded shared objects whose file name mentions protobuf or onnx.
int protobuf_libraries() {
  int found = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        const char* name = info->dlpi_name ? info->dlpi_name : "";
        if (std::strstr(name, "protobuf") || std::strstr(name, "onnx")) {
          std::printf("loaded: %s\n", name);
          ++*static_cast<int*>(data);
        }
        return 0;
      },
      &found);
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: load_noproto MODEL EXPECTED_NODES\n");
    return 2;
  }
  symshape::Result<symshape::Model> m = symshape::onnx::load_model_file(argv[1]);
  if (!m) {
    std::printf("FAIL: %s\n", m.error().c_str());
    return 1;
  }
  const std::size_t nodes = m->graph->nodes.size();
  std::printf("%zu nodes\n", nodes);
  if (nodes != std::strtoull(argv[2], nullptr, 10)) {
    std::printf("FAIL: expected %s nodes\n", argv[2]);
    return 1;
  }
  if (protobuf_libraries() != 0) {
    std::printf("FAIL: a protobuf or onnx library is loaded\n");
    return 1;
  }
  return 0;
}
