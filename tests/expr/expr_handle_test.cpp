// Expr as a handle: copies share one node, the node's count follows copies,
// moves and assignments, and a node lives exactly as long as its last handle
// (AddressSanitizer, in the sanitizer build, sees any early free or leak).
// Built twice: with plain counts, and with SYMSHAPE_ATOMIC_EXPR_COUNTS (the
// Python package's build).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "symshape/dim.hpp"
#include "symshape/expr.hpp"

namespace symshape {
namespace {

// One suite name per build, so that ctest names the two builds' tests apart.
#if SYMSHAPE_ATOMIC_EXPR_COUNTS
#define EXPR_HANDLE ExprHandleAtomicCounts
#else
#define EXPR_HANDLE ExprHandle
#endif

uint32_t count_of(const Expr& e) { return e.node() ? static_cast<uint32_t>(e.node()->refs.n) : 0; }

TEST(EXPR_HANDLE, CopiesShareTheNodeAndCountIt) {
  Expr e = Expr::symbol("handle_a") + Expr::symbol("handle_b");
  ASSERT_NE(e.node(), nullptr);
  EXPECT_EQ(count_of(e), 1u);
  {
    const Expr copy = e;
    EXPECT_EQ(copy.node(), e.node());
    EXPECT_EQ(count_of(e), 2u);
    std::vector<Expr> many(100, e);
    EXPECT_EQ(count_of(e), 102u);
  }
  EXPECT_EQ(count_of(e), 1u);
}

TEST(EXPR_HANDLE, MoveTransfersTheCountAndLeavesAnInteger) {
  Expr e = Expr::symbol("handle_a") * 3 + 1;
  const detail::Node* node = e.node();
  Expr moved = std::move(e);
  EXPECT_EQ(moved.node(), node);
  EXPECT_EQ(count_of(moved), 1u);
  EXPECT_TRUE(e.is_int());  // NOLINT(bugprone-use-after-move): a moved-from handle is an integer
  e = 7;                    // and usable again
  EXPECT_TRUE(e.is_int(7));
}

TEST(EXPR_HANDLE, AssigningAPartOfItselfKeepsThePartAlive) {
  // The only handle of the Max node is replaced by one of its arguments: the
  // argument must be counted before the Max node (and its argument list) goes.
  Expr e = max(Expr::symbol("handle_a") * Expr::symbol("handle_b"), Expr::symbol("handle_c") + 1);
  ASSERT_EQ(e.kind(), ExprKind::Max);
  const std::string first = to_string(e.args()[0]);
  e = e.args()[0];
  EXPECT_EQ(to_string(e), first);
  EXPECT_EQ(count_of(e), 1u);

  Expr sum = Expr::symbol("handle_a") * 5 + Expr::symbol("handle_b") * Expr::symbol("handle_c");
  Expr term = sum.terms()[0].first;
  const std::string term_text = to_string(term);
  sum = std::move(term);  // the sum was the term's other owner
  EXPECT_EQ(to_string(sum), term_text);
}

TEST(EXPR_HANDLE, SelfAssignmentChangesNothing) {
  Expr e = mod(Expr::symbol("handle_a"), 4);
  const detail::Node* node = e.node();
  Expr& alias = e;
  e = alias;
  EXPECT_EQ(e.node(), node);
  EXPECT_EQ(count_of(e), 1u);
  e = std::move(alias);
  EXPECT_EQ(e.node(), node);
  EXPECT_EQ(count_of(e), 1u);
}

TEST(EXPR_HANDLE, DeepExpressionsAreReleasedWithoutTrouble) {
  Expr e = Expr::symbol("handle_a");
  // Nothing to fold: no modulus divides the one before it (3, 5, 7, 9, 11, 3, ...).
  for (int i = 0; i < 200; ++i) e = mod(e + Expr::symbol("handle_b"), 3 + 2 * (i % 5));
  ASSERT_FALSE(e.is_error()) << e.name();
  EXPECT_GE(e.depth(), 400u);  // a Mod and an Add a level
  EXPECT_NE(count_of(e), 0u);
  e = 0;  // releases the whole chain, one level at a time
  EXPECT_TRUE(e.is_int(0));
}

// The blocks on one size class's list.
std::size_t list_length(const detail::RecycledBlocks& lists, std::size_t size_class) {
  std::size_t n = 0;
  for (const detail::RecycledBlocks::Slot* s = lists.head[size_class]; s; s = s->next) ++n;
  return n;
}

// A freed node's storage goes on its thread's list of the node's size class
// and the thread's next node takes it, as do the arrays of terms; the lists
// never hold more than kMaxRecycledBytes.
TEST(EXPR_HANDLE, FreedNodesAreRecycledUpToTheCap) {
  if (!SYMSHAPE_RECYCLE_NODES) GTEST_SKIP() << "nodes are not recycled under AddressSanitizer";
  detail::RecycledBlocks& lists = detail::recycled_blocks();
  lists.drain();  // room below the cap, whatever earlier tests left
  const std::size_t node_class = detail::RecycledBlocks::size_class(sizeof(detail::Node));
  Expr a = Expr::symbol("recycle_a") + Expr::symbol("recycle_b");
  const detail::Node* first = a.node();
  const std::pair<Expr, int64_t>* first_terms = a.terms().data();
  const std::size_t before = list_length(lists, node_class);
  a = 0;
  EXPECT_EQ(list_length(lists, node_class), before + 1);
  Expr b = Expr::symbol("recycle_a") * Expr::symbol("recycle_b");
  EXPECT_EQ(b.node(), first);
  EXPECT_EQ(b.terms().data(), first_terms);  // two (factor, exponent) pairs: the class of a's two terms
  EXPECT_EQ(list_length(lists, node_class), before);
  {
    std::vector<Expr> many;
    const std::size_t n = 2 * detail::kMaxRecycledBytes / sizeof(detail::Node);
    for (std::size_t i = 0; i < n; ++i) many.push_back(Expr::symbol("recycle_c") + static_cast<int64_t>(i));
  }
  EXPECT_LE(lists.bytes, detail::kMaxRecycledBytes);
  EXPECT_GT(lists.bytes + detail::kMaxRecycledBlock, detail::kMaxRecycledBytes);  // filled up to the cap
}

// Blocks larger than kMaxRecycledBlock go back to the heap, and a small
// array freed by one thread is taken by that thread's next array of its class.
TEST(EXPR_HANDLE, TermArraysAreRecycledBySizeClass) {
  if (!SYMSHAPE_RECYCLE_NODES) GTEST_SKIP() << "nothing is recycled under AddressSanitizer";
  detail::RecycledBlocks& lists = detail::recycled_blocks();
  lists.drain();  // room below the cap, whatever earlier tests left
  const void* freed = nullptr;
  {
    TermList t;
    t.reserve(3);  // 48 bytes
    freed = t.data();
  }
  TermList u;
  u.reserve(2);  // 32 bytes: another class
  EXPECT_NE(static_cast<const void*>(u.data()), freed);
  TermList v;
  v.reserve(3);
  EXPECT_EQ(static_cast<const void*>(v.data()), freed);
  const std::size_t held = lists.bytes;
  {
    ExprList big;
    big.reserve(detail::kMaxRecycledBlock / sizeof(Expr) + 1);
  }
  EXPECT_EQ(lists.bytes, held);
}

// A thread_local object built before its thread's first node was freed is
// destroyed after the list's guard: by then the list is closed and the
// nodes it frees go back to the heap (no use of a drained list).
std::atomic<int> g_late_holder_saw_closed{-1};
struct LateHolder {
  Expr held;
  ~LateHolder() {
    g_late_holder_saw_closed = detail::recycled_blocks().closed ? 1 : 0;
    held = 0;
  }
};

TEST(EXPR_HANDLE, NodesOutliveTheThreadsThatRecycledThem) {
  Expr shared = Expr::symbol("thread_x") + 1;
  std::thread worker([&shared] {
    thread_local LateHolder holder;
    holder.held = Expr::symbol("thread_y") * 3 + Expr::symbol("thread_z");
    for (int i = 0; i < 1000; ++i) {
      Expr t = floordiv(Expr::symbol("thread_y") + i, 7);  // built and freed here: recycled
      ASSERT_FALSE(t.is_error());
    }
    shared = shared * 2;  // this thread frees the old node; the new one outlives the thread
  });
  worker.join();
  EXPECT_EQ(to_string(shared), "2*thread_x+2");
  EXPECT_EQ(g_late_holder_saw_closed.load(), SYMSHAPE_RECYCLE_NODES ? 1 : 0);
}

// A handle is one word; an integer beyond 2^62 in magnitude takes a node of
// kind Integer, and every integer has one form, so equality, order and
// hashing do not depend on where a value came from.
TEST(EXPR_HANDLE, IntegersBeyondTheWordKeepTheirValue) {
  static_assert(sizeof(Expr) == 8 && sizeof(SymbolicDim) == 8, "one word a handle and a dim");
  const int64_t edge = (int64_t{1} << 62) - 1;  // the largest integer without a node
  const Expr small = edge;
  EXPECT_EQ(small.node(), nullptr);
  const Expr big = small + 1;
  ASSERT_NE(big.node(), nullptr);
  EXPECT_EQ(big.kind(), ExprKind::Integer);
  EXPECT_TRUE(big.is_int(edge + 1));
  EXPECT_EQ(big, Expr(edge + 1));
  EXPECT_EQ(big.hash(), Expr(edge + 1).hash());
  EXPECT_EQ(big - 1, small);  // back to the form without a node
  EXPECT_EQ((big - 1).node(), nullptr);
  EXPECT_LT(compare(small, big), 0);
  EXPECT_GT(compare(Expr(-edge - 1), Expr(INT64_MIN)), 0);
  for (const int64_t v : {INT64_MAX, INT64_MIN, -(int64_t{1} << 62), int64_t{1} << 62, int64_t{-1}, int64_t{0}}) {
    const Expr e = v;
    EXPECT_TRUE(e.is_int(v)) << v;
    EXPECT_EQ(e.as_int(), v);
    EXPECT_EQ(e.add_constant(), v);
    EXPECT_EQ(e.bounds().lo, v);
    EXPECT_EQ(e.hash(), Expr(v).hash());
  }
  EXPECT_EQ(to_string(Expr(INT64_MAX)), "9223372036854775807");
  EXPECT_EQ(to_string(Expr::symbol("handle_a") + INT64_MAX - INT64_MAX), "handle_a");
  EXPECT_TRUE((Expr(INT64_MAX) + 1).is_error());  // overflow, not a wrapped value
}

TEST(EXPR_HANDLE, AnUnknownDimIsNotTheIntegerZero) {
  const SymbolicDim unknown;
  const SymbolicDim zero = 0;
  EXPECT_TRUE(unknown.is_unknown());
  EXPECT_TRUE(zero.is_int(0));
  EXPECT_NE(unknown, zero);
  EXPECT_EQ(unknown, SymbolicDim());
  EXPECT_TRUE((unknown + zero).is_unknown());
  EXPECT_EQ(unknown.to_string(), "?");
  SymbolicDim copy = unknown;
  EXPECT_TRUE(copy.is_unknown());
  copy = SymbolicDim(Expr::symbol("handle_a"));
  EXPECT_EQ(copy.to_string(), "handle_a");
}

}  // namespace
}  // namespace symshape
