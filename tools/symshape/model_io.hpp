// What `symshape infer` and `symshape show` share around the inference:
// reading the model (a file or "-", standard input) as bytes, checking and
// writing the outputs (-o, --json; "-" is standard output; -o is spliced from
// the input's bytes, splice.hpp), locating the node of a diagnostic (name, op
// type, index, enclosing subgraph or function), and the types as the written
// file holds them.
#pragma once

#include <fcntl.h>
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
#include "symshape/onnx/load.hpp"
#include "symshape/onnx/splice_writer.hpp"
#include "symshape/support/name_index.hpp"
#include "symshape/support/output_file.hpp"
#include "symshape/symshape.hpp"

namespace symshape::cli {

// ---- the model ----

// How a model path is named in messages: "-" is standard input.
inline std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

// The folder relative external-data locations of the model at `path` are
// resolved from ("-": the current directory).
inline std::string model_dir(const std::string& path) {
  if (path == "-") return ".";
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

// The model file's bytes (symshape::MappedFile: mapped, or read for standard input
// and streams) and, when they are mapped, the file's descriptor, from which
// the writer copies unchanged ranges with copy_file_range.
class InputFile {
 public:
  InputFile() = default;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  // Opens `path` ("-": standard input); failure names the file as the loader does.
  Result<bool> open(const std::string& path) {
    path_ = path;
    if (path == "-") return adopt(symshape::MappedFile::from_fd(STDIN_FILENO, display_name(path)));
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return Result<bool>::failure("file " + path + ": is a directory, not an ONNX model");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return Result<bool>::failure("file " + path + ": cannot open for reading");
    Result<bool> r = adopt(symshape::MappedFile::from_fd(fd_, path));
    if (!file_.mapped()) {  // read, not mapped (a FIFO, a device): no kernel copies from it
      ::close(fd_);
      fd_ = -1;
    }
    return r;
  }

  std::string_view bytes() const { return file_.bytes(); }
  void release_pages() const { file_.release_pages(); }
  int fd() const { return fd_; }
  // The model's external tensors and their data files, found on the first
  // call (a walk over every tensor of the file).
  const onnx::ExternalData& external_data() const {
    if (!external_) external_ = onnx::external_data(bytes(), model_dir(path_));
    return *external_;
  }

 private:
  int fd_ = -1;
  symshape::MappedFile file_;
  std::string path_;
  mutable std::optional<onnx::ExternalData> external_;

  Result<bool> adopt(Result<symshape::MappedFile> f) {
    if (!f) return Result<bool>::failure(f.error());
    file_ = std::move(f.value());
    return true;
  }
};

// Loads MODEL (a file or "-") into `input` (its bytes) and `model`; false
// after printing the one-line error (exit 1).
inline bool load(const char* cmd, const std::string& path, InputFile& input, Model& model) {
  Result<bool> opened = input.open(path);
  if (!opened) {
    fatal(cmd, opened.error());
    return false;
  }
  Result<Model> m = onnx::load_model_bytes(input.bytes(), display_name(path));
  if (!m) {
    fatal(cmd, m.error());
    return false;
  }
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

// ---- where a diagnostic is ----

// The place of a diagnostic's or contract's node: the engine's (`where`:
// "node #2 'proj_out' (MatMul)", with the subgraph or function around it),
// else "node 'name' (Op)" from the name and op type alone; empty when there
// is no node.
inline std::string node_place(const std::string& where, const std::string& node, const std::string& op_type) {
  if (!where.empty() || (node.empty() && op_type.empty())) return where;
  return "node '" + node + "' (" + op_type + ")";
}

// "symshape CMD: FILE: error: node #2 'proj_out' (MatMul): MESSAGE" on
// stderr, one line per diagnostic.
inline void print_diagnostics(const char* cmd, const std::string& model_path, const Report& r) {
  for (const Diagnostic& d : r.diagnostics) {
    const std::string where = node_place(d.where, d.node, d.op_type);
    std::fprintf(stderr, "symshape %s: %s: %s: %s%s\n", cmd, one_line(display_name(model_path)).c_str(),
                 d.severity == Severity::Error ? "error" : "warning",
                 where.empty() ? "" : one_line(where + ": ").c_str(), one_line(d.message).c_str());
  }
}

// ---- types as the written file holds them ----

// The types of the main graph's values as the written file holds them after
// the splice's write_types (graph inputs, value_info, graph outputs): what
// `infer -o` writes and what the summary, the JSON report and `show` print.
// A value the writer could not write (e.g. a tensor whose element type stayed
// undefined after an upstream error) keeps what the file had, or is unknown.
class WrittenTypes {
 public:
  // Indexes the entries (a later entry of a name wins, as graph outputs come
  // last), which must outlive it; types are decoded when asked for, so a
  // summary of a large graph builds no Type it does not print. Most node
  // outputs have no entry (their types are written as the IR has them).
  explicit WrittenTypes(const std::vector<onnx::WrittenValueInfo>& infos) {
    index_.reserve(infos.size());
    for (const onnx::WrittenValueInfo& w : infos) {
      // An entry the file had (the loader has read it: it is well formed)
      // counts when it has a type.
      if (!w.rewritten &&
          !onnx::view::decode<onnx::view::ValueInfoView>(onnx::view::msg_of(span_of(w.input))).type.present)
        continue;
      index_.assign(&w);
    }
  }
  // An initializer that is no graph input has no TypeProto: its type comes
  // from its dims, as the IR has it. v: a value of the main graph.
  Type of(const Value& v) const {
    const Entry* e = find(v);
    if (!e && onnx::writes_value_info(v)) return v.type;  // no entry: written as the IR has it
    if (!e) return v.initializer && !v.is_graph_input ? v.type : Type();
    if (e->rewritten) {
      Result<Type> t = onnx::type_from_bytes(e->type, v.name);
      return t ? *t : Type();
    }
    const auto info = onnx::view::decode<onnx::view::ValueInfoView>(onnx::view::msg_of(span_of(e->input)));
    Result<Type> t = onnx::detail::type_from_view_named(info.type, [&] { return v.name; });
    return t ? *t : Type();
  }
  // Whether of(v) is known: a tensor with a rank, or another type that is
  // not unknown. A tensor's TypeProto is read without parsing its dims.
  bool known(const Value& v) const {
    if (onnx::writes_value_info(v)) return is_known(v.type);  // written as the IR has it
    const Entry* e = find(v);
    if (!e) return is_known(of(v));
    const auto type = onnx::view::decode<onnx::view::TypeView>(type_proto(*e));
    if (type.member != 1 && type.member != 8) return is_known(of(v));  // not tensor_type or sparse_tensor_type
    const auto t = onnx::view::decode<onnx::view::TensorTypeView>(type.value);
    return is_valid_data_type(t.elem_type) && t.shape.present;
  }
  static bool is_known(const Type& t) { return t.is_tensor_like() ? t.shape().has_rank() : !t.is_unknown(); }

 private:
  using Entry = onnx::WrittenValueInfo;  // the new TypeProto (rewritten), or the file's ValueInfoProto
  NameIndex<const Entry> index_;

  static onnx::wire::Span span_of(std::string_view b) { return {b.data(), b.data() + b.size()}; }
  const Entry* find(const Value& v) const { return index_.find(v.name); }
  static onnx::view::Msg type_proto(const Entry& e) {
    if (e.rewritten) return onnx::view::msg_of(span_of(e.type));
    return onnx::view::decode<onnx::view::ValueInfoView>(onnx::view::msg_of(span_of(e.input))).type;
  }
};

}  // namespace symshape::cli
