// The superstep loops of the four program kinds on one GPU device, the
// GPU forms of runtime/multi_engine.h's loops (same phases, same status
// data, same decisions from global counts, so results match the CPU
// backend for any P). Each returns when every device agrees to stop.
#pragma once

#include <algorithm>
#include <unordered_map>

#include "kernels/cuda/connectivity.cuh"
#include "kernels/cuda/gather.cuh"
#include "runtime/cuda/gpu_superstep.cuh"
#include "runtime/engine_options.h"
#include "runtime/hash.h"
#include "runtime/superstep_decisions.h"

namespace chatty::cuda {

template <typename P>
__global__ void init_values_kernel(P prog, vid_t n, typename P::Value* values) {
  for (ull v = ull(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += ull(gridDim.x) * blockDim.x)
    values[v] = prog.init(vid_t(v));
}

__global__ inline void set_flags_kernel(const vid_t* list, ull count, uint32_t* flags, uint32_t value) {
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
void advance(GpuDevice& dev, const Source& src, const Fn& fn, bool lb, const ull* count_on_device, ull count) {
  if (!count_on_device && count == 0) return;
  const Launch l = count_on_device ? dev.launch_max() : dev.launch(count);
  if (lb) {
    lb_advance_kernel<<<l.grid, kBlock, 0, dev.stream>>>(src, fn, &dev.c()->edges);
    CHATTY_CUDA_LAUNCHED("lb_advance_kernel");
  } else {
    twc_advance_kernel<<<l.grid, l.block, 0, dev.stream>>>(src, fn, &dev.c()->edges);
    CHATTY_CUDA_LAUNCHED("twc_advance_kernel");
  }
}

// Compacts the listed vertices that must travel into the send buffer for parity ^ 1.
template <typename V>
void compact(GpuRun& run, GpuDevice& dev, int parity, const vid_t* list, const ull* count, ull fixed, const V* src) {
  if (run.D == 1) return;
  const Launch l = count ? dev.launch_max() : dev.launch(fixed);
  const Slot& slot = run.mb.send(dev.d, parity ^ 1);
  auto* out = reinterpret_cast<Update<V>*>(slot.storage);
  compact_kernel<V><<<l.grid, l.block, 0, dev.stream>>>(list, count, fixed, dev.boundary.get(), dev.lo, dev.hi, src,
                                                        out, slot.capacity / sizeof(Update<V>), &dev.c()->sent);
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

// Frontier programs: BFS with the direction switch on global counts, plain
// push otherwise (WCC by label propagation).
template <typename P>
void traverse(GpuRun& run, GpuDevice& dev, const Graph& g, const P& prog, const EngineOptions& opt,
              const std::vector<vid_t>& all_start, bool lb) {
  const Csr& out = g.out();
  const bool can_pull = P::kPullable && opt.direction != Direction::kPush;
  uint32_t* front = can_pull ? dev.front.get() : nullptr;
  uint32_t level = all_start.empty() ? 0 : prog.init(all_start[0]);
  uint64_t scout = 0;
  std::vector<uint32_t> bits(can_pull ? dev.front.size() : 0, 0);
  for (vid_t v : all_start) {
    if (can_pull) bits[v >> 5] |= 1u << (v & 31);
    scout += out.degree(v);
  }
  const std::vector<vid_t> start = owned_start(all_start, dev);
  bool ok = guarded(run, [&] {
    CHATTY_CUDA(cudaMemcpyAsync(dev.active.get(), start.data(), start.size() * sizeof(vid_t), cudaMemcpyHostToDevice,
                                dev.stream));
    if (can_pull) CHATTY_CUDA(cudaMemcpyAsync(front, bits.data(), bits.size() * 4, cudaMemcpyHostToDevice, dev.stream));
    set_counter(dev, &Counters::active, start.size());
    dev.sync();
  });
  DirectionSwitch direction(out.num_edges(), scout, dev.n, opt.alpha, opt.beta);
  bool pull = can_pull && opt.direction == Direction::kPull;
  PushRelax<P> relax{prog, dev.targets.get(), dev.weights.get(), dev.values.get(), dev.claim.get(),
                     0,    dev.changed.get(), &dev.c()->changed};
  GpuRun::Clock clk;
  for (uint32_t k = 0;; ++k) {
    const int parity = int(k & 1);
    ok = ok && guarded(run, [&] {
           reset_step_kernel<<<1, 1, 0, dev.stream>>>(dev.c());
           CHATTY_CUDA_LAUNCHED("reset_step_kernel");
           phase(clk, dev, kMerge, [&] {
             for_each_received<uint32_t>(run, dev, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
               merge_kernel<P><<<l.grid, l.block, 0, dev.stream>>>(rec, count, dev.values.get(), dev.lo, dev.hi,
                                                                   dev.stamp.get(), k + 1, dev.active.get(),
                                                                   &dev.c()->active, front, dev.c());
               CHATTY_CUDA_LAUNCHED("merge_kernel");
             });
           });
           phase(clk, dev, kCompute, [&] {
             bool pulled = false;
             if constexpr (P::kPullable)  // pull_kernel exists for pullable programs only
               if (pull) {
                 const Launch l = dev.launch(dev.nd());
                 pull_kernel<P><<<l.grid, l.block, 0, dev.stream>>>(prog, dev.in_off.get(), dev.in_targets.get(),
                                                                    dev.lo, dev.nd(), dev.values.get(), front, level,
                                                                    dev.changed.get(), dev.c());
                 CHATTY_CUDA_LAUNCHED("pull_kernel");
                 pulled = true;
               }
             if (!pulled) {
               relax.epoch = k + 1;
               advance(dev, QueueSource{dev.active.get(), &dev.c()->active, dev.off.get(), dev.lo}, relax, lb,
                       &dev.c()->active, 0);
             }
             if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
             set_counter(dev, &Counters::active, 0);
             if (can_pull) CHATTY_CUDA(cudaMemsetAsync(front, 0, dev.front.size() * 4, dev.stream));
             const Launch l = dev.launch_max();
             activate_kernel<<<l.grid, l.block, 0, dev.stream>>>(dev.changed.get(), dev.lo, dev.hi, dev.off.get(),
                                                                 dev.stamp.get(), k + 2, dev.active.get(), front,
                                                                 dev.c());
             CHATTY_CUDA_LAUNCHED("activate_kernel");
           });
           phase(clk, dev, kCompact,
                 [&] { compact(run, dev, parity, dev.changed.get(), &dev.c()->changed, 0, dev.values.get()); });
         });
    run.mark_pull(clk, pull);
    const auto all = run.sync(dev, parity, ok, clk);
    if (GpuRun::failed(all)) return;
    if (total(all, &DeviceStatus::active) == 0 && total(all, &DeviceStatus::sent) == 0) return;
    if (can_pull && opt.direction == Direction::kAuto)
      pull = direction.next(pull, total(all, &DeviceStatus::updated), total(all, &DeviceStatus::scout));
  }
}

// Ordered programs (SSSP): distributed delta-stepping as on the CPU, with
// each device's pending vertices in a pile that is split by bucket.
template <typename P>
void ordered(GpuRun& run, GpuDevice& dev, const P& prog, const std::vector<vid_t>& all_start, uint64_t delta, bool lb) {
  constexpr uint64_t kNone = ~uint64_t(0);
  uint64_t bucket = kNone;
  for (vid_t v : all_start) bucket = std::min<uint64_t>(bucket, prog.priority(prog.init(v)) / delta);
  const std::vector<vid_t> start = owned_start(all_start, dev);
  bool ok = guarded(run, [&] {
    CHATTY_CUDA(cudaMemcpyAsync(dev.pile.get(), start.data(), start.size() * sizeof(vid_t), cudaMemcpyHostToDevice,
                                dev.stream));
    if (!start.empty()) {
      const Launch l = dev.launch(start.size());
      set_flags_kernel<<<l.grid, l.block, 0, dev.stream>>>(dev.pile.get(), start.size(), dev.stamp.get(), 1);
      CHATTY_CUDA_LAUNCHED("set_flags_kernel");
    }
    set_counter(dev, &Counters::pile, start.size());
    dev.sync();
  });
  PushRelax<P> relax{prog, dev.targets.get(), dev.weights.get(), dev.values.get(), dev.claim.get(),
                     0,    dev.changed.get(), &dev.c()->changed};
  GpuRun::Clock clk;
  for (uint32_t k = 0; bucket != kNone; ++k) {
    const int parity = int(k & 1);
    ok = ok && guarded(run, [&] {
           reset_step_kernel<<<1, 1, 0, dev.stream>>>(dev.c());
           CHATTY_CUDA_LAUNCHED("reset_step_kernel");
           phase(clk, dev, kMerge, [&] {  // owned vertices that improve join the pile (flag 1)
             for_each_received<uint32_t>(run, dev, parity, [&](const Update<uint32_t>* rec, ull count, Launch l) {
               merge_kernel<P><<<l.grid, l.block, 0, dev.stream>>>(rec, count, dev.values.get(), dev.lo, dev.hi,
                                                                   dev.stamp.get(), 1, dev.pile.get(), &dev.c()->pile,
                                                                   nullptr, dev.c());
               CHATTY_CUDA_LAUNCHED("merge_kernel");
             });
           });
           phase(clk, dev, kCompute, [&] {
             set_counter(dev, &Counters::active, 0);
             const Launch m = dev.launch_max();
             split_kernel<P><<<m.grid, m.block, 0, dev.stream>>>(prog, dev.pile.get(), dev.values.get(), delta, bucket,
                                                                 dev.stamp.get(), dev.active.get(), dev.rest.get(),
                                                                 dev.c());
             CHATTY_CUDA_LAUNCHED("split_kernel");
             std::swap(dev.pile, dev.rest);
             CHATTY_CUDA(
                 cudaMemcpyAsync(&dev.c()->pile, &dev.c()->rest, sizeof(ull), cudaMemcpyDeviceToDevice, dev.stream));
             relax.epoch = k + 1;
             advance(dev, QueueSource{dev.active.get(), &dev.c()->active, dev.off.get(), dev.lo}, relax, lb,
                     &dev.c()->active, 0);
             pile_changed_kernel<P><<<m.grid, m.block, 0, dev.stream>>>(prog, dev.changed.get(), dev.lo, dev.hi,
                                                                        dev.values.get(), delta, dev.stamp.get(),
                                                                        dev.pile.get(), &dev.c()->pile, dev.c());
             CHATTY_CUDA_LAUNCHED("pile_changed_kernel");
           });
           phase(clk, dev, kCompact,
                 [&] { compact(run, dev, parity, dev.changed.get(), &dev.c()->changed, 0, dev.values.get()); });
         });
    const auto all = run.sync(dev, parity, ok, clk);
    if (GpuRun::failed(all)) return;
    bucket = kNone;  // every sent record is counted in its sender's bucket
    for (auto& s : all) bucket = std::min(bucket, s.bucket);
  }
}

}  // namespace chatty::cuda
