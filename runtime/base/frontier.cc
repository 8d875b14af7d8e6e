#include "runtime/base/frontier.h"

#include <omp.h>

#include <algorithm>

namespace chatty {

void queue_to_bitmap(const Queue& q, Bitmap& b) {
  // Each thread fills its own range of words from the whole queue: its ids
  // come in no order, and every thread's atomic ORs into the one bitmap
  // fought over its lines (urand:20's 598K ids: 8 % of a BFS).
  const size_t words = (b.size() + 63) / 64;
#pragma omp parallel
  {
    const size_t t = size_t(omp_get_thread_num()), nt = size_t(omp_get_num_threads());
    const size_t lo = words * t / nt * 64, hi = std::min(b.size(), words * (t + 1) / nt * 64);
    if (lo < hi) b.fill_range(q.ids.data(), q.count, lo, hi);
  }
}

void bitmap_to_queue(const Bitmap& b, Queue& q) {
  const size_t n = b.size();
  const int threads = omp_get_max_threads();
  std::vector<size_t> counts(size_t(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const size_t lo = n * size_t(t) / size_t(nt), hi = n * size_t(t + 1) / size_t(nt);
    counts[size_t(t)] = b.count(lo, hi);
#pragma omp barrier
#pragma omp single
    {
      size_t run = 0;
      for (int i = 0; i <= nt; ++i) {
        size_t c2 = counts[size_t(i)];
        counts[size_t(i)] = run;
        run += c2;
      }
    }
    b.collect(lo, hi, q.ids.mutable_data() + counts[size_t(t)]);
  }
  q.count = 0;
  for (size_t c : counts) q.count = std::max(q.count, c);
}

}  // namespace chatty
