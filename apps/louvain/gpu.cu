// Louvain on one GPU device: rank 0's first device runs device_levels.h's
// levels on the mechanisms below (CUB's scans, segmented and radix sorts,
// reductions by key), the same communities as the host's at every device
// count; any other device or rank adds zeros.
#include <cub/cub.cuh>
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/louvain/app.h"
#include "apps/louvain/device_levels.h"
#include "apps/louvain/run_communities.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

// device_levels.h's mechanisms on one stream. Every copy to the host
// waits for the stream; a copy from the host waits too, as the host's
// value may be a local.
class CudaMechanisms {
 public:
  template <typename T>
  using Array = cuda::DeviceArray<T>;

  explicit CudaMechanisms(const cuda::OpStream& ops) : ops_(ops) { runs_.allocate(1); }

  template <typename F>
  void compute(uint64_t lo, uint64_t hi, F f) {
    cuda::compute(ops_, lo, hi, f);
  }
  uint64_t scan(const uint64_t* in, uint64_t* out, uint64_t n) {
    if (n == 0) return 0;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, int64_t(n), ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceScan::ExclusiveSum(room_.get(), bytes, in, out, int64_t(n), ops_.stream));
    uint64_t last[2];
    get(last, in + n - 1, 1), get(last + 1, out + n - 1, 1);
    return last[0] + last[1];
  }
  void sort_runs(const uint32_t* key, uint32_t* key_out, const uint64_t* val, uint64_t* val_out, uint64_t items,
                 uint64_t segments, const uint64_t* at) {
    if (items == 0 || segments == 0) return;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, key, key_out, val, val_out, int64_t(items),
                                                    int64_t(segments), at, at + 1, ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceSegmentedSort::SortPairs(room_.get(), bytes, key, key_out, val, val_out, int64_t(items),
                                                    int64_t(segments), at, at + 1, ops_.stream));
  }
  void sort_keys(const uint64_t* key, uint64_t* key_out, const uint64_t* val, uint64_t* val_out, uint64_t items) {
    if (items == 0) return;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, key, key_out, val, val_out, int64_t(items), 0, 64,
                                                ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceRadixSort::SortPairs(room_.get(), bytes, key, key_out, val, val_out, int64_t(items), 0, 64,
                                                ops_.stream));
  }
  uint64_t reduce_by_key(const uint64_t* key, const uint64_t* val, uint64_t items, uint64_t* key_out,
                         uint64_t* sum_out) {
    if (items == 0) return 0;
    size_t bytes = 0;
    CHATTY_CUDA(cub::DeviceReduce::ReduceByKey(nullptr, bytes, key, key_out, val, sum_out, runs_.get(), ops::Plus{},
                                               int64_t(items), ops_.stream));
    room(bytes);
    CHATTY_CUDA(cub::DeviceReduce::ReduceByKey(room_.get(), bytes, key, key_out, val, sum_out, runs_.get(), ops::Plus{},
                                               int64_t(items), ops_.stream));
    uint64_t runs = 0;
    get(&runs, runs_.get(), 1);
    return runs;
  }
  template <typename T>
  void get(T* host, const T* device, size_t n) {
    if (n == 0) return;
    CHATTY_CUDA(cudaMemcpyAsync(host, device, n * sizeof(T), cudaMemcpyDeviceToHost, ops_.stream));
    CHATTY_CUDA(cudaStreamSynchronize(ops_.stream));
  }
  template <typename T>
  void put(T* device, const T* host, size_t n) {
    if (n == 0) return;
    CHATTY_CUDA(cudaMemcpyAsync(device, host, n * sizeof(T), cudaMemcpyHostToDevice, ops_.stream));
    CHATTY_CUDA(cudaStreamSynchronize(ops_.stream));
  }
  template <typename T>
  void zero(T* device, size_t n) {
    if (n) CHATTY_CUDA(cudaMemsetAsync(device, 0, n * sizeof(T), ops_.stream));
  }

 private:
  void room(size_t bytes) {
    if (room_.size() < bytes) room_.allocate(bytes);
  }
  cuda::OpStream ops_;
  cuda::DeviceArray<uint8_t> room_;
  cuda::DeviceArray<uint64_t> runs_;
};

struct LouvainDevice {
  cuda::Stream stream;
  std::unique_ptr<CudaMechanisms> mechanisms;
  std::unique_ptr<louvain::dev::Levels<CudaMechanisms>> levels;
};

}  // namespace

OperatorRun<uint64_t> LouvainProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  OperatorRun<uint64_t> r;
  r.values.assign(n, 0);
  if (d.share().rank != 0) {
    r.device_seconds = {0.0};
    r.how = "none (rank 0 computes the communities)";
    return r;
  }
  // Three levels' graphs, the moving state, the rows' sort keys and CUB's room.
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = 200 * (uint64_t(n) + 1) + 120 * (uint64_t(m) + 1) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "louvain");
  cuda::DeviceSet<LouvainDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<LouvainDevice>();
    x->mechanisms = std::make_unique<CudaMechanisms>(cuda::OpStream{x->stream.get(), rd.multiprocessors[size_t(dv)]});
    x->levels = std::make_unique<louvain::dev::Levels<CudaMechanisms>>(
        *x->mechanisms, c, g.weighted() ? c.weights.data() : nullptr, *this);
    x->stream.sync();
    return x;
  });
  std::vector<uint32_t> labels;
  louvain::Outcome found;
  const double run_seconds = dev.run([&](int, LouvainDevice& x) {
    labels = x.levels->run(found);
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
