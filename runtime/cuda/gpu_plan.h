// Planning a run on GPUs before anything touches them: which backend, which
// GPU hosts each device (virtual devices round-robin when there are more
// devices than GPUs), how many bytes each device's arrays take, and whether
// they fit in each GPU's free memory. Plain C++, so the decisions are tested
// on machines without a GPU; the CUDA backend allocates exactly the layout
// planned here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/partition.h"

namespace chatty {

struct GpuInfo {
  int ordinal = 0;
  std::string name;
  uint64_t free_bytes = 0, total_bytes = 0;
  int multiprocessors = 0;
  int cc_major = 0, cc_minor = 0;
};

struct GpuInventory {
  std::vector<GpuInfo> gpus;  // usable GPUs
  std::string why_none;       // when empty: no driver, no device, ...
  bool built_with_cuda = false;
};

// The GPUs the CUDA runtime can use (free memory measured now). Never
// throws: a machine without a driver or device gives an empty inventory.
GpuInventory probe_gpus();

struct BackendChoice {
  Backend backend = Backend::kCpu;
  std::string reason;  // one line, printed by `chatty run`
};

// --backend: "cpu", "cuda" (an error without a usable GPU) or "auto" (the
// GPUs if any are usable, else the CPU). Throws chatty::Error.
BackendChoice select_backend(const std::string& flag, const GpuInventory& inv);

struct GpuPlacement {
  std::vector<int> gpu_of;  // per device: GPU ordinal
  bool shared = false;      // some GPU hosts more than one device
  int gpus_used = 0;
};

// Device d on GPU d % gpus. Throws chatty::Error if gpus < 1.
GpuPlacement place_devices(int devices, int gpus);

// --gpu_lb=split lists the frontier's vertices of this many out-edges or
// more, each in an entry of this many bytes (kernels/cuda/advance.cuh).
inline constexpr uint64_t kSplitHubDegree = 4096, kSplitHubBytes = 32;

// What an app needs on the device.
struct GpuAppNeeds {
  bool out_targets = true;  // push: out-edge targets (PageRank needs only out-degrees)
  bool in_edges = false;    // pull: in-edges of owned vertices
  bool weights = false;
  bool frontier = true;                      // queues, stamps, bitmaps (traversal apps)
  bool published = false;                    // gather: published values (two 32-bit arrays)
  bool labels = false;                       // WCC: previous boundary labels
  GpuGather sum_gather = GpuGather::kTiled;  // a sum's gather (kernels/cuda/gather_plan.h)
  bool split_hubs = false;                   // push: a list of hubs (--gpu_lb=split)
  size_t record_bytes = 8;                   // one (vertex, value) update
};

// Bytes of every array one device allocates.
struct DeviceLayout {
  uint64_t offsets = 0, targets = 0, weights = 0;  // owned out-edges
  uint64_t in_offsets = 0, in_targets = 0;         // owned in-edges
  uint64_t values = 0;                             // replicated value array
  uint64_t frontier = 0;                           // queues, stamps, bitmaps
  uint64_t published = 0;                          // gather: published values
  uint64_t mailboxes = 0;                          // send (2 parities) + receive (2 x peers)
  uint64_t record_capacity = 0;                    // records per slot
  uint64_t slack = 0;                              // CUB temporaries, allocator granularity
  uint64_t total() const {
    return offsets + targets + weights + in_offsets + in_targets + values + frontier + published + mailboxes + slack;
  }
};

DeviceLayout plan_device_layout(const Graph& g, const Partition& part, int d, const GpuAppNeeds& needs);

// Throws chatty::Error naming, per GPU that is short, the bytes needed by
// its devices and the bytes free - before anything is allocated.
void check_gpu_memory(const GpuPlacement& place, const std::vector<DeviceLayout>& layouts, const GpuInventory& inv);

// --comm for GPU devices: auto, uva, p2p, nccl or host (staged through
// pinned host memory). NCCL needs every device on a distinct GPU. Throws
// chatty::Error with the reason.
void validate_gpu_comm(Comm comm, const GpuPlacement& place);

}  // namespace chatty
