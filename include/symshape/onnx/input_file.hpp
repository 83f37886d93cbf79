// A model file's bytes as the readers and the splicing writer take them
// (`symshape infer`, `show`, `profile`, and the Python package's
// infer_symbolic_shapes on a path): mapped when the file can be, with its
// descriptor, from which the writer copies unchanged ranges.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "symshape/onnx/segment_reader.hpp"  // external_data
#include "symshape/support/mapped_file.hpp"
#include "symshape/support/result.hpp"

namespace symshape::onnx {

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
  void release_pages_before(std::size_t offset) const { file_.release_pages_before(offset); }
  int fd() const { return fd_; }
  // The model's external tensors and their data files, found on the first
  // call (a walk over every tensor of the file).
  const ExternalData& external_data() const {
    if (!external_) external_ = onnx::external_data(bytes(), model_dir(path_));
    return *external_;
  }
  // Known without the walk: no tensor of the file has external data (as
  // load_model_bytes can tell).
  void set_no_external_tensors() { external_ = ExternalData{}; }

 private:
  int fd_ = -1;
  symshape::MappedFile file_;
  std::string path_;
  mutable std::optional<ExternalData> external_;

  Result<bool> adopt(Result<symshape::MappedFile> f) {
    if (!f) return Result<bool>::failure(f.error());
    file_ = std::move(f.value());
    return true;
  }
};

}  // namespace symshape::onnx
