// The command's operator new and delete: blocks of at most
// SmallBlocks::kLargestSmall bytes from SmallBlocks (small_blocks.hpp), the
// others from malloc. Under the sanitizers that bring their own (Address,
// Thread, Memory) they are not replaced: ASan's is what sees every use of
// freed memory.
#include "small_blocks.hpp"

#include <cstdlib>
#include <new>

#include "symshape/support/sanitizers.hpp"

#if !SYMSHAPE_SANITIZER_OPERATOR_NEW

namespace {

using symshape::cli::SmallBlocks;

SmallBlocks g_blocks;  // constant-initialised: ready before any constructor runs

void* allocate(std::size_t size) {
  if (symshape::cli::small_blocks_here)
    if (void* p = g_blocks.allocate(size)) return p;
  for (;;) {
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    std::new_handler handler = std::get_new_handler();
#if defined(__cpp_exceptions)
    if (!handler) throw std::bad_alloc();
#else
    if (!handler) std::abort();
#endif
    handler();
  }
}

void release(void* p) noexcept {
  if (!g_blocks.owns(p)) return std::free(p);
  if (symshape::cli::small_blocks_here) g_blocks.release(p);  // (another thread's free leaves the block unused)
}

}  // namespace

// libstdc++'s array and nothrow forms call these.
void* operator new(std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }

#endif
