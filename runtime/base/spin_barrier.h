// A barrier for the threads of one parallel region that spins a few
// microseconds before it sleeps. Steps on small graphs (Louvain's and
// Leiden's rounds, a grid's BFS levels) end in a barrier every few
// microseconds. OpenMP's own barrier under OMP_WAIT_POLICY=passive puts
// every waiter to sleep at once, and a sleep and a wake per barrier took
// Louvain's kept-levels test 13 s against 2 s; spinning as OpenMP does by
// default takes the cores of another process's threads on a shared box.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace chatty {

// Tells the core this thread is spinning.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class SpinBarrier {
 public:
  // Returns once all `threads` threads of the region have called it: what
  // each wrote before its call is seen by every thread after it. Every
  // thread of the region calls it, the same number of times.
  void wait(int threads) {
    // How long this thread spins before it sleeps: longer after a wait the
    // spin ended, shorter after one it did not (the threads it waits for
    // were not running: another process had their cores).
    static thread_local uint32_t spins = kMaxSpins;
    const uint32_t passed = passed_.load(std::memory_order_relaxed);  // this barrier's number
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == uint32_t(threads)) {
      arrived_.store(0, std::memory_order_relaxed);  // seen by all before they arrive at the next
      passed_.store(passed + 1, std::memory_order_release);
      passed_.notify_all();
      return;
    }
    for (uint32_t i = 0; i < spins; ++i) {
      if (passed_.load(std::memory_order_acquire) != passed) {
        spins = std::min(kMaxSpins, 2 * spins + 1);
        return;
      }
      cpu_relax();
    }
    spins = std::max(kMinSpins, spins / 2);
    while (passed_.load(std::memory_order_acquire) == passed) passed_.wait(passed, std::memory_order_acquire);
  }

 private:
  // 30 ns a pause here (AMD EPYC): from about 1 to 8 microseconds.
  static constexpr uint32_t kMinSpins = 32, kMaxSpins = 256;
  alignas(64) std::atomic<uint32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> passed_{0};
};

}  // namespace chatty
