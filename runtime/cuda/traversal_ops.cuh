// A GPU device's mechanisms for the frontier driver
// (runtime/drivers/traversal.h): the active queue and changed list in device
// memory, deduplicated by per-superstep stamps, the frontier bitmap of pull
// steps, and the push advance by the chosen load balance.
#pragma once

#include <vector>

#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/drivers/traversal.h"
#include "runtime/engine/family.h"

namespace chatty::cuda {

template <typename P>
class TraversalOps : public GpuOps {
 public:
  static constexpr Family kFamily = Family::kTraversal;  // the driver that runs it (runtime/engine/run_program.h)
  // `waves`: --gpu_wave asks for them.
  TraversalOps(GpuRun& run, GpuDevice& dev, const P& prog, bool can_pull, GpuLb lb, bool waves)
      : GpuOps(run, dev),
        prog_(prog),
        front_(can_pull ? dev.front.get() : nullptr),
        lb_(lb),
        relax_{prog, dev.targets.get(), dev.weights.get(), dev.values.get(), dev.claim.get(),
               0,    dev.changed.get(), &dev.c()->changed} {
    slots_.word[kScoutSlot.index] = &dev.c()->scout;
    plan_waves<wave::TraversalWave<P>>(waves);
  }

  void start(const std::vector<vid_t>& all_start) {
    std::vector<uint32_t> bits(front_ ? dev_.front.size() : 0, 0);
    if (front_)
      for (vid_t v : all_start) bits[v >> 5] |= 1u << (v & 31);
    const std::vector<vid_t> start = owned_start(all_start, dev_);
    guard([&] {
      CHATTY_CUDA(cudaMemcpyAsync(dev_.active.get(), start.data(), start.size() * sizeof(vid_t), cudaMemcpyHostToDevice,
                                  dev_.stream));
      if (front_)
        CHATTY_CUDA(cudaMemcpyAsync(front_, bits.data(), bits.size() * 4, cudaMemcpyHostToDevice, dev_.stream));
      set_counter(dev_, &Counters::active, start.size());
      dev_.sync();  // the host vectors die here
    });
  }

  void merge(int parity) {
    guard([&] {
      reset_step();
      phase(clk_, dev_, kMerge, [&] {
        for_each_received<uint32_t>(run_, dev_, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
          merge_kernel<P><<<l.grid, l.block, 0, dev_.stream>>>(rec, count, dev_.values.get(), dev_.lo, dev_.hi,
                                                               dev_.stamp.get(), k_ + 1, dev_.active.get(),
                                                               &dev_.c()->active, front_, dev_.c());
          CHATTY_CUDA_LAUNCHED("merge_kernel");
        });
      });
    });
  }

  void push() {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        relax_.epoch = k_ + 1;
        advance(dev_, QueueSource{dev_.active.get(), &dev_.c()->active, dev_.off.get(), dev_.lo}, relax_, lb_,
                &dev_.c()->active, 0);
        activate();
      });
    });
  }

  void pull(uint32_t level) {
    if constexpr (P::kPullable) {  // pull_kernel exists for pullable programs only
      guard([&] {
        phase(clk_, dev_, kCompute, [&] {
          const Launch l = dev_.launch(dev_.nd());
          pull_kernel<P><<<l.grid, l.block, 0, dev_.stream>>>(prog_, dev_.in_off.get(), dev_.in_targets.get(), dev_.lo,
                                                              dev_.nd(), dev_.values.get(), front_, level,
                                                              dev_.changed.get(), dev_.c());
          CHATTY_CUDA_LAUNCHED("pull_kernel");
          activate();
        });
      });
    }
  }

  void compact(int parity) {
    guard([&] {
      phase(clk_, dev_, kCompact,
            [&] { cuda::compact(run_, dev_, parity, dev_.changed.get(), &dev_.c()->changed, 0, dev_.values.get()); });
    });
  }

  // Push supersteps in one launch from the active queue, which holds the
  // last one's frontier at the end (and the bitmap, where pull steps read it).
  void wave(const wave::Limits& limits) {
    Counters* c = dev_.c();
    const wave::TraversalWave<P> w{
        wave_shared(dev_.active.get(), dev_.changed.get(), &c->active, dev_.pile.get(), &c->scout, nullptr, limits),
        prog_,
        dev_.values.get(),
        dev_.claim.get(),
        k_ + 1,
        front_,
        front_ ? uint64_t(dev_.front.size()) : 0};
    run_wave(w, 0);
  }

  // The activation kernel keeps the active queue in both directions.
  void resume_push() {}

 private:
  // The changed owned vertices become the next frontier, once each.
  void activate() {
    set_counter(dev_, &Counters::active, 0);
    if (front_) CHATTY_CUDA(cudaMemsetAsync(front_, 0, dev_.front.size() * 4, dev_.stream));
    const Launch l = dev_.launch_max();
    activate_kernel<<<l.grid, l.block, 0, dev_.stream>>>(dev_.changed.get(), dev_.lo, dev_.hi, dev_.off.get(),
                                                         dev_.stamp.get(), k_ + 2, dev_.active.get(), front_, dev_.c());
    CHATTY_CUDA_LAUNCHED("activate_kernel");
  }

  const P prog_;
  uint32_t* front_;
  const GpuLb lb_;
  PushRelax<P> relax_;
};

}  // namespace chatty::cuda
