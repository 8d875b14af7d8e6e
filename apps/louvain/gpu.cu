// Louvain on one GPU device: rank 0's first device runs device_levels.h's
// levels on the mechanisms below (CUB's scans, segmented and radix sorts,
// reductions by key), the same communities as the host's at every device
// count; any other device or rank adds zeros.
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/louvain/app.h"
#include "apps/louvain/cuda_mechanisms.cuh"
#include "apps/louvain/device_levels.h"
#include "apps/louvain/run_communities.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct LouvainDevice {
  cuda::Stream stream;
  std::unique_ptr<louvain::CudaMechanisms> mechanisms;
  std::unique_ptr<louvain::dev::Levels<louvain::CudaMechanisms>> levels;
};

}  // namespace

OperatorRun<uint64_t> LouvainProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  if (d.share().rank != 0) return nothing_here<uint64_t>(n, "none (rank 0 computes the communities)");
  OperatorRun<uint64_t> r;
  r.values.assign(n, 0);
  // Three levels' graphs, the moving state, the rows' sort keys and CUB's room.
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = 200 * (uint64_t(n) + 1) + 120 * (uint64_t(m) + 1) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "louvain");
  cuda::DeviceSet<LouvainDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<LouvainDevice>();
    x->mechanisms =
        std::make_unique<louvain::CudaMechanisms>(cuda::OpStream{x->stream.get(), rd.multiprocessors[size_t(dv)]});
    x->levels = std::make_unique<louvain::dev::Levels<louvain::CudaMechanisms>>(
        *x->mechanisms, c, g.weighted() ? c.weights.data() : nullptr, resolution);
    x->stream.sync();
    return x;
  });
  std::vector<uint32_t> labels;
  louvain::Outcome found;
  const double run_seconds = dev.run([&](int, LouvainDevice& x) {
    labels = x.levels->louvain(*this, found);
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.for_each([&](LouvainDevice& x) { r.edges = x.levels->examined(); });
  dev.release();
  if (outcome) *outcome = found;
  r.values.assign(labels.begin(), labels.end());
  dev.record(r, run_seconds, "none (one GPU device holds the graph and its levels)", structure);
  return r;
}

void run_louvain_gpu(const AppRun& r, AppOutput& out) {
  louvain::run_communities_by<LouvainProgram>(
      r, out, [&](const LouvainProgram& program) { return run_on_gpus(r, program, out); });
}

}  // namespace chatty
