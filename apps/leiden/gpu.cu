// Leiden on one GPU device: rank 0's first device runs device_levels.h's
// passes on Louvain's GPU mechanisms, the same communities as the host's
// at every device count; any other device or rank adds zeros.
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/leiden/app.h"
#include "apps/leiden/device_levels.h"
#include "apps/louvain/cuda_mechanisms.cuh"
#include "apps/louvain/run_communities.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

using Mechanisms = louvain::CudaMechanisms;

struct LeidenDevice {
  cuda::Stream stream;
  std::unique_ptr<Mechanisms> mechanisms;
  std::unique_ptr<louvain::dev::Levels<Mechanisms>> levels;
  std::unique_ptr<leiden::dev::Passes<Mechanisms>> passes;
};

}  // namespace

OperatorRun<uint64_t> LeidenProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  if (d.share().rank != 0) return nothing_here<uint64_t>(n, "none (rank 0 computes the communities)");
  OperatorRun<uint64_t> r;
  r.values.assign(n, 0);
  // Louvain's arrays (apps/louvain/gpu.cu) and the refinement's and passes'.
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = 260 * (uint64_t(n) + 1) + 120 * (uint64_t(m) + 1) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "leiden");
  cuda::DeviceSet<LeidenDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<LeidenDevice>();
    x->mechanisms = std::make_unique<Mechanisms>(cuda::OpStream{x->stream.get(), rd.multiprocessors[size_t(dv)]});
    x->levels = std::make_unique<louvain::dev::Levels<Mechanisms>>(
        *x->mechanisms, c, g.weighted() ? c.weights.data() : nullptr, resolution);
    x->passes = std::make_unique<leiden::dev::Passes<Mechanisms>>(*x->levels);
    x->stream.sync();
    return x;
  });
  std::vector<uint32_t> labels;
  louvain::Outcome found;
  const double run_seconds = dev.run([&](int, LeidenDevice& x) {
    labels = x.passes->leiden(*this, found);
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.for_each([&](LeidenDevice& x) { r.edges = x.levels->examined(); });
  dev.release();
  if (outcome) *outcome = found;
  r.values.assign(labels.begin(), labels.end());
  dev.record(r, run_seconds, "none (one GPU device holds the graph and its levels)", structure);
  return r;
}

void run_leiden_gpu(const AppRun& r, AppOutput& out) {
  louvain::run_communities_by<LeidenProgram>(
      r, out, [&](const LeidenProgram& program) { return run_on_gpus(r, program, out); });
}

}  // namespace chatty
