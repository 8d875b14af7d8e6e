// The superstep protocol shared by the GPU drivers (the GPU counterpart of
// runtime/device_context.h): per-phase timing, status published by a
// kernel into the board in mapped pinned host memory (UVA), the two
// barriers around the exchange, statistics, and failure agreement - a
// device that hits an error still meets the others, flagged, so every
// device stops at the same sync instead of waiting forever.
#pragma once

#include <omp.h>

#include <string>
#include <vector>

#include "comm/transport.h"
#include "runtime/cuda/gpu_device.cuh"
#include "runtime/multi_stats.h"

namespace chatty::cuda {

static __global__ void reset_step_kernel(Counters* c) {
  // active (the frontier) and pile (SSSP) carry over between supersteps
  c->changed = c->sent = c->updated = c->edges = c->scout = c->rest = 0;
  c->bucket = ~0ull;
  c->l1 = c->dangling = 0;
}

static __global__ void set_counter_kernel(ull* p, ull v) { *p = v; }

// State every device thread shares.
class GpuRun {
 public:
  GpuRun(int devices, Mailboxes& mb, TransportPolicy& policy, MultiStats& stats)
      : D(devices), mb(mb), policy_(policy), stats_(stats), steps_(stats.steps), bad_exchange_(size_t(devices), 0) {
    stats_.device_seconds.assign(size_t(devices), {});
    CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&board_), sizeof(DeviceStatus) * size_t(2 * D),
                              cudaHostAllocMapped | cudaHostAllocPortable));
    for (int i = 0; i < 2 * D; ++i) board_[i] = DeviceStatus{};
  }
  ~GpuRun() { cudaFreeHost(board_); }
  GpuRun(const GpuRun&) = delete;
  GpuRun& operator=(const GpuRun&) = delete;

  const int D;
  Mailboxes& mb;
  std::string error;  // the first device error

  void fail(const std::string& what) {
#pragma omp critical(chatty_gpu_error)
    if (error.empty()) error = what;
  }
  static bool failed(const std::vector<DeviceStatus>& all) {
    for (auto& s : all)
      if (s.failed) return true;
    return false;
  }

  // Per device thread: phase clock and superstep index. The device phases
  // (merge, compute, compact) are timed by events on the stream, read after
  // the superstep's one synchronisation, so no phase waits for the GPU; the
  // host phases (wait, exchange) by the host clock.
  struct Clock {
    Phase phase = kMerge;
    double t0 = 0, seconds[kPhases] = {0, 0, 0, 0, 0};
    size_t step = 0;
    cudaEvent_t ev[2 * kPhases] = {};
    bool timed[kPhases] = {};
    Clock() = default;
    Clock(const Clock&) = delete;
    Clock& operator=(const Clock&) = delete;
    ~Clock() {
      for (cudaEvent_t e : ev)
        if (e) cudaEventDestroy(e);
    }
    void begin(Phase p) { phase = p, t0 = omp_get_wtime(); }
    void end() { seconds[phase] += omp_get_wtime() - t0; }
    // A phase run several times in a superstep spans its first begin to its last end.
    void device_begin(Phase p, cudaStream_t s) {
      if (!ev[0])
        for (cudaEvent_t& e : ev) CHATTY_CUDA(cudaEventCreate(&e));
      if (!timed[p]) CHATTY_CUDA(cudaEventRecord(ev[2 * p], s));
    }
    void device_end(Phase p, cudaStream_t s) {
      CHATTY_CUDA(cudaEventRecord(ev[2 * p + 1], s));
      timed[p] = true;
    }
    // After the stream is synchronised: adds the device phases' times and
    // returns their sum (time the host spent waiting for them, not idle).
    double fold() {
      double sum = 0;
      for (int p = 0; p < kPhases; ++p) {
        if (!timed[p]) continue;
        float ms = 0;
        CHATTY_CUDA(cudaEventElapsedTime(&ms, ev[2 * p], ev[2 * p + 1]));
        seconds[p] += ms / 1e3, sum += ms / 1e3;
        timed[p] = false;
      }
      return sum;
    }
  };

  // Publishes the device's status for `parity`, meets the others, and -
  // unless some device failed - exchanges its send buffer for parity ^ 1
  // and meets them again. Returns every device's status.
  std::vector<DeviceStatus> sync(GpuDevice& dev, int parity, bool ok, Clock& clk, const SlotSources& slots) {
    const int d = dev.d;
    DeviceStatus* slot = &board_[parity * D + d];
    clk.begin(kWait);
    double device_busy = 0;  // of this wait, the GPU still running the phases
    ok = ok && !bad_exchange_[size_t(d)];
    if (ok) {
      try {
        DeviceStatus* on_device = nullptr;
        CHATTY_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), slot, 0));
        publish_kernel<<<1, 1, 0, dev.stream>>>(dev.c(), on_device, slots);
        CHATTY_CUDA_LAUNCHED("publish_kernel");
        dev.sync();  // the superstep's one synchronisation
        device_busy = clk.fold();
        const uint64_t capacity = D > 1 ? mb.send(d, parity ^ 1).capacity / mb.item_bytes() : 0;
        CHATTY_CHECK(D == 1 || slot->sent <= capacity,
                     "device " + std::to_string(d) + ": " + std::to_string(slot->sent) +
                         " records for a send buffer of " + std::to_string(capacity) + " (internal error)");
      } catch (const std::exception& e) {
        fail(e.what());
        ok = false;
      }
    }
    if (!ok) *slot = DeviceStatus{}, slot->failed = 1;
    if (D > 1) mb.send(d, parity ^ 1).count = slot->sent;
#pragma omp barrier
    clk.end();
    clk.seconds[kWait] = std::max(0.0, clk.seconds[kWait] - device_busy);
    std::vector<DeviceStatus> all(static_cast<size_t>(D));
    for (int p = 0; p < D; ++p) all[size_t(p)] = board_[parity * D + p];
    if (failed(all)) return all;
    clk.begin(kExchange);
    uint64_t total = 0;
    for (auto& s : all) total += s.sent;
    if (D > 1 && total > 0) {
      try {
        policy_.choose(DataClass::kApplication, total * mb.item_bytes() / uint64_t(D)).exchange(mb, d, parity ^ 1);
      } catch (const std::exception& e) {
        fail(e.what());  // reported by every device at the next sync
        bad_exchange_[size_t(d)] = 1;
        for (int r = 0; r < D; ++r)  // peers must not merge a slot that was never filled
          if (r != d) mb.recv(parity ^ 1, r, d).count = 0;
      }
    } else if (D > 1) {
      for (int r = 0; r < D; ++r)
        if (r != d) mb.recv(parity ^ 1, r, d).count = 0;
    }
    clk.end();
    clk.begin(kWait);
#pragma omp barrier
    clk.end();
    record(all, clk, d);
    return all;
  }
  // Marks the superstep about to be recorded as a pull step.
  void mark_pull(const Clock& clk, bool pull) {
#pragma omp critical(chatty_multi_stats)
    {
      if (clk.step >= steps_.size()) steps_.resize(clk.step + 1);
      steps_[clk.step].pull = pull;
    }
  }

 private:
  void record(const std::vector<DeviceStatus>& all, Clock& clk, int d) {
#pragma omp critical(chatty_multi_stats)
    record_step(stats_, clk.step, d, clk.seconds, all, mb.item_bytes());
    for (double& t : clk.seconds) t = 0;
    ++clk.step;
  }

  TransportPolicy& policy_;
  MultiStats& stats_;
  std::vector<MultiStep>& steps_;
  DeviceStatus* board_ = nullptr;   // [parity][device], mapped pinned host memory
  std::vector<char> bad_exchange_;  // per device
};

}  // namespace chatty::cuda
