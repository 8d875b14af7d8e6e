// One GPU device of a run: its chunk uploaded through pinned staging, the
// replicated value array, frontier storage, the send buffer and the two
// receive buffers (a slot per peer) in device memory, its stream, and its
// counters. Several devices may share a GPU (virtual devices): each has its
// own stream and memory. Allocates exactly runtime/cuda/gpu_plan's layout.
#pragma once

#include <vector>

#include "comm/mailboxes.h"
#include "kernels/cuda/gather.cuh"
#include "kernels/cuda/gather_plan.h"
#include "kernels/cuda/launch.h"
#include "kernels/wave.h"
#include "runtime/cuda/device_array.cuh"
#include "runtime/cuda/gpu_plan.h"

namespace chatty::cuda {

class GpuDevice {
 public:
  GpuDevice(int d, int gpu, const Graph& g, const Partition& part, const GpuAppNeeds& needs, bool mapped_send,
            Mailboxes& mb)
      : d(d), gpu(gpu), lo(part.begin(d)), hi(part.end(d)), n(g.num_vertices()) {
    try {
      setup(g, part, needs, mapped_send, mb);
    } catch (...) {
      release();  // the destructor does not run for a half-built device
      throw;
    }
  }
  ~GpuDevice() { release(); }
  GpuDevice(const GpuDevice&) = delete;
  GpuDevice& operator=(const GpuDevice&) = delete;

  const int d, gpu;
  const vid_t lo, hi, n;
  int sms = 1;
  cudaStream_t stream = nullptr;
  DeviceArray<eid_t> off, in_off;  // chunk-local offsets: vertex lo + i at i
  DeviceArray<vid_t> targets, in_targets;
  DeviceArray<weight_t> weights;
  DeviceArray<uint32_t> values, stamp, claim, front;
  DeviceArray<vid_t> active, changed, pile, rest, prev, boundary_list;
  DeviceArray<uint32_t> contrib, next_contrib;  // gather: published values (32-bit words)
  DeviceArray<uint8_t> boundary;
  DeviceArray<uint8_t> shared;  // WCC: vertices peers may hold in a tree
  DeviceArray<Counters> counters;
  DeviceArray<wave::Counts> wave_counts;     // frontier programs: a wave's own counts
  DeviceArray<vid_t> heavy;                  // gather: owned vertices with kHeavyDegree+ in-edges
  DeviceArray<vid_t> samples, sample_roots;  // WCC: the vertices whose roots vote for the giant
  int group = 32;                            // gather: lanes per vertex
  // The gather's variant (--gpu_gather; kernels/cuda/gather_plan.h).
  GpuGather sum_gather = GpuGather::kTiled;
  DeviceArray<vid_t> bin_list, bin_hubs;  // binned: the lane bins; the hubs (tiled: the split rows)
  std::array<uint64_t, kLaneBins + 1> bin_start{};
  DeviceArray<GatherPiece> pieces;
  DeviceArray<GatherTile> tiles;
  // --gpu_lb=split: room for every owned vertex of kSplitDegree+ out-edges.
  DeviceArray<SplitHub> split_hubs;
  DeviceArray<ull> split_counts;  // listed now; the last scan's edge total and count
  HubList split;
  DeviceArray<double> hub_sum;  // rows summed in parts: a sum per hub (binned) or split row (tiled)
  static constexpr size_t kGiantSamples = 1024;

  vid_t nd() const { return hi - lo; }
  Counters* c() const { return counters.get(); }
  Launch launch(uint64_t items, uint64_t lanes = 1) const { return launch_for(items, sms, lanes); }
  // Grid for kernels that read their item count on the device (any size):
  // one resident wave, since small frontiers are common and the kernels stride.
  Launch launch_max() const { return launch_for(uint64_t(n) + 1, sms, 1, 1); }
  void sync() const { CHATTY_CUDA(cudaStreamSynchronize(stream)); }

 private:
  void setup(const Graph& g, const Partition& part, const GpuAppNeeds& needs, bool mapped_send, Mailboxes& mb) {
    CHATTY_CUDA(cudaSetDevice(gpu));
    CHATTY_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
    CHATTY_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const DeviceLayout L = plan_device_layout(g, part, d, needs);
    Uploader up(stream);
    upload_chunk(g.out(), needs.out_targets, needs.weights, off, targets, &weights, up);
    if (needs.in_edges) upload_chunk(g.in(), true, false, in_off, in_targets, nullptr, up);
    values.allocate(n);
    if (needs.frontier) {
      active.allocate(n), changed.allocate(n), stamp.allocate(n), claim.allocate(n);
      front.allocate((size_t(n) + 31) / 32), pile.allocate(nd()), rest.allocate(nd());
      CHATTY_CUDA(cudaMemsetAsync(stamp.get(), 0, size_t(n) * 4, stream));
      CHATTY_CUDA(cudaMemsetAsync(claim.get(), 0, size_t(n) * 4, stream));
      CHATTY_CUDA(cudaMemsetAsync(front.get(), 0, front.size() * 4, stream));
      wave_counts.allocate(1);
    }
    if (needs.frontier && needs.split_hubs) list_split_hubs(g.out());
    if (needs.labels) {
      prev.allocate(n), shared.allocate(n);
      samples.allocate(kGiantSamples), sample_roots.allocate(kGiantSamples);
    }
    if (needs.published) {
      contrib.allocate(n), next_contrib.allocate(n);
      sum_gather = needs.sum_gather;
      if (sum_gather == GpuGather::kBinned)
        plan_binned_gather(g.in(), up);
      else if (tiled_gather(sum_gather))
        plan_tiled_gather(g.in(), up);
      else
        plan_gather(g.in(), up);
    }
    boundary.allocate(n);
    up.copy(boundary.get(), part.boundary.data(), n);
    boundary_list.allocate(part.boundary_list.size());
    up.copy(boundary_list.get(), part.boundary_list.data(), part.boundary_list.size() * sizeof(vid_t));
    counters.allocate(1);
    CHATTY_CUDA(cudaMemsetAsync(counters.get(), 0, sizeof(Counters), stream));
    wire_mailboxes(mb, L.record_capacity * needs.record_bytes, mapped_send);
    sync();
  }

  void release() {
    cudaSetDevice(gpu);
    for (std::byte*& p : send_mapped_)
      if (p) cudaFreeHost(p), p = nullptr;
    if (stream) cudaStreamDestroy(stream), stream = nullptr;
  }

  void upload_chunk(const Csr& csr, bool with_targets, bool with_weights, DeviceArray<eid_t>& o, DeviceArray<vid_t>& t,
                    DeviceArray<weight_t>* w, Uploader& up) {
    const eid_t first = csr.offsets[lo], last = csr.offsets[hi];
    std::vector<eid_t> local(size_t(nd()) + 1);
    for (size_t i = 0; i < local.size(); ++i) local[i] = csr.offsets[lo + i] - first;
    o.allocate(local.size());
    up.copy(o.get(), local.data(), local.size() * sizeof(eid_t));
    if (with_targets) {
      t.allocate(last - first);
      up.copy(t.get(), csr.targets.data() + first, (last - first) * sizeof(vid_t));
    }
    if (with_weights && w) {
      w->allocate(last - first);
      up.copy(w->get(), csr.weights.data() + first, (last - first) * sizeof(weight_t));
    }
    sync();  // `local` dies here
  }

  // Hubs get a block each; the others G lanes, G minimising the lane-slots
  // sum (ceil(d / G) + 1) * G over a sample of the chunk's in-degrees (the
  // +1 is the per-vertex read of offsets and the apply).
  void plan_gather(const Csr& in, Uploader& up) {
    std::vector<vid_t> hubs;
    for (vid_t v = lo; v < hi; ++v)
      if (in.degree(v) >= kHeavyDegree) hubs.push_back(v);
    heavy.allocate(hubs.size());
    up.copy(heavy.get(), hubs.data(), hubs.size() * sizeof(vid_t));
    double best = -1;
    const vid_t step = std::max<vid_t>(1, nd() / 8192);
    for (int G : {4, 8, 16, 32}) {
      double cost = 0;
      for (uint64_t v = lo; v < hi; v += step) {
        const eid_t d = in.degree(v);
        if (d < kHeavyDegree) cost += double((d + G - 1) / G + 1) * G;
      }
      if (best < 0 || cost < best) best = cost, group = G;
    }
    sync();  // `hubs` dies here
  }

  void plan_binned_gather(const Csr& in, Uploader& up) {
    static_assert(kHubDegree == kHeavyDegree, "both gathers take the same rows for hubs");
    const GatherBins b = plan_gather_bins(in.offsets.data() + lo, nd());
    bin_start = b.start;
    bin_list.allocate(b.list.size());
    up.copy(bin_list.get(), b.list.data(), b.list.size() * sizeof(vid_t));
    bin_hubs.allocate(b.hubs.size());
    up.copy(bin_hubs.get(), b.hubs.data(), b.hubs.size() * sizeof(vid_t));
    pieces.allocate(b.pieces.size());
    up.copy(pieces.get(), b.pieces.data(), b.pieces.size() * sizeof(GatherPiece));
    hub_sum.allocate(b.hubs.size());
    CHATTY_CUDA(cudaMemsetAsync(hub_sum.get(), 0, b.hubs.size() * sizeof(double), stream));
    sync();  // `b` dies here
  }

  void list_split_hubs(const Csr& out) {
    static_assert(kSplitDegree == kSplitHubDegree && sizeof(SplitHub) == kSplitHubBytes,
                  "runtime/cuda/gpu_plan's room");
    ull hubs = 0;
    for (vid_t v = lo; v < hi; ++v) hubs += out.degree(v) >= kSplitDegree;
    split_hubs.allocate(hubs);
    split_counts.allocate(3);
    CHATTY_CUDA(cudaMemsetAsync(split_counts.get(), 0, 3 * sizeof(ull), stream));
    split = HubList{split_hubs.get(), split_counts.get(), hubs, split_counts.get() + 1};
  }

  void plan_tiled_gather(const Csr& in, Uploader& up) {
    const GatherTiles t = plan_gather_tiles(in.offsets.data() + lo, nd());
    tiles.allocate(t.tiles.size());
    up.copy(tiles.get(), t.tiles.data(), t.tiles.size() * sizeof(GatherTile));
    bin_hubs.allocate(t.split.size());
    up.copy(bin_hubs.get(), t.split.data(), t.split.size() * sizeof(vid_t));
    hub_sum.allocate(t.split.size());
    CHATTY_CUDA(cudaMemsetAsync(hub_sum.get(), 0, t.split.size() * sizeof(double), stream));
    sync();  // `t` dies here
  }

  void wire_mailboxes(Mailboxes& mb, size_t slot_bytes, bool mapped_send) {
    const int P = mb.devices();
    mb.endpoint(d) = Endpoint{mapped_send ? MemorySpace::kMapped : MemorySpace::kDevice, gpu, stream};
    if (P == 1) return;
    recv_store_.allocate(slot_bytes * size_t(2 * P));
    send_dev_.allocate(mapped_send ? 0 : 2 * slot_bytes);
    for (int p = 0; p < 2; ++p) {
      Slot& s = mb.send(d, p);
      if (mapped_send) {
        CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&send_mapped_[p]), std::max<size_t>(slot_bytes, 1),
                                  cudaHostAllocMapped | cudaHostAllocPortable));
        void* dev = nullptr;
        CHATTY_CUDA(cudaHostGetDevicePointer(&dev, send_mapped_[p], 0));
        s.storage = s.data = static_cast<std::byte*>(dev);
      } else {
        s.storage = s.data = send_dev_.get() + size_t(p) * slot_bytes;
      }
      s.capacity = slot_bytes;
      for (int peer = 0; peer < P; ++peer) {
        Slot& r = mb.recv(p, d, peer);
        r.storage = r.data = recv_store_.get() + size_t(p * P + peer) * slot_bytes;
        r.capacity = slot_bytes;
        r.count = 0;
      }
    }
  }

  DeviceArray<std::byte> send_dev_, recv_store_;
  std::byte* send_mapped_[2] = {nullptr, nullptr};
};

}  // namespace chatty::cuda
