// HITS on one GPU device: rank 0's first device runs power.h's iteration
// as the GPU operators' steps (the row sums gathers over the in- and
// out-edges, the sums and the change reduces, steps.h's functors); any
// other device or rank adds zeros. The graph, its reverse and their
// weights are uploaded once.
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/hits/app.h"
#include "apps/hits/steps.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct HitsDevice {
  cuda::Stream stream;
  cuda::DeviceCsr out, in;
  cuda::DeviceArray<weight_t> out_w, in_w;            // empty without weights
  cuda::DeviceArray<vid_t> order;                     // 0, 1, ..., n - 1: the gathers' rows
  cuda::DeviceArray<double> both, raw_hub, raw_auth;  // both: the hubs, then the authorities
  cuda::DeviceArray<double> partial;
  cuda::OpStream ops{nullptr, 1};
};

struct StartValues {
  vid_t* order;
  double* both;
  double start;
  vid_t n;
  CHATTY_HD void operator()(size_t i) const {
    if (i < n) order[i] = vid_t(i);
    both[i] = start;
  }
};

// raw[v] = sum * scale.
struct Store {
  double* raw;
  double scale;
  CHATTY_HD void operator()(vid_t v, double sum) const { raw[v] = sum * scale; }
};

struct Read {
  const double* x;
  CHATTY_HD double operator()(size_t i) const { return x[i]; }
};

void upload_weights(const Csr& c, cuda::DeviceArray<weight_t>& w, cudaStream_t stream) {
  if (c.weights.empty()) return;
  w.allocate(c.weights.size());
  cuda::Uploader up(stream);
  up.copy(w.get(), c.weights.data(), c.weights.size() * sizeof(weight_t));
}

template <int L>
hits::Outcome iterate(HitsDevice& x, vid_t n, const HitsProgram& p) {
  const cuda::OpStream& s = x.ops;
  double* hub = x.both.get();
  double* auth = x.both.get() + n;
  const hits::Plus plus;
  double change = 0;
  int it = 0;
  while (it < p.max_iters && !interrupt_requested()) {
    cuda::gather<L, double>(s, x.in, x.order.get(), 0, n, hits::WeightedTerm{hub, x.in_w.get()}, plus,
                            Store{x.raw_auth.get(), 1.0});
    const double a_scale = hits::scale_of(cuda::reduce<double>(s, 0, n, 0.0, Read{x.raw_auth.get()}, plus, x.partial));
    cuda::gather<L, double>(s, x.out, x.order.get(), 0, n, hits::WeightedTerm{x.raw_auth.get(), x.out_w.get()}, plus,
                            Store{x.raw_hub.get(), a_scale});
    const double h_scale = hits::scale_of(cuda::reduce<double>(s, 0, n, 0.0, Read{x.raw_hub.get()}, plus, x.partial));
    change = cuda::reduce<double>(
        s, 0, n, 0.0, hits::Settle{x.raw_hub.get(), x.raw_auth.get(), hub, auth, h_scale, a_scale}, plus, x.partial);
    ++it;
    if (change < p.tolerance) break;
  }
  return hits::Outcome{it, change < p.tolerance, change, true};
}

}  // namespace

OperatorRun<double> HitsProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const Csr& in = g.in();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  if (d.share().rank != 0) return nothing_here<double>(2 * size_t(n), "none (rank 0 computes the scores)");
  OperatorRun<double> r;
  r.values.assign(2 * size_t(n), 0.0);
  const uint64_t weights = c.weights.empty() ? 0 : 2 * m * sizeof(weight_t);
  const uint64_t bytes = 2 * ((uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t)) + weights +
                         uint64_t(n) * (sizeof(vid_t) + 4 * sizeof(double)) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "hits");
  cuda::DeviceSet<HitsDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<HitsDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->out.upload(c, x->stream.get());
    x->in.upload(in, x->stream.get());
    upload_weights(c, x->out_w, x->stream.get());
    upload_weights(in, x->in_w, x->stream.get());
    x->order.allocate(std::max<vid_t>(n, 1));
    x->both.allocate(std::max<size_t>(2 * size_t(n), 1));
    x->raw_hub.allocate(std::max<vid_t>(n, 1));
    x->raw_auth.allocate(std::max<vid_t>(n, 1));
    cuda::compute(x->ops, 0, 2 * uint64_t(n), StartValues{x->order.get(), x->both.get(), n ? 1.0 / double(n) : 0.0, n});
    x->stream.sync();
    return x;
  });
  hits::Outcome found;
  // Lists as long as a warp are read by a warp; short ones by 4 lanes.
  const bool wide = m >= 12 * uint64_t(std::max<vid_t>(n, 1));
  const double run_seconds = dev.run([&](int, HitsDevice& x) {
    found = wide ? iterate<32>(x, n, *this) : iterate<4>(x, n, *this);
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.sum_into(r.values, 2 * size_t(n), [](HitsDevice& x) { return x.both.get(); });
  dev.release();
  if (outcome) *outcome = found;
  r.edges = 2 * m * uint64_t(found.iterations);
  dev.record(r, run_seconds, "none (one GPU device holds the graph and its reverse)", bytes - (64u << 20));
  return r;
}

void run_hits_gpu(const AppRun& r, AppOutput& out) {
  hits::Outcome found;
  take_hits(run_on_gpus(r, HitsProgram{r.opt.tolerance, r.opt.max_iters, &found}, out), found, r.g.num_vertices(), out);
}

}  // namespace chatty
