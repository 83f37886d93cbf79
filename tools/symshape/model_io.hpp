// What `symshape infer` and `symshape show` share around the inference:
// loading the model (a file or "-", standard input; the bytes are the
// library's onnx::InputFile), checking and writing the outputs (-o, --json;
// "-" is standard output; -o is spliced from the input's bytes,
// splice_writer.hpp) and printing the diagnostics (report/diagnostic_text.hpp).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "heap_pages.hpp"
#include "small_blocks.hpp"
#include "symshape/onnx/input_file.hpp"
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/onnx/types_as_written.hpp"
#include "symshape/report/diagnostic_text.hpp"
#include "symshape/support/output_file.hpp"
#include "symshape/support/read_progress.hpp"
#include "symshape/symshape.hpp"

namespace symshape::cli {

// ---- the model ----

using onnx::display_name;
using onnx::InputFile;
using onnx::model_dir;

// For a walk over the input's bytes (the load's, the splice's): the mapped
// pages walked are let go every few megabytes, so that the whole file is not
// resident while the model's memory grows.
inline ReadProgress releasing_pages(const InputFile& input) {
  return ReadProgress([&input](std::size_t offset) { input.release_pages_before(offset); });
}

// Loads MODEL (a file or "-") into `input` (its bytes) and `model`; false
// after printing the one-line error (exit 1).
inline bool load(const char* cmd, const std::string& path, InputFile& input, Model& model) {
  Result<bool> opened = input.open(path);
  if (!opened) {
    fatal(cmd, opened.error());
    return false;
  }
  heap_in_huge_pages(heap_reserve_for(input.bytes().size()));
  start_small_blocks();  // (their batches come from the heap just set up)
  bool may_have_external_tensors = true;
  Result<Model> m =
      onnx::load_model_bytes(input.bytes(), display_name(path), &may_have_external_tensors, releasing_pages(input));
  if (!m) {
    fatal(cmd, m.error());
    return false;
  }
  if (!may_have_external_tensors) input.set_no_external_tensors();
  model = std::move(m.value());
  return true;
}

// ---- output paths ----

// Whether an output path is standard output: "-", or a name of fd 1.
inline bool names_stdout(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

// The file a path stands for, for comparing paths that may not exist yet:
// the end of its symlink chain, made absolute with the folders canonical.
inline std::string real_target(const std::string& path) {
  const symshape::OutputTarget t = symshape::resolve_output(path);
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(t.target, ec);
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
  return (ec ? p : c).lexically_normal().string();
}

// Whether two paths name the same file (hard links and symlinks included).
inline bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  return real_target(a) == real_target(b);
}

inline bool is_char_device(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

// One output named on the command line.
struct OutputArg {
  const char* option;  // "-o" or "--json"
  std::string path;    // "" when not given
};

// The checks made before anything is read: an output is not a directory, not
// the input model, and not the other output (two character devices such as
// /dev/null excepted; standard output only once). Returns nothing, or 2
// after printing the usage error.
inline std::optional<int> check_outputs(const char* cmd, const std::string& model_path,
                                        const std::vector<OutputArg>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputArg& o = outputs[i];
    if (o.path.empty()) continue;
    if (!names_stdout(o.path)) {
      if (symshape::resolve_output(o.path).is_directory)
        return fatal(cmd, std::string(o.option) + " " + o.path + ": is a directory", kExitUsage);
      if (model_path != "-" && same_file(o.path, model_path))
        return fatal(cmd, std::string(o.option) + " " + o.path + " is the input model; write elsewhere", kExitUsage);
    }
    for (std::size_t k = 0; k < i; ++k) {
      const OutputArg& p = outputs[k];
      if (p.path.empty()) continue;
      const bool both_stdout = names_stdout(o.path) && names_stdout(p.path);
      const bool same =
          !names_stdout(o.path) && !names_stdout(p.path) && same_file(o.path, p.path) && !is_char_device(o.path);
      if (both_stdout || same)
        return fatal(cmd, std::string(p.option) + " and " + o.option + " name the same file (" + o.path + ")",
                     kExitUsage);
    }
  }
  return std::nullopt;
}

// After loading: no output may be one of the model's external data files
// (they are never written). Returns nothing, or 2 after the usage error.
inline std::optional<int> check_outputs_against_data(const char* cmd, const InputFile& input,
                                                     const std::vector<OutputArg>& outputs) {
  const auto names_a_file = [](const OutputArg& o) { return !o.path.empty() && !names_stdout(o.path); };
  // Finding the data files walks every tensor of the file: only when a file is written.
  if (std::none_of(outputs.begin(), outputs.end(), names_a_file)) return std::nullopt;
  for (const OutputArg& o : outputs)
    if (names_a_file(o))
      for (const std::string& f : input.external_data().files)
        if (same_file(o.path, f))
          return fatal(cmd, std::string(o.option) + " " + o.path + " is an external data file of the model",
                       kExitUsage);
  return std::nullopt;
}

// An output ready to be put in place: a prepared file, or the writer of
// standard output.
struct PreparedOutput {
  std::string path;
  bool to_stdout = false;
  symshape::PendingFile::Writer writer;  // for standard output
  symshape::PendingFile file;
};

// The problem with the folder a file at `path` would be created in ("folder D
// does not exist", "D is not a folder"), or "" when there is none to report
// here. Without it a missing folder shows as the temporary file beside the
// target that could not be created, a name the user never gave.
inline std::string output_folder_problem(const std::string& path) {
  const symshape::OutputTarget t = symshape::resolve_output(path);
  if (t.exists || t.special) return std::string();
  const std::filesystem::path folder = std::filesystem::path(t.target).parent_path();
  if (folder.empty()) return std::string();  // the current folder
  struct stat st;
  if (::stat(folder.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode) ? std::string() : "cannot write it: " + folder.string() + " is not a folder";
  if (errno == ENOENT) return "cannot write it: folder " + folder.string() + " does not exist";
  if (errno == ENOTDIR) return "cannot write it: " + folder.string() + " is not a folder";
  return std::string();
}

// Prepares `path` ("-" and names of fd 1: standard output, written by
// commit_output) with the content `writer` makes. Failure names the file.
inline Result<PreparedOutput> prepare_output(const std::string& path, symshape::PendingFile::Writer writer) {
  PreparedOutput out;
  out.path = path;
  if (names_stdout(path)) {
    out.to_stdout = true;
    out.writer = std::move(writer);
    return Result<PreparedOutput>(std::move(out));
  }
  if (const std::string problem = output_folder_problem(path); !problem.empty())
    return Result<PreparedOutput>::failure("file " + path + ": " + problem);
  Result<symshape::PendingFile> f = symshape::PendingFile::prepare(path, std::move(writer));
  if (!f) return Result<PreparedOutput>::failure(f.error());
  out.file = std::move(f.value());
  return Result<PreparedOutput>(std::move(out));
}

inline Result<bool> commit_output(PreparedOutput& out) {
  if (!out.to_stdout) return out.file.commit();
  std::fflush(stdout);
  if (!out.writer(STDOUT_FILENO)) return Result<bool>::failure("standard output: write failed");
  return true;
}

// ---- diagnostics ----

using report::node_place;

// "symshape CMD: FILE: error: node #2 'proj_out' (MatMul): MESSAGE" on
// stderr, one line per diagnostic.
inline void print_diagnostics(const char* cmd, const std::string& model_path, const Report& r) {
  for (const Diagnostic& d : r.diagnostics)
    std::fprintf(stderr, "symshape %s: %s\n", cmd, report::diagnostic_line(display_name(model_path), d).c_str());
}

// The types as the written file holds them.
using onnx::WrittenTypes;

}  // namespace symshape::cli
