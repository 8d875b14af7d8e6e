// The operator set on a GPU device, the host operators' counterparts
// (runtime/host/operators.h), launched on one device's stream with the
// same CHATTY_HD functors. A device holds what it reads (the graph, its
// values), so no step exchanges anything; devices split sources or rows,
// and their results are summed after the run (row_devices.cuh).
//   compute, advance (push or pull), gather, filter, reduce
// An advance reads the next level's length back to the host (one small
// copy per level: the level's bounds drive the next launch).
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_segmented_sort.cuh>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/launch.h"
#include "kernels/cuda/operators.cuh"
#include "runtime/base/operators.h"
#include "runtime/cuda/row_devices.cuh"
#include "runtime/engine/superstep_decisions.h"

namespace chatty::cuda {

// Where a device's operators run.
struct OpStream {
  cudaStream_t stream;
  int multiprocessors;
};

// One bit per edge of a CSR, on the device.
struct DeviceEdgeMarks {
  DeviceArray<unsigned long long> words;
  void allocate(eid_t edges) { words.allocate(std::max<size_t>(1, (size_t(edges) + 63) / 64)); }
  void clear(const OpStream& s, eid_t edges) {
    CHATTY_CUDA(cudaMemsetAsync(words.get(), 0, (size_t(edges) + 63) / 64 * 8, s.stream));
  }
};

using DeviceLevel = FrontierLevel<vid_t>;

// Frontiers level after level in one device array, as LevelQueue on host
// devices; the bounds are kept on the host.
class DeviceLevelQueue {
 public:
  void allocate(vid_t n) {
    n_ = n;
    order_.allocate(std::max<vid_t>(n, 1));
    counts_.allocate(2);  // the order's length, the joined vertices' out-edges
    level_bits_.allocate(size_t(n) / 64 + 1);
    if (!found_)
      CHATTY_CUDA(
          cudaHostAlloc(reinterpret_cast<void**>(&found_), 2 * sizeof(unsigned long long), cudaHostAllocDefault));
  }
  ~DeviceLevelQueue() {
    if (found_) cudaFreeHost(found_);
  }
  // Starts from one vertex of the host graph `c` (its degree and size feed
  // the push/pull rule); returns level 0.
  DeviceLevel start(const OpStream& s, const Csr& c, vid_t first, double alpha = kDefaultAlpha,
                    double beta = kDefaultBeta) {
    const unsigned long long counts[2] = {1, 0};
    CHATTY_CUDA(cudaMemcpyAsync(order_.get(), &first, sizeof(vid_t), cudaMemcpyHostToDevice, s.stream));
    CHATTY_CUDA(cudaMemcpyAsync(counts_.get(), counts, sizeof counts, cudaMemcpyHostToDevice, s.stream));
    CHATTY_CUDA(cudaStreamSynchronize(s.stream));  // `counts` lives on this stack
    bounds_.assign(1, 0);
    return DeviceLevel::first(1, c.degree(first), c.num_edges(), c.num_vertices(), alpha, beta);
  }
  // Starts from `count` vertices listed on the device at `first` (not
  // this queue's own order); returns level 0. Their out-edges are not
  // counted: for advances in a fixed direction, which need none.
  DeviceLevel start(const OpStream& s, const Csr& c, const vid_t* first, vid_t count) {
    if (count)
      CHATTY_CUDA(
          cudaMemcpyAsync(order_.get(), first, size_t(count) * sizeof(vid_t), cudaMemcpyDeviceToDevice, s.stream));
    const unsigned long long counts[2] = {count, 0};
    CHATTY_CUDA(cudaMemcpyAsync(counts_.get(), counts, sizeof counts, cudaMemcpyHostToDevice, s.stream));
    CHATTY_CUDA(cudaStreamSynchronize(s.stream));  // `counts` lives on this stack
    bounds_.assign(1, 0);
    return DeviceLevel::first(count, 0, c.num_edges(), c.num_vertices(), kDefaultAlpha, kDefaultBeta);
  }
  vid_t vertices() const { return n_; }
  vid_t* order() { return order_.get(); }
  unsigned* tail() { return reinterpret_cast<unsigned*>(counts_.get()); }
  unsigned long long* scout() { return counts_.get() + 1; }
  unsigned long long* level_bits() { return level_bits_.get(); }
  int levels() const { return int(bounds_.size()) - 1; }
  vid_t size() const { return bounds_.back(); }  // the vertices of every level
  DeviceLevel level(int l) const { return {bounds_[size_t(l)], bounds_[size_t(l) + 1], l}; }
  // After an advance's launch in direction `pull`: waits for it, reads
  // where the next level ends and its out-edges, and applies the rule.
  DeviceLevel next_after(const OpStream& s, const DeviceLevel& cur, bool pull) {
    CHATTY_CUDA(
        cudaMemcpyAsync(found_, counts_.get(), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s.stream));
    CHATTY_CUDA(cudaMemsetAsync(scout(), 0, sizeof(unsigned long long), s.stream));
    CHATTY_CUDA(cudaStreamSynchronize(s.stream));
    bounds_.push_back(cur.hi);
    return cur.after(vid_t(found_[0]), pull, found_[1]);
  }

 private:
  DeviceArray<vid_t> order_;
  // The order's length as the low word of counts_[0] (appends add to it
  // as an unsigned), and the joined vertices' out-edges in counts_[1].
  DeviceArray<unsigned long long> counts_;
  DeviceArray<unsigned long long> level_bits_;
  unsigned long long* found_ = nullptr;  // pinned
  std::vector<vid_t> bounds_;
  vid_t n_ = 0;
};

// f(i) for every i of [lo, hi).
template <typename F>
void compute(const OpStream& s, uint64_t lo, uint64_t hi, F f) {
  if (hi <= lo) return;
  const Launch l = launch_for(hi - lo, s.multiprocessors);
  compute_kernel<<<l.grid, l.block, 0, s.stream>>>(lo, hi, f);
  CHATTY_CUDA_LAUNCHED("compute_kernel");
}

// Sorts each segment i < segments of `in`, [at[i], at[i + 1]), into the
// same place of `out`, ascending; `items`: their entries together. `room`:
// the sort's scratch, grown here and kept by the caller from call to call.
inline void sort_segments(const OpStream& s, const uint32_t* in, uint32_t* out, uint64_t items, uint64_t segments,
                          const uint64_t* at, DeviceArray<uint8_t>& room) {
  if (items == 0 || segments == 0) return;
  size_t bytes = 0;
  CHATTY_CUDA(cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, in, out, int64_t(items), int64_t(segments), at, at + 1,
                                                 s.stream));
  if (room.size() < bytes) room.allocate(bytes);
  CHATTY_CUDA(cub::DeviceSegmentedSort::SortKeys(room.get(), bytes, in, out, int64_t(items), int64_t(segments), at,
                                                 at + 1, s.stream));
}

// The level after `cur`; see host::advance for f's answers and the
// directions. Push: groups of L lanes per level vertex over its out-edges
// (c). Pull, where f has wanted(v), `in` (the reverse CSR) is given and no
// edge is marked: a thread per wanted vertex over its in-edges.
template <int L, typename F>
DeviceLevel advance(const OpStream& s, const DeviceCsr& c, DeviceLevelQueue& q, const DeviceLevel& cur, F f,
                    ops::Direction dir = ops::Direction::kPush, DeviceEdgeMarks* marks = nullptr,
                    const DeviceCsr* in = nullptr) {
  const vid_t n = q.vertices();
  const bool can_pull = ops::Pullable<F> && in && !marks;
  const bool pull = can_pull && (dir == ops::Direction::kPull || (dir == ops::Direction::kAuto && cur.pull));
  if constexpr (ops::Pullable<F>) {
    if (pull) {
      CHATTY_CUDA(cudaMemsetAsync(q.level_bits(), 0, (size_t(n) / 64 + 1) * 8, s.stream));
      const Launch b = launch_for(cur.hi - cur.lo, s.multiprocessors);
      level_bits_kernel<<<b.grid, b.block, 0, s.stream>>>(q.order(), cur.lo, cur.hi, q.level_bits());
      CHATTY_CUDA_LAUNCHED("level_bits_kernel");
      const Launch l = launch_for(n, s.multiprocessors);
      advance_pull_kernel<<<l.grid, l.block, 0, s.stream>>>(in->offsets.get(), in->targets.get(), c.offsets.get(), n,
                                                            q.level_bits(), f, q.order(), q.tail(), q.scout());
      CHATTY_CUDA_LAUNCHED("advance_pull_kernel");
      return q.next_after(s, cur, true);
    }
  }
  const Launch l = launch_for(cur.hi - cur.lo, s.multiprocessors, L);
  advance_push_kernel<L><<<l.grid, l.block, 0, s.stream>>>(c.offsets.get(), c.targets.get(), q.order(), cur.lo, cur.hi,
                                                           f, q.tail(), marks ? marks->words.get() : nullptr,
                                                           dir == ops::Direction::kAuto ? q.scout() : nullptr);
  CHATTY_CUDA_LAUNCHED("advance_push_kernel");
  return q.next_after(s, cur, false);
}

// For each order[i] of [lo, hi): apply(v, fold by op of map over v's
// (marked) edges); see host::gather.
template <int L, typename T, typename Map, typename Op, typename Apply>
requires ops::Value<T>
void gather(const OpStream& s, const DeviceCsr& c, const vid_t* order, uint64_t lo, uint64_t hi, Map map, Op op,
            Apply apply, const DeviceEdgeMarks* marks = nullptr) {
  if (hi <= lo) return;
  const Launch l = launch_for(hi - lo, s.multiprocessors, L);
  gather_kernel<L, T><<<l.grid, l.block, 0, s.stream>>>(c.offsets.get(), c.targets.get(), order, lo, hi, map, op, apply,
                                                        marks ? marks->words.get() : nullptr);
  CHATTY_CUDA_LAUNCHED("gather_kernel");
}

// The items i of [0, count) whose at(i) keep() accepts, written to out in
// no particular order; returns how many (waits for the stream). `tail`: a
// device counter for the step.
template <typename At, typename Keep>
size_t filter(const OpStream& s, uint64_t count, At at, Keep keep, vid_t* out, unsigned* tail) {
  CHATTY_CUDA(cudaMemsetAsync(tail, 0, sizeof(unsigned), s.stream));
  if (count > 0) {
    const Launch l = launch_for(count, s.multiprocessors);
    filter_kernel<<<l.grid, l.block, 0, s.stream>>>(count, at, keep, out, tail);
    CHATTY_CUDA_LAUNCHED("filter_kernel");
  }
  unsigned kept = 0;
  CHATTY_CUDA(cudaMemcpyAsync(&kept, tail, sizeof(unsigned), cudaMemcpyDeviceToHost, s.stream));
  CHATTY_CUDA(cudaStreamSynchronize(s.stream));
  return kept;
}

// The fold by op of map(i) over [lo, hi); init is op's identity (each
// thread starts from it). `partial`: the blocks' folds, grown here when
// too small and kept by the caller from call to call (an allocation per
// call would cost more than a small fold). Waits for the stream.
template <typename T, typename Map, typename Op>
requires ops::Value<T> T reduce(const OpStream& s, uint64_t lo, uint64_t hi, T init, Map map, Op op,
                                DeviceArray<T>& partial) {
  static_assert(kBlock == kReduceThreads, "reduce_kernel's blocks are the launch's");
  const Launch l = launch_for(hi > lo ? hi - lo : 1, s.multiprocessors);
  if (partial.size() < l.grid) partial.allocate(l.grid);
  reduce_kernel<<<l.grid, l.block, 0, s.stream>>>(lo, hi, init, map, op, partial.get());
  CHATTY_CUDA_LAUNCHED("reduce_kernel");
  std::vector<T> blocks(l.grid);
  CHATTY_CUDA(cudaMemcpyAsync(blocks.data(), partial.get(), l.grid * sizeof(T), cudaMemcpyDeviceToHost, s.stream));
  CHATTY_CUDA(cudaStreamSynchronize(s.stream));
  T all = init;
  for (const T& b : blocks) all = op(all, b);
  return all;
}

}  // namespace chatty::cuda
