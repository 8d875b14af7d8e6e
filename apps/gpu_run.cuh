// An app's run_gpu over the runtime's run of a vertex program on GPU
// devices, with the topology's transport policy between the GPUs.
#pragma once

#include <vector>

#include "apps/registry.h"
#include "runtime/cuda/run_on_gpus.cuh"
#include "topology/gpu_policy.h"

namespace chatty {

template <typename P>
std::vector<typename P::Value> run_on_gpus(const AppRun& r, const P& prog, AppOutput& out) {
  return run_on_gpus(r.g, prog, r.part, r.opt, r.ranks, out.multi, out.gpu_of,
                     [](Comm comm, const std::vector<int>& gpu_of) { return make_gpu_policy(comm, gpu_of); });
}

}  // namespace chatty
