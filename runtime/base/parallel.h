// Small OpenMP helpers used by the graph builder and the CPU kernels.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace chatty {

// v resized to n with its new storage's pages first touched by the team:
// a fresh page's fault costs about half a microsecond on the VMs measured,
// and a 4 MB array's thousand of them on one thread (the value-initialising
// resize's) were a fifth of a single BFS on kron:20. The new elements are
// value-initialised, as resize's.
template <typename T>
void resize_touched(std::vector<T>& v, size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "its storage is written before its elements exist");
  if (n > v.capacity()) {
    v.reserve(n);
    char* p = reinterpret_cast<char*>(v.data());
    const size_t bytes = n * sizeof(T);
#pragma omp parallel for schedule(static) if (bytes >= (size_t(1) << 20))
    for (size_t at = 0; at < bytes; at += 4096) p[at] = 0;
  }
  v.resize(n);
}

// Exclusive prefix sum of in[0..n) into out[0..n]; out[n] = total. In and
// out may alias. Two passes over per-thread blocks.
template <typename In, typename Out>
Out parallel_exclusive_scan(const In* in, Out* out, size_t n) {
  int threads = omp_get_max_threads();
  std::vector<Out> block_sum(size_t(threads) + 1, 0);
  int team = 1;
#pragma omp parallel num_threads(threads)
  {
    int t = omp_get_thread_num();
    int nt = omp_get_num_threads();
#pragma omp single
    team = nt;
    size_t lo = n * t / nt, hi = n * (t + 1) / nt;
    Out s = 0;
    for (size_t i = lo; i < hi; ++i) s += Out(in[i]);
    block_sum[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int i = 0; i < nt; ++i) block_sum[i + 1] += block_sum[i];
    Out run = block_sum[t];
    for (size_t i = lo; i < hi; ++i) {
      Out v = Out(in[i]);
      out[i] = run;
      run += v;
    }
  }
  out[n] = block_sum[size_t(team)];
  return out[n];
}

// Runs f(first, last, sums) over the blocks [begin + i * block, ...) of
// [begin, end) on the calling thread's team, each block to whichever thread
// is free next, and returns the sum of every thread's sums (Sums has +=).
template <typename Sums, typename I, typename F>
Sums sum_over_blocks(I begin, I end, I block, F f) {
  const I blocks = end > begin ? (end - begin + block - 1) / block : 0;
  Sums total{};
#pragma omp parallel
  {
    Sums mine{};
#pragma omp for schedule(dynamic, 1) nowait
    for (I i = 0; i < blocks; ++i) {
      const I first = begin + i * block;
      f(first, std::min(first + block, end), mine);
    }
#pragma omp critical(chatty_block_sums)
    total += mine;
  }
  return total;
}

// Lock-free reduce into shared memory (Ito et al.: CAS loops, never locks).
// Returns true when *addr was changed to combine(old, cand).
template <typename T, typename Combine>
inline bool atomic_combine(T* addr, T cand, Combine combine) {
  std::atomic_ref<T> ref(*addr);
  T old = ref.load(std::memory_order_relaxed);
  while (true) {
    T next = combine(old, cand);
    if (next == old) return false;
    if (ref.compare_exchange_weak(old, next, std::memory_order_relaxed)) return true;
  }
}

template <typename T>
inline bool atomic_min(T* addr, T cand) {
  return atomic_combine(addr, cand, [](T a, T b) { return b < a ? b : a; });
}

}  // namespace chatty
