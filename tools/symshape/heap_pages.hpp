// The command's heap in transparent huge pages, before it loads a model.
//
// Loading builds the IR out of millions of small allocations, and each new
// 4 KiB page of the heap they fill costs a page fault. On a virtual machine a
// fault costs 5-20 us: on a 10,000-node graph the faults took about a third of
// the whole run, on a 100,000-node graph half of it. With the heap in 2 MiB
// pages a fault maps 512 times as much. Linux gives anonymous memory huge
// pages where the program asks for them with madvise(MADV_HUGEPAGE) when
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise" (the usual
// default) or "always"; with "never" the call changes nothing.
//
// glibc's heap grows by sbrk: the command makes it grow once by a reserve (as
// address space, nothing touched), asks for huge pages on that range, and
// puts glibc's growth step back. Only the address space the heap takes is
// larger; memory is counted as it is touched, in 2 MiB steps. Other C
// libraries, and allocators that replace malloc (the sanitizers'), are left
// as they are.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace symshape::cli {

// The heap room for a model of `file_bytes`: its IR takes up to about 9
// bytes per byte of a weight-free file (the 1M-node chain: 61 MB, 500 MiB),
// within [64 MiB, min(1 GiB, a quarter of the memory)].
inline std::size_t heap_reserve_for(std::size_t file_bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  std::size_t most = 1024 * kMiB;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    most = std::min(most, static_cast<std::size_t>(pages) / 4 * static_cast<std::size_t>(page));
  const std::size_t want = file_bytes > most / 16 ? most : file_bytes * 16;
  return std::max(want, std::min(64 * kMiB, most));
}

// Once per process; does nothing where it cannot apply.
inline void heap_in_huge_pages(std::size_t reserve) {
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE) && defined(M_TOP_PAD)
  static bool done = false;
  if (done || reserve == 0 || reserve > static_cast<std::size_t>(INT32_MAX)) return;
  done = true;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  constexpr int kDefaultTopPad = 128 * 1024;  // glibc's M_TOP_PAD
  constexpr int kLargestFromHeap = 32 << 20;  // glibc's largest M_MMAP_THRESHOLD
  // Blocks up to 32 MiB come from the heap (the IR's pools and indexes too),
  // not from mmaps of their own outside the range; and free() never gives
  // the top of the heap back, which would take the range's advice with it.
  mallopt(M_MMAP_THRESHOLD, kLargestFromHeap);
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  constexpr std::size_t kFirst = std::size_t{1} << 20;
  void* first = std::malloc(kFirst);  // more than the heap has left: it grows by the reserve
  mallopt(M_TOP_PAD, kDefaultTopPad);
  if (!first) return;
  const auto at = reinterpret_cast<std::uintptr_t>(first);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // Only when the block is the heap's (not a replacement allocator's).
  if (!(at < end && end - at <= reserve + (std::uintptr_t{2} << 20))) return std::free(first);
  // The advice starts at the first 2 MiB boundary past the block's end, not
  // past its start: glibc has already written the header of the heap's top
  // just after the block, and a 2 MiB range touched before the advice stays in
  // 4 KiB pages (512 faults more: half of the runs of a small model took twice
  // as long, as the heap's start, which varies from run to run, fell).
  const std::uintptr_t after_first = at + kFirst + 64;
  const std::uintptr_t begin = (after_first + kHuge - 1) & ~(kHuge - 1), stop = end & ~(kHuge - 1);
  if (stop <= begin || madvise(reinterpret_cast<void*>(begin), stop - begin, MADV_HUGEPAGE) != 0)
    return std::free(first);
  std::free(first);
  // The next blocks would come from `at` on, in small pages up to `begin`:
  // one block kept to the end (address space, never touched) takes that room.
  [[maybe_unused]] static void* below_huge_pages = nullptr;
  if (begin - at > 64) below_huge_pages = std::malloc(begin - at - 32);
#else
  (void)reserve;
#endif
}

}  // namespace symshape::cli
