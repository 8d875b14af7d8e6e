// A GPU device's mechanisms for the ordered driver
// (runtime/drivers/ordered.h): the device's pending vertices in a pile
// (flag 1 in `stamp` while listed) that each superstep splits into the
// current bucket's vertices and the rest.
#pragma once

#include <vector>

#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/drivers/ordered.h"
#include "runtime/engine/family.h"

namespace chatty::cuda {

template <typename P>
class OrderedOps : public GpuOps {
 public:
  static constexpr Family kFamily = Family::kOrdered;  // the driver that runs it (runtime/engine/run_program.h)
  // `waves`: --gpu_wave asks for them.
  OrderedOps(GpuRun& run, GpuDevice& dev, const P& prog, uint64_t delta, GpuLb lb, bool warp_min, bool waves)
      : GpuOps(run, dev), prog_(prog), delta_(delta), lb_(lb), warp_min_(warp_min), relax_{prog,
                                                                                           dev.targets.get(),
                                                                                           dev.weights.get(),
                                                                                           dev.values.get(),
                                                                                           dev.claim.get(),
                                                                                           0,
                                                                                           dev.changed.get(),
                                                                                           &dev.c()->changed} {
    slots_.word[kBucketSlot.index] = &dev.c()->bucket;
    plan_waves<wave::OrderedWave<P>>(waves);
  }

  void start(const std::vector<vid_t>& all_start) {
    const std::vector<vid_t> start = owned_start(all_start, dev_);
    guard([&] {
      CHATTY_CUDA(cudaMemcpyAsync(dev_.pile.get(), start.data(), start.size() * sizeof(vid_t), cudaMemcpyHostToDevice,
                                  dev_.stream));
      if (!start.empty()) {
        const Launch l = dev_.launch(start.size());
        set_flags_kernel<<<l.grid, l.block, 0, dev_.stream>>>(dev_.pile.get(), start.size(), dev_.stamp.get(), 1);
        CHATTY_CUDA_LAUNCHED("set_flags_kernel");
      }
      set_counter(dev_, &Counters::pile, start.size());
      dev_.sync();  // `start` dies here
    });
  }

  void merge(int parity) {
    guard([&] {
      reset_step();
      phase(clk_, dev_, kMerge, [&] {  // owned vertices that improve join the pile (flag 1)
        for_each_received<uint32_t>(run_, dev_, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
          merge_kernel<P><<<l.grid, l.block, 0, dev_.stream>>>(rec, count, dev_.values.get(), dev_.lo, dev_.hi,
                                                               dev_.stamp.get(), 1, dev_.pile.get(), &dev_.c()->pile,
                                                               nullptr, dev_.c());
          CHATTY_CUDA_LAUNCHED("merge_kernel");
        });
      });
    });
  }

  void relax(uint64_t bucket) {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        set_counter(dev_, &Counters::active, 0);
        const Launch m = dev_.launch_max();
        (warp_min_ ? split_kernel<P, true> : split_kernel<P, false>)<<<m.grid, m.block, 0, dev_.stream>>>(
            prog_, dev_.pile.get(), dev_.values.get(), delta_, bucket, dev_.stamp.get(), dev_.active.get(),
            dev_.rest.get(), dev_.c());
        CHATTY_CUDA_LAUNCHED("split_kernel");
        std::swap(dev_.pile, dev_.rest);
        CHATTY_CUDA(
            cudaMemcpyAsync(&dev_.c()->pile, &dev_.c()->rest, sizeof(ull), cudaMemcpyDeviceToDevice, dev_.stream));
        relax_.epoch = k_ + 1;
        advance(dev_, QueueSource{dev_.active.get(), &dev_.c()->active, dev_.off.get(), dev_.lo}, relax_, lb_,
                &dev_.c()->active, 0);
        (warp_min_ ? pile_changed_kernel<P, true> : pile_changed_kernel<P, false>)<<<m.grid, m.block, 0, dev_.stream>>>(
            prog_, dev_.changed.get(), dev_.lo, dev_.hi, dev_.values.get(), delta_, dev_.stamp.get(), dev_.pile.get(),
            &dev_.c()->pile, dev_.c());
        CHATTY_CUDA_LAUNCHED("pile_changed_kernel");
      });
    });
  }

  // Buckets from `bucket` on in one launch: the pile (flag 1 in `stamp`)
  // is split and relaxed level by level, and left with its lowest bucket.
  void wave(uint64_t bucket, const wave::Limits& limits) {
    Counters* c = dev_.c();
    const wave::OrderedWave<P> w{
        wave_shared(dev_.pile.get(), dev_.rest.get(), &c->pile, dev_.changed.get(), nullptr, &c->bucket, limits),
        prog_,
        dev_.values.get(),
        dev_.stamp.get(),
        dev_.active.get(),
        delta_};
    run_wave(w, bucket);
  }

  void compact(int parity) {
    guard([&] {
      phase(clk_, dev_, kCompact,
            [&] { cuda::compact(run_, dev_, parity, dev_.changed.get(), &dev_.c()->changed, 0, dev_.values.get()); });
    });
  }

 private:
  const P prog_;
  const uint64_t delta_;
  const GpuLb lb_;
  const bool warp_min_;  // --gpu_bucket_min=warp
  PushRelax<P> relax_;
};

}  // namespace chatty::cuda
