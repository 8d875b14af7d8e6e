// The CUDA backend's decisions that need no GPU: backend selection, device
// placement (virtual devices), the memory plan and its refusal message, and
// which transports a placement admits.
#include "runtime/gpu_plan.h"

#include <gtest/gtest.h>

#include "datasets/load.h"
#include "runtime/status.h"

namespace chatty {
namespace {

GpuInventory fake_gpus(int count, uint64_t free_bytes) {
  GpuInventory inv;
  inv.built_with_cuda = true;
  for (int i = 0; i < count; ++i) {
    GpuInfo g;
    g.ordinal = i;
    g.name = "Fake GPU";
    g.free_bytes = g.total_bytes = free_bytes;
    inv.gpus.push_back(g);
  }
  if (!count) inv.why_none = "no CUDA device";
  return inv;
}

TEST(Backend, AutoUsesGpusWhenUsableAndSaysWhich) {
  BackendChoice c = select_backend("auto", fake_gpus(2, 1ull << 30));
  EXPECT_EQ(c.backend, Backend::kCuda);
  EXPECT_NE(c.reason.find("2 GPUs"), std::string::npos) << c.reason;
  c = select_backend("auto", fake_gpus(0, 0));
  EXPECT_EQ(c.backend, Backend::kCpu);
  EXPECT_NE(c.reason.find("no CUDA device"), std::string::npos) << c.reason;
  EXPECT_EQ(select_backend("cpu", fake_gpus(4, 1ull << 30)).backend, Backend::kCpu);
}

TEST(Backend, CudaWithoutGpuOrCudaBuildIsAClearError) {
  try {
    select_backend("cuda", fake_gpus(0, 0));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--backend=cuda: no usable GPU (no CUDA device)");
  }
  GpuInventory none;
  none.why_none = "this build has no CUDA backend";
  EXPECT_THROW(select_backend("cuda", none), Error);
  EXPECT_THROW(select_backend("tpu", none), Error);
}

TEST(Backend, ProbeNeverThrows) {
  const GpuInventory inv = probe_gpus();
  if (inv.gpus.empty()) {
    EXPECT_FALSE(inv.why_none.empty());
  }
  for (const GpuInfo& g : inv.gpus) EXPECT_GT(g.total_bytes, 0u);
}

TEST(Placement, VirtualDevicesGoRoundRobin) {
  GpuPlacement p = place_devices(4, 1);
  EXPECT_EQ(p.gpu_of, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_TRUE(p.shared);
  p = place_devices(5, 2);
  EXPECT_EQ(p.gpu_of, (std::vector<int>{0, 1, 0, 1, 0}));
  p = place_devices(3, 8);
  EXPECT_EQ(p.gpu_of, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(p.shared);
  EXPECT_EQ(p.gpus_used, 3);
  EXPECT_THROW(place_devices(2, 0), Error);
}

TEST(Placement, NcclNeedsDistinctGpus) {
  EXPECT_NO_THROW(validate_gpu_comm(Comm::kNccl, place_devices(4, 8)));
  EXPECT_NO_THROW(validate_gpu_comm(Comm::kP2p, place_devices(4, 1)));
  EXPECT_NO_THROW(validate_gpu_comm(Comm::kUva, place_devices(4, 1)));
  try {
    validate_gpu_comm(Comm::kNccl, place_devices(4, 1));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("own GPU"), std::string::npos) << e.what();
  }
  EXPECT_THROW(validate_gpu_comm(Comm::kHostRead, place_devices(2, 2)), Error);
}

Graph kron(int scale) {
  LoadOptions o;
  return load_graph("kron:" + std::to_string(scale), o);
}

TEST(MemoryPlan, CountsTheChunkAndTheMailboxes) {
  Graph g = kron(12);
  const Partition one = partition_graph(g, 1), four = partition_graph(g, 4);
  GpuAppNeeds bfs;
  bfs.in_edges = true;
  const DeviceLayout a = plan_device_layout(g, one, 0, bfs);
  EXPECT_EQ(a.targets, g.num_edges() * 4);
  EXPECT_EQ(a.offsets, (uint64_t(g.num_vertices()) + 1) * 8);
  EXPECT_EQ(a.mailboxes, 0u);  // one device exchanges nothing
  uint64_t targets = 0;
  for (int d = 0; d < 4; ++d) {
    const DeviceLayout L = plan_device_layout(g, four, d, bfs);
    targets += L.targets;
    EXPECT_EQ(L.values, uint64_t(g.num_vertices()) * 4);  // the replicated value array
    EXPECT_EQ(L.record_capacity, four.boundary_list.size());
    EXPECT_EQ(L.mailboxes, 10 * L.record_capacity * 8);
  }
  EXPECT_EQ(targets, g.num_edges() * 4);  // the chunks cover the edges once
  GpuAppNeeds pr;
  pr.out_targets = false, pr.in_edges = true, pr.frontier = false, pr.published = true;
  const DeviceLayout p = plan_device_layout(g, one, 0, pr);
  EXPECT_EQ(p.targets, 0u);
  EXPECT_EQ(p.published, uint64_t(g.num_vertices()) * 8);
}

TEST(MemoryPlan, TooLittleMemoryNamesEachShortGpu) {
  Graph g = kron(12);
  const Partition part = partition_graph(g, 4);
  std::vector<DeviceLayout> layouts;
  for (int d = 0; d < 4; ++d) layouts.push_back(plan_device_layout(g, part, d, GpuAppNeeds{}));
  EXPECT_NO_THROW(check_gpu_memory(place_devices(4, 2), layouts, fake_gpus(2, 1ull << 40)));
  try {
    check_gpu_memory(place_devices(4, 2), layouts, fake_gpus(2, 1 << 20));
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("not enough GPU memory: GPU 0 (Fake GPU) needs"), std::string::npos) << m;
    EXPECT_NE(m.find("devices 0, 2"), std::string::npos) << m;
    EXPECT_NE(m.find("GPU 1"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace chatty
