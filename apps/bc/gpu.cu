// Betweenness on GPU devices: every device holds the whole graph and runs
// Brandes from its share of the sources (source i on device i % P, P
// counting every rank's devices), one source at a time; the engine sums
// the scores over the devices and the ranks. A single source runs on one
// device. The driver is the host's (brandes.h) on the GPU operators.
#include <omp.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "apps/bc/app.h"
#include "apps/bc/program.h"
#include "apps/bc/steps.h"
#include "apps/gpu_run.cuh"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct BcDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceLevelQueue queue;
  cuda::DeviceEdgeMarks on_path;
  cuda::DeviceArray<int32_t> depth;
  cuda::DeviceArray<double> sigma, share, score;  // share: (1 + dependency) / paths, once settled
  cuda::DeviceArray<uint64_t> partial;            // the reduce's block folds, kept from source to source
  uint64_t edges = 0;                             // list entries read, both sweeps
  cuda::OpStream ops{nullptr, 1};
};

// A reached vertex's list length: the edges each sweep reads.
struct DegreeAt {
  const eid_t* offsets;
  const vid_t* order;
  CHATTY_HD uint64_t operator()(size_t i) const { return offsets[order[i] + 1] - offsets[order[i]]; }
};

// One source with the steps the host driver composes (steps.h): the
// forward advance level by level, then the gathers from the deepest level
// up.
template <int L>
void brandes_from(BcDevice& x, const Csr& c, vid_t source) {
  const vid_t n = c.num_vertices();
  const cuda::OpStream& s = x.ops;
  cuda::compute(s, 0, n, bc::Reset{x.depth.get(), x.sigma.get()});
  cuda::compute(s, source, source + 1, bc::Seed{x.depth.get(), x.sigma.get()});
  x.on_path.clear(s, c.num_edges());
  for (cuda::DeviceLevel l = x.queue.start(s, c, source); !l.empty();)
    l = cuda::advance<L>(s, x.graph, x.queue, l, bc::CountPaths{x.depth.get(), x.sigma.get(), l.index + 1},
                         ops::Direction::kPush, &x.on_path);
  const vid_t reached = x.queue.size();
  x.edges += 2 * cuda::reduce<uint64_t>(s, 0, reached, 0, DegreeAt{x.graph.offsets.get(), x.queue.order()}, bc::Plus{},
                                        x.partial);
  for (int d = x.queue.levels() - 1; d >= 0; --d) {  // deepest first: its shares are needed too
    const cuda::DeviceLevel level = x.queue.level(d);
    cuda::gather<L, double>(s, x.graph, x.queue.order(), level.lo, level.hi, bc::SuccessorShare{x.share.get()},
                            bc::Plus{}, bc::Settle{x.sigma.get(), x.share.get(), x.score.get(), source}, &x.on_path);
  }
}

}  // namespace

OperatorRun<double> BcProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  // Source i runs on the run's device i % devices (with ranks, every
  // rank's devices count); devices beyond the sources would have nothing
  // to do and are not made.
  const WorkShare& share = d.share();
  const std::vector<std::vector<vid_t>> of_device = share.device_items(sources);
  // A rank without sources adds zeros to the sum.
  if (of_device.empty()) return nothing_here<double>(n, "none (this rank ran no source)");
  OperatorRun<double> r;
  r.values.assign(n, 0.0);
  const int D = int(of_device.size());
  const uint64_t bytes = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t) + (m + 63) / 64 * 8 +
                         uint64_t(n) * (2 * sizeof(vid_t) + 3 * sizeof(double)) + (64u << 20);
  const cuda::RowDevices& rd = d.place(D, bytes, "bc");

  cuda::DeviceSet<BcDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<BcDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->queue.allocate(n);
    x->on_path.allocate(m);
    x->depth.allocate(n);
    x->sigma.allocate(n);
    x->share.allocate(n);
    x->score.allocate(n);
    CHATTY_CUDA(cudaMemsetAsync(x->score.get(), 0, size_t(n) * sizeof(double), x->stream.get()));
    x->stream.sync();
    return x;
  });
  // Lists as long as a warp are read by a warp; short ones by 4 lanes.
  const bool wide = m >= 12 * uint64_t(std::max<vid_t>(n, 1));
  const double run_seconds = dev.run([&](int dv, BcDevice& x) {
    for (vid_t s : of_device[size_t(dv)]) {
      if (interrupt_requested()) break;
      wide ? brandes_from<32>(x, c, s) : brandes_from<4>(x, c, s);
    }
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.sum_into(r.values, n, [](BcDevice& x) { return x.score.get(); });
  uint64_t examined = 0;  // list entries read, every device's
  dev.for_each([&](BcDevice& x) { examined += x.edges; });
  dev.release();
  r.edges = examined;
  dev.record(r, run_seconds, "none (every GPU device holds the graph and runs its sources)",
             (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t));
  return r;
}

void run_bc_gpu(const AppRun& r, AppOutput& out) {
  take_bc_scores(run_on_gpus(r, BcProgram{r.all_sources()}, out), r, out);
}

}  // namespace chatty
