// The store of the command's small blocks (tools/symshape/small_blocks.hpp):
// blocks of every small size are aligned, disjoint and owned; a freed block
// goes back to its own size class only; large blocks and foreign pointers
// are not its own.
#include "small_blocks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace {

using symshape::cli::SmallBlocks;

// Batches cut in turn from one arena per test, freed when the test ends (the
// command's come from malloc's heap and are never freed: its blocks live
// until the process ends).
constexpr std::size_t kArenaBatches = 8;
char* g_arena = nullptr;
std::size_t g_batches = 0;  // taken from the arena
void* take_batch(std::size_t alignment, std::size_t bytes) {
  EXPECT_EQ(alignment, SmallBlocks::kSlabBytes);
  EXPECT_EQ(bytes, SmallBlocks::kSlabBytes * SmallBlocks::kBatchSlabs);
  return g_batches < kArenaBatches ? g_arena + bytes * g_batches++ : nullptr;
}
std::vector<void*> g_given_back;
void give_back_batch(void* batch) { g_given_back.push_back(batch); }

class SmallBlocksTest : public testing::Test {
 protected:
  void SetUp() override {
    g_arena = static_cast<char*>(std::aligned_alloc(
        SmallBlocks::kSlabBytes, kArenaBatches * SmallBlocks::kSlabBytes * SmallBlocks::kBatchSlabs));
    ASSERT_NE(g_arena, nullptr);
    g_batches = 0;
    g_given_back.clear();
  }
  void TearDown() override { std::free(g_arena); }
  std::unique_ptr<SmallBlocks> blocks =
      std::make_unique<SmallBlocks>(SmallBlocks::BatchSource{&take_batch, &give_back_batch});
};

std::size_t class_bytes(std::size_t size) {
  return size == 0 ? SmallBlocks::kGranule
                   : (size + SmallBlocks::kGranule - 1) / SmallBlocks::kGranule * SmallBlocks::kGranule;
}

TEST_F(SmallBlocksTest, EverySizeGetsAlignedDisjointBlocksItOwns) {
  struct Given {
    std::uintptr_t at;
    std::size_t bytes;
    unsigned char fill;
  };
  std::vector<Given> given;
  for (std::size_t size = 0; size <= SmallBlocks::kLargestSmall; ++size)
    for (int copy = 0; copy < 3; ++copy) {
      void* p = blocks->allocate(size);
      ASSERT_NE(p, nullptr) << size;
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % SmallBlocks::kGranule, 0u) << size;
      EXPECT_TRUE(blocks->owns(p)) << size;
      const auto fill = static_cast<unsigned char>(given.size());
      std::memset(p, fill, class_bytes(size));  // the whole class's room is the block's
      given.push_back({reinterpret_cast<std::uintptr_t>(p), class_bytes(size), fill});
    }
  for (const Given& g : given)  // nothing written over another block
    for (std::size_t i = 0; i < g.bytes; ++i)
      ASSERT_EQ(reinterpret_cast<const unsigned char*>(g.at)[i], g.fill) << "block at " << g.at;
  std::sort(given.begin(), given.end(), [](const Given& a, const Given& b) { return a.at < b.at; });
  for (std::size_t i = 1; i < given.size(); ++i) EXPECT_LE(given[i - 1].at + given[i - 1].bytes, given[i].at);
}

TEST_F(SmallBlocksTest, FreedBlockGoesBackToItsClassOnly) {
  void* a = blocks->allocate(40);  // class of 33-48 bytes
  blocks->release(a);
  EXPECT_NE(blocks->allocate(32), a);  // another class
  EXPECT_NE(blocks->allocate(49), a);
  void* b = blocks->allocate(33);
  EXPECT_EQ(b, a);
  EXPECT_NE(blocks->allocate(48), a);  // taken again: not handed out twice
  blocks->release(b);
  EXPECT_EQ(blocks->allocate(48), a);
}

TEST_F(SmallBlocksTest, LargeBlocksAndForeignPointersAreNotItsOwn) {
  EXPECT_EQ(blocks->allocate(SmallBlocks::kLargestSmall + 1), nullptr);
  void* small = blocks->allocate(SmallBlocks::kLargestSmall);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(blocks->owns(small));
  std::unique_ptr<char[]> large(new char[1 << 20]);
  int on_stack = 0;
  EXPECT_FALSE(blocks->owns(large.get()));
  EXPECT_FALSE(blocks->owns(&on_stack));
  EXPECT_FALSE(blocks->owns(nullptr));
  EXPECT_FALSE(blocks->owns(blocks.get()));
}

TEST_F(SmallBlocksTest, FreedBlocksAreReusedBeforeNewSlabs) {
  constexpr std::size_t kCount = 200000;  // 3.2 MB of 16-byte blocks: several batches
  std::vector<void*> first(kCount);
  for (void*& p : first) {
    p = blocks->allocate(16);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(blocks->owns(p));
  }
  const std::size_t slabs = blocks->slabs();
  EXPECT_GE(slabs, kCount * 16 / SmallBlocks::kSlabBytes);
  EXPECT_GT(slabs, SmallBlocks::kBatchSlabs);  // more than one batch
  EXPECT_EQ(g_batches, (slabs + SmallBlocks::kBatchSlabs - 1) / SmallBlocks::kBatchSlabs);
  for (void* p : first) blocks->release(p);
  std::vector<void*> second(kCount);
  for (void*& p : second) p = blocks->allocate(1);
  EXPECT_EQ(blocks->slabs(), slabs);
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  EXPECT_EQ(first, second);
}

// A batch beyond the windows' 4 GiB (an address only: the store gives it
// back before touching it) ends the slabs: new blocks are malloc's, freed ones
// are still reused.
char* far_batch() {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(g_arena) + (std::uintptr_t{8} << 30));
}
void* take_then_far_batch(std::size_t alignment, std::size_t bytes) {
  if (g_batches == 0) return take_batch(alignment, bytes);
  return far_batch();
}

TEST_F(SmallBlocksTest, BatchOutsideTheWindowsEndsTheSlabs) {
  blocks = std::make_unique<SmallBlocks>(SmallBlocks::BatchSource{&take_then_far_batch, &give_back_batch});
  std::vector<void*> given;
  while (void* p = blocks->allocate(16)) given.push_back(p);
  EXPECT_EQ(given.size(), SmallBlocks::kBatchSlabs * SmallBlocks::kSlabBytes / 16);  // the first batch, whole
  ASSERT_EQ(g_given_back.size(), 1u);
  EXPECT_EQ(g_given_back[0], far_batch());
  EXPECT_FALSE(blocks->owns(g_given_back[0]));
  EXPECT_EQ(blocks->allocate(100), nullptr);  // a class with no slab yet
  blocks->release(given.back());
  EXPECT_EQ(blocks->allocate(16), given.back());
  EXPECT_EQ(g_given_back.size(), 1u);  // no batch asked for again
}

}  // namespace
