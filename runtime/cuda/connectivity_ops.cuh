// A GPU device's mechanisms for the connectivity driver
// (runtime/drivers/connectivity.h): a union-find forest over the device's
// label array, linked by kernels. Records are (vertex, root) pairs, the
// host devices' protocol without its bit-word encoding. `shared` flags the
// vertices peers may hold in a tree (boundary vertices and every root
// sent); only their moves travel.
#pragma once

#include <vector>

#include "kernels/cuda/connectivity.cuh"
#include "runtime/base/hash.h"
#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/drivers/connectivity.h"
#include "runtime/engine/family.h"

namespace chatty::cuda {

class ConnectivityOps : public GpuOps {
  static constexpr eid_t kSample = 2;

 public:
  static constexpr Family kFamily = Family::kLinking;  // the driver that runs it (runtime/engine/run_program.h)
  ConnectivityOps(GpuRun& run, GpuDevice& dev, bool directed, GpuLb lb)
      : GpuOps(run, dev), directed_(directed), lb_(lb) {
    guard([&] {
      const ull boundary = dev_.boundary_list.size();
      CHATTY_CUDA(cudaMemsetAsync(dev_.shared.get(), 0, size_t(dev_.n), dev_.stream));
      if (boundary) {
        const Launch b = dev_.launch(boundary);
        flag_kernel<<<b.grid, b.block, 0, dev_.stream>>>(dev_.boundary_list.get(), boundary, dev_.shared.get());
        CHATTY_CUDA_LAUNCHED("flag_kernel");
      }
      if (!directed_ && dev_.nd() > 0) {  // the device arrays are allocated with the device, outside the timing
        for (uint64_t i = 0; i < GpuDevice::kGiantSamples; ++i)
          samples_.push_back(dev_.lo + vid_t(hash2(0xAF, i) % dev_.nd()));
        roots_.resize(samples_.size());
        CHATTY_CUDA(cudaMemcpyAsync(dev_.samples.get(), samples_.data(), samples_.size() * 4, cudaMemcpyHostToDevice,
                                    dev_.stream));
      }
      dev_.sync();
    });
  }

  void merge(int, int parity) {
    slots_ = SlotSources{};
    guard([&] {
      reset_step();
      phase(clk_, dev_, kMerge, [&] {
        for_each_received<uint32_t>(run_, dev_, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
          link_received_kernel<<<l.grid, l.block, 0, dev_.stream>>>(rec, count, label(), dev_.shared.get());
          CHATTY_CUDA_LAUNCHED("link_received_kernel");
        });
      });
    });
  }

  void link_sample() {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        const Launch own = dev_.launch(dev_.nd()), all = dev_.launch(dev_.n);
        for (eid_t r = 0; r < kSample; ++r) {
          link_sample_kernel<<<own.grid, own.block, 0, dev_.stream>>>(dev_.off.get(), dev_.targets.get(), dev_.lo,
                                                                      dev_.nd(), r, label());
          CHATTY_CUDA_LAUNCHED("link_sample_kernel");
          compress_kernel<<<all.grid, all.block, 0, dev_.stream>>>(0, dev_.n, label());
          CHATTY_CUDA_LAUNCHED("compress_kernel");
        }
      });
    });
  }

  void vote() {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        compress_owned();
        if (samples_.empty()) return;
        sample_roots_kernel<<<(unsigned(samples_.size()) + 255) / 256, 256, 0, dev_.stream>>>(
            dev_.samples.get(), int(samples_.size()), label(), dev_.sample_roots.get());
        CHATTY_CUDA_LAUNCHED("sample_roots_kernel");
        CHATTY_CUDA(cudaMemcpyAsync(roots_.data(), dev_.sample_roots.get(), roots_.size() * 4, cudaMemcpyDeviceToHost,
                                    dev_.stream));
        dev_.sync();
        DeviceStatus vote;
        vote_for_giant(roots_, vote);
        slots_.word_value[kGiantLabelSlot.index] = vote.at(kGiantLabelSlot);
        slots_.word_value[kGiantVotesSlot.index] = vote.at(kGiantVotesSlot);
      });
    });
  }

  // Links the rest, then lists the shared vertices whose roots moved;
  // every label is a root before, so `prev` holds the roots to compare with.
  void link_rest(vid_t giant) {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] {
        const Launch all = dev_.launch(dev_.n);
        compress_kernel<<<all.grid, all.block, 0, dev_.stream>>>(0, dev_.n, label());
        CHATTY_CUDA_LAUNCHED("compress_kernel");
        CHATTY_CUDA(
            cudaMemcpyAsync(dev_.prev.get(), label(), size_t(dev_.n) * 4, cudaMemcpyDeviceToDevice, dev_.stream));
        advance(dev_, RestSource{dev_.off.get(), dev_.lo, dev_.nd(), kSample, label(), giant, dev_.nd()},
                LinkEdge{dev_.targets.get(), label()}, lb_, nullptr, dev_.nd());
        if (run_.D == 1) return;  // nobody to tell
        moved_kernel<<<all.grid, all.block, 0, dev_.stream>>>(dev_.n, label(), dev_.prev.get(), dev_.shared.get(),
                                                              dev_.changed.get(), dev_.c());
        CHATTY_CUDA_LAUNCHED("moved_kernel");
      });
    });
  }

  void describe(int parity) {
    guard([&] {
      const ull boundary = dev_.boundary_list.size();
      phase(clk_, dev_, kCompact, [&] {
        if (boundary && run_.D > 1) {
          const Launch b = dev_.launch(boundary);
          describe_kernel<<<b.grid, b.block, 0, dev_.stream>>>(dev_.boundary_list.get(), boundary, label(),
                                                               dev_.shared.get(), dev_.changed.get(), dev_.c());
          CHATTY_CUDA_LAUNCHED("describe_kernel");
        }
        send_listed(parity);
      });
    });
  }

  // What link_rest listed (nothing in the other stages).
  void send_moved(int parity) {
    guard([&] { phase(clk_, dev_, kCompact, [&] { send_listed(parity); }); });
  }

  void finish() {
    guard([&] {
      compress_owned();
      dev_.sync();
    });
  }

 private:
  vid_t* label() const { return dev_.values.get(); }

  void compress_owned() {
    const Launch own = dev_.launch(dev_.nd());
    compress_kernel<<<own.grid, own.block, 0, dev_.stream>>>(dev_.lo, dev_.hi, label());
    CHATTY_CUDA_LAUNCHED("compress_kernel");
  }

  // The listed vertices (the step's `changed` count) with their labels, roots by now.
  void send_listed(int parity) {
    cuda::compact(run_, dev_, parity, dev_.changed.get(), &dev_.c()->changed, 0, label(), true);
  }

  const bool directed_;
  const GpuLb lb_;
  std::vector<vid_t> samples_, roots_;
};

}  // namespace chatty::cuda
