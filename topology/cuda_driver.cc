#include "topology/cuda_driver.h"

#include <dlfcn.h>

#include "runtime/base/status.h"

namespace chatty::topo::cu {
namespace {

template <typename F>
bool resolve(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

}  // namespace

const Api* load(std::string* why) {
  static Api api;
  static std::string failure;
  static const bool ok = [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      failure = "no NVIDIA driver (libcuda.so.1 not found)";
      return false;
    }
#define CHATTY_RESOLVE(fn) \
  if (!resolve(lib, #fn, api.fn)) return failure = "libcuda.so.1 lacks " #fn, false;
    CHATTY_RESOLVE(cuInit)
    CHATTY_RESOLVE(cuDriverGetVersion)
    CHATTY_RESOLVE(cuDeviceGetCount)
    CHATTY_RESOLVE(cuDeviceGet)
    CHATTY_RESOLVE(cuDeviceGetName)
    CHATTY_RESOLVE(cuDeviceTotalMem_v2)
    CHATTY_RESOLVE(cuDeviceGetAttribute)
    CHATTY_RESOLVE(cuDeviceCanAccessPeer)
    CHATTY_RESOLVE(cuDeviceGetP2PAttribute)
    CHATTY_RESOLVE(cuDevicePrimaryCtxRetain)
    CHATTY_RESOLVE(cuDevicePrimaryCtxRelease_v2)
    CHATTY_RESOLVE(cuCtxSetCurrent)
    CHATTY_RESOLVE(cuCtxEnablePeerAccess)
    CHATTY_RESOLVE(cuMemAlloc_v2)
    CHATTY_RESOLVE(cuMemFree_v2)
    CHATTY_RESOLVE(cuMemHostAlloc)
    CHATTY_RESOLVE(cuMemFreeHost)
    CHATTY_RESOLVE(cuMemHostGetDevicePointer_v2)
    CHATTY_RESOLVE(cuMemcpyHtoDAsync_v2)
    CHATTY_RESOLVE(cuMemcpyDtoDAsync_v2)
    CHATTY_RESOLVE(cuMemcpyPeerAsync)
    CHATTY_RESOLVE(cuStreamCreate)
    CHATTY_RESOLVE(cuStreamDestroy_v2)
    CHATTY_RESOLVE(cuStreamSynchronize)
    CHATTY_RESOLVE(cuEventCreate)
    CHATTY_RESOLVE(cuEventDestroy_v2)
    CHATTY_RESOLVE(cuEventRecord)
    CHATTY_RESOLVE(cuEventSynchronize)
    CHATTY_RESOLVE(cuEventElapsedTime)
    CHATTY_RESOLVE(cuGetErrorString)
#undef CHATTY_RESOLVE
    if (const Result r = api.cuInit(0); r != 0) {
      const char* msg = nullptr;
      api.cuGetErrorString(r, &msg);
      failure = std::string("the NVIDIA driver did not start: ") + (msg ? msg : "error " + std::to_string(r));
      return false;
    }
    return true;
  }();
  if (!ok && why) *why = failure;
  return ok ? &api : nullptr;
}

void check(const Api& api, Result r, const char* what) {
  if (r == 0) return;
  const char* msg = nullptr;
  api.cuGetErrorString(r, &msg);
  throw Error(std::string(what) + ": " + (msg ? msg : "CUDA error " + std::to_string(r)));
}

}  // namespace chatty::topo::cu
