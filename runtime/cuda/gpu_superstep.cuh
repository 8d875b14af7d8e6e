// How a GPU device's superstep ends (the GPU counterpart of
// runtime/engine/device_context.h's sync): per-phase timing by stream events, and
// status published by a kernel into mapped pinned host memory (UVA), after
// which the shared sync (runtime/engine/superstep_sync.h) agrees, exchanges,
// meets and records as on host devices. A device that hits an error still
// meets the others, flagged, so every device stops at the same sync
// instead of waiting forever.
#pragma once

#include <omp.h>

#include <memory>
#include <string>
#include <vector>

#include "comm/fabric.h"
#include "comm/transport.h"
#include "runtime/cuda/gpu_device.cuh"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/superstep_sync.h"

namespace chatty::cuda {

// `after_sync`: the first superstep since a sync; the ones a lone device
// runs between syncs add their updates and edges to the status.
static __global__ void reset_step_kernel(Counters* c, bool after_sync) {
  // active (the frontier) and pile (SSSP) carry over between supersteps
  if (after_sync) c->updated = c->edges = c->steps = 0;
  c->steps += c->active > 0;
  c->changed = c->sent = c->scout = c->rest = 0;
  c->bucket = ~0ull;
  c->l1 = c->dangling = 0;
}

static __global__ void set_counter_kernel(ull* p, ull v) { *p = v; }

// State every device thread shares.
class GpuRun {
 public:
  // `fabric`: how the devices meet (threads of this process, or ranks).
  GpuRun(int devices, Mailboxes& mb, TransportPolicy& policy, MultiStats& stats, std::unique_ptr<Fabric> fabric)
      : D(devices), mb(mb), fabric_(std::move(fabric)), sync_(*fabric_, mb, policy, stats) {
    stats.device_seconds.assign(size_t(devices), {});
    CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&board_), sizeof(DeviceStatus) * size_t(D),
                              cudaHostAllocMapped | cudaHostAllocPortable));
    for (int i = 0; i < D; ++i) board_[i] = DeviceStatus{};
  }
  ~GpuRun() { cudaFreeHost(board_); }
  GpuRun(const GpuRun&) = delete;
  GpuRun& operator=(const GpuRun&) = delete;

  const int D;
  Mailboxes& mb;

  // Records the first device error; the device publishes failed at its next sync.
  void fail(const std::string& what) { sync_.fail(what); }
  const std::string& error() const { return sync_.error(); }
  // Every device's driving thread; returns once all have called.
  void meet(int d) { fabric_->barrier(d); }
  // Every device's driving thread: whether every device of the run (every
  // rank's) says `mine`.
  bool all(int d, bool mine) { return sync_.all(d, mine); }
  static bool failed(const std::vector<DeviceStatus>& all) {
    for (auto& s : all)
      if (s.failed) return true;
    return false;
  }

  // The shared phase clock, plus events on the stream: the device phases
  // (merge, compute, compact) are timed by events, read after the
  // superstep's one synchronisation, so no phase waits for the GPU; the
  // host phases (wait, exchange) by the host clock.
  struct Clock : PhaseClock {
    cudaEvent_t ev[2 * kPhases] = {};
    bool timed[kPhases] = {};
    // Made with the device's ops, before the run's timer starts.
    Clock() {
      try {
        for (cudaEvent_t& e : ev) CHATTY_CUDA(cudaEventCreate(&e));
      } catch (...) {
        destroy();  // the destructor does not run for a half-made clock
        throw;
      }
    }
    Clock(const Clock&) = delete;
    Clock& operator=(const Clock&) = delete;
    ~Clock() { destroy(); }
    void destroy() {
      for (cudaEvent_t& e : ev)
        if (e) cudaEventDestroy(e), e = nullptr;
    }
    // A phase run several times in a superstep spans its first begin to its last end.
    void device_begin(Phase p, cudaStream_t s) {
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

  // Makes the device's status for `parity` final - the publish kernel
  // writes it to mapped memory after the superstep's one stream
  // synchronisation - then runs the shared sync (runtime/engine/superstep_sync.h):
  // agree, exchange the send buffer for parity ^ 1, meet. Returns every
  // device's status (valid until its next sync).
  const std::vector<DeviceStatus>& sync(GpuDevice& dev, int parity, bool ok, Clock& clk, const SlotSources& slots,
                                        bool pull) {
    const int d = dev.d;
    DeviceStatus* slot = &board_[d];
    clk.begin(kWait);
    double device_busy = 0;  // of this wait, the GPU still running the phases
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
    slot->delivered = slot->sent * uint64_t(D - 1);  // GPU devices broadcast
    clk.end();
    clk.seconds[kWait] = std::max(0.0, clk.seconds[kWait] - device_busy);
    return sync_.run(d, parity, *slot, clk, pull);
  }

 private:
  const std::unique_ptr<Fabric> fabric_;  // how the device threads meet and agree
  SuperstepSync sync_;
  DeviceStatus* board_ = nullptr;  // per device, mapped pinned host memory the publish kernel writes
};

}  // namespace chatty::cuda
