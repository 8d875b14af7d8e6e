// The fabric in threads: every device gets every record of each round in
// device order, rounds that overlap do not mix, and the shared words count
// exactly under contention from every device. The ranks' one-sided
// collective over threads. And where the records of GPU devices inside
// ranks wait.
#include "comm/fabric.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "cpu_cluster/one_sided_collective.h"

namespace chatty {
namespace {

TEST(Fabric, AllGatherHandsEveryDeviceEveryRecordOfItsRound) {
  constexpr int D = 4, kRounds = 200;
  auto f = make_thread_fabric(D);
  std::vector<int> bad(D, 0);
#pragma omp parallel num_threads(D)
  {
    const int d = omp_get_thread_num();
    for (int r = 0; r < kRounds; ++r) {
      // No barrier between rounds: a fast device enters round r + 1 while
      // slower ones still read round r.
      const uint64_t mine[2] = {uint64_t(r), uint64_t(d)};
      uint64_t all[D][2];
      f->all_gather(d, mine, sizeof mine, all);
      for (int p = 0; p < D; ++p)
        if (all[p][0] != uint64_t(r) || all[p][1] != uint64_t(p)) ++bad[size_t(d)];
    }
  }
  for (int d = 0; d < D; ++d) EXPECT_EQ(bad[size_t(d)], 0) << "device " << d;
}

TEST(Fabric, WordsAreSharedAndAtomic) {
  constexpr int D = 4, kAdds = 10000;
  auto f = make_thread_fabric(D);
  const int a = f->reserve_words(2);
  const int b = f->reserve_words(1);
  EXPECT_GE(b, a + 2);  // reservations do not overlap
  for (int d = 0; d < D; ++d) EXPECT_EQ(f->load(d, b), 0u);
#pragma omp parallel num_threads(D)
  {
    const int d = omp_get_thread_num();
    for (int i = 0; i < kAdds; ++i) {
      f->fetch_add(0, a, 1);  // every device on device 0's word
      uint64_t s = f->load(1, b);
      while (!f->compare_exchange(1, b, s, s + 2)) {
      }
    }
    f->store(d, a + 1, uint64_t(d) + 7);  // one writer per word
  }
  EXPECT_EQ(f->load(0, a), uint64_t(D) * kAdds);
  EXPECT_EQ(f->load(1, b), 2ull * D * kAdds);
  for (int d = 0; d < D; ++d) EXPECT_EQ(f->load(d, a + 1), uint64_t(d) + 7);
}

// The ranks' collective without a collective call, over threads as ranks
// whose words the others write: every rank gets every rank's record of
// each round, though a fast rank runs ahead into the next round (and
// writes into the slow one's words) while the slow one still reads.
class ThreadWire {
 public:
  ThreadWire(std::vector<std::vector<uint64_t>>& words, int rank) : words_(words), rank_(rank) {}
  void put(int r, size_t word, const void* from, size_t bytes) {
    const auto* w = static_cast<const uint64_t*>(from);
    for (size_t i = 0; i < bytes / 8; ++i) {
      if (i == 1) std::this_thread::yield();  // a put lands over time
      std::atomic_ref<uint64_t>(words_[size_t(r)][word + i]).store(w[i], std::memory_order_relaxed);
    }
  }
  void complete() {}
  void raise(int r, size_t word, uint64_t n) {
    std::atomic_ref<uint64_t>(words_[size_t(r)][word]).store(n, std::memory_order_release);
  }
  uint64_t read(size_t word) const {
    return std::atomic_ref<uint64_t>(words_[size_t(rank_)][word]).load(std::memory_order_acquire);
  }
  void idle() { std::this_thread::yield(); }
  const std::byte* view(size_t word) const { return reinterpret_cast<const std::byte*>(&words_[size_t(rank_)][word]); }

 private:
  std::vector<std::vector<uint64_t>>& words_;
  const int rank_;
};
static_assert(CollectiveWire<ThreadWire>);

TEST(OneSidedCollective, EveryRankGetsEveryRecordOfItsRoundWithoutMeeting) {
  constexpr int R = 3, kRounds = 3000, kFirst = 5;  // the protocol's words after some of the fabric's
  constexpr size_t kBytes = 3 * sizeof(uint64_t);
  std::vector<std::vector<uint64_t>> words(R, std::vector<uint64_t>(kFirst + OneSidedCollective::words(R, kBytes)));
  std::vector<int> bad(R, 0);
  std::vector<std::thread> ranks;
  for (int me = 0; me < R; ++me)
    ranks.emplace_back([&, me] {
      ThreadWire wire(words, me);
      OneSidedCollective c(me, R, kBytes, kFirst);
      for (int round = 0; round < kRounds; ++round) {
        if (round % 7 == 3) c.run(wire, nullptr, 0, nullptr);  // a barrier among the gathers
        const uint64_t mine[3] = {uint64_t(round), uint64_t(me), uint64_t(round) * 1000 + uint64_t(me)};
        uint64_t all[R][3];
        c.run(wire, reinterpret_cast<const std::byte*>(mine), kBytes, reinterpret_cast<std::byte*>(all));
        for (int r = 0; r < R; ++r)
          if (all[r][0] != uint64_t(round) || all[r][1] != uint64_t(r) || all[r][2] != uint64_t(round) * 1000 + r)
            ++bad[size_t(me)];
        if (me == 0 && round % 3 == 0) std::this_thread::yield();  // one rank lags now and then
      }
    });
  for (auto& t : ranks) t.join();
  for (int r = 0; r < R; ++r) EXPECT_EQ(bad[size_t(r)], 0) << "rank " << r;
  for (int r = 0; r < kFirst; ++r) EXPECT_EQ(words[0][size_t(r)], 0u) << "a word before the protocol's";
}

// GPU devices inside ranks keep their records in pinned host memory and
// say why not in GPU memory: on a box without an RDMA device, that it has none.
TEST(GpuRings, StagedThroughHostMemoryAndSayWhy) {
  const RdmaProbe rdma = probe_rdma();
  for (Net net : {Net::kMpi, Net::kVerbs}) {
    const GpuRingPlacement g = place_gpu_rings(rdma, net);
    EXPECT_EQ(g.where, "pinned host memory (staged)");
    EXPECT_FALSE(g.why.empty());
    if (rdma.devices.empty()) {
      EXPECT_EQ(g.why.rfind("no RDMA device (", 0), 0u) << g.why;
    }
  }
}

}  // namespace
}  // namespace chatty
