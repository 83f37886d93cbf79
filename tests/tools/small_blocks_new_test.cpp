// The command's operator new and delete (tools/symshape/small_blocks.cpp,
// linked into this test as into the command): before and after
// start_small_blocks, blocks of every size keep their contents, whichever
// side made them is freed by the other, and a second thread (served by
// malloc) can free the first one's blocks and have its own freed by it.
// (Under a sanitizer with its own operator new small_blocks.cpp replaces
// nothing, and this checks the sanitizer's.)
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "small_blocks.hpp"

namespace {

// Strings of sizes 0..1200 (small and large blocks), each holding its index.
std::vector<std::string> make_strings(std::size_t count, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.emplace_back(random() % 1200, static_cast<char>('a' + i % 26));
  return out;
}

bool intact(const std::vector<std::string>& strings) {
  for (std::size_t i = 0; i < strings.size(); ++i)
    if (strings[i].find_first_not_of(static_cast<char>('a' + i % 26)) != std::string::npos) return false;
  return true;
}

TEST(SmallBlocksOperatorNew, BlocksKeepTheirContentsAcrossTheStart) {
  std::vector<std::string> before = make_strings(5000, 1);  // from malloc
  symshape::cli::start_small_blocks();
  std::vector<std::string> after = make_strings(50000, 2);
  EXPECT_TRUE(intact(before));
  EXPECT_TRUE(intact(after));
  std::mt19937 random(3);
  for (int round = 0; round < 5; ++round) {  // free half of each in any order, make more
    for (std::size_t i = 0; i < after.size(); i += 2) std::string().swap(after[(i + random()) % after.size()]);
    for (std::size_t i = 0; i < before.size(); i += 2) std::string().swap(before[(i + random()) % before.size()]);
    std::vector<std::string> more = make_strings(20000, 4 + round);
    EXPECT_TRUE(intact(more));
    after.insert(after.end(), more.begin(), more.end());
  }
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (!after[i].empty()) {
      ASSERT_EQ(after[i].find_first_not_of(after[i][0]), std::string::npos) << i;
    }
  }
  std::vector<std::unique_ptr<int[]>> arrays;  // the array forms, and size 0
  for (std::size_t n = 0; n < 300; ++n) arrays.emplace_back(new int[n]());
  for (std::size_t n = 0; n < arrays.size(); ++n) {
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(arrays[n][i], 0);
  }
}

TEST(SmallBlocksOperatorNew, AnotherThreadAllocatesAndFreesToo) {
  symshape::cli::start_small_blocks();
  std::vector<std::string> main_made = make_strings(20000, 7);
  std::vector<std::string> thread_made;
  EXPECT_TRUE(symshape::cli::small_blocks_here);
  bool worker_uses_them = true;
  std::thread worker([&] {
    symshape::cli::start_small_blocks();  // the store has its thread already
    worker_uses_them = symshape::cli::small_blocks_here;
    thread_made = make_strings(20000, 8);
    for (std::string& s : main_made) std::string().swap(s);  // frees what the main thread made
  });
  worker.join();
  EXPECT_FALSE(worker_uses_them);
  EXPECT_TRUE(intact(thread_made));
  thread_made.clear();  // the main thread frees what the worker made
  std::vector<std::string> again = make_strings(20000, 9);
  EXPECT_TRUE(intact(again));
}

}  // namespace
