// libFuzzer target for the ONNX loader, the inference engine and the writer:
// bytes -> ModelProto::ParseFromArray -> io::load_model_proto -> infer_shapes
// -> io::write_inferred_types. Any crash, sanitizer report, hang or
// out-of-memory is a bug (malformed models must only give errors).
//
// Build and run with tests/fuzz/run_fuzz_load.sh (clang++ with
// -fsanitize=fuzzer,address,undefined, seeded with examples/models/*.onnx):
//   tests/fuzz/run_fuzz_load.sh            # 60 s
//   tests/fuzz/run_fuzz_load.sh 600        # 10 minutes
// Not registered in ctest: building it with sanitizers takes minutes.
#include <climits>
#include <cstddef>
#include <cstdint>

#include "symshape/onnx/load.hpp"
#include "symshape/onnx/save.hpp"
#include "symshape/symshape.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > static_cast<size_t>(INT_MAX)) return 0;
  ::onnx::ModelProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  symshape::Result<symshape::Model> model = symshape::io::load_model_proto(proto);
  if (!model) return 0;
  for (symshape::MergePolicy policy : {symshape::MergePolicy::Refine, symshape::MergePolicy::Strict}) {
    symshape::InferenceOptions options;
    options.policy = policy;
    symshape::Report report = symshape::infer_shapes(model.value(), options);
    (void)report;
  }
  symshape::io::write_inferred_types(*model, proto);
  // The written model must load again.
  symshape::Result<symshape::Model> again = symshape::io::load_model_proto(proto);
  if (!again) __builtin_trap();
  return 0;
}
