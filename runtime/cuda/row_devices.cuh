// GPU devices for the row operators (triangle counting, betweenness): each
// device holds the whole structure it reads and works on its share of
// rows or sources, so nothing is exchanged during the run. Placement and
// the memory check happen before anything is allocated, as for the
// superstep engine's devices; each device then runs on its own host
// thread with its own stream.
#pragma once

#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/status.h"
#include "runtime/cuda/device_array.cuh"
#include "runtime/cuda/gpu_plan.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty::cuda {

struct RowDevices {
  GpuPlacement place;
  std::vector<int> multiprocessors;  // per device, of its GPU
};

// Places `devices` devices on the usable GPUs (round-robin) and checks
// that each GPU's free memory holds `bytes_per_device` times the devices it
// hosts. Throws chatty::Error (no GPU, too little memory) with one line.
inline RowDevices place_row_devices(int devices, uint64_t bytes_per_device, const char* what) {
  const GpuInventory inv = probe_gpus();
  CHATTY_CHECK(!inv.gpus.empty(), "--backend=cuda: no usable GPU (" + inv.why_none + ")");
  RowDevices r;
  r.place = place_devices(devices, int(inv.gpus.size()));
  std::vector<DeviceLayout> layouts(static_cast<size_t>(devices));
  for (int d = 0; d < devices; ++d) {
    const GpuInfo& gpu = inv.gpus[size_t(r.place.gpu_of[size_t(d)])];
    r.place.gpu_of[size_t(d)] = gpu.ordinal;
    r.multiprocessors.push_back(gpu.multiprocessors);
    layouts[size_t(d)].values = bytes_per_device;
  }
  try {
    check_gpu_memory(r.place, layouts, inv);
  } catch (const Error& e) {
    throw Error(std::string(what) + ": " + e.what());
  }
  return r;
}

// Calls f(d) for every device at once, each on its own host thread with
// its GPU current; the first device's error is rethrown after all end.
template <typename F>
void on_each_device(const RowDevices& r, F&& f) {
  const size_t devices = r.place.gpu_of.size();
  std::vector<std::exception_ptr> failed(devices);
  const RunStopCarrier run;
  auto one = [&](size_t d) {
    const RunStop carried = run.carry();
    try {
      CHATTY_CUDA(cudaSetDevice(r.place.gpu_of[d]));
      f(int(d));
    } catch (...) {
      failed[d] = std::current_exception();
    }
  };
  if (devices == 1) {
    one(0);
  } else {
    std::vector<std::thread> threads;
    for (size_t d = 0; d < devices; ++d) threads.emplace_back(one, d);
    for (std::thread& t : threads) t.join();
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

// A stream of the current GPU, destroyed with the object.
class Stream {
 public:
  Stream() { CHATTY_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { CHATTY_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

// A CSR uploaded to the current GPU on `stream` (the caller syncs).
struct DeviceCsr {
  DeviceArray<eid_t> offsets;
  DeviceArray<vid_t> targets;
  void upload(const Csr& c, cudaStream_t stream) {
    const size_t rows = c.num_vertices();
    offsets.allocate(rows + 1);
    targets.allocate(std::max<eid_t>(c.num_edges(), 1));
    Uploader up(stream);
    up.copy(offsets.get(), c.offsets.data(), (rows + 1) * sizeof(eid_t));
    up.copy(targets.get(), c.targets.data(), c.num_edges() * sizeof(vid_t));
  }
};

// The state of every device of a row operator (Dev: what one device holds)
// through its phases: made on each device's thread (timed as setup, apart
// from the run, as the superstep engine times uploads), run all at once
// (timed per device and as a whole), its arrays summed back on the host,
// then freed, each with its GPU current.
template <typename Dev>
class DeviceSet {
 public:
  explicit DeviceSet(const RowDevices& rd)
      : rd_(rd), dev_(rd.place.gpu_of.size()), setup_(dev_.size()), seconds_(dev_.size()) {}
  ~DeviceSet() {
    try {
      release();
    } catch (...) {  // a failed free during unwinding: the process is ending its run anyway
    }
  }
  DeviceSet(const DeviceSet&) = delete;
  DeviceSet& operator=(const DeviceSet&) = delete;

  // make(d) returns device d's std::unique_ptr<Dev>, ready (synced).
  template <typename Make>
  void make(Make&& make) {
    on_each_device(rd_, [&](int d) {
      const double t0 = omp_get_wtime();
      dev_[size_t(d)] = make(d);
      setup_[size_t(d)] = omp_get_wtime() - t0;
    });
  }

  // run(d, dev) on every device at once; returns the wall time of all.
  template <typename Run>
  double run(Run&& run) {
    const double t0 = omp_get_wtime();
    on_each_device(rd_, [&](int d) {
      const double s0 = omp_get_wtime();
      run(d, *dev_[size_t(d)]);
      seconds_[size_t(d)] = omp_get_wtime() - s0;
    });
    return omp_get_wtime() - t0;
  }

  // Adds each device's `count` values at get(dev) (a device pointer) into
  // sum[0, count).
  template <typename T, typename Get>
  void sum_into(std::vector<T>& sum, size_t count, Get&& get) {
    std::vector<std::vector<T>> part(dev_.size(), std::vector<T>(count));
    on_each_device(rd_, [&](int d) {
      CHATTY_CUDA(cudaMemcpy(part[size_t(d)].data(), get(*dev_[size_t(d)]), count * sizeof(T), cudaMemcpyDeviceToHost));
    });
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < count; ++v)
      for (const std::vector<T>& p : part) sum[v] += p[v];
  }

  // f(dev) for every device's state on this thread (its host-side fields).
  template <typename F>
  void for_each(F&& f) {
    for (auto& d : dev_) f(*d);
  }

  // Frees every device's state, each with its GPU current.
  void release() {
    if (std::none_of(dev_.begin(), dev_.end(), [](const auto& x) { return bool(x); })) return;
    on_each_device(rd_, [&](int d) { dev_[size_t(d)].reset(); });
  }

  double setup_seconds() const { return setup_.empty() ? 0 : *std::max_element(setup_.begin(), setup_.end()); }
  // Into an operator program's run: each device's time, the setup apart
  // from `run_seconds`, how the devices reach their data, the structure's bytes.
  template <typename V>
  void record(OperatorRun<V>& r, double run_seconds, std::string how, uint64_t structure_bytes) const {
    r.device_seconds = seconds_;
    r.setup_seconds = setup_seconds();
    r.run_seconds = run_seconds;
    r.how = std::move(how);
    r.structure_bytes = structure_bytes;
  }
  const std::vector<double>& seconds() const { return seconds_; }

 private:
  const RowDevices& rd_;
  std::vector<std::unique_ptr<Dev>> dev_;
  std::vector<double> setup_, seconds_;
};

}  // namespace chatty::cuda
