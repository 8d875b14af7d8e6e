// The CUDA backend's decisions that need no GPU: backend selection, device
// placement (virtual devices), the memory plan and its refusal message, and
// which transports a placement admits.
#include "runtime/cuda/gpu_plan.h"

#include <gtest/gtest.h>

#include "datasets/load.h"
#include "kernels/cuda/gather_plan.h"
#include "runtime/base/status.h"
#include "runtime/drivers/traversal.h"

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
  // Published values, and the tiled gather's tiles and split-row slots.
  EXPECT_EQ(p.published, uint64_t(g.num_vertices()) * 8 + gather_tiles_bytes(g.num_vertices(), g.num_edges()));
  pr.sum_gather = GpuGather::kGroups;
  EXPECT_EQ(plan_device_layout(g, one, 0, pr).published, uint64_t(g.num_vertices()) * 8);
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

// The binned gather's plan: every vertex in exactly one place, each lane
// bin holding the rows its lane count covers, and the hubs' pieces tiling
// each hub's in-edges exactly, none longer than kPieceEdges.
TEST(BinnedGather, EveryVertexOnceAndPiecesTileTheHubs) {
  const std::vector<eid_t> degrees = {0, 1, 2, 3, 4, 5, 9, 16, 17, 31, 32, 33, 4095, 4096, 4097, 10000, 2048 * 3, 7};
  std::vector<eid_t> off = {100};  // a chunk's offsets need not start at 0
  for (eid_t d : degrees) off.push_back(off.back() + d);
  const vid_t n = vid_t(degrees.size());
  const GatherBins b = plan_gather_bins(off.data(), n);
  std::vector<int> seen(n, 0);
  for (int bin = 0; bin < kLaneBins; ++bin) {
    for (uint64_t k = b.start[size_t(bin)]; k < b.start[size_t(bin) + 1]; ++k) {
      const vid_t i = b.list[k];
      ++seen[i];
      const eid_t d = degrees[i];
      EXPECT_LE(d, bin == kLaneBins - 1 ? kHubDegree - 1 : eid_t(lanes_of_bin(bin))) << "vertex " << i;
      if (bin > 0) {
        EXPECT_GT(d, eid_t(lanes_of_bin(bin - 1))) << "vertex " << i;
      }
      if (k > b.start[size_t(bin)]) {
        EXPECT_LT(b.list[k - 1], i) << "ascending within a bin";
      }
    }
  }
  EXPECT_EQ(b.start[kLaneBins], b.list.size());
  std::vector<eid_t> covered(b.hubs.size(), 0);
  eid_t next = 0;
  uint32_t hub = ~0u;
  for (const GatherPiece& p : b.pieces) {
    ASSERT_LT(p.hub, b.hubs.size());
    if (p.hub != hub) hub = p.hub, next = off[b.hubs[p.hub]] - off[0];  // a hub's first piece
    EXPECT_EQ(p.first, next) << "pieces are contiguous";
    EXPECT_GT(p.last, p.first);
    EXPECT_LE(p.last - p.first, kPieceEdges);
    covered[p.hub] += p.last - p.first;
    next = p.last;
  }
  for (size_t h = 0; h < b.hubs.size(); ++h) {
    ++seen[b.hubs[h]];
    EXPECT_GE(degrees[b.hubs[h]], kHubDegree);
    EXPECT_EQ(covered[h], degrees[b.hubs[h]]) << "hub " << b.hubs[h];
  }
  EXPECT_EQ(b.hubs.size(), 4u);
  for (vid_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "vertex " << i;
  // The device layout reserves room for the plan.
  const eid_t edges = off.back() - off.front();
  EXPECT_GE(gather_bins_bytes(n, edges),
            b.list.size() * sizeof(vid_t) + b.hubs.size() * 12 + b.pieces.size() * sizeof(GatherPiece));
}

// The tiled gather's plan, replayed as the kernel uses it: every tile holds
// at most `items` row ends + edges, the tiles cover every edge once, each
// row is finished by exactly one tile or else is a split row, and adding
// each tile's parts as the kernel does gives every row's in-degree.
TEST(TiledGather, TilesCoverEveryEdgeOnceAndSplitRowsAreSlotted) {
  const std::vector<eid_t> degrees = {0, 0, 3, 1, 0, 40, 2, 0, 0, 0, 0, 0, 0, 5, 17, 1, 100, 0, 9, 33, 0, 1};
  std::vector<eid_t> off = {100};  // a chunk's offsets need not start at 0
  for (eid_t d : degrees) off.push_back(off.back() + d);
  const vid_t n = vid_t(degrees.size());
  for (uint64_t items : {4u, 7u, 16u, 1024u}) {
    const GatherTiles p = plan_gather_tiles(off.data(), n, items);
    ASSERT_GE(p.tiles.size(), 2u);
    EXPECT_EQ(p.tiles.front().edge, 0u);
    EXPECT_EQ(p.tiles.front().row, 0u);
    EXPECT_EQ(p.tiles.back().edge, off.back() - off.front());
    EXPECT_EQ(p.tiles.back().row, n);
    EXPECT_EQ(p.tiles.back().lead, kNoSlot);
    std::vector<eid_t> sum(n, 0);
    std::vector<double> parts(p.split.size(), 0);
    std::vector<int> finished(n, 0);
    for (size_t t = 0; t + 1 < p.tiles.size(); ++t) {
      const GatherTile a = p.tiles[t], b = p.tiles[t + 1];
      const vid_t rows = b.row - a.row;
      EXPECT_LE(rows + (b.edge - a.edge), items) << "tile " << t;
      EXPECT_LE(a.edge, b.edge);
      std::vector<eid_t> local(rows + 1, 0);
      for (eid_t e = a.edge; e < b.edge; ++e) {  // the row whose edges include e
        vid_t k = 0;
        while (k < rows && off[a.row + k + 1] - off[0] <= e) ++k;
        ASSERT_GE(e, off[a.row + k] - off[0]) << "tile " << t;
        ++local[k];
      }
      for (vid_t k = 0; k < rows + (b.lead != kNoSlot); ++k) {
        if (k == 0 && a.lead != kNoSlot) {
          EXPECT_EQ(p.split[a.lead], a.row);
          parts[a.lead] += double(local[k]);
        } else if (k == rows) {
          EXPECT_EQ(p.split[b.lead], b.row);
          parts[b.lead] += double(local[k]);
        } else {
          sum[a.row + k] = local[k];
          ++finished[a.row + k];
        }
      }
      if (b.lead == kNoSlot) {
        EXPECT_EQ(local[rows], 0u) << "edges of an unslotted row after tile " << t;
      }
    }
    for (size_t s = 0; s < p.split.size(); ++s) {
      if (s > 0) {
        EXPECT_LT(p.split[s - 1], p.split[s]);
      }
      sum[p.split[s]] = eid_t(parts[s]);
      ++finished[p.split[s]];
    }
    for (vid_t i = 0; i < n; ++i) {
      EXPECT_EQ(finished[i], 1) << "row " << i << ", " << items << " items";
      EXPECT_EQ(sum[i], degrees[i]) << "row " << i << ", " << items << " items";
    }
    if (items == kTileItems) {
      EXPECT_GE(gather_tiles_bytes(n, off.back() - off.front()),
                p.tiles.size() * sizeof(GatherTile) + p.split.size() * 12);
    }
  }
}

// --gpu_steps_per_sync: supersteps run without a sync only in push steps of
// a frontier that grows slowly, never on the first sync's word alone, never
// when the limit is 1; the run between syncs doubles from 2 to the limit.
// Returns how many supersteps run up to and including the next sync.
int run_until_sync(ThinRun& t, bool pull = false) {
  int steps = 1;
  while (t.skip_sync(pull)) ++steps;
  return steps;
}

TEST(StepsPerSync, OnlyThinPushRunsSkipSyncs) {
  ThinRun one(1);
  for (uint64_t u : {10, 10, 10}) one.saw(u, 1);
  EXPECT_EQ(run_until_sync(one), 1);

  ThinRun grid(8);
  EXPECT_EQ(run_until_sync(grid), 1) << "nothing seen yet";
  grid.saw(100, 1);
  EXPECT_EQ(run_until_sync(grid), 1) << "one sync says nothing of growth";
  grid.saw(101, 1);
  EXPECT_EQ(run_until_sync(grid, true), 1) << "pull steps always sync";
  grid.saw(101, 1);
  EXPECT_EQ(run_until_sync(grid), 4) << "2, then doubling";
  grid.saw(4 * 102, 4);  // a run: its updates per superstep are compared
  EXPECT_EQ(run_until_sync(grid), 8);
  grid.saw(8 * 103, 8);
  EXPECT_EQ(run_until_sync(grid), 8) << "at most the limit";
  grid.saw(8 * 200, 8);
  EXPECT_EQ(run_until_sync(grid), 1) << "a frontier that grew is not thin";

  ThinRun burst(8);
  for (uint64_t u : {1, 16, 256, 4096}) {
    burst.saw(u, 1);
    EXPECT_EQ(run_until_sync(burst), 1) << "a frontier growing " << u;
  }
}

}  // namespace
}  // namespace chatty
