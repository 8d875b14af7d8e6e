#include "runtime/base/frontier.h"

#include <omp.h>

#include <algorithm>

namespace chatty {

void queue_to_bitmap(const Queue& q, Bitmap& b) {
  b.clear();
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < q.count; ++i) b.set_atomic_blind(q.ids[i]);
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
