// Leiden on one GPU device: device_levels.h's passes over Louvain's levels
// on CUB's mechanisms (apps/louvain/gpu_communities.cuh), the same
// communities as the host's at every device count.
#include "apps/gpu_run.cuh"
#include "apps/leiden/app.h"
#include "apps/leiden/device_levels.h"
#include "apps/louvain/gpu_communities.cuh"
#include "apps/louvain/run_communities.h"

namespace chatty {

// Louvain's arrays and the refinement's and passes': 260 bytes a vertex.
OperatorRun<uint64_t> LeidenProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  return louvain::communities_on_gpu<leiden::dev::Passes>(*this, g, d, "leiden", 260);
}

void run_leiden_gpu(const AppRun& r, AppOutput& out) {
  louvain::run_communities_by<LeidenProgram>(
      r, out, [&](const LeidenProgram& program) { return run_on_gpus(r, program, out); });
}

}  // namespace chatty
