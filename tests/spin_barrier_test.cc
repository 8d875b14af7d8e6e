// SpinBarrier (runtime/base/spin_barrier.h): no thread passes before all
// have arrived, what each wrote before is seen after, and a waiter that
// went to sleep is woken.
#include "runtime/base/spin_barrier.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <chrono>
#include <thread>
#include <vector>

namespace chatty {
namespace {

TEST(SpinBarrier, EveryThreadSeesEveryWriteOfTheRoundBeforeIt) {
  // More threads than this machine's cores: waiters whose peers are not
  // running go to sleep, and others pass in their spin.
  constexpr int kThreads = 4, kRounds = 3000;
  SpinBarrier barrier(Waiting::kSpinThenSleep);
  std::vector<int> slot(kThreads, -1);  // plain ints: the barrier alone orders them
  std::vector<int> wrong(kThreads, 0);
#pragma omp parallel num_threads(kThreads)
  {
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
    for (int r = 0; r < kRounds; ++r) {
      slot[size_t(t)] = r;
      barrier.wait(n);
      for (int p = 0; p < n; ++p) wrong[size_t(t)] += slot[size_t(p)] != r;
      barrier.wait(n);  // nobody writes round r + 1 while others read round r
    }
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[size_t(t)], 0) << "thread " << t;
}

TEST(SpinBarrier, AWaiterAsleepIsWokenByTheLastToArrive) {
  SpinBarrier barrier(Waiting::kSpinThenSleep);
  int late = 0;
  std::thread sleeper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // past any spin
    late = 1;
    barrier.wait(2);
  });
  barrier.wait(2);
  EXPECT_EQ(late, 1);
  sleeper.join();
}

TEST(SpinBarrier, OneThreadPassesAlone) {
  SpinBarrier barrier(Waiting::kSpinThenSleep);
  for (int i = 0; i < 3; ++i) barrier.wait(1);
  SUCCEED();
}

}  // namespace
}  // namespace chatty
