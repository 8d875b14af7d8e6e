// The GPU transport policy's choices, with no GPU needed: on the synthetic
// boxes the auto policy follows the topology per data class and size, never
// uses NCCL across virtual devices, and falls back to p2p when a choice
// cannot be made here; fixed transports are checked by name and placement.
#include <gtest/gtest.h>

#if defined(CHATTY_HAVE_CUDA)
#include "comm/gpu_transports.h"
#include "comm/transport_table.h"
#include "runtime/base/status.h"
#include "topology/gpu_policy.h"
#include "topology/library.h"

namespace chatty {
namespace {

TEST(GpuPolicy, StatusGoesThroughMappedMemoryOnEveryBox) {
  for (const std::string& box : topo::synthetic_names()) {
    const topo::Topology t = topo::load_topology(box);
    auto policy = make_gpu_policy(Comm::kAuto, {0, 1, 2, 3}, &t);
    EXPECT_STREQ(policy->choose(DataClass::kStatus, 64).name(), "uva") << box;
    EXPECT_NE(policy->describe().find("uva"), std::string::npos) << box;
  }
}

TEST(GpuPolicy, LargeApplicationDataUsesGpuLinksOrFallsBackToP2p) {
  const topo::Topology t = topo::load_topology("dgx-h100");
  auto policy = make_gpu_policy(Comm::kAuto, {0, 1, 2, 3, 4, 5, 6, 7}, &t);
  const std::string big = policy->choose(DataClass::kApplication, 256u << 20).name();
  // NCCL where it loads and runs (not on a machine without GPUs), else p2p.
  EXPECT_TRUE(big == "nccl" || big == "p2p") << big;
  // Every device asks with the same size and gets the same transport.
  EXPECT_EQ(policy->choose(DataClass::kApplication, 256u << 20).name(), big);
}

TEST(GpuPolicy, VirtualDevicesNeverGetNccl) {
  const topo::Topology t = topo::load_topology("dgx-a100");
  auto policy = make_gpu_policy(Comm::kAuto, {0, 0, 0, 0}, &t);
  for (uint64_t bytes : {uint64_t(4) << 10, uint64_t(1) << 20, uint64_t(256) << 20})
    EXPECT_STRNE(policy->choose(DataClass::kApplication, bytes).name(), "nccl") << bytes;
}

TEST(GpuPolicy, FixedTransportsByName) {
  for (const char* name : {"uva", "p2p", "host"}) {
    auto policy = make_gpu_policy(parse_comm(name), {0, 0});
    EXPECT_STREQ(policy->choose(DataClass::kApplication, 1 << 20).name(), name);
    EXPECT_NE(policy->describe().find("fixed"), std::string::npos);
  }
  EXPECT_THROW(make_gpu_transport(Comm::kNccl, {0, 0}), Error);  // virtual devices share GPU 0
  EXPECT_THROW(make_gpu_transport(Comm::kHostRead, {0, 1}), Error);
}

}  // namespace
}  // namespace chatty

namespace chatty {
namespace {

// Each transport's pair rule: host devices share memory, copies between GPUs
// always go (staged by the driver where there is no peer access), NCCL
// needs two distinct GPUs.
TEST(Transports, EachSaysWhichPairsItConnects) {
  for (Comm c : {Comm::kHost, Comm::kHostRead, Comm::kHostView}) EXPECT_TRUE(make_host_transport(c)->can_connect(0, 3));
  EXPECT_TRUE(make_uva_transport({0, 0})->can_connect(0, 1));
  EXPECT_TRUE(make_host_staged_transport({0, 1})->can_connect(1, 0));
  EXPECT_FALSE(nccl_connects({0, 0, 1}, 0, 1));
  EXPECT_TRUE(nccl_connects({0, 0, 1}, 1, 2));
}

}  // namespace
}  // namespace chatty
#endif
