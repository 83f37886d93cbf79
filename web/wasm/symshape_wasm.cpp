// symshape in the browser (WebAssembly, emscripten; scripts/build-wasm.sh):
// `symshape infer` and `symshape report` run on a model's bytes inside the
// page, nothing uploaded.
//
// symshape_infer_json(bytes, size, name, options) runs the command's own
// run_infer (tools/symshape/infer_commands.hpp) on the bytes, written to
// emscripten's in-memory file system as `name` (its last path component, so
// that the report names the model as the user's file is named), with
// `--json` to an in-memory file and `--quiet`, and returns one JSON object:
//   {"exit": 3, "stdout": "", "stderr": "symshape infer: m.onnx: error: ...",
//    "json": {"schema": "symshape/infer/1", ...} or null}
// symshape_report_json(bytes, size, name, options) does the same with
// run_report (report_commands.hpp): "json" is the report page's data,
// {"schema": "symshape/report/1", ...}, which web/report/report.js renders.
// `exit`, `stdout` and `stderr` are the command's exit code and output (the
// diagnostics; the one-line problem of a bad option or a malformed model,
// then "json" is null). `options` holds more arguments of the command, one
// per line ("--policy\nstrict\n--input-shape\nx=batch,seq"), so that a fact
// or a shape may hold spaces. External data is never read (shape inference
// does not need it), as in the command. The returned text stays valid until
// the next call.
#include <emscripten/emscripten.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "infer_commands.hpp"
#include "report_commands.hpp"
#include "symshape/report/json_writer.hpp"

namespace {

namespace fs = std::filesystem;

// Where the model and the outputs are put in the in-memory file system.
constexpr const char* kModelDir = "/symshape/model";
constexpr const char* kJsonPath = "/symshape/out/report.json";
constexpr const char* kStdoutPath = "/symshape/out/stdout.txt";
constexpr const char* kStderrPath = "/symshape/out/stderr.txt";

// The whole content of `path`, or "" when it cannot be read.
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The lines of `text`, one argument each (a last line without '\n' too).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Sends `stream` to the file `path` for the life of the object, then back to
// the terminal (emscripten's console output).
class Redirect {
 public:
  Redirect(FILE* stream, const char* path) : stream_(stream) {
    std::fflush(stream_);
    redirected_ = std::freopen(path, "w", stream_) != nullptr;
  }
  ~Redirect() {
    std::fflush(stream_);
    if (redirected_) std::freopen("/dev/tty", "w", stream_);
  }
  Redirect(const Redirect&) = delete;
  Redirect& operator=(const Redirect&) = delete;

 private:
  FILE* stream_;
  bool redirected_ = false;
};

std::string g_result;  // what the last call returned

using Command = int (*)(const std::vector<std::string>& args);

// Runs `command` on the model's bytes as described above; the answer is g_result.
const char* run_on_bytes(Command command, const char* bytes, int size, const char* name, const char* options) {
  std::error_code ec;
  fs::current_path("/", ec);
  fs::remove_all("/symshape", ec);  // (a folder in use is not removed)
  fs::create_directories(kModelDir, ec);
  fs::create_directories(fs::path(kJsonPath).parent_path(), ec);
  std::string base = fs::path(name ? name : "").filename().string();
  if (base.empty() || base == "." || base == ".." || base == "-") base = "model.onnx";  // "-" is standard input
  const std::string model_path = std::string(kModelDir) + "/" + base;
  {
    std::ofstream out(model_path, std::ios::binary);
    out.write(bytes, size < 0 ? 0 : size);
  }
  // Relative to its folder, so that the report and the messages name the file alone.
  fs::current_path(kModelDir, ec);
  // The model last, after "--": a file named "-x.onnx" is no option.
  std::vector<std::string> args = {"--json", kJsonPath, "--quiet"};
  for (const std::string& line : lines_of(options ? options : "")) args.push_back(line);
  args.insert(args.end(), {"--", base});
  int code;
  {
    Redirect out(stdout, kStdoutPath), err(stderr, kStderrPath);
    code = command(args);
  }
  const std::string json = read_file(kJsonPath);
  using symshape::report::json_quote;
  g_result = "{\"exit\": " + std::to_string(code) + ", \"stdout\": " + json_quote(read_file(kStdoutPath)) +
             ", \"stderr\": " + json_quote(read_file(kStderrPath)) +
             ", \"json\": " + (json.empty() ? std::string("null") : json) + "}\n";
  fs::current_path("/", ec);
  fs::remove_all("/symshape", ec);  // the model's copy is not kept
  return g_result.c_str();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* symshape_infer_json(const char* bytes, int size, const char* name,
                                                     const char* options) {
  return run_on_bytes(symshape::cli::run_infer, bytes, size, name, options);
}

EMSCRIPTEN_KEEPALIVE const char* symshape_report_json(const char* bytes, int size, const char* name,
                                                      const char* options) {
  return run_on_bytes(symshape::cli::run_report, bytes, size, name, options);
}

}  // extern "C"
