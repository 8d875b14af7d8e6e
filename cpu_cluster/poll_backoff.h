// How a rank waits for words that another rank writes: the first polls
// spin, as the answer is mostly microseconds away; later ones yield the
// core. With more ranks than cores (4 ranks on a 2-core laptop), ranks
// that only spun took the time slices of the rank they waited for: under
// MPICH, whose progress calls do not yield, SSSP on kron:16 at 4 ranks of
// one thread on 2 cores took 1.9 s, against 0.03 s.
#pragma once

#include <cstdint>
#include <thread>

namespace chatty {

class PollBackoff {
 public:
  // After a poll that found nothing new.
  void pause() {
    if (++polls_ > kSpins) std::this_thread::yield();
  }

 private:
  static constexpr uint32_t kSpins = 64;
  uint32_t polls_ = 0;
};

}  // namespace chatty
