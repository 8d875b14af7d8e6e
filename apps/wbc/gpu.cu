// Weighted betweenness on GPU devices: every device holds the whole graph
// (with its weights) and runs its share of the sources (source i on the
// run's device i % P, P counting every rank's devices), one source at a
// time in steps.h's three sweeps; the engine sums the scores over the
// devices and the ranks.
#include <algorithm>
#include <memory>
#include <vector>

#include "apps/bc/app.h"
#include "apps/gpu_run.cuh"
#include "apps/wbc/app.h"
#include "apps/wbc/program.h"
#include "apps/wbc/steps.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct WbcDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<weight_t> weights;
  cuda::DeviceArray<uint64_t> dist, tail, partial;
  cuda::DeviceArray<double> sigma, share, score;
  cuda::DeviceArray<uint32_t> pending, changed;
  cuda::DeviceArray<uint8_t> now, next;
  cuda::DeviceArray<vid_t> order;
  uint64_t edges = 0;  // row entries read, every sweep
  cuda::OpStream ops{nullptr, 1};
};

template <typename T>
T read_back(const T* from, const cuda::Stream& stream) {
  T v{};
  CHATTY_CUDA(cudaMemcpyAsync(&v, from, sizeof v, cudaMemcpyDeviceToHost, stream.get()));
  stream.sync();
  return v;
}

// One source: the distances by rounds until none lowers one, the layers
// forward counting paths (each layer's end read back), the layers back.
void brandes_from(WbcDevice& x, vid_t n, vid_t source) {
  const cuda::OpStream& s = x.ops;
  const eid_t* off = x.graph.offsets.get();
  const vid_t* tgt = x.graph.targets.get();
  const weight_t* w = x.weights.get();
  cuda::compute(s, 0, n, wbc::Reset{x.dist.get(), x.sigma.get(), x.pending.get(), x.now.get()});
  CHATTY_CUDA(cudaMemsetAsync(x.next.get(), 0, n, s.stream));
  cuda::compute(s, source, source + 1, wbc::Seed{x.dist.get(), x.sigma.get(), x.now.get(), x.order.get()});
  uint8_t *now = x.now.get(), *next = x.next.get();
  for (uint32_t changed = 1; changed;) {
    CHATTY_CUDA(cudaMemsetAsync(x.changed.get(), 0, sizeof(uint32_t), s.stream));
    cuda::compute(s, 0, n, wbc::Relax{off, tgt, w, x.dist.get(), now, next, x.changed.get()});
    changed = read_back(x.changed.get(), x.stream);
    std::swap(now, next);
  }
  cuda::compute(s, 0, n, wbc::CountPredecessors{off, tgt, w, x.dist.get(), x.pending.get()});
  const uint64_t one = 1;
  CHATTY_CUDA(cudaMemcpyAsync(x.tail.get(), &one, sizeof one, cudaMemcpyHostToDevice, s.stream));
  std::vector<uint64_t> layer{0, 1};  // layer j: order[layer[j], layer[j + 1])
  while (layer[layer.size() - 2] < layer.back()) {
    cuda::compute(
        s, layer[layer.size() - 2], layer.back(),
        wbc::PassPaths{off, tgt, w, x.dist.get(), x.sigma.get(), x.pending.get(), x.order.get(), x.tail.get()});
    layer.push_back(read_back(x.tail.get(), x.stream));
  }
  const uint64_t reached = layer.back();
  x.edges += 2 * cuda::reduce<uint64_t>(s, 0, reached, 0, wbc::DegreeAt{off, x.order.get()}, ops::Plus{}, x.partial);
  for (size_t j = layer.size() - 1; j-- > 0;)
    cuda::compute(
        s, layer[j], layer[j + 1],
        wbc::Settle{off, tgt, w, x.dist.get(), x.sigma.get(), x.order.get(), x.share.get(), x.score.get(), source});
}

}  // namespace

OperatorRun<double> WbcProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  const WorkShare& share = d.share();
  const std::vector<std::vector<vid_t>> of_device = share.device_items(sources);
  // A rank without sources adds zeros to the sum.
  if (of_device.empty()) return nothing_here<double>(n, "none (this rank ran no source)");
  OperatorRun<double> r;
  r.values.assign(n, 0.0);
  const int D = int(of_device.size());
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * (sizeof(vid_t) + sizeof(weight_t));
  const uint64_t bytes = structure +
                         uint64_t(n) * (sizeof(uint64_t) + 3 * sizeof(double) + sizeof(uint32_t) + 2 + sizeof(vid_t)) +
                         (64u << 20);
  const cuda::RowDevices& rd = d.place(D, bytes, "wbc");
  cuda::DeviceSet<WbcDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<WbcDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->weights.allocate(std::max<eid_t>(m, 1));
    cuda::Uploader up(x->stream.get());
    up.copy(x->weights.get(), c.weights.data(), m * sizeof(weight_t));
    x->dist.allocate(n), x->sigma.allocate(n), x->share.allocate(n), x->score.allocate(n);
    x->pending.allocate(n), x->now.allocate(n), x->next.allocate(n), x->order.allocate(n);
    x->tail.allocate(1), x->changed.allocate(1);
    CHATTY_CUDA(cudaMemsetAsync(x->score.get(), 0, size_t(n) * sizeof(double), x->stream.get()));
    x->stream.sync();
    return x;
  });
  const double run_seconds = dev.run([&](int dv, WbcDevice& x) {
    for (vid_t s : of_device[size_t(dv)]) {
      if (interrupt_requested()) break;
      brandes_from(x, n, s);
    }
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.sum_into(r.values, n, [](WbcDevice& x) { return x.score.get(); });
  uint64_t examined = 0;
  dev.for_each([&](WbcDevice& x) { examined += x.edges; });
  dev.release();
  r.edges = examined;
  dev.record(r, run_seconds, "none (every GPU device holds the graph and its weights, and runs its sources)",
             structure);
  return r;
}

void run_wbc_gpu(const AppRun& r, AppOutput& out) {
  take_bc_scores(run_on_gpus(r, WbcProgram{r.all_sources()}, out), r, out);
}

}  // namespace chatty
