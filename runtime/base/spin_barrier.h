// The barrier of a parallel region's threads. Steps on small graphs
// (Louvain's and Leiden's rounds, a grid's BFS levels) end in a barrier
// every few microseconds. Under OMP_WAIT_POLICY=passive, OpenMP's own
// barrier puts every waiter to sleep at once, and a sleep and a wake per
// barrier took Louvain's, Leiden's and SCC's cases 31.9 s against 6 s
// spinning a few microseconds first. Without it OpenMP's barrier spins,
// and that is kept: spinning up to 1 ms here took a grid's BFS levels,
// one of whose threads shared its core with another process, twice
// OpenMP's time (14.9 ms against 7.9).
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace chatty {

// Tells the core this thread is spinning.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How a SpinBarrier waits: spinning a few microseconds, then asleep; or
// as OpenMP's barrier does (the region's own barrier).
enum class Waiting { kSpinThenSleep, kOpenMP };

// kSpinThenSleep under OMP_WAIT_POLICY=passive, else kOpenMP. Read once
// a process, as OpenMP reads it: a barrier is made for every SSSP bucket.
inline Waiting waiting_from_environment() {
  static const Waiting how = [] {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return policy && (policy[0] == 'p' || policy[0] == 'P') ? Waiting::kSpinThenSleep : Waiting::kOpenMP;
  }();
  return how;
}

class SpinBarrier {
 public:
  explicit SpinBarrier(Waiting how = waiting_from_environment()) : how_(how) {}

  // Returns once all `threads` threads of the region have called it: what
  // each wrote before its call is seen by every thread after it. Every
  // thread of the innermost enclosing parallel region calls it, the same
  // number of times (kSpinThenSleep: `threads` threads, of any origin).
  void wait(int threads) {
    if (how_ == Waiting::kOpenMP) {
#pragma omp barrier
      return;
    }
    // How long this thread spins before it sleeps: longer after a wait the
    // spin ended, shorter after one it did not (the threads it waits for
    // were not running: another process had their cores).
    static thread_local uint32_t spins = kMaxSpins;
    const uint32_t passed = passed_.load(std::memory_order_relaxed);  // this barrier's number
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == uint32_t(threads)) {
      arrived_.store(0, std::memory_order_relaxed);  // seen by all before they arrive at the next
      passed_.store(passed + 1, std::memory_order_seq_cst);
      // Seen by a sleeper that counted itself before it read passed_, or it
      // read the new number and did not sleep.
      if (sleepers_.load(std::memory_order_seq_cst) != 0) wake_all();
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
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (passed_.load(std::memory_order_seq_cst) == passed) sleep_while(passed);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  // A futex on Linux, not std::atomic::wait, which first calls sched_yield
  // a few times: beside a process that keeps both cores busy a yield gives
  // it the core for a whole time slice, and Louvain's, Leiden's and SCC's
  // cases took 107 s against 27 s sleeping at once (31 s with OpenMP's
  // passive barrier).
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the futex word is the atomic's");
  void sleep_while(uint32_t value) {
#if defined(__linux__)
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&passed_), FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
#else
    passed_.wait(value, std::memory_order_acquire);
#endif
  }
  void wake_all() {
#if defined(__linux__)
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&passed_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
#else
    passed_.notify_all();
#endif
  }

  // 30 ns a pause here (AMD EPYC): from about 1 to 8 microseconds.
  static constexpr uint32_t kMinSpins = 32, kMaxSpins = 256;
  const Waiting how_;
  alignas(64) std::atomic<uint32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> passed_{0};
  std::atomic<uint32_t> sleepers_{0};  // waiters past their spin
};

}  // namespace chatty
