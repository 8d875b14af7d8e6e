// A GPU device's mechanisms for the gather driver
// (runtime/drivers/gather.h): the published values of every vertex in two
// device arrays, peers' boundary values merged into both, and the gather
// kernel: for a sum, with the lane count chosen at setup (hubs by a block
// each); otherwise the program's own gather, a thread per vertex.
#pragma once

#include <vector>

#include "kernels/cuda/gather.cuh"
#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/drivers/gather.h"
#include "runtime/engine/family.h"
#include "runtime/graph/partition.h"

namespace chatty::cuda {

template <typename P>
class GatherOps : public GpuOps {
  using V = typename P::Value;
  static_assert(sizeof(V) == 4, "published values share the device's 32-bit arrays");

 public:
  static constexpr Family kFamily = Family::kGather;  // the driver that runs it (runtime/engine/run_program.h)
  // `dangling0`: the dangling mass of the first contributions.
  GatherOps(GpuRun& run, GpuDevice& dev, const P& prog, const Partition& part, double dangling0)
      : GpuOps(run, dev), prog_(prog), dangling0_(dangling0) {
    const auto [first, last] = part.boundary_of(dev.d);
    send_list_ = dev.boundary_list.get() + (first - part.boundary_list.data());
    send_count_ = ull(last - first);
    slots_.real[kL1Slot.index] = &dev.c()->l1;
    slots_.real[kDanglingSlot.index] = &dev.c()->dangling;
  }

  // The first contributions are uploaded with the device (upload_contributions).
  double start() { return dangling0_; }

  void merge(int parity) {
    guard([&] {
      reset_step();
      phase(clk_, dev_, kMerge, [&] {
        for_each_received<V>(run_, dev_, parity, [&](const Update<V>* rec, ull count, Launch l) {
          merge_contrib_kernel<V><<<l.grid, l.block, 0, dev_.stream>>>(rec, count, contrib(), next_contrib());
          CHATTY_CUDA_LAUNCHED("merge_contrib_kernel");
        });
      });
    });
  }

  void gather(double dangling) {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        if constexpr (P::kSums) {
          launch_sums(dangling);
        } else {
          const Launch l = dev_.launch(dev_.nd());
          vertex_gather_kernel<P><<<l.grid, l.block, 0, dev_.stream>>>(prog_, dev_.in_off.get(), dev_.in_targets.get(),
                                                                       dev_.off.get(), dev_.lo, dev_.nd(), contrib(),
                                                                       next_contrib(), values(), dangling, dev_.c());
          CHATTY_CUDA_LAUNCHED("vertex_gather_kernel");
        }
        set_counter(dev_, &Counters::updated, dev_.nd());
        std::swap(dev_.contrib, dev_.next_contrib);
      });
    });
  }

  void compact(int parity) {
    guard([&] {
      phase(clk_, dev_, kCompact,
            [&] { cuda::compact(run_, dev_, parity, send_list_, nullptr, send_count_, contrib()); });
    });
  }

 private:
  V* values() const { return reinterpret_cast<V*>(dev_.values.get()); }
  V* contrib() const { return reinterpret_cast<V*>(dev_.contrib.get()); }
  V* next_contrib() const { return reinterpret_cast<V*>(dev_.next_contrib.get()); }

  // A sum: hubs by a block each, the others by the group size chosen at
  // setup; or by in-degree bins or tiles (--gpu_gather=binned, tiled).
  void launch_sums(double dangling) {
    if (dev_.sum_gather == GpuGather::kBinned) return launch_binned(dangling);
    if (tiled_gather(dev_.sum_gather)) return launch_tiled(dangling);
    if (dev_.heavy.size()) {
      const Launch h = dev_.launch(dev_.heavy.size() * kBlock);
      heavy_gather_kernel<P><<<h.grid, h.block, 0, dev_.stream>>>(
          prog_, dev_.heavy.get(), dev_.heavy.size(), dev_.in_off.get(), dev_.in_targets.get(), dev_.off.get(), dev_.lo,
          contrib(), next_contrib(), values(), dangling, dev_.c());
      CHATTY_CUDA_LAUNCHED("heavy_gather_kernel");
    }
    switch (dev_.group) {
      case 4: launch<4>(dangling); break;
      case 8: launch<8>(dangling); break;
      case 16: launch<16>(dangling); break;
      default: launch<32>(dangling); break;
    }
  }

  // The sum kernel with G lanes per vertex of `list` (null: every owned
  // vertex, hubs aside).
  template <int G, bool kUnroll = false>
  void launch(double dangling, const vid_t* list = nullptr, vid_t count = 0) {
    if (!list) count = dev_.nd();
    if (count == 0) return;
    const Launch l = dev_.launch(count, uint64_t(G));
    gather_kernel<G, P, kUnroll><<<l.grid, l.block, 0, dev_.stream>>>(
        prog_, list, count, dev_.in_off.get(), dev_.in_targets.get(), dev_.off.get(), dev_.lo, contrib(),
        next_contrib(), values(), dangling, dev_.c());
    CHATTY_CUDA_LAUNCHED("gather_kernel");
  }

  // Each lane bin with its lane count, then the hubs' pieces and their finish.
  void launch_binned(double dangling) {
    const auto bin = [&](int b) {
      return std::pair{dev_.bin_list.get() + dev_.bin_start[size_t(b)],
                       vid_t(dev_.bin_start[size_t(b) + 1] - dev_.bin_start[size_t(b)])};
    };
    launch<1, true>(dangling, bin(0).first, bin(0).second);
    launch<2, true>(dangling, bin(1).first, bin(1).second);
    launch<4, true>(dangling, bin(2).first, bin(2).second);
    launch<8, true>(dangling, bin(3).first, bin(3).second);
    launch<16, true>(dangling, bin(4).first, bin(4).second);
    launch<32, true>(dangling, bin(5).first, bin(5).second);
    static_assert(kLaneBins == 6, "a launch per lane bin");
    if (dev_.pieces.size()) {
      const Launch p = dev_.launch(dev_.pieces.size() * kBlock);
      piece_gather_kernel<<<p.grid, p.block, 0, dev_.stream>>>(dev_.pieces.get(), dev_.pieces.size(),
                                                               dev_.in_targets.get(), contrib(), dev_.hub_sum.get());
      CHATTY_CUDA_LAUNCHED("piece_gather_kernel");
      finish_parts(dangling);
    }
  }

  // A block per tile, then the rows split between tiles.
  void launch_tiled(double dangling) {
    const ull count = dev_.tiles.size() - 1;
    if (count == 0) return;
    const Launch l = dev_.launch(count * kBlock);
    auto kernel = dev_.sum_gather == GpuGather::kStreamed ? tile_gather_kernel<P, int(kTileItems), true>
                                                          : tile_gather_kernel<P, int(kTileItems), false>;
    kernel<<<l.grid, l.block, 0, dev_.stream>>>(prog_, dev_.tiles.get(), count, dev_.in_off.get(),
                                                dev_.in_targets.get(), dev_.off.get(), dev_.lo, contrib(),
                                                next_contrib(), values(), dev_.hub_sum.get(), dangling, dev_.c());
    CHATTY_CUDA_LAUNCHED("tile_gather_kernel");
    if (dev_.bin_hubs.size()) finish_parts(dangling);
  }

  // The rows summed in parts into hub_sum (binned: hubs; tiled: split rows).
  void finish_parts(double dangling) {
    const Launch h = dev_.launch(dev_.bin_hubs.size());
    hub_finish_kernel<P><<<h.grid, h.block, 0, dev_.stream>>>(prog_, dev_.bin_hubs.get(), dev_.bin_hubs.size(),
                                                              dev_.hub_sum.get(), dev_.off.get(), dev_.lo,
                                                              next_contrib(), values(), dangling, dev_.c());
    CHATTY_CUDA_LAUNCHED("hub_finish_kernel");
  }

  const P prog_;
  const double dangling0_;
  const vid_t* send_list_;
  ull send_count_;
};

// Every vertex's first published value and the sink mass, once on the
// host for all devices.
template <typename P>
double first_contributions(const Graph& g, const P& prog, std::vector<typename P::Value>& contrib) {
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  contrib.resize(n);
  double dangling = 0;
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = out.degree(v);
    dangling += prog.sink(prog.init(v), d);
    contrib[v] = prog.publish(prog.init(v), d);
  }
  return dangling;
}

// Uploads the first contributions into both of the device's arrays (at
// setup, outside the run's time).
template <typename V>
void upload_contributions(GpuDevice& dev, const std::vector<V>& contrib) {
  static_assert(sizeof(V) == 4, "published values share the device's 32-bit arrays");
  CHATTY_CUDA(
      cudaMemcpyAsync(dev.contrib.get(), contrib.data(), contrib.size() * 4, cudaMemcpyHostToDevice, dev.stream));
  CHATTY_CUDA(cudaMemcpyAsync(dev.next_contrib.get(), dev.contrib.get(), contrib.size() * 4, cudaMemcpyDeviceToDevice,
                              dev.stream));
}

}  // namespace chatty::cuda
