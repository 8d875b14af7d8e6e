// The operators' kernels on a GPU (runtime/cuda/operators.cuh launches
// them): grid-stride loops, so any grid is correct. The functors are the
// same CHATTY_HD structs the host operators call.
//   compute   f(i) for every i of a range
//   advance   push: a group of L lanes per frontier vertex walks its
//             out-edges; joined vertices are appended to the order with
//             one atomic per warp's discoveries; marked edges set bits (64
//             per word). pull: a thread per wanted vertex walks its
//             in-edges into the level's bits
//   gather    a group of L lanes per vertex folds map over its (marked)
//             edges with shuffles, then applies the sum
//   filter    kept items appended as the advance appends
//   reduce    each block folds its share; the host folds the blocks'
#pragma once

#include <cooperative_groups.h>

#include <cstdint>
#include <cstring>

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::cuda {

template <typename F>
__global__ void compute_kernel(uint64_t lo, uint64_t hi, F f) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = lo + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < hi; i += stride) f(size_t(i));
}

// Appends v to out at *tail: the calling lanes that append in this pass
// claim their slots with one atomic.
__device__ __forceinline__ void append(vid_t v, vid_t* out, unsigned* tail) {
  namespace cg = cooperative_groups;
  cg::coalesced_group found = cg::coalesced_threads();
  unsigned at = 0;
  if (found.thread_rank() == 0) at = atomicAdd(tail, found.size());
  out[found.shfl(at, 0) + found.thread_rank()] = v;
}

__device__ __forceinline__ bool marked(const unsigned long long* marks, eid_t e) {
  return (marks[e >> 6] >> (e & 63)) & 1;
}

// Expands order[lo, hi): f(u, v, e) for each out-edge, appending the
// vertices it joins (ops::kJoin) after the level at *tail, and marking the
// edges it marks (ops::kMark) where `marks` is given. With `scout`, adds
// the joined vertices' out-degrees to it (the push/pull rule's input).
template <int L, typename F>
__global__ void advance_push_kernel(const eid_t* offsets, const vid_t* targets, vid_t* order, uint64_t lo, uint64_t hi,
                                    F f, unsigned* tail, unsigned long long* marks, unsigned long long* scout) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t groups = uint64_t(gridDim.x) * blockDim.x / L;
  const unsigned lane = threadIdx.x % L;
  for (uint64_t i = lo + t / L; i < hi; i += groups) {
    const vid_t u = order[i];
    for (eid_t e = offsets[u] + lane; e < offsets[u + 1]; e += L) {
      const vid_t v = targets[e];
      const unsigned visit = f(u, v, e);
      if (visit & ops::kJoin) {
        append(v, order, tail);
        if (scout) atomicAdd(scout, (unsigned long long)(offsets[v + 1] - offsets[v]));
      }
      if (marks && (visit & ops::kMark)) atomicOr(marks + (e >> 6), 1ull << (e & 63));
    }
  }
}

// The level order[lo, hi) as bits (bits cleared by the caller). Static:
// each file that launches operators has its own copy.
static __global__ void level_bits_kernel(const vid_t* order, uint64_t lo, uint64_t hi, unsigned long long* bits) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = lo + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < hi; i += stride)
    atomicOr(bits + (order[i] >> 6), 1ull << (order[i] & 63));
}

// Pull: every vertex v that f still wants scans its in-edges (in_offsets,
// in_targets) for level vertices, calling f(u, v, e) on each until f
// answers ops::kStop; joined vertices are appended at *tail and their
// out-degrees (out_offsets) added to *scout.
template <typename F>
__global__ void advance_pull_kernel(const eid_t* in_offsets, const vid_t* in_targets, const eid_t* out_offsets, vid_t n,
                                    const unsigned long long* level, F f, vid_t* order, unsigned* tail,
                                    unsigned long long* scout) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const vid_t v = vid_t(i);
    if (!f.wanted(v)) continue;
    for (eid_t e = in_offsets[v]; e < in_offsets[v + 1]; ++e) {
      const vid_t u = in_targets[e];
      if (!((level[u >> 6] >> (u & 63)) & 1)) continue;
      const unsigned visit = f(u, v, e);
      if (visit & ops::kJoin) {
        append(v, order, tail);
        atomicAdd(scout, (unsigned long long)(out_offsets[v + 1] - out_offsets[v]));
      }
      if (visit & ops::kStop) break;
    }
  }
}

// Shuffles a value of up to 16 bytes down `offset` lanes within groups of
// `width`, a 4-byte word at a time.
template <typename T>
__device__ __forceinline__ T shuffle_down(const T& v, int offset, int width) {
  constexpr int kWords = (sizeof(T) + 3) / 4;
  unsigned w[kWords] = {};
  memcpy(w, &v, sizeof(T));
  for (int k = 0; k < kWords; ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], offset, width);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// For each order[i] of [lo, hi): apply(v, fold by op of map(v, w, e) over
// v's edges, only the marked ones where `marks` is given). The warp walks
// its vertices in step, so every shuffle has the whole warp.
template <int L, typename T, typename Map, typename Op, typename Apply>
__global__ void gather_kernel(const eid_t* offsets, const vid_t* targets, const vid_t* order, uint64_t lo, uint64_t hi,
                              Map map, Op op, Apply apply, const unsigned long long* marks) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t per_warp = 32 / L;
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % L;
  for (uint64_t first = lo + (t / 32) * per_warp; first < hi; first += warps * per_warp) {
    const uint64_t i = first + (threadIdx.x % 32) / L;
    T sum{};
    vid_t v = 0;
    if (i < hi) {
      v = order[i];
      for (eid_t e = offsets[v] + lane; e < offsets[v + 1]; e += L)
        if (!marks || marked(marks, e)) sum = op(sum, map(v, targets[e], e));
    }
    for (int o = L / 2; o > 0; o /= 2) sum = op(sum, shuffle_down(sum, o, L));
    if (i < hi && lane == 0) apply(v, sum);
  }
}

// The items i of [0, count) whose at(i) keep() accepts, appended as at(i)
// to out at *tail.
template <typename At, typename Keep>
__global__ void filter_kernel(uint64_t count, At at, Keep keep, vid_t* out, unsigned* tail) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const vid_t v = at(size_t(i));
    if (keep(v)) append(v, out, tail);
  }
}

// Block b's fold by op of map(i) over its share of [lo, hi), from init,
// into partial[b]. Blocks of kBlockThreads threads.
inline constexpr int kReduceThreads = 256;
template <typename T, typename Map, typename Op>
__global__ void reduce_kernel(uint64_t lo, uint64_t hi, T init, Map map, Op op, T* partial) {
  __shared__ T warp_sum[kReduceThreads / 32];
  T mine = init;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = lo + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < hi; i += stride)
    mine = op(mine, map(size_t(i)));
  for (int o = 16; o > 0; o /= 2) mine = op(mine, shuffle_down(mine, o, 32));
  if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    T all = warp_sum[0];
    for (int w = 1; w < kReduceThreads / 32; ++w) all = op(all, warp_sum[w]);
    partial[blockIdx.x] = all;
  }
}

}  // namespace chatty::cuda
