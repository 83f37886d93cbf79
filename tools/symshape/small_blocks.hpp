// The command's small blocks: the store behind its operator new
// (small_blocks.cpp) for blocks of at most kLargestSmall bytes.
//
// Loading a model builds its IR out of a few allocations per node (long
// names, attribute lists, shapes, propagated values), and inference makes
// more; most of them live until the process ends. glibc's malloc spent
// about 200 instructions on each of these blocks (carving most of them from
// the heap's top) and free about 85 (docs/benchmarks.md, "Sixth round").
// Here a block comes off the free list of its size class (multiples of
// kGranule) or is cut from the current slab of that class, with no header.
//
// Slabs (kSlabBytes, one size class each) are cut from batches that malloc
// gives (kBatchSlabs slabs, aligned to a slab), so small blocks fill the room
// that freed large blocks leave in the heap, as malloc's own small blocks
// would, and share its huge pages (heap_pages.hpp). A block's class is its
// slab's, found from its address in a table of the kWindows slab-sized
// windows around the first batch, so a block is freed without its size.
// Larger blocks, and every block once a batch falls outside the windows, go
// to malloc; a pointer whose window holds no slab is malloc's.
//
// The command starts them (start_small_blocks) once its heap is set up for a
// model: until then, and in a program without small_blocks.cpp, operator new
// is malloc. Only the thread that started them allocates and frees small
// blocks (the command has no other); owns() may be asked from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace symshape::cli {

class SmallBlocks {
 public:
  // Where batches come from and go back to (only when one is refused): the
  // heap, or a test's own.
  struct BatchSource {
    void* (*take)(std::size_t alignment, std::size_t bytes);
    void (*give_back)(void* batch);
  };
  static void* heap_batch(std::size_t alignment, std::size_t bytes) { return std::aligned_alloc(alignment, bytes); }
  static void free_batch(void* batch) { std::free(batch); }
  constexpr SmallBlocks() = default;
  constexpr explicit SmallBlocks(BatchSource source) : source_(source) {}

  static constexpr std::size_t kGranule = 16;  // operator new's alignment on x86-64 and AArch64
  static constexpr std::size_t kLargestSmall = 512;
  static constexpr std::size_t kClasses = kLargestSmall / kGranule;
  static constexpr std::size_t kSlabBytes = std::size_t{32} << 10;
  static constexpr std::size_t kBatchSlabs = 32;  // 1 MiB: at most one slab of room lost to the alignment
  // The windows start kWindowsBelow below the first batch (a later batch may
  // take a hole of the heap below it) and span 4 GiB.
  static constexpr std::size_t kWindows = std::size_t{1} << 17;
  static constexpr std::uintptr_t kWindowsBelow = std::uintptr_t{256} << 20;

  // A block of `size` bytes, aligned to kGranule; nullptr when it is not a
  // small block or no slab can be had (the caller then uses malloc).
  void* allocate(std::size_t size) {
    if (size > kLargestSmall) return nullptr;
    const std::size_t c = size == 0 ? 0 : (size - 1) / kGranule;
    if (FreeBlock* block = free_[c]) {
      free_[c] = block->next;
      return block;
    }
    const std::size_t block_bytes = (c + 1) * kGranule;
    if (static_cast<std::size_t>(cut_end_[c] - cut_[c]) < block_bytes && !new_slab(c)) return nullptr;
    void* block = cut_[c];
    cut_[c] += block_bytes;
    return block;
  }

  // Whether p lies in a slab (a block of allocate(), freed or not).
  bool owns(const void* p) const {
    const std::size_t w = window(p);
    return w < kWindows && window_class_[w] != 0;
  }

  // Frees a block that owns(p).
  void release(void* p) {
    const std::size_t c = window_class_[window(p)] - 1u;
    free_[c] = new (p) FreeBlock{free_[c]};
  }

  std::size_t slabs() const { return slabs_; }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  std::size_t window(const void* p) const {
    // (an address below the windows wraps to a large value)
    return (reinterpret_cast<std::uintptr_t>(p) - windows_begin_.load(std::memory_order_relaxed)) / kSlabBytes;
  }
  bool new_slab(std::size_t c) {
    if (batch_next_ == batch_end_ && !new_batch()) return false;
    window_class_[window(batch_next_)] = static_cast<uint8_t>(c + 1);
    cut_[c] = batch_next_;
    cut_end_[c] = batch_next_ + kSlabBytes;
    batch_next_ += kSlabBytes;
    ++slabs_;
    return true;
  }
  bool new_batch() {
    if (no_more_batches_) return false;
    char* batch = static_cast<char*>(source_.take(kSlabBytes, kSlabBytes * kBatchSlabs));
    if (!batch) return false;
    if (slabs_ == 0) {
      const auto at = reinterpret_cast<std::uintptr_t>(batch);
      windows_begin_.store(at > kWindowsBelow ? at - kWindowsBelow : 0, std::memory_order_relaxed);
    }
    if (window(batch) >= kWindows || window(batch + kSlabBytes * kBatchSlabs - 1) >= kWindows) {
      source_.give_back(batch);  // from now on malloc serves every block
      no_more_batches_ = true;
      return false;
    }
    batch_next_ = batch;
    batch_end_ = batch + kSlabBytes * kBatchSlabs;
    return true;
  }

  BatchSource source_ = {&heap_batch, &free_batch};
  std::atomic<std::uintptr_t> windows_begin_{0};
  std::size_t slabs_ = 0;
  bool no_more_batches_ = false;
  char* batch_next_ = nullptr;  // the current batch's next slab and end
  char* batch_end_ = nullptr;
  FreeBlock* free_[kClasses] = {};
  char* cut_[kClasses] = {};  // the current slab's next block and end, per class
  char* cut_end_[kClasses] = {};
  uint8_t window_class_[kWindows] = {};  // class + 1 of the slab in each window; 0: none
  static_assert(kClasses < 256, "a class fits in a byte");
};

// Read by small_blocks.cpp's operator new, where the program has it: whether
// this thread is the one that started the small blocks. A later start from
// another thread does nothing, so one thread uses the store.
inline std::atomic<bool> small_blocks_taken{false};
inline thread_local bool small_blocks_here = false;
inline void start_small_blocks() {
  if (!small_blocks_taken.exchange(true)) small_blocks_here = true;
}

}  // namespace symshape::cli
