// A GPU device's mechanisms for the gather driver
// (runtime/drivers/gather.h): contributions (rank / out-degree) of every
// vertex in two device arrays, peers' boundary contributions merged into
// both, and the gather kernel with the lane count chosen at setup (hubs
// by a block each).
#pragma once

#include <vector>

#include "kernels/cuda/gather.cuh"
#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/drivers/gather.h"
#include "runtime/partition.h"

namespace chatty::cuda {

template <typename P>
class GatherOps : public GpuOps {
 public:
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
        for_each_received<float>(run_, dev_, parity, [&](const Update<float>* rec, ull count, Launch l) {
          merge_contrib_kernel<<<l.grid, l.block, 0, dev_.stream>>>(rec, count, dev_.contrib.get(),
                                                                    dev_.next_contrib.get());
          CHATTY_CUDA_LAUNCHED("merge_contrib_kernel");
        });
      });
    });
  }

  void gather(double dangling) {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        float* ranks = this->ranks();
        if (dev_.heavy.size()) {
          const Launch h = dev_.launch(dev_.heavy.size() * kBlock);
          heavy_gather_kernel<P><<<h.grid, h.block, 0, dev_.stream>>>(
              prog_, dev_.heavy.get(), dev_.heavy.size(), dev_.in_off.get(), dev_.in_targets.get(), dev_.off.get(),
              dev_.lo, dev_.contrib.get(), dev_.next_contrib.get(), ranks, dangling, dev_.c());
          CHATTY_CUDA_LAUNCHED("heavy_gather_kernel");
        }
        switch (dev_.group) {
          case 4: launch<4>(ranks, dangling); break;
          case 8: launch<8>(ranks, dangling); break;
          case 16: launch<16>(ranks, dangling); break;
          default: launch<32>(ranks, dangling); break;
        }
        set_counter(dev_, &Counters::updated, dev_.nd());
        std::swap(dev_.contrib, dev_.next_contrib);
      });
    });
  }

  void compact(int parity) {
    guard([&] {
      phase(clk_, dev_, kCompact,
            [&] { cuda::compact(run_, dev_, parity, send_list_, nullptr, send_count_, dev_.contrib.get()); });
    });
  }

 private:
  float* ranks() const { return reinterpret_cast<float*>(dev_.values.get()); }

  // The gather kernel with G lanes per vertex (hubs aside).
  template <int G>
  void launch(float* ranks, double dangling) {
    const Launch l = dev_.launch(dev_.nd(), uint64_t(G));
    gather_kernel<G, P><<<l.grid, l.block, 0, dev_.stream>>>(prog_, dev_.in_off.get(), dev_.in_targets.get(),
                                                             dev_.off.get(), dev_.lo, dev_.nd(), dev_.contrib.get(),
                                                             dev_.next_contrib.get(), ranks, dangling, dev_.c());
    CHATTY_CUDA_LAUNCHED("gather_kernel");
  }

  const P prog_;
  const double dangling0_;
  const vid_t* send_list_;
  ull send_count_;
};

// Every vertex's first contribution and the dangling mass, once on the
// host for all devices.
template <typename P>
double first_contributions(const Graph& g, const P& prog, std::vector<float>& contrib) {
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  contrib.resize(n);
  double dangling = 0;
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = out.degree(v);
    if (d == 0) dangling += double(prog.init(v));
    contrib[v] = d ? float(prog.contribution(prog.init(v), d)) : 0.0f;
  }
  return dangling;
}

// Uploads the first contributions into both of the device's arrays (at
// setup, outside the run's time).
inline void upload_contributions(GpuDevice& dev, const std::vector<float>& contrib) {
  CHATTY_CUDA(
      cudaMemcpyAsync(dev.contrib.get(), contrib.data(), contrib.size() * 4, cudaMemcpyHostToDevice, dev.stream));
  CHATTY_CUDA(cudaMemcpyAsync(dev.next_contrib.get(), dev.contrib.get(), contrib.size() * 4, cudaMemcpyDeviceToDevice,
                              dev.stream));
}

}  // namespace chatty::cuda
