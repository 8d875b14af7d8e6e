// warm_heap: the pages it writes stay in the process's heap, where the
// run's arrays are taken from.
#include "runtime/base/warm_heap.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <omp.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

namespace chatty {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kOwnMalloc = false;  // the sanitizers' allocators keep no glibc arenas
#else
constexpr bool kOwnMalloc = true;
#endif

TEST(WarmHeap, WrittenPagesServeTheNextAllocations) {
  if (!kOwnMalloc) GTEST_SKIP() << "a sanitizer's allocator";
  // As chatty's main: freed memory stays in the heap (for the rest of this
  // process; ctest runs each test in its own).
  keep_freed_memory();
  EXPECT_TRUE(freed_memory_kept());
  constexpr size_t kBytes = size_t(40) << 20;  // more than one block, a partial last one
  EXPECT_EQ(warm_heap(kBytes, size_t(1) << 20), kBytes);
  const struct mallinfo2 after = mallinfo2();
  EXPECT_GE(after.fordblks, kBytes) << "the written blocks went back to the system";
  // A run's arrays of up to a block's size come out of them: the heap does
  // not grow (the blocks need not lie side by side: what the heap held
  // before may sit between them).
  void* a = std::malloc(size_t(16) << 20);
  void* b = std::malloc(size_t(12) << 20);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(mallinfo2().arena, after.arena);
  // Their pages were written already: writing them all faults on few.
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  std::memset(a, 1, size_t(16) << 20);
  rusage later{};
  getrusage(RUSAGE_SELF, &later);
  EXPECT_LT(later.ru_minflt - before.ru_minflt, 256) << "of 4096 pages";
  std::free(a);
  std::free(b);
}

TEST(WarmHeap, NothingAskedNothingWritten) {
  EXPECT_EQ(warm_heap(0, 0), 0u);
  EXPECT_EQ(warm_heap(4096, 0), 4096u);
}

}  // namespace
}  // namespace chatty
