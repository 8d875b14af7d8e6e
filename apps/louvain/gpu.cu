// Louvain on one GPU device: device_levels.h's levels on CUB's mechanisms
// (gpu_communities.cuh), the same communities as the host's at every
// device count.
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/louvain/app.h"
#include "apps/louvain/gpu_communities.cuh"
#include "apps/louvain/run_communities.h"

namespace chatty {

namespace {

template <typename B>
struct LouvainDriver {
  explicit LouvainDriver(louvain::dev::Levels<B>& levels) : levels(levels) {}
  std::vector<uint32_t> run(const LouvainProgram& p, louvain::Outcome& outcome) { return levels.louvain(p, outcome); }
  louvain::dev::Levels<B>& levels;
};

}  // namespace

// Three levels' graphs, the moving state and its round lists: 200 bytes a vertex.
OperatorRun<uint64_t> LouvainProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  return louvain::communities_on_gpu<LouvainDriver>(*this, g, d, "louvain", 200);
}

void run_louvain_gpu(const AppRun& r, AppOutput& out) {
  louvain::run_communities_by<LouvainProgram>(
      r, out, [&](const LouvainProgram& program) { return run_on_gpus(r, program, out); });
}

}  // namespace chatty
