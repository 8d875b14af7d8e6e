// Connectivity (WCC) on GPU devices: Afforest across devices by settling
// boundary labels. Not yet on the shared drivers: the host runs a newer
// protocol (runtime/multi_connectivity.h) that this one is to be replaced by.
#pragma once

#include <vector>

#include "kernels/cuda/connectivity.cuh"
#include "runtime/cuda/gpu_mechanisms.cuh"
#include "runtime/hash.h"
#include "runtime/superstep_decisions.h"

namespace chatty::cuda {

// WCC, Afforest across devices by settling boundary labels: link a sample,
// then each superstep resolve every boundary vertex's root and send those
// that dropped, until none do; elect the giant after one exchange; link
// the other edges outside it and settle again.
inline void connectivity(GpuRun& run, GpuDevice& dev, const Graph& g, bool lb) {
  constexpr eid_t kSample = 2;
  const vid_t n = dev.n;
  vid_t* label = dev.values.get();
  const ull boundary_count = dev.boundary_list.size();
  enum Stage { kLinkSample, kSettleSample, kLinkRest, kSettleRest } stage = kLinkSample;
  vid_t giant = n;
  std::vector<vid_t> samples, roots;  // the device arrays are allocated with the device, outside the timing
  bool ok = guarded(run, [&] {
    CHATTY_CUDA(cudaMemcpyAsync(dev.prev.get(), label, size_t(n) * 4, cudaMemcpyDeviceToDevice, dev.stream));
    if (!g.directed() && dev.nd() > 0) {
      for (uint64_t i = 0; i < GpuDevice::kGiantSamples; ++i)
        samples.push_back(dev.lo + vid_t(hash2(0xAF, i) % dev.nd()));
      roots.resize(samples.size());
      CHATTY_CUDA(
          cudaMemcpyAsync(dev.samples.get(), samples.data(), samples.size() * 4, cudaMemcpyHostToDevice, dev.stream));
    }
    dev.sync();
  });
  GpuRun::Clock clk;
  for (uint32_t k = 0;; ++k) {
    const int parity = int(k & 1);
    DeviceStatus vote;
    ok =
        ok && guarded(run, [&] {
          reset_step_kernel<<<1, 1, 0, dev.stream>>>(dev.c());
          CHATTY_CUDA_LAUNCHED("reset_step_kernel");
          phase(clk, dev, kMerge, [&] {
            for_each_received<uint32_t>(run, dev, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
              link_received_kernel<<<l.grid, l.block, 0, dev.stream>>>(rec, count, label);
              CHATTY_CUDA_LAUNCHED("link_received_kernel");
            });
          });
          phase(clk, dev, kCompute, [&] {
            const Launch own = dev.launch(dev.nd()), all = dev.launch(n);
            if (stage == kLinkSample) {
              for (eid_t r = 0; r < kSample; ++r) {
                link_sample_kernel<<<own.grid, own.block, 0, dev.stream>>>(dev.off.get(), dev.targets.get(), dev.lo,
                                                                           dev.nd(), r, label);
                compress_kernel<<<all.grid, all.block, 0, dev.stream>>>(0, n, label);
              }
              CHATTY_CUDA_LAUNCHED("link_sample_kernel");
              stage = kSettleSample;
            } else if (stage == kLinkRest) {
              compress_kernel<<<own.grid, own.block, 0, dev.stream>>>(dev.lo, dev.hi, label);
              CHATTY_CUDA_LAUNCHED("compress_kernel");
              advance(dev, RestSource{dev.off.get(), dev.lo, dev.nd(), kSample, label, giant, dev.nd()},
                      LinkEdge{dev.targets.get(), label}, lb, nullptr, dev.nd());
              stage = kSettleRest;
            }
            if (boundary_count) {
              const Launch b = dev.launch(boundary_count);
              settle_kernel<<<b.grid, b.block, 0, dev.stream>>>(dev.boundary_list.get(), boundary_count, dev.lo, dev.hi,
                                                                label, dev.prev.get(), dev.changed.get(), dev.c());
              CHATTY_CUDA_LAUNCHED("settle_kernel");
            }
            if (stage == kSettleSample && !samples.empty()) {
              sample_roots_kernel<<<(unsigned(samples.size()) + 255) / 256, 256, 0, dev.stream>>>(
                  dev.samples.get(), int(samples.size()), label, dev.sample_roots.get());
              CHATTY_CUDA_LAUNCHED("sample_roots_kernel");
              CHATTY_CUDA(cudaMemcpyAsync(roots.data(), dev.sample_roots.get(), roots.size() * 4,
                                          cudaMemcpyDeviceToHost, dev.stream));
              dev.sync();
              vote_for_giant(roots, vote);
            }
          });
          phase(clk, dev, kCompact, [&] { compact(run, dev, parity, dev.changed.get(), &dev.c()->changed, 0, label); });
        });
    SlotSources slots;
    slots.word_value[kGiantLabelSlot.index] = vote.at(kGiantLabelSlot);
    slots.word_value[kGiantVotesSlot.index] = vote.at(kGiantVotesSlot);
    const auto all = run.sync(dev, parity, ok, clk, slots, false);
    if (GpuRun::failed(all)) return;
    const bool quiet = Agreed{all}.sum(&DeviceStatus::sent) == 0;
    if (stage == kSettleSample && (k >= 1 || quiet)) {  // as on the CPU: elect after one exchange
      giant = elect_giant(all, giant);
      stage = kLinkRest;
      continue;
    }
    if (quiet && stage == kSettleRest) break;
  }
  guarded(run, [&] {
    const Launch own = dev.launch(dev.nd());
    compress_kernel<<<own.grid, own.block, 0, dev.stream>>>(dev.lo, dev.hi, label);
    CHATTY_CUDA_LAUNCHED("compress_kernel");
    dev.sync();
  });
}

}  // namespace chatty::cuda
