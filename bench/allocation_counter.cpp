// Replacement operator new/delete that count heap allocations, for the
// allocs_per_node counter of infer_bench. In a TU of its own: GCC 12 reports
// a false -Wmismatched-new-delete when it sees the replacements inlined into
// their callers.
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
std::size_t g_allocations = 0;  // the benchmarks are single-threaded
}

std::size_t allocation_count() { return g_allocations; }

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
