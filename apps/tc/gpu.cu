// Triangle counting on GPU devices: the host orients the lists by degree
// (inside the timed run, as GAP times its relabelling), every device holds
// the lower lists (half the edges) and counts an equal share of entries
// (by rows or by entries: --gpu_tc); the engine sums the per-vertex
// counts over the devices' share and the ranks.
#include <omp.h>

#include <algorithm>
#include <memory>

#include "apps/gpu_run.cuh"
#include "apps/tc/app.h"
#include "apps/tc/program.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/triangle_ops.cuh"
#include "runtime/graph/orient.h"
#include "runtime/graph/reorder.h"

namespace chatty {

namespace {

struct TcDevice {
  cuda::Stream stream;
  cuda::DeviceCsr lower;
  cuda::DeviceArray<unsigned long long> count;
};

}  // namespace

OperatorRun<uint64_t> TcProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const vid_t n = g.num_vertices();
  const WorkShare& share = d.share();
  // An undirected graph lists each edge twice: the lower lists hold one.
  const uint64_t bytes = (uint64_t(n) + 1) * sizeof(eid_t) + g.num_edges() / 2 * sizeof(vid_t) +
                         uint64_t(n) * sizeof(unsigned long long) + (64u << 20);
  const cuda::RowDevices& rd = d.place(share.local, bytes, "tc");

  const double t0 = omp_get_wtime();
  const bool relabel = skewed_degrees(g);
  // The lower lists must fit a GPU's memory, far less than the host's: the
  // host keeps the input's pages (dropping them cost a grid's orientation
  // on 16 threads 2.6x its time, in refaults and TLB shootdowns).
  const Oriented o = orient_lower(g, relabel, InputPages::kKeep);
  const double orient_seconds = omp_get_wtime() - t0;
  const Csr& lower = o.graph.out();
  const eid_t m = lower.num_edges();

  cuda::DeviceSet<TcDevice> dev(rd);
  dev.make([&](int) {
    auto x = std::make_unique<TcDevice>();
    x->lower.upload(lower, x->stream.get());
    x->count.allocate(std::max<vid_t>(n, 1));
    CHATTY_CUDA(cudaMemsetAsync(x->count.get(), 0, x->count.size() * sizeof(unsigned long long), x->stream.get()));
    x->stream.sync();
    return x;
  });
  const double count_seconds = dev.run([&](int dv, TcDevice& x) {
    const eid_t G = eid_t(share.devices), at = eid_t(share.first + dv);
    const eid_t lo = m * at / G, hi = m * (at + 1) / G;
    const int sms = rd.multiprocessors[size_t(dv)];
    if (gpu_kernel == GpuTc::kRows) {
      // The rows whose entries start in [lo, hi): equal shares of entries.
      const eid_t* off = lower.offsets.data();
      const vid_t r_lo = vid_t(std::lower_bound(off, off + n, lo) - off);
      const vid_t r_hi = at + 1 == G ? n : vid_t(std::lower_bound(off, off + n, hi) - off);
      cuda::count_triangles_of_rows(x.stream.get(), sms, x.lower.offsets.get(), x.lower.targets.get(), r_lo, r_hi,
                                    x.count.get());
    } else {
      cuda::count_triangles_of_entries(x.stream.get(), sms, x.lower.offsets.get(), x.lower.targets.get(), n, lo, hi,
                                       x.count.get());
    }
    x.stream.sync();
  });

  std::vector<uint64_t> per_vertex(n, 0);
  static_assert(sizeof(unsigned long long) == sizeof(uint64_t));
  dev.sum_into(per_vertex, n, [](TcDevice& x) { return reinterpret_cast<const uint64_t*>(x.count.get()); });
  dev.release();

  OperatorRun<uint64_t> r;
  r.values = relabel ? to_old_order(per_vertex, o.old_of_new) : std::move(per_vertex);
  r.edges = m;
  dev.record(r, orient_seconds + count_seconds, "none (every GPU device holds the lower lists)",
             (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t));
  return r;
}

void run_tc_gpu(const AppRun& r, AppOutput& out) { out.counts = run_on_gpus(r, TcProgram{r.opt.gpu_tc}, out); }

}  // namespace chatty
