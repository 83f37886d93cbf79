// How far a reader walking a file's bytes in order has got, told to whoever
// holds the bytes: the loader (onnx/load.hpp) and the splicing writer
// (onnx/splice_writer.hpp) report it as they walk the main graph's nodes, and
// the command lets the mapped pages before that point go
// (MappedFile::release_pages_before), so that a large file is not resident
// whole while the model's memory grows. Reports are spaced by `step` bytes:
// each costs a system call, and pages come back in that many at a time.
//
//   ReadProgress progress([&file](std::size_t offset) { file.release_pages_before(offset); });
//   for (...) progress.reached(offset_of_what_is_read_next);
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <utility>

namespace symshape {

class ReadProgress {
 public:
  // Called with the offset the reader has reached (never less than in the
  // previous call): the bytes before it will not be read again soon.
  using DoneBefore = std::function<void(std::size_t offset)>;
  // A few megabytes: few calls on a large file, and little of it resident.
  static constexpr std::size_t kDefaultStep = std::size_t{4} << 20;

  ReadProgress() = default;  // tells no one
  explicit ReadProgress(DoneBefore done_before, std::size_t step = kDefaultStep)
      : done_before_(std::move(done_before)), step_(step > 0 ? step : 1) {
    if (done_before_) next_ = step_;
  }

  // The reader is at `offset`: reported when that is `step` or more past the
  // last report. One comparison otherwise (it is called once per node).
  void reached(std::size_t offset) {
    if (offset < next_) return;
    next_ = offset + step_;
    done_before_(offset);
  }

 private:
  DoneBefore done_before_;
  std::size_t step_ = kDefaultStep;
  std::size_t next_ = std::numeric_limits<std::size_t>::max();  // the next offset to report at
};

}  // namespace symshape
