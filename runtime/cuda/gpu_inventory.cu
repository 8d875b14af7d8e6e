// The GPUs the CUDA runtime can use. The runtime is linked statically and
// opens the driver at run time, so on a machine without one every call
// fails cleanly and the inventory is empty with the runtime's reason.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include "runtime/cuda/gpu_plan.h"

namespace chatty {

GpuInventory probe_gpus() {
  GpuInventory inv;
  inv.built_with_cuda = true;
  // The runtime says "driver version is insufficient" when there is no
  // driver at all; say what `chatty topo` says instead.
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    inv.why_none = "no NVIDIA driver installed: libcuda.so.1 not found";
    return inv;
  }
  dlclose(driver);
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    inv.why_none = e == cudaErrorInsufficientDriver
                       ? std::string("the NVIDIA driver is older than the CUDA runtime this build needs")
                       : std::string(cudaGetErrorString(e));
    (void)cudaGetLastError();
    return inv;
  }
  if (count == 0) {
    inv.why_none = "no CUDA device";
    return inv;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    size_t free_b = 0, total_b = 0;
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess || cudaSetDevice(i) != cudaSuccess ||
        cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
      inv.why_none = std::string("GPU ") + std::to_string(i) + ": " + cudaGetErrorString(cudaGetLastError());
      continue;
    }
    GpuInfo g;
    g.ordinal = i;
    g.name = p.name;
    g.free_bytes = free_b;
    g.total_bytes = total_b;
    g.multiprocessors = p.multiProcessorCount;
    g.cc_major = p.major;
    g.cc_minor = p.minor;
    inv.gpus.push_back(g);
  }
  if (!inv.gpus.empty()) cudaSetDevice(inv.gpus[0].ordinal);
  return inv;
}

}  // namespace chatty
