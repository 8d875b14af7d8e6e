#include "apps/bfs.h"
#include "apps/pagerank.h"
#include "apps/run_app_gpu.h"
#include "apps/sssp.h"
#include "apps/wcc.h"
#include "comm/gpu_transports.h"
#include "runtime/cuda/gpu_run.cuh"
#include "runtime/gpu_plan.h"

namespace chatty {

void run_app_gpu(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part,
                 AppOutput& out) {
  const GpuInventory inv = probe_gpus();
  CHATTY_CHECK(!inv.gpus.empty(), "--backend=cuda: no usable GPU (" + inv.why_none + ")");
  CHATTY_CHECK(app != App::kSssp || g.weighted(), "this app needs edge weights");
  Partition made;
  if (!part) {
    made = partition_graph(g, opt.devices);
    part = &made;
  }
  const int D = part->devices();
  GpuPlacement place = place_devices(D, int(inv.gpus.size()));
  for (int& x : place.gpu_of) x = inv.gpus[size_t(x)].ordinal;
  validate_gpu_comm(opt.comm, place);
  GpuAppNeeds needs;
  switch (app) {
    case App::kBfs: needs = cuda::needs_of<BfsProgram>(opt); break;
    case App::kSssp: needs = cuda::needs_of<SsspProgram>(opt); break;
    case App::kWcc: needs = cuda::needs_of<WccProgram>(opt); break;
    case App::kPageRank: needs = cuda::needs_of<PageRankProgram>(opt); break;
  }
  std::vector<DeviceLayout> layouts;
  for (int d = 0; d < D; ++d) layouts.push_back(plan_device_layout(g, *part, d, needs));
  check_gpu_memory(place, layouts, inv);
  auto policy = make_gpu_policy(D > 1 ? opt.comm : Comm::kP2p, place.gpu_of);
  out.gpu_of = place.gpu_of;
  switch (app) {
    case App::kBfs:
      out.ints = cuda::run_program_gpu(g, BfsProgram{source}, *part, place, opt, *policy, out.multi);
      break;
    case App::kSssp:
      out.ints = cuda::run_program_gpu(g, SsspProgram{source}, *part, place, opt, *policy, out.multi);
      break;
    case App::kWcc: out.ints = cuda::run_program_gpu(g, WccProgram{}, *part, place, opt, *policy, out.multi); break;
    case App::kPageRank:
      out.ranks = cuda::run_program_gpu(g, PageRankProgram{g.num_vertices(), opt.damping, opt.tolerance, opt.max_iters},
                                        *part, place, opt, *policy, out.multi);
      break;
  }
}

}  // namespace chatty
