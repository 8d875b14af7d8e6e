// GPU devices for the row operators (triangle counting, betweenness): each
// device holds the whole structure it reads and works on its share of
// rows or sources, so nothing is exchanged during the run. Placement and
// the memory check happen before anything is allocated, as for the
// superstep engine's devices; each device then runs on its own host
// thread with its own stream.
#pragma once

#include <cuda_runtime.h>

#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "runtime/gpu_plan.h"
#include "runtime/status.h"

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
  auto one = [&](size_t d) {
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

}  // namespace chatty::cuda
