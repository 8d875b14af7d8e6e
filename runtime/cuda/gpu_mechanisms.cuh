// Pieces every GPU family's ops share: launching the advance by the chosen
// load balance, compaction into the send buffer, the error guard that turns
// an exception into a failed status, phase timing, and the base of the ops
// classes (runtime/cuda/*_ops.cuh) that the drivers in runtime/drivers/ run.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/cuda/traversal.cuh"
#include "kernels/cuda/wave.cuh"
#include "runtime/cuda/gpu_superstep.cuh"
#include "runtime/drivers/agreed.h"

namespace chatty::cuda {

template <typename P>
__global__ void init_values_kernel(P prog, vid_t n, typename P::Value* values) {
  for (ull v = ull(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += ull(gridDim.x) * blockDim.x)
    values[v] = prog.init(vid_t(v));
}

static __global__ void set_flags_kernel(const vid_t* list, ull count, uint32_t* flags, uint32_t value) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    flags[list[i]] = value;
}

inline void set_counter(GpuDevice& dev, ull Counters::*field, ull v) {
  set_counter_kernel<<<1, 1, 0, dev.stream>>>(&(dev.c()->*field), v);
  CHATTY_CUDA_LAUNCHED("set_counter_kernel");
}

// Push advance by the chosen load-balancing mechanism (policy apart from
// the kernels). Both kernels read the item count on the device when it lives
// there, so no step waits for the host.
template <typename Source, typename Fn>
void advance(GpuDevice& dev, const Source& src, const Fn& fn, GpuLb lb, const ull* count_on_device, ull count) {
  if (!count_on_device && count == 0) return;
  const Launch l = count_on_device ? dev.launch_max() : dev.launch(count);
  if (lb == GpuLb::kLb) {
    lb_advance_kernel<<<l.grid, kBlock, 0, dev.stream>>>(src, fn, &dev.c()->edges);
    CHATTY_CUDA_LAUNCHED("lb_advance_kernel");
  } else if (lb == GpuLb::kSplit && dev.split.capacity) {
    twc_advance_kernel<<<l.grid, l.block, 0, dev.stream>>>(src, fn, &dev.c()->edges, dev.split);
    CHATTY_CUDA_LAUNCHED("twc_advance_kernel");
    scan_hubs_kernel<<<1, kBlock, 0, dev.stream>>>(dev.split);
    CHATTY_CUDA_LAUNCHED("scan_hubs_kernel");
    const Launch wave = launch_for(uint64_t(dev.sms) * 2048, dev.sms, 1, 1);  // one resident wave
    spread_hubs_kernel<<<wave.grid, wave.block, 0, dev.stream>>>(dev.split, fn, &dev.c()->edges);
    CHATTY_CUDA_LAUNCHED("spread_hubs_kernel");
  } else {  // twc, or split on a chunk without hubs
    twc_advance_kernel<<<l.grid, l.block, 0, dev.stream>>>(src, fn, &dev.c()->edges);
    CHATTY_CUDA_LAUNCHED("twc_advance_kernel");
  }
}

// Compacts the listed vertices that must travel (remote ones and owned
// boundary ones; with `every`, all) into the send buffer for parity ^ 1.
template <typename V>
void compact(GpuRun& run, GpuDevice& dev, int parity, const vid_t* list, const ull* count, ull fixed, const V* src,
             bool every = false) {
  if (run.D == 1) return;
  const Launch l = count ? dev.launch_max() : dev.launch(fixed);
  const Slot& slot = run.mb.send(dev.d, parity ^ 1);
  auto* out = reinterpret_cast<Update<V>*>(slot.storage);
  compact_kernel<V><<<l.grid, l.block, 0, dev.stream>>>(list, count, fixed, every ? nullptr : dev.boundary.get(),
                                                        dev.lo, dev.hi, src, out, slot.capacity / sizeof(Update<V>),
                                                        &dev.c()->sent);
  CHATTY_CUDA_LAUNCHED("compact_kernel");
}

// Runs body(); an exception is recorded and turns into a failed status.
template <typename F>
bool guarded(GpuRun& run, F body) {
  try {
    body();
    return true;
  } catch (const std::exception& e) {
    run.fail(e.what());
    return false;
  }
}

// One phase of a superstep: `body` enqueues work on the device's stream and
// returns without waiting; events around it give the phase's GPU time.
template <typename F>
void phase(GpuRun::Clock& clk, GpuDevice& dev, Phase p, F body) {
  clk.device_begin(p, dev.stream);
  body();
  clk.device_end(p, dev.stream);
}

// Calls f(records, count, launch) for every peer slot of `parity` holding records.
template <typename V, typename F>
void for_each_received(GpuRun& run, GpuDevice& dev, int parity, F f) {
  for (int peer = 0; peer < run.D; ++peer) {
    const Slot& s = run.mb.recv(parity, dev.d, peer);
    if (peer == dev.d || s.count == 0) continue;
    f(reinterpret_cast<const Update<V>*>(s.data), ull(s.count), dev.launch(s.count));
  }
}

// The start set's vertices this device owns.
inline std::vector<vid_t> owned_start(const std::vector<vid_t>& start, const GpuDevice& dev) {
  std::vector<vid_t> s;
  for (vid_t v : start)
    if (v >= dev.lo && v < dev.hi) s.push_back(v);
  return s;
}

// What the ops of every family hold: the device, the run's shared state,
// the phase clock, the superstep index, and whether the device is still
// sound. An op after a failure does nothing; the failure is published at
// the next sync, where every device stops.
class GpuOps {
 public:
  GpuOps(GpuRun& run, GpuDevice& dev) : run_(run), dev_(dev) {}

  // Publishes status, meets the other devices, exchanges.
  Agreed sync(int parity, bool pull = false) {
    Agreed a{run_.sync(dev_, parity, ok_, clk_, slots_, pull)};
    ++k_;
    // A wave's levels took a superstep index each (its claim marks).
    if (waved_) k_ += uint32_t(a.all[size_t(dev_.d)].supersteps - 1), waved_ = false;
    after_sync_ = true;
    return a;
  }
  // A lone device only (nothing to exchange): ends the superstep without a
  // sync, so the next one is queued behind it on the stream.
  void step_on() {
    ++k_;
    after_sync_ = false;
  }
  bool lone() const { return run_.D == 1; }
  // A lone device on a GPU that launches cooperatively, where the run asked for waves.
  bool can_wave() const { return lone() && wave_blocks_ > 0; }
  // The widest frontier this device runs as a wave (0: none).
  uint64_t wave_items(const EngineOptions& opt) const { return can_wave() ? opt.gpu_wave : 0; }

 protected:
  // Runs body() unless an earlier op failed.
  template <typename F>
  void guard(F body) {
    ok_ = ok_ && guarded(run_, body);
  }
  // Where waves are asked for (--gpu_wave) on a lone device: the blocks a
  // wave of W launches (0 where the GPU cannot).
  template <typename W>
  void plan_waves(bool asked) {
    if (asked && lone()) wave_blocks_ = wave_blocks<W>(dev_.gpu, dev_.sms);
  }
  // Runs the wave `w` from `bucket` in the superstep's compute phase.
  template <typename W>
  void run_wave(const W& w, uint64_t bucket) {
    guard([&] {
      phase(clk_, dev_, kCompute, [&] { launch_wave(w, bucket, wave_blocks_, dev_.stream); });
      waved_ = true;
    });
  }
  // The wave's view of the device: its rows, counts and results.
  wave::Shared wave_shared(vid_t* first, vid_t* second, ull* size, vid_t* hubs, ull* scout, ull* low,
                           const wave::Limits& limits) const {
    const auto u64 = [](ull* p) { return reinterpret_cast<uint64_t*>(p); };
    Counters* c = dev_.c();
    wave::Out out{u64(size), u64(scout), u64(low), u64(&c->steps), u64(&c->edges), u64(&c->updated), nullptr};
    return wave::Shared{wave::Rows{dev_.off.get(), dev_.targets.get(), dev_.weights.get()},
                        dev_.wave_counts.get(),
                        {first, second},
                        u64(size),
                        hubs,
                        limits,
                        out};
  }

  // Starts a superstep's device work: its counters cleared.
  void reset_step() {
    reset_step_kernel<<<1, 1, 0, dev_.stream>>>(dev_.c(), after_sync_);
    CHATTY_CUDA_LAUNCHED("reset_step_kernel");
  }

  GpuRun& run_;
  GpuDevice& dev_;
  GpuRun::Clock clk_;
  SlotSources slots_;  // the family's status slots: set by each ops class
  uint32_t k_ = 0;     // superstep index: stamps and claims are per superstep
  bool after_sync_ = true;
  unsigned wave_blocks_ = 0;
  bool waved_ = false;  // a wave ran since the last sync
  bool ok_ = true;
};

}  // namespace chatty::cuda
