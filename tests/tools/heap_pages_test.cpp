// The command's heap in transparent huge pages (tools/symshape/heap_pages.hpp):
// every 2 MiB of the advised range that the program fills is one huge page,
// wherever the heap happens to start. Each case runs in a child process (the
// advice is given once per process), with the heap's top placed at a chosen
// distance below a 2 MiB boundary; a range touched before the advice (glibc
// writes the header of the heap's top there) would stay in 4 KiB pages.
#include "heap_pages.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "symshape/support/sanitizers.hpp"

namespace {

constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;

bool huge_pages_on_request() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(f, line) && line.find("[never]") == std::string::npos;
}

struct Mapping {
  std::uintptr_t begin = 0, end = 0;
  long rss_kib = 0, huge_kib = 0;
  bool eligible = false;
};

// The mappings of this process as /proc/self/smaps lists them.
std::vector<Mapping> mappings() {
  std::vector<Mapping> out;
  std::ifstream f("/proc/self/smaps");
  std::string line;
  while (std::getline(f, line)) {
    unsigned long lo = 0, hi = 0;
    long kib = 0;
    int eligible = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      out.push_back({lo, hi});
    } else if (!out.empty() && std::sscanf(line.c_str(), "Rss: %ld kB", &kib) == 1) {
      out.back().rss_kib = kib;
    } else if (!out.empty() && std::sscanf(line.c_str(), "AnonHugePages: %ld kB", &kib) == 1) {
      out.back().huge_kib = kib;
    } else if (!out.empty() && std::sscanf(line.c_str(), "THPeligible: %d", &eligible) == 1) {
      out.back().eligible = eligible == 1;
    }
  }
  return out;
}

// In the child: puts the start of the heap's top `below` bytes under a 2 MiB
// boundary, gives the advice, fills 8 MiB in small blocks, and exits 0 when
// the advised mapping holding them is all huge pages (else prints why, exit 1).
[[noreturn]] void fill_after_advice(std::uintptr_t below) {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // the padding below comes from the heap
  void* probe = std::malloc(64);
  const auto top = reinterpret_cast<std::uintptr_t>(probe) + 64;
  std::uintptr_t target = ((top + 2 * kHuge) & ~(kHuge - 1)) - below;
  void* pad = std::malloc((target - top) & ~std::uintptr_t{15});
  if (!pad) std::_Exit(2);
  symshape::cli::heap_in_huge_pages(std::size_t{64} << 20);
  std::vector<char*> blocks;
  blocks.reserve(1 << 17);
  for (int i = 0; i < (1 << 17); ++i) {
    char* b = static_cast<char*>(std::malloc(64));
    std::memset(b, 1, 64);
    blocks.push_back(b);
  }
  const auto mid = reinterpret_cast<std::uintptr_t>(blocks[blocks.size() / 2]);
  for (const Mapping& m : mappings()) {
    if (mid < m.begin || mid >= m.end) continue;
    if (!m.eligible) {
      std::fprintf(stderr, "the blocks' mapping is not advised for huge pages\n");
      std::_Exit(1);
    }
    if (m.rss_kib < 8 * 1024 || m.huge_kib != m.rss_kib) {
      std::fprintf(stderr, "%ld kB resident, %ld kB of it in huge pages\n", m.rss_kib, m.huge_kib);
      std::_Exit(1);
    }
    std::_Exit(0);
  }
  std::fprintf(stderr, "no mapping holds the blocks\n");
  std::_Exit(1);
}

TEST(HeapPages, FilledRangeIsHugePagesWhereverTheHeapStarts) {
  if (SYMSHAPE_ADDRESS_SANITIZER) GTEST_SKIP() << "the sanitizer's allocator replaces glibc's heap: no advice is given";
  if (!huge_pages_on_request()) GTEST_SKIP() << "transparent huge pages are off on this machine ([never])";
  // Distances of the heap's top below a 2 MiB boundary: less than the 1 MiB
  // block the advice starts with (the case that left 2 MiB in small pages),
  // about that block, and more.
  for (std::uintptr_t below :
       {std::uintptr_t{16} << 10, std::uintptr_t{256} << 10, std::uintptr_t{768} << 10,
        (std::uintptr_t{1} << 20) - 4096, (std::uintptr_t{1} << 20) + 4096, std::uintptr_t{1536} << 10}) {
    SCOPED_TRACE("heap top " + std::to_string(below >> 10) + " KiB below a 2 MiB boundary");
    EXPECT_EXIT(fill_after_advice(below), testing::ExitedWithCode(0), "");
  }
}

}  // namespace
