// probe_gpus() for builds without the CUDA backend.
#include "runtime/cuda/gpu_plan.h"

namespace chatty {

GpuInventory probe_gpus() {
  GpuInventory inv;
  inv.why_none = "this build has no CUDA backend";
  return inv;
}

}  // namespace chatty
