// Distance measures on one GPU device: this rank's walks (every ranks-th
// vertex) 64 at a time by batch.h's levels, a thread per vertex, each
// walk's new vertices counted by atomics; the levels' counts come back to
// the host, which keeps the walks' sums. Any other device adds zeros.
#include <memory>
#include <span>
#include <vector>

#include "apps/closeness/app.h"
#include "apps/closeness/batch.h"
#include "apps/gpu_run.cuh"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct ClosenessDevice {
  cuda::Stream stream;
  cuda::DeviceCsr r;  // the reverse of the walks' CSR
  cuda::DeviceArray<uint64_t> seen, front, next;
  cuda::DeviceArray<vid_t> sources;
  cuda::DeviceArray<unsigned long long> counts;  // per walk of the batch: the vertices it reached at this level
  cuda::OpStream ops{nullptr, 1};
};

struct LevelCounting {
  closeness::Level level;
  unsigned long long* counts;
  CHATTY_HD void operator()(size_t i) const {
    uint64_t fresh = level(i);
#ifdef __CUDA_ARCH__
    for (; fresh; fresh &= fresh - 1) atomicAdd(&counts[__ffsll((long long)fresh) - 1], 1ull);
#else
    (void)fresh;
#endif
  }
};

// Walk j of the batch starts at sources[j].
struct Start {
  const vid_t* sources;
  uint64_t* seen;
  uint64_t* front;
  CHATTY_HD void operator()(size_t j) const {
    seen[sources[j]] |= uint64_t(1) << j;
    front[sources[j]] |= uint64_t(1) << j;
  }
};

void walks(ClosenessDevice& x, vid_t n, DistanceMeasure measure, const std::vector<vid_t>& mine,
           std::vector<double>& value) {
  const cuda::OpStream& s = x.ops;
  uint64_t* front = x.front.get();
  uint64_t* next = x.next.get();
  std::vector<unsigned long long> counts(closeness::kBatch);
  for (size_t b0 = 0; b0 < mine.size() && !interrupt_requested(); b0 += closeness::kBatch) {
    const size_t k = std::min<size_t>(closeness::kBatch, mine.size() - b0);
    const uint64_t batch = k == 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1;
    CHATTY_CUDA(
        cudaMemcpyAsync(x.sources.get(), mine.data() + b0, k * sizeof(vid_t), cudaMemcpyHostToDevice, s.stream));
    cuda::compute(s, 0, n, closeness::Unseen{x.seen.get(), front});
    cuda::compute(s, 0, k, Start{x.sources.get(), x.seen.get(), front});
    std::vector<Walk> walk(k, Walk{1, 0, 0, 0});
    for (uint32_t depth = 1;; ++depth) {
      CHATTY_CUDA(cudaMemsetAsync(x.counts.get(), 0, closeness::kBatch * sizeof(unsigned long long), s.stream));
      const closeness::Level level{x.r.offsets.get(), x.r.targets.get(), front, x.seen.get(), next, batch};
      cuda::compute(s, 0, n, LevelCounting{level, x.counts.get()});
      CHATTY_CUDA(cudaMemcpyAsync(counts.data(), x.counts.get(), closeness::kBatch * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, s.stream));
      x.stream.sync();
      uint64_t found = 0;
      for (size_t j = 0; j < k; ++j) found += counts[j];
      std::vector<uint64_t> level_counts(counts.begin(), counts.begin() + std::ptrdiff_t(k));
      add_level(std::span<Walk>(walk), level_counts.data(), depth);
      std::swap(front, next);
      if (!found) break;
    }
    for (size_t j = 0; j < k; ++j) value[mine[b0 + j]] = measure_of(measure, walk[j], n);
  }
}

}  // namespace

OperatorRun<double> ClosenessProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& r = reverse_csr(g, measure);
  const vid_t n = r.num_vertices();
  const eid_t m = r.num_edges();
  const std::vector<vid_t> mine = walk_starts(d.share(), n);
  if (mine.empty()) return nothing_here<double>(n, "none (this rank walks from no vertex)");
  OperatorRun<double> out;
  out.values.assign(n, 0.0);
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = structure + uint64_t(n) * 3 * sizeof(uint64_t) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "closeness");
  cuda::DeviceSet<ClosenessDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<ClosenessDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->r.upload(r, x->stream.get());
    for (cuda::DeviceArray<uint64_t>* a : {&x->seen, &x->front, &x->next}) a->allocate(std::max<vid_t>(n, 1));
    x->sources.allocate(closeness::kBatch);
    x->counts.allocate(closeness::kBatch);
    x->stream.sync();
    return x;
  });
  std::vector<double> value(n, 0.0);
  const double run_seconds = dev.run([&](int, ClosenessDevice& x) {
    walks(x, n, measure, mine, value);
    x.stream.sync();
  });
  throw_if_interrupted();
  dev.release();
  out.values = std::move(value);
  dev.record(out, run_seconds, "none (one GPU device holds the graph's reverse; 64 walks a level, multi-source BFS)",
             structure);
  return out;
}

void run_closeness_gpu(const AppRun& r, AppOutput& out) {
  const std::vector<double> v = run_on_gpus(r, ClosenessProgram{r.opt.distance_measure}, out);
  out.ranks.assign(v.begin(), v.end());
}

}  // namespace chatty
