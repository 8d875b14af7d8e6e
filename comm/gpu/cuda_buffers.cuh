// What the GPU transports share: a device's stream and pinned host buffers
// that grow on demand.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "comm/mailboxes.h"
#include "kernels/cuda/cuda_check.h"

namespace chatty::gpu_comm {

inline cudaStream_t stream_of(Mailboxes& mb, int d) { return static_cast<cudaStream_t>(mb.endpoint(d).stream); }

// Pinned host memory that grows on demand (one per device and parity).
struct Pinned {
  std::byte* p = nullptr;
  size_t bytes = 0;
  void reserve(size_t need) {
    if (need <= bytes) return;
    std::byte* old = p;
    p = nullptr, bytes = 0;  // a failed free leaves nothing to free twice
    if (old) CHATTY_CUDA(cudaFreeHost(old));
    CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&p), need, cudaHostAllocMapped | cudaHostAllocPortable));
    bytes = need;
  }
  ~Pinned() {
    if (p) cudaFreeHost(p);
  }
};

}  // namespace chatty::gpu_comm
