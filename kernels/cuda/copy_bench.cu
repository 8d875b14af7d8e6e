// chatty_copy_bench: device-to-device copy bandwidth of GPU 0, the
// reference the GPU benchmark compares PageRank's effective bandwidth with.
// Prints one JSON line: {"gpu": name, "bytes": N, "d2d_gbps": bytes read +
// written per second / 1e9}. Exit 2 without a usable GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "chatty_copy_bench: no usable GPU\n");
    return 2;
  }
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  const size_t bytes = size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    std::fprintf(stderr, "chatty_copy_bench: cannot allocate 2 GiB\n");
    return 1;
  }
  cudaMemset(a, 1, bytes);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  float best = 1e30f;
  for (int r = 0; r < 10; ++r) {
    cudaEventRecord(t0);
    cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(t1);
    cudaEventSynchronize(t1);
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    best = std::min(best, ms);
  }
  if (cudaGetLastError() != cudaSuccess) return 1;
  std::printf("{\"gpu\": \"%s\", \"bytes\": %zu, \"d2d_gbps\": %.1f}\n", p.name, bytes,
              2.0 * double(bytes) / (double(best) * 1e-3) / 1e9);
  return 0;
}
