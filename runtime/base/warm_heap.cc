#include "runtime/base/warm_heap.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace chatty {
namespace {

// Just under chatty's mmap threshold (32 MiB): one freed block alone can
// hold any array the heap serves, whatever lies between the blocks.
constexpr size_t kBlock = size_t(31) << 20;

// One write per page: the fault backs the whole page.
void write_pages(char* p, size_t bytes, size_t page) {
  for (size_t at = 0; at < bytes; at += page) static_cast<volatile char*>(p)[at] = 0;
}

}  // namespace

size_t warm_heap(size_t bytes, size_t per_thread) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  std::vector<char*> blocks;
  std::vector<size_t> sizes;
  for (size_t done = 0; done < bytes; done += kBlock) {
    const size_t take = std::min(kBlock, bytes - done);
    char* p = static_cast<char*>(std::malloc(take));
    if (!p) break;
    blocks.push_back(p);
    sizes.push_back(take);
  }
  size_t written = 0;
#pragma omp parallel reduction(+ : written)
  {
#pragma omp for schedule(dynamic, 1)
    for (size_t b = 0; b < blocks.size(); ++b) {
      write_pages(blocks[b], sizes[b], page);
      written += sizes[b];
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
