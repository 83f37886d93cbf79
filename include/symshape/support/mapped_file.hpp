// A file's bytes, read-only: mapped (mmap) for regular files, so that weight
// payloads are never copied and pages that are never looked at are never
// read; read into a buffer for everything else (pipes, terminals, "-" as
// standard input). The loader (load.hpp) and the writer read the same bytes.
//
//   Result<MappedFile> f = MappedFile::open("model.onnx");
//   if (!f) { puts(f.error().c_str()); return 1; }
//   std::string_view bytes = f->bytes();
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "symshape/support/result.hpp"

namespace symshape {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& o) noexcept { *this = std::move(o); }
  MappedFile& operator=(MappedFile&& o) noexcept {
    if (this != &o) {
      unmap();
      map_ = std::exchange(o.map_, nullptr);
      size_ = std::exchange(o.size_, 0);
      buffer_ = std::move(o.buffer_);
      o.buffer_.clear();
    }
    return *this;
  }
  ~MappedFile() { unmap(); }

  // Opens `path` ("-" is standard input); errors name the file as `name`
  // (the path by default), with the texts the loader has always used, and
  // say what a directory is not (`kind`).
  static Result<MappedFile> open(const std::string& path, const std::string& name, const char* kind = "an ONNX model") {
    if (path == "-") return from_fd(STDIN_FILENO, name, kind);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fail("file " + name + ": is a directory, not " + kind);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("file " + name + ": cannot open for reading");
    Result<MappedFile> f = from_fd(fd, name, kind);
    ::close(fd);
    return f;
  }
  static Result<MappedFile> open(const std::string& path) { return open(path, path); }

  // Reading stops past this many bytes (a stream such as /dev/zero never
  // ends): protobuf files are below 2 GB, and the loader refuses larger ones.
  static constexpr std::size_t kMaxReadBytes = std::size_t{1} << 31;

  // The bytes of an open descriptor (left open): mapped when it is a regular
  // file, else read to its end (or past kMaxReadBytes).
  static Result<MappedFile> from_fd(int fd, const std::string& name, const char* kind = "an ONNX model") {
    MappedFile f;
    struct stat st {};
    if (::fstat(fd, &st) != 0) return fail("file " + name + ": cannot open for reading");
    if (S_ISDIR(st.st_mode)) return fail("file " + name + ": is a directory, not " + kind);
    if (S_ISREG(st.st_mode) && st.st_size > 0 && ::lseek(fd, 0, SEEK_CUR) == 0) {
      void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_SEQUENTIAL);
        f.map_ = p;
        f.size_ = static_cast<std::size_t>(st.st_size);
        return Result<MappedFile>(std::move(f));
      }
    }
    if (!f.read_all(fd)) return fail("file " + name + ": read error");
    return Result<MappedFile>(std::move(f));
  }

  std::string_view bytes() const {
    return map_ ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(buffer_);
  }
  bool mapped() const { return map_ != nullptr; }
  // Drops the mapped pages from this process's memory (they stay in the page
  // cache): a later read of bytes() maps them again from the file, so the
  // bytes never change. For after the walks that will not come back soon
  // (the load, and the splice's reading of the graph): the pages would
  // otherwise count in the resident size until the end. A no-op for read bytes.
  void release_pages() const {
    if (map_) ::madvise(map_, size_, MADV_DONTNEED);
  }
  // The same for the pages wholly before `offset` (a reader is past them):
  // from the mapping's start, since pages released before may have been read
  // back in; the page that holds `offset` stays. A no-op for read bytes.
  void release_pages_before(std::size_t offset) const {
    if (!map_) return;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t end = std::min(offset, size_) / page * page;
    if (end > 0) ::madvise(map_, end, MADV_DONTNEED);
  }

 private:
  static Result<MappedFile> fail(std::string message) { return Result<MappedFile>::failure(std::move(message)); }

  bool read_all(int fd) {
    constexpr std::size_t kChunk = std::size_t{1} << 16;
    for (;;) {
      const std::size_t used = buffer_.size();
      if (used > kMaxReadBytes) return true;
      buffer_.resize(used + kChunk);
      const ssize_t got = ::read(fd, buffer_.data() + used, kChunk);
      if (got < 0 && errno == EINTR) {
        buffer_.resize(used);
        continue;
      }
      buffer_.resize(used + (got > 0 ? static_cast<std::size_t>(got) : 0));
      if (got <= 0) {
        buffer_.shrink_to_fit();
        return got == 0;
      }
    }
  }

  void unmap() {
    if (map_) ::munmap(map_, size_);
    map_ = nullptr;
    size_ = 0;
  }

  void* map_ = nullptr;  // the mapping, or null when the bytes are in buffer_
  std::size_t size_ = 0;
  std::string buffer_;
};

}  // namespace symshape
