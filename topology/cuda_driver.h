// The slice of the CUDA driver API the probe and the link benchmarks use,
// resolved from libcuda.so.1 at run time (declared here, ABI-compatible
// with cuda.h, so chatty builds without the toolkit and starts without a
// driver). Every call's result goes through check().
#pragma once

#include <cstddef>
#include <string>

namespace chatty::topo::cu {

using Result = int;  // CUresult; 0 = CUDA_SUCCESS
using Device = int;
using Context = struct CUctx_st*;
using Stream = struct CUstream_st*;
using Event = struct CUevent_st*;
using DevicePtr = unsigned long long;

enum : int {
  kAttrMultiprocessors = 16,
  kAttrPciBus = 33,
  kAttrPciDevice = 34,
  kAttrPciDomain = 50,
  kAttrCcMajor = 75,
  kAttrCcMinor = 76,
  kP2pPerfRank = 1,
  kP2pAccess = 2,
  kP2pNativeAtomics = 3,
  kHostAllocPortable = 1,
  kHostAllocDeviceMap = 2,
};

struct Api {
  Result (*cuInit)(unsigned);
  Result (*cuDriverGetVersion)(int*);
  Result (*cuDeviceGetCount)(int*);
  Result (*cuDeviceGet)(Device*, int);
  Result (*cuDeviceGetName)(char*, int, Device);
  Result (*cuDeviceTotalMem_v2)(size_t*, Device);
  Result (*cuDeviceGetAttribute)(int*, int, Device);
  Result (*cuDeviceCanAccessPeer)(int*, Device, Device);
  Result (*cuDeviceGetP2PAttribute)(int*, int, Device, Device);
  Result (*cuDevicePrimaryCtxRetain)(Context*, Device);
  Result (*cuDevicePrimaryCtxRelease_v2)(Device);
  Result (*cuCtxSetCurrent)(Context);
  Result (*cuCtxEnablePeerAccess)(Context, unsigned);
  Result (*cuMemAlloc_v2)(DevicePtr*, size_t);
  Result (*cuMemFree_v2)(DevicePtr);
  Result (*cuMemHostAlloc)(void**, size_t, unsigned);
  Result (*cuMemFreeHost)(void*);
  Result (*cuMemHostGetDevicePointer_v2)(DevicePtr*, void*, unsigned);
  Result (*cuMemcpyHtoDAsync_v2)(DevicePtr, const void*, size_t, Stream);
  Result (*cuMemcpyDtoDAsync_v2)(DevicePtr, DevicePtr, size_t, Stream);
  Result (*cuMemcpyPeerAsync)(DevicePtr, Context, DevicePtr, Context, size_t, Stream);
  Result (*cuStreamCreate)(Stream*, unsigned);
  Result (*cuStreamDestroy_v2)(Stream);
  Result (*cuStreamSynchronize)(Stream);
  Result (*cuEventCreate)(Event*, unsigned);
  Result (*cuEventDestroy_v2)(Event);
  Result (*cuEventRecord)(Event, Stream);
  Result (*cuEventSynchronize)(Event);
  Result (*cuEventElapsedTime)(float*, Event, Event);
  Result (*cuGetErrorString)(Result, const char**);
};

// The driver, or nullptr with `why` set (no libcuda.so.1, cuInit failed).
const Api* load(std::string* why);

// Throws chatty::Error "<what>: <driver message>" unless r is success.
void check(const Api& api, Result r, const char* what);

}  // namespace chatty::topo::cu
