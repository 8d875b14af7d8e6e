// Betweenness on GPU devices: every device holds the whole graph and runs
// Brandes from its share of the sources (source i on device i % P, P
// counting every rank's devices), one source at a time; the scores are
// summed over the devices and the ranks. A single source runs on one
// device.
#include <omp.h>

#include <algorithm>
#include <memory>

#include "apps/bc/app.h"
#include "apps/work_share.h"
#include "kernels/cuda/brandes.cuh"
#include "kernels/cuda/launch.h"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct BcDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<vid_t> order;
  cuda::DeviceArray<int32_t> depth;
  cuda::DeviceArray<double> sigma, delta, score;
  cuda::DeviceArray<unsigned long long> edges;  // list entries read, both sweeps
  cuda::DeviceArray<unsigned> tail;             // the order's length
  unsigned* found = nullptr;                    // pinned: the host's copy of the tail after each level
  int multiprocessors = 1;
  ~BcDevice() {
    if (found) cudaFreeHost(found);
  }
};

// Adds the degrees of order[0, count) to *edges: a warp's sum per atomic.
__global__ void sum_degrees_kernel(const eid_t* offsets, const vid_t* order, vid_t count, unsigned long long* edges) {
  unsigned long long s = 0;
  for (vid_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    s += offsets[order[i] + 1] - offsets[order[i]];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0 && s) atomicAdd(edges, s);
}

// One source: the forward sweep level by level (the host reads the order's
// length after each level: the levels' bounds), then the backward sweep
// from the deepest level with successors.
template <int L>
void brandes_from(BcDevice& x, vid_t n, vid_t source) {
  const cudaStream_t s = x.stream.get();
  const cuda::Launch all = cuda::launch_for(n, x.multiprocessors);
  cuda::brandes_start_kernel<<<all.grid, all.block, 0, s>>>(n, source, x.depth.get(), x.sigma.get(), x.delta.get(),
                                                            x.order.get(), x.tail.get());
  CHATTY_CUDA_LAUNCHED("brandes_start_kernel");
  std::vector<vid_t> level_begin{0, 1};
  for (int32_t next = 1;; ++next) {
    const vid_t lo = level_begin[size_t(next) - 1], hi = level_begin[size_t(next)];
    const cuda::Launch l = cuda::launch_for(hi - lo, x.multiprocessors, L);
    cuda::brandes_forward_kernel<L><<<l.grid, l.block, 0, s>>>(x.graph.offsets.get(), x.graph.targets.get(), lo, hi,
                                                               next, x.depth.get(), x.sigma.get(), x.order.get(),
                                                               x.tail.get());
    CHATTY_CUDA_LAUNCHED("brandes_forward_kernel");
    CHATTY_CUDA(cudaMemcpyAsync(x.found, x.tail.get(), sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    x.stream.sync();
    const vid_t found = *x.found;
    if (found == hi) break;
    level_begin.push_back(found);
  }
  const vid_t reached = level_begin.back();
  const cuda::Launch r = cuda::launch_for(reached, x.multiprocessors);
  sum_degrees_kernel<<<r.grid, r.block, 0, s>>>(x.graph.offsets.get(), x.order.get(), reached, x.edges.get());
  CHATTY_CUDA_LAUNCHED("sum_degrees_kernel");
  // Level d's successors are at d + 1; the deepest level has none.
  for (int d = int(level_begin.size()) - 3; d >= 0; --d) {
    const vid_t lo = level_begin[size_t(d)], hi = level_begin[size_t(d) + 1];
    const cuda::Launch l = cuda::launch_for(hi - lo, x.multiprocessors, L);
    cuda::brandes_backward_kernel<L><<<l.grid, l.block, 0, s>>>(x.graph.offsets.get(), x.graph.targets.get(), lo, hi,
                                                                d + 1, source, x.depth.get(), x.sigma.get(),
                                                                x.delta.get(), x.order.get(), x.score.get());
    CHATTY_CUDA_LAUNCHED("brandes_backward_kernel");
  }
}

}  // namespace

void run_bc_gpu(const AppRun& r, AppOutput& out) {
  const Graph& g = r.g;
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  const std::vector<vid_t> one{r.source};
  const std::vector<vid_t>& sources = r.sources ? *r.sources : one;
  // Source i runs on the run's device i % devices (with ranks, every
  // rank's devices count); devices beyond the sources would have nothing
  // to do and are not made.
  const WorkShare share = work_share(r);
  std::vector<std::vector<vid_t>> of_device;
  for (size_t i = 0; i < sources.size(); ++i) {
    const int at = int(i % size_t(share.devices)) - share.first;
    if (at < 0 || at >= share.local) continue;
    if (size_t(at) >= of_device.size()) of_device.resize(size_t(at) + 1);
    of_device[size_t(at)].push_back(sources[i]);
  }
  std::vector<double> score(n, 0.0);
  if (of_device.empty()) {  // this rank has no source: its share of the sum is zero
    sum_over_ranks(score, share);
    take_bc_scores(score, out);
    record_operator_run(out.multi, {0.0}, 0, "none (this rank ran no source)");
    return;
  }
  const int D = int(of_device.size());
  const uint64_t bytes = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t) +
                         uint64_t(n) * (2 * sizeof(vid_t) + 3 * sizeof(double)) + (64u << 20);
  const cuda::RowDevices rd = cuda::place_row_devices(D, bytes, "bc");
  out.gpu_of = rd.place.gpu_of;

  cuda::DeviceSet<BcDevice> dev(rd);
  dev.make([&](int d) {
    auto x = std::make_unique<BcDevice>();
    x->multiprocessors = rd.multiprocessors[size_t(d)];
    x->graph.upload(c, x->stream.get());
    x->order.allocate(n);
    x->depth.allocate(n);
    x->sigma.allocate(n);
    x->delta.allocate(n);
    x->score.allocate(n);
    x->edges.allocate(1);
    x->tail.allocate(1);
    CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&x->found), sizeof(unsigned), cudaHostAllocDefault));
    CHATTY_CUDA(cudaMemsetAsync(x->score.get(), 0, size_t(n) * sizeof(double), x->stream.get()));
    CHATTY_CUDA(cudaMemsetAsync(x->edges.get(), 0, sizeof(unsigned long long), x->stream.get()));
    x->stream.sync();
    return x;
  });
  // Lists as long as a warp are read by a warp; short ones by 4 lanes.
  const bool wide = m >= 12 * uint64_t(std::max<vid_t>(n, 1));
  const double run_seconds = dev.run([&](int d, BcDevice& x) {
    for (vid_t s : of_device[size_t(d)]) wide ? brandes_from<32>(x, n, s) : brandes_from<4>(x, n, s);
    x.stream.sync();
  });
  dev.sum_into(score, n, [](BcDevice& x) { return x.score.get(); });
  std::vector<unsigned long long> edges(1, 0);  // list entries read, every device's
  dev.sum_into(edges, 1, [](BcDevice& x) { return x.edges.get(); });
  dev.release();
  const uint64_t examined = 2 * edges[0];  // each reached vertex's list, forward and back
  sum_over_ranks(score, share);
  take_bc_scores(score, out);
  record_operator_run(out.multi, dev.seconds(), examined,
                      "none (every GPU device holds the graph and runs its sources)");
  note_share(out.multi, share);
  out.multi.setup_seconds = dev.setup_seconds();
  out.multi.run_seconds = run_seconds;
  out.multi.structure_bytes = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
}

}  // namespace chatty
