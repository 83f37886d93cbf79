// Output files written safely (symshape::PendingFile): a temporary file beside the
// target, renamed over it only when everything was written; a symlink is
// written through (its target is replaced, the link stays); a special file
// (device, FIFO, anything under /dev or /proc) is written in place. Used by
// both model writers (save.hpp, splice.hpp). No protobuf here.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <utility>

#include "symshape/support/result.hpp"

namespace symshape {

// Where an output path is written.
struct OutputTarget {
  std::string path;           // as given
  std::string target;         // the file replaced: the end of the path's symlink chain
  bool exists = false;        // the target exists
  bool is_directory = false;  // the target is a directory (cannot be written)
  bool special = false;       // device, FIFO, socket, or under /dev or /proc: written in place
};

inline OutputTarget resolve_output(const std::string& path) {
  namespace fs = std::filesystem;
  OutputTarget t;
  t.path = t.target = path;
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).lexically_normal().string();
  const bool system_path = abs.rfind("/dev/", 0) == 0 || abs.rfind("/proc/", 0) == 0;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {  // follows symlinks
    t.exists = true;
    t.is_directory = S_ISDIR(st.st_mode);
    t.special = !t.is_directory && (!S_ISREG(st.st_mode) || system_path);
    if (!t.is_directory && !t.special)
      if (char* real = ::realpath(path.c_str(), nullptr)) {
        t.target = real;
        std::free(real);
      }
    return t;
  }
  // Absent, or a dangling symlink: the file to create is the end of the chain.
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code e;
    if (!fs::is_symlink(p, e)) break;
    const fs::path next = fs::read_symlink(p, e);
    if (e) break;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  t.target = p.lexically_normal().string();
  t.special = system_path;
  return t;
}

// Writes all of `data` to fd; false on a write error.
inline bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// An output file prepared but not yet in place. prepare() writes a regular
// target's content to a temporary file beside it (created with O_EXCL, the
// target's permissions when it exists); commit() renames it over the target.
// A special target is written in place by commit(). discard() (or the
// destructor) removes what prepare() made, so an abandoned output leaves the
// target exactly as it was (or absent).
class PendingFile {
 public:
  using Writer = std::function<bool(int fd)>;

  PendingFile() = default;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  PendingFile(PendingFile&& o) noexcept { *this = std::move(o); }
  PendingFile& operator=(PendingFile&& o) noexcept {
    if (this != &o) {
      discard();
      target_ = std::move(o.target_);
      tmp_ = std::move(o.tmp_);
      writer_ = std::move(o.writer_);
      o.tmp_.clear();
      o.writer_ = nullptr;
    }
    return *this;
  }
  ~PendingFile() { discard(); }

  const OutputTarget& target() const { return target_; }

  static Result<PendingFile> prepare(const std::string& path, Writer writer) {
    PendingFile f;
    f.target_ = resolve_output(path);
    if (f.target_.is_directory) return f.fail("is a directory (cannot rename a file over it)");
    if (f.target_.special) {
      f.writer_ = std::move(writer);
      return Result<PendingFile>(std::move(f));
    }
    const std::filesystem::path target(f.target_.target);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
      f.tmp_ = (dir / ("." + target.filename().string() + ".symshape-" + std::to_string(::getpid()) + "-" +
                       std::to_string(attempt)))
                   .string();
      fd = ::open(f.tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
      const int err = errno;
      const std::string tmp = f.tmp_;
      f.tmp_.clear();
      return f.fail("cannot write " + tmp + " (" + std::strerror(err) + ")");
    }
    struct stat st;
    bool ok = true;
    errno = 0;
    if (f.target_.exists && ::stat(f.target_.target.c_str(), &st) == 0) ok = ::fchmod(fd, st.st_mode & 07777) == 0;
    // No fsync, as cp and onnx.save: the rename makes the replacement atomic for
    // every reader; forcing the bytes to disk doubled the time of a large -o.
    ok = ok && writer(fd);
    const int err = errno;
    ok = ::close(fd) == 0 && ok;
    if (!ok) {
      const std::string tmp = f.tmp_;
      f.discard();
      return f.fail("writing " + tmp + " failed" + (err ? std::string(" (") + std::strerror(err) + ")" : ""));
    }
    return Result<PendingFile>(std::move(f));
  }

  // Puts the file in place; on failure the target is left as it was.
  Result<bool> commit() {
    if (writer_) {
      Writer w = std::move(writer_);
      writer_ = nullptr;
      const int fd = ::open(target_.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd < 0)
        return Result<bool>::failure(message("cannot open for writing (" + std::string(std::strerror(errno)) + ")"));
      const bool ok = w(fd);
      const int err = errno;
      if (!(::close(fd) == 0 && ok))
        return Result<bool>::failure(
            message("write failed" + (err ? " (" + std::string(std::strerror(err)) + ")" : "")));
      return true;
    }
    if (tmp_.empty()) return Result<bool>::failure(message("nothing to commit"));
    if (std::rename(tmp_.c_str(), target_.target.c_str()) != 0) {
      const int err = errno;
      const std::string tmp = tmp_;
      discard();
      return Result<bool>::failure(message("cannot rename " + tmp + " (" + std::strerror(err) + ")"));
    }
    tmp_.clear();
    return true;
  }

  void discard() {
    if (!tmp_.empty()) std::remove(tmp_.c_str());
    tmp_.clear();
    writer_ = nullptr;
  }

 private:
  OutputTarget target_;
  std::string tmp_;  // the temporary file, while there is one
  Writer writer_;    // a special target's content, written by commit()

  std::string message(const std::string& what) const { return "file " + target_.path + ": " + what; }
  Result<PendingFile> fail(const std::string& what) const { return Result<PendingFile>::failure(message(what)); }
};

// A Writer of bytes.
inline PendingFile::Writer bytes_writer(std::string bytes) {
  return [bytes = std::move(bytes)](int fd) { return write_all(fd, bytes.data(), bytes.size()); };
}

}  // namespace symshape
