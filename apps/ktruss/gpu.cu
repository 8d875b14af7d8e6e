// Truss numbers on one GPU device: rank 0's first device runs peel.h's
// levels and rounds with the GPU operators. Each edge's support is the
// count of its ends' common neighbours (ops::count_common); a round's
// edges are marked, then each intersects its ends' lists and takes one
// from the supports of the triangles it breaks, with the host's rule for
// triangles two round edges share; an edge whose support falls to the
// level joins the next round. The numbers do not depend on the order of a
// round's edges, so they are the host's. Any other device or rank adds
// zeros. The lists stay whole (the host compacts them as edges go).
#include <climits>
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/ktruss/app.h"
#include "apps/ktruss/steps.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/operators.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"
#include "runtime/graph/upper_edges.h"

namespace chatty {

namespace {

struct KtrussDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<eid_t> first, above;  // UpperEdges'
  cuda::DeviceArray<vid_t> lo, hi;        // each edge's ends, lo < hi
  cuda::DeviceArray<uint32_t> number_of;  // each list entry's edge
  cuda::DeviceArray<uint32_t> support, truss;
  cuda::DeviceArray<uint8_t> peeled, in_round;
  cuda::DeviceArray<vid_t> round, next;
  cuda::DeviceArray<uint64_t> joined;  // the next round's length
  cuda::DeviceArray<unsigned> tail;
  cuda::DeviceArray<uint32_t> partial;
  cuda::OpStream ops{nullptr, 1};
};

void peel(KtrussDevice& x, size_t m) {
  const cuda::OpStream& s = x.ops;
  const eid_t* off = x.graph.offsets.get();
  const vid_t* tgt = x.graph.targets.get();
  vid_t *round = x.round.get(), *next = x.next.get();
  size_t left = m;
  uint32_t level = 0;
  while (left > 0 && !interrupt_requested()) {
    size_t count = cuda::filter(s, m, ktruss::Position{}, ktruss::AtLevel{x.peeled.get(), x.support.get(), level},
                                round, x.tail.get());
    if (count == 0) {  // the next level: the least support left
      level = cuda::reduce<uint32_t>(s, 0, m, UINT32_MAX, ktruss::LeastLeft{x.peeled.get(), x.support.get()},
                                     ktruss::Least{}, x.partial);
      continue;
    }
    while (count > 0) {
      cuda::compute(s, 0, count, ktruss::Mark{round, x.in_round.get(), 1});
      CHATTY_CUDA(cudaMemsetAsync(x.joined.get(), 0, sizeof(uint64_t), s.stream));
      cuda::compute(s, 0, count,
                    ktruss::Break{off, tgt, x.number_of.get(), x.lo.get(), x.hi.get(), round, x.peeled.get(),
                                  x.in_round.get(), x.support.get(), next, x.joined.get(), level});
      cuda::compute(s, 0, count, ktruss::Settle{round, x.peeled.get(), x.in_round.get(), x.truss.get(), level});
      uint64_t joined = 0;
      CHATTY_CUDA(cudaMemcpyAsync(&joined, x.joined.get(), sizeof joined, cudaMemcpyDeviceToHost, s.stream));
      x.stream.sync();
      std::swap(round, next);
      left -= count;
      count = size_t(joined);
    }
  }
}

}  // namespace

OperatorRun<uint64_t> KtrussProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const UpperEdges up = upper_edges(c);
  const size_t m = up.count();
  if (d.share().rank != 0) return nothing_here<uint64_t>(m, "none (rank 0 computes the truss numbers)");
  OperatorRun<uint64_t> r;
  r.values.assign(m, 0);
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + c.num_edges() * sizeof(vid_t);
  const uint64_t bytes = structure + uint64_t(n) * 2 * sizeof(eid_t) + c.num_edges() * sizeof(uint32_t) +
                         m * (4 * sizeof(vid_t) + 2 * sizeof(uint32_t) + 2) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "ktruss");
  cuda::DeviceSet<KtrussDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<KtrussDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->first.allocate(size_t(n) + 1);
    x->above.allocate(std::max<vid_t>(n, 1));
    cuda::Uploader upl(x->stream.get());
    upl.copy(x->first.get(), up.first.data(), up.first.size() * sizeof(eid_t));
    upl.copy(x->above.get(), up.above.data(), up.above.size() * sizeof(eid_t));
    const size_t edges = std::max<size_t>(m, 1);
    x->lo.allocate(edges), x->hi.allocate(edges), x->round.allocate(edges), x->next.allocate(edges);
    x->support.allocate(edges), x->truss.allocate(edges);
    x->peeled.allocate(edges), x->in_round.allocate(edges);
    x->number_of.allocate(std::max<eid_t>(c.num_edges(), 1));
    x->joined.allocate(1), x->tail.allocate(1);
    CHATTY_CUDA(cudaMemsetAsync(x->peeled.get(), 0, edges, x->stream.get()));
    CHATTY_CUDA(cudaMemsetAsync(x->in_round.get(), 0, edges, x->stream.get()));
    x->stream.sync();
    return x;
  });
  const double run_seconds = dev.run([&](int, KtrussDevice& x) {
    const cuda::OpStream& s = x.ops;
    cuda::compute(s, 0, c.num_edges(),
                  ktruss::NumberEntries{x.graph.offsets.get(), x.graph.targets.get(), x.first.get(), x.above.get(), n,
                                        x.number_of.get(), x.lo.get(), x.hi.get()});
    cuda::compute(
        s, 0, m,
        ktruss::Support{x.graph.offsets.get(), x.graph.targets.get(), x.lo.get(), x.hi.get(), x.support.get()});
    peel(x, m);
    x.stream.sync();
  });
  throw_if_interrupted();
  std::vector<uint32_t> truss(m, 0);
  dev.sum_into(truss, m, [](KtrussDevice& x) { return x.truss.get(); });  // one device: its numbers
  dev.release();
  r.values.assign(truss.begin(), truss.end());
  r.edges = c.num_edges();
  dev.record(r, run_seconds, "none (one GPU device holds the graph)", structure);
  return r;
}

void run_ktruss_gpu(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> truss = run_on_gpus(r, KtrussProgram{}, out);
  out.pairs = upper_pairs(r.g.out(), upper_edges(r.g.out()));
  out.ints.assign(truss.begin(), truss.end());
}

}  // namespace chatty
