#include "runtime/cuda/gpu_plan.h"

#include <algorithm>
#include <cstdio>

#include "comm/transport_table.h"
#include "kernels/cuda/gather_plan.h"
#include "runtime/base/status.h"

namespace chatty {

BackendChoice select_backend(const std::string& flag, const GpuInventory& inv) {
  auto gpus_line = [&] {
    std::string s = std::to_string(inv.gpus.size()) + " GPU" + (inv.gpus.size() == 1 ? "" : "s");
    if (!inv.gpus.empty()) s += " (" + inv.gpus[0].name + (inv.gpus.size() > 1 ? ", ..." : "") + ")";
    return s;
  };
  if (flag == "cpu") return {Backend::kCpu, "cpu (requested)"};
  if (flag == "cuda") {
    CHATTY_CHECK(inv.built_with_cuda,
                 "--backend=cuda: this build has no CUDA backend (nvcc was not found when it was configured)");
    CHATTY_CHECK(!inv.gpus.empty(), "--backend=cuda: no usable GPU (" + inv.why_none + ")");
    return {Backend::kCuda, "cuda (requested): " + gpus_line()};
  }
  if (flag == "auto") {
    if (!inv.gpus.empty()) return {Backend::kCuda, "cuda (auto): " + gpus_line()};
    return {Backend::kCpu, "cpu (auto): " + (inv.built_with_cuda ? "no usable GPU: " + inv.why_none
                                                                 : std::string("built without CUDA"))};
  }
  throw Error("unknown --backend '" + flag + "' (auto, cuda or cpu)");
}

GpuPlacement place_devices(int devices, int gpus) {
  CHATTY_CHECK(gpus >= 1, "no GPU to place devices on");
  CHATTY_CHECK(devices >= 1, "--devices must be at least 1");
  GpuPlacement p;
  for (int d = 0; d < devices; ++d) p.gpu_of.push_back(d % gpus);
  p.shared = devices > gpus;
  p.gpus_used = devices < gpus ? devices : gpus;
  return p;
}

DeviceLayout plan_device_layout(const Graph& g, const Partition& part, int d, const GpuAppNeeds& needs) {
  const uint64_t n = g.num_vertices();
  const vid_t lo = part.begin(d), hi = part.end(d);
  const uint64_t nd = hi - lo;
  const Csr& out = g.out();
  const uint64_t ed = out.offsets[hi] - out.offsets[lo];
  DeviceLayout L;
  L.offsets = (nd + 1) * sizeof(eid_t);
  if (needs.out_targets) L.targets = ed * sizeof(vid_t);
  if (needs.weights) L.weights = ed * sizeof(weight_t);
  if (needs.in_edges) {
    const Csr& in = g.in();
    L.in_offsets = (nd + 1) * sizeof(eid_t);
    L.in_targets = (in.offsets[hi] - in.offsets[lo]) * sizeof(vid_t);
  }
  L.values = n * sizeof(uint32_t);
  const uint64_t bitmap = (n + 31) / 32 * sizeof(uint32_t);
  // two queues, stamps, claims, the frontier bitmap, near/far piles (as
  // GpuDevice::setup allocates them)
  if (needs.frontier) L.frontier = n * (4 + 4 + 4 + 4) + bitmap + 2 * nd * sizeof(vid_t);
  if (needs.labels) L.frontier += (n + 2 * 1024) * sizeof(vid_t) + n;  // prev labels, samples, roots; shared flags
  L.frontier += n + part.boundary_list.size() * sizeof(vid_t);         // boundary flags and list
  if (needs.split_hubs) L.frontier += (ed / kSplitHubDegree + 1) * kSplitHubBytes + 3 * sizeof(uint64_t);
  if (needs.published) L.published = 2 * n * sizeof(uint32_t);
  if (needs.published && needs.sum_gather == GpuGather::kBinned)
    L.published += gather_bins_bytes(nd, L.in_targets / sizeof(vid_t));
  if (needs.published && tiled_gather(needs.sum_gather))
    L.published += gather_tiles_bytes(nd, L.in_targets / sizeof(vid_t));
  const int P = part.devices();
  // Every record sent is a boundary vertex, each at most once per
  // superstep; WCC's rest stage may also send every root a device sent in
  // its description (at most one per boundary vertex each).
  const uint64_t boundary = part.boundary_list.size();
  L.record_capacity = P <= 1 ? 0 : needs.labels ? std::min<uint64_t>(n, uint64_t(P + 1) * boundary) : boundary;
  L.mailboxes = uint64_t(2 + 2 * P) * L.record_capacity * needs.record_bytes;  // a receive slot per device and parity
  L.slack = 64ull << 20;
  return L;
}

void check_gpu_memory(const GpuPlacement& place, const std::vector<DeviceLayout>& layouts, const GpuInventory& inv) {
  std::string shortages;
  for (const GpuInfo& gpu : inv.gpus) {
    uint64_t need = 0;
    std::string who;
    for (size_t d = 0; d < place.gpu_of.size(); ++d)
      if (place.gpu_of[d] == gpu.ordinal) {
        need += layouts[d].total();
        who += (who.empty() ? "" : ", ") + std::to_string(d);
      }
    if (need <= gpu.free_bytes) continue;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%sGPU %d (%s) needs %.2f GiB for device%s %s and has %.2f GiB free",
                  shortages.empty() ? "" : "; ", gpu.ordinal, gpu.name.c_str(), double(need) / (1 << 30),
                  who.find(',') == std::string::npos ? "" : "s", who.c_str(), double(gpu.free_bytes) / (1 << 30));
    shortages += buf;
  }
  CHATTY_CHECK(shortages.empty(), "not enough GPU memory: " + shortages);
}

void validate_gpu_comm(Comm comm, const GpuPlacement& place) { check_serves(comm, World::kGpuDevices, place.shared); }

}  // namespace chatty
