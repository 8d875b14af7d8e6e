#include "runtime/base/warm_heap.h"

#include <malloc.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <vector>

namespace chatty {
namespace {

constexpr int kMmapThreshold = 32 << 20;
// Just under the mmap threshold: one freed block alone holds an array of
// up to that size, whatever lies between the blocks; larger ones are served
// from the blocks where they lie side by side.
constexpr size_t kBlock = size_t(31) << 20;

std::atomic<bool> g_kept{false};

// One write per page (the fault backs the whole page), and the last byte:
// a block starts inside a page.
void write_pages(char* p, size_t bytes, size_t page) {
  auto* v = static_cast<volatile char*>(p);
  for (size_t at = 0; at < bytes; at += page) v[at] = 0;
  if (bytes) v[bytes - 1] = 0;
}

}  // namespace

void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  g_kept.store(true, std::memory_order_relaxed);
}

bool freed_memory_kept() { return g_kept.load(std::memory_order_relaxed); }

size_t warm_heap(size_t bytes, size_t per_thread) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  per_thread = std::min(per_thread, kBlock);
  // Room for every block first: a failed push_back would leak the blocks.
  // Block b holds bytes [b * kBlock, min(bytes, (b + 1) * kBlock)).
  auto size_of = [bytes](size_t b) { return std::min(kBlock, bytes - b * kBlock); };
  std::vector<char*> blocks;
  blocks.reserve(bytes / kBlock + 1);
  for (size_t done = 0; done < bytes; done += kBlock) {
    char* p = static_cast<char*>(std::malloc(size_of(blocks.size())));
    if (!p) break;
    blocks.push_back(p);
  }
  size_t written = 0;
#pragma omp parallel reduction(+ : written)
  {
#pragma omp for schedule(dynamic, 1)
    for (size_t b = 0; b < blocks.size(); ++b) {
      write_pages(blocks[b], size_of(b), page);
      written += size_of(b);
    }
    if (omp_get_thread_num() != 0 && per_thread > 0)
      if (char* own = static_cast<char*>(std::malloc(per_thread))) {
        write_pages(own, per_thread, page);
        std::free(own);
      }
  }
  for (char* p : blocks) std::free(p);
  return written;
}

}  // namespace chatty
