// Every CUDA runtime call goes through CHATTY_CUDA: a failure becomes a
// chatty::Error naming the call and the runtime's message, which the CLI
// prints as one line.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "runtime/base/status.h"

namespace chatty::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace chatty::cuda

#define CHATTY_CUDA(call) ::chatty::cuda::check((call), #call)
// After a kernel launch: launch errors now, execution errors at the next sync.
#define CHATTY_CUDA_LAUNCHED(what) ::chatty::cuda::check(cudaGetLastError(), what)
