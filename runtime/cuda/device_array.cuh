// Owning handles for device memory and the pinned staging that uploads
// host arrays to it (structure data: copied once, in pieces, with the copy
// of one piece overlapping the host's fill of the next).
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <utility>

#include "kernels/cuda/cuda_check.h"

namespace chatty::cuda {

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n) { allocate(n); }
  DeviceArray(DeviceArray&& o) noexcept { std::swap(p_, o.p_), std::swap(n_, o.n_); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_), std::swap(n_, o.n_);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (p_) cudaFree(p_);
  }
  void allocate(size_t n) {
    T* old = p_;
    p_ = nullptr, n_ = 0;  // a failed free or malloc leaves nothing to free twice
    if (old) CHATTY_CUDA(cudaFree(old));
    if (n) {
      T* fresh = nullptr;
      CHATTY_CUDA(cudaMalloc(reinterpret_cast<void**>(&fresh), n * sizeof(T)));
      p_ = fresh, n_ = n;
    }
  }
  T* get() const { return p_; }
  size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Two pinned buffers used in turn: the host fills one while the GPU copies
// the other, so an upload runs at pinned-copy speed without pinning the graph.
class Uploader {
 public:
  static constexpr size_t kPiece = 16u << 20;
  explicit Uploader(cudaStream_t s) : stream_(s) {
    try {
      for (int i = 0; i < 2; ++i) {
        CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&buf_[i]), kPiece, cudaHostAllocDefault));
        CHATTY_CUDA(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming));
      }
    } catch (...) {
      release();  // no destructor runs for a half-built object
      throw;
    }
  }
  ~Uploader() {
    cudaStreamSynchronize(stream_);
    release();
  }
  Uploader(const Uploader&) = delete;
  Uploader& operator=(const Uploader&) = delete;

  // Copies `bytes` from host `src` to device `dst`; returns when the host
  // side may be reused (the last piece may still be in flight).
  void copy(void* dst, const void* src, size_t bytes) {
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    for (size_t off = 0; off < bytes; off += kPiece) {
      const size_t len = bytes - off < kPiece ? bytes - off : kPiece;
      CHATTY_CUDA(cudaEventSynchronize(done_[next_]));  // the piece copied from this buffer before
      std::memcpy(buf_[next_], s + off, len);
      CHATTY_CUDA(cudaMemcpyAsync(d + off, buf_[next_], len, cudaMemcpyHostToDevice, stream_));
      CHATTY_CUDA(cudaEventRecord(done_[next_], stream_));
      next_ ^= 1;
    }
  }

 private:
  void release() {
    for (int i = 0; i < 2; ++i) {
      if (buf_[i]) cudaFreeHost(buf_[i]);
      if (done_[i]) cudaEventDestroy(done_[i]);
      buf_[i] = nullptr, done_[i] = nullptr;
    }
  }

  cudaStream_t stream_;
  char* buf_[2] = {nullptr, nullptr};
  cudaEvent_t done_[2] = {nullptr, nullptr};
  int next_ = 0;
};

}  // namespace chatty::cuda
