// Triangle counting on GPU devices: the host orients the lists by degree
// (inside the timed run, as GAP times its relabelling), every device holds
// the lower lists (half the edges) and counts an equal share of entries
// (by rows or by entries: --gpu_tc);
// the per-vertex counts are summed over the devices.
#include <omp.h>

#include <algorithm>
#include <memory>

#include "apps/tc/app.h"
#include "apps/tc/orient.h"
#include "apps/work_share.h"
#include "kernels/cuda/launch.h"
#include "kernels/cuda/triangles.cuh"
#include "runtime/cuda/row_devices.cuh"
#include "runtime/graph/reorder.h"

namespace chatty {

namespace {

struct TcDevice {
  cuda::Stream stream;
  cuda::DeviceCsr lower;
  cuda::DeviceArray<unsigned long long> count;
};

}  // namespace

void run_tc_gpu(const AppRun& r, AppOutput& out) {
  const Graph& g = r.g;
  const vid_t n = g.num_vertices();
  // With ranks, each counts its devices' shares of the run's entries.
  const WorkShare share = work_share(r);
  const int D = share.local;
  // An undirected graph lists each edge twice: the lower lists hold one.
  const uint64_t bytes = (uint64_t(n) + 1) * sizeof(eid_t) + g.num_edges() / 2 * sizeof(vid_t) +
                         uint64_t(n) * sizeof(unsigned long long) + (64u << 20);
  const cuda::RowDevices rd = cuda::place_row_devices(D, bytes, "tc");
  out.gpu_of = rd.place.gpu_of;

  const double t0 = omp_get_wtime();
  const bool relabel = tc::worth_relabelling(g);
  // The lower lists must fit a GPU's memory, far less than the host's: the
  // host keeps the input's pages (dropping them cost a grid's orientation
  // on 16 threads 2.6x its time, in refaults and TLB shootdowns).
  const tc::Oriented o = tc::orient(g, relabel, tc::InputPages::kKeep);
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
  const double count_seconds = dev.run([&](int d, TcDevice& x) {
    const eid_t G = eid_t(share.devices), at = eid_t(share.first + d);
    const eid_t lo = m * at / G, hi = m * (at + 1) / G;
    const cudaStream_t st = x.stream.get();
    const eid_t* offsets = x.lower.offsets.get();
    const vid_t* targets = x.lower.targets.get();
    if (r.opt.gpu_tc == GpuTc::kRows) {
      // The rows whose entries start in [lo, hi): equal shares of entries.
      const eid_t* off = lower.offsets.data();
      const vid_t r_lo = vid_t(std::lower_bound(off, off + n, lo) - off);
      const vid_t r_hi = at + 1 == G ? n : vid_t(std::lower_bound(off, off + n, hi) - off);
      const cuda::Launch l = cuda::launch_for(r_hi - r_lo, rd.multiprocessors[size_t(d)], 32);
      if (r_hi > r_lo)
        cuda::count_triangles_rows_kernel<<<l.grid, l.block, 0, st>>>(offsets, targets, r_lo, r_hi, x.count.get());
      CHATTY_CUDA_LAUNCHED("count_triangles_rows_kernel");
    } else {
      const cuda::Launch l = cuda::launch_for(hi - lo, rd.multiprocessors[size_t(d)]);
      if (hi > lo)
        cuda::count_triangles_entries_kernel<<<l.grid, l.block, 0, st>>>(offsets, targets, n, lo, hi, x.count.get());
      CHATTY_CUDA_LAUNCHED("count_triangles_entries_kernel");
    }
    x.stream.sync();
  });

  std::vector<uint64_t> per_vertex(n, 0);
  static_assert(sizeof(unsigned long long) == sizeof(uint64_t));
  dev.sum_into(per_vertex, n, [](TcDevice& x) { return reinterpret_cast<const uint64_t*>(x.count.get()); });
  dev.release();
  sum_over_ranks(per_vertex, share);
  out.counts = relabel ? to_old_order(per_vertex, o.old_of_new) : std::move(per_vertex);

  record_operator_run(out.multi, dev.seconds(), m, "none (every GPU device holds the lower lists)");
  note_share(out.multi, share);
  out.multi.setup_seconds = dev.setup_seconds();
  out.multi.run_seconds = orient_seconds + count_seconds;
  out.multi.structure_bytes = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
}

}  // namespace chatty
