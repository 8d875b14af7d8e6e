// The fabric in threads: every device gets every record of each round in
// device order, rounds that overlap do not mix, and the shared words count
// exactly under contention from every device. And where the records of
// GPU devices inside ranks wait.
#include "comm/fabric.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "cpu_cluster/cluster.h"

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
