// The mechanisms apps/louvain/device_levels.h asks of a backend, on one
// GPU stream: CUB's scans, segmented and radix sorts and reductions by
// key, the operators' compute. Louvain's and Leiden's GPU runs share them.
#pragma once

#include <cub/cub.cuh>

#include "runtime/base/operators.h"
#include "runtime/cuda/operators.cuh"

namespace chatty::louvain {

// device_levels.h's mechanisms on one stream. Every copy to the host
// waits for the stream; a copy from the host waits too, as the host's
// value may be a local.
class CudaMechanisms {
 public:
  template <typename T>
  using Array = cuda::DeviceArray<T>;

  explicit CudaMechanisms(const cuda::OpStream& ops) : ops_(ops) { runs_.allocate(1); }

  template <typename F>
  void compute(uint64_t lo, uint64_t hi, F f) {
    cuda::compute(ops_, lo, hi, f);
  }
  uint64_t scan(const uint64_t* in, uint64_t* out, uint64_t n) {
    if (n == 0) return 0;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, int64_t(n), ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceScan::ExclusiveSum(room_.get(), bytes, in, out, int64_t(n), ops_.stream));
    uint64_t last[2];
    get(last, in + n - 1, 1), get(last + 1, out + n - 1, 1);
    return last[0] + last[1];
  }
  void sort_runs(const uint32_t* key, uint32_t* key_out, const uint64_t* val, uint64_t* val_out, uint64_t items,
                 uint64_t segments, const uint64_t* at) {
    if (items == 0 || segments == 0) return;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, key, key_out, val, val_out, int64_t(items),
                                                    int64_t(segments), at, at + 1, ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceSegmentedSort::SortPairs(room_.get(), bytes, key, key_out, val, val_out, int64_t(items),
                                                    int64_t(segments), at, at + 1, ops_.stream));
  }
  void sort_keys(const uint64_t* key, uint64_t* key_out, const uint64_t* val, uint64_t* val_out, uint64_t items) {
    if (items == 0) return;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, key, key_out, val, val_out, int64_t(items), 0, 64,
                                                ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceRadixSort::SortPairs(room_.get(), bytes, key, key_out, val, val_out, int64_t(items), 0, 64,
                                                ops_.stream));
  }
  uint64_t reduce_by_key(const uint64_t* key, const uint64_t* val, uint64_t items, uint64_t* key_out,
                         uint64_t* sum_out) {
    if (items == 0) return 0;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceReduce::ReduceByKey(nullptr, bytes, key, key_out, val, sum_out, runs_.get(), ops::Plus{},
                                               int64_t(items), ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceReduce::ReduceByKey(room_.get(), bytes, key, key_out, val, sum_out, runs_.get(), ops::Plus{},
                                               int64_t(items), ops_.stream));
    uint64_t runs = 0;
    get(&runs, runs_.get(), 1);
    return runs;
  }
  template <typename T>
  void get(T* host, const T* device, size_t n) {
    if (n == 0) return;
    CHATTY_CUDA(cudaMemcpyAsync(host, device, n * sizeof(T), cudaMemcpyDeviceToHost, ops_.stream));
    CHATTY_CUDA(cudaStreamSynchronize(ops_.stream));
  }
  template <typename T>
  void put(T* device, const T* host, size_t n) {
    if (n == 0) return;
    CHATTY_CUDA(cudaMemcpyAsync(device, host, n * sizeof(T), cudaMemcpyHostToDevice, ops_.stream));
    CHATTY_CUDA(cudaStreamSynchronize(ops_.stream));
  }
  template <typename T>
  void zero(T* device, size_t n) {
    if (n) CHATTY_CUDA(cudaMemsetAsync(device, 0, n * sizeof(T), ops_.stream));
  }

 private:
  void room(size_t bytes) {
    if (room_.size() < bytes) room_.allocate(bytes);
  }
  cuda::OpStream ops_;
  cuda::DeviceArray<uint8_t> room_;
  cuda::DeviceArray<uint64_t> runs_;
};

}  // namespace chatty::louvain
