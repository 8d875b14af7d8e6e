// A per-vertex array that a kernel reads at random, such as the
// contributions a PageRank pull gathers, spans a few MB: on 4 KB pages
// most of those reads also miss the TLB. On 2 MB pages, far fewer do
// (PageRank on kron:20: 0.94-0.95 of the time). Not for arrays first
// written inside a timed step's short supersteps: a value replica on huge
// pages made SSSP on grid:1000x1000 1.3x slower (each first write of a
// huge page clears 2 MB, and may wait for the kernel to compact memory).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace chatty {

// Asks for transparent huge pages on the 2 MB-aligned interior of
// [p, p + bytes), which must not have been touched yet (the kernel backs a
// page when it is first written). Nothing where THP is off, or for less
// than 2 MB: an array that small sits in few pages anyway.
inline void advise_huge_pages(const void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  const uintptr_t a = (uintptr_t(p) + kHuge - 1) & ~(kHuge - 1), b = (uintptr_t(p) + bytes) & ~(kHuge - 1);
  if (a < b) madvise(reinterpret_cast<void*>(a), b - a, MADV_HUGEPAGE);
}

// v resized to n, its storage advised onto huge pages before the new
// elements are written. Storage it already had keeps its pages.
template <typename T>
void resize_on_huge_pages(std::vector<T>& v, size_t n) {
  if (n > v.capacity()) {
    std::vector<T> grown;
    grown.reserve(n);
    advise_huge_pages(grown.data(), n * sizeof(T));
    grown.assign(v.begin(), v.end());
    v.swap(grown);
  }
  v.resize(n);
}

}  // namespace chatty
