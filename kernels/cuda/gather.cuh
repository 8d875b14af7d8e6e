// The pull-gather superstep on the GPU. For programs whose gather is a sum
// (PageRank), a group of G lanes (G chosen from the chunk's in-degrees:
// 4..32) sums the published values of one vertex's in-neighbours, so short
// lists do not idle a whole warp and long ones are read coalesced; vertices
// with at least kHeavyDegree in-edges get a whole block each in a second
// kernel, so a hub does not stall one group for the whole step. Other
// gathers (k-core's h-index) run the program's own gather, a thread per
// vertex. All write the vertex's next published value and sum the change
// and sink mass (warp or block sums, one atomic each).
#pragma once

#include <cub/block/block_reduce.cuh>

#include "kernels/cuda/gather_plan.h"
#include "kernels/cuda/launch.h"
#include "kernels/cuda/traversal.cuh"
#include "runtime/base/program.h"

namespace chatty::cuda {

inline constexpr eid_t kHeavyDegree = 4096;

// Stores owned vertex v's (chunk index i) next value and what it publishes.
template <typename P, typename V>
__device__ __forceinline__ void gather_store(const P& prog, vid_t v, vid_t i, V value, const eid_t* out_off,
                                             V* next_contrib, V* values, double& l1, double& dangling) {
  l1 += fabs(double(value) - double(values[v]));
  values[v] = value;
  const eid_t d = out_off[i + 1] - out_off[i];
  dangling += prog.sink(value, d);
  next_contrib[v] = prog.publish(value, d);
}

// Adds a thread's change and sink mass to the device's counters.
__device__ __forceinline__ void add_gather_sums(double l1, double dangling, Counters* c) {
  l1 = warp_sum(l1);
  dangling = warp_sum(dangling);
  if ((threadIdx.x & 31) == 0) {
    if (l1 != 0) atomicAdd(&c->l1, l1);
    if (dangling != 0) atomicAdd(&c->dangling, dangling);
  }
}

// A lane's share of a row: every G-th in-edge from `e`. With kUnroll, four
// sources are read before their values, so four loads are in flight per
// lane (the values sit in L2; the loop waits on its latency, not DRAM).
template <int G, bool kUnroll>
__device__ __forceinline__ double lane_sum(eid_t e, eid_t last, const vid_t* __restrict__ in_targets,
                                           const float* __restrict__ contrib) {
  double sum = 0;
  if constexpr (kUnroll) {
    for (; e + 3 * G < last; e += 4 * G) {
      const vid_t t0 = __ldg(&in_targets[e]), t1 = __ldg(&in_targets[e + G]), t2 = __ldg(&in_targets[e + 2 * G]),
                  t3 = __ldg(&in_targets[e + 3 * G]);
      const float c0 = __ldg(&contrib[t0]), c1 = __ldg(&contrib[t1]), c2 = __ldg(&contrib[t2]),
                  c3 = __ldg(&contrib[t3]);
      sum += (double(c0) + double(c1)) + (double(c2) + double(c3));
    }
  }
  for (; e < last; e += G) sum += __ldg(&contrib[__ldg(&in_targets[e])]);
  return sum;
}

// `list`: the chunk indices to gather (a bin), or null for every owned
// vertex 0..count-1.
template <int G, typename P, bool kUnroll = false>
__global__ void gather_kernel(P prog, const vid_t* __restrict__ list, vid_t count, const eid_t* __restrict__ in_off,
                              const vid_t* __restrict__ in_targets, const eid_t* out_off, vid_t lo,
                              const float* __restrict__ contrib, float* next_contrib, float* ranks, double dangling_in,
                              Counters* c) {
  static_assert(P::kSums, "lanes split only a sum");
  static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "group size divides the warp");
  const int lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned warps = (gridDim.x * blockDim.x) >> 5;
  double l1 = 0, dangling = 0;
  // Loop bounds are uniform per warp, so every lane reaches the shuffles.
  for (ull base = ull(warp) * (32 / G); base < count; base += ull(warps) * (32 / G)) {
    const vid_t k = vid_t(base) + vid_t(lane / G);
    bool mine = k < count;
    const vid_t i = mine && list ? list[k] : k;
    double sum = 0;  // as the program's gather: a float sum drifts on long rows
    if (mine) {
      const eid_t first = in_off[i], last = in_off[i + 1];
      mine = last - first < kHeavyDegree;  // hubs are gathered by heavy_gather_kernel
      if (mine) sum = lane_sum<G, kUnroll>(first + lane % G, last, in_targets, contrib);
    }
    for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_down_sync(kFullMask, sum, o, G);
    if (mine && lane % G == 0)
      gather_store(prog, lo + i, i, prog.apply(sum, dangling_in), out_off, next_contrib, ranks, l1, dangling);
  }
  add_gather_sums(l1, dangling, c);
}

// A thread per owned vertex runs the program's own gather.
template <typename P, typename V = typename P::Value>
__global__ void vertex_gather_kernel(P prog, const eid_t* __restrict__ in_off, const vid_t* __restrict__ in_targets,
                                     const eid_t* out_off, vid_t lo, vid_t nd, const V* __restrict__ contrib,
                                     V* next_contrib, V* values, double dangling_in, Counters* c) {
  double l1 = 0, dangling = 0;
  const ull stride = ull(gridDim.x) * blockDim.x;
  // Bounds rounded up to whole warps, so every lane reaches the warp sums.
  const ull end = (ull(nd) + 31) / 32 * 32;
  for (ull k = ull(blockIdx.x) * blockDim.x + threadIdx.x; k < end; k += stride) {
    if (k >= nd) continue;
    const vid_t i = vid_t(k), v = lo + i;
    const eid_t first = in_off[i];
    const V value =
        prog.gather(values[v], InValues<V>{contrib, in_targets + first, in_off[i + 1] - first}, dangling_in);
    gather_store(prog, v, i, value, out_off, next_contrib, values, l1, dangling);
  }
  add_gather_sums(l1, dangling, c);
}

// One block per owned vertex with >= kHeavyDegree in-edges (listed once at setup).
template <typename P>
__global__ void heavy_gather_kernel(P prog, const vid_t* heavy, ull count, const eid_t* __restrict__ in_off,
                                    const vid_t* __restrict__ in_targets, const eid_t* out_off, vid_t lo,
                                    const float* __restrict__ contrib, float* next_contrib, float* ranks,
                                    double dangling_in, Counters* c) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (ull h = blockIdx.x; h < count; h += gridDim.x) {
    const vid_t v = heavy[h], i = v - lo;
    double sum = 0;
    for (eid_t e = in_off[i] + threadIdx.x; e < in_off[i + 1]; e += blockDim.x)
      sum += __ldg(&contrib[__ldg(&in_targets[e])]);
    sum = Reduce(tmp).Sum(sum);
    if (threadIdx.x == 0) {
      double l1 = 0, dangling = 0;
      gather_store(prog, v, i, prog.apply(sum, dangling_in), out_off, next_contrib, ranks, l1, dangling);
      if (l1 != 0) atomicAdd(&c->l1, l1);
      if (dangling != 0) atomicAdd(&c->dangling, dangling);
    }
    __syncthreads();  // tmp is reused by the next vertex
  }
}

// The binned gather's hubs: a block per piece of a hub's in-edges adds its
// sum to the hub's (double atomics; the order of the pieces' adds varies).
template <typename Piece>
__global__ void piece_gather_kernel(const Piece* __restrict__ pieces, ull count, const vid_t* __restrict__ in_targets,
                                    const float* __restrict__ contrib, double* hub_sum) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (ull p = blockIdx.x; p < count; p += gridDim.x) {
    const Piece piece = pieces[p];
    double sum = 0;
    for (eid_t e = piece.first + threadIdx.x; e < piece.last; e += blockDim.x)
      sum += __ldg(&contrib[__ldg(&in_targets[e])]);
    sum = Reduce(tmp).Sum(sum);
    if (threadIdx.x == 0) atomicAdd(&hub_sum[piece.hub], sum);
    __syncthreads();  // tmp is reused by the next piece
  }
}

// After piece_gather_kernel: each hub's value from its sum, which is cleared
// for the next superstep.
template <typename P>
__global__ void hub_finish_kernel(P prog, const vid_t* hubs, ull count, double* hub_sum, const eid_t* out_off, vid_t lo,
                                  float* next_contrib, float* ranks, double dangling_in, Counters* c) {
  double l1 = 0, dangling = 0;
  const ull end = (count + 31) / 32 * 32;  // whole warps, so every lane reaches the warp sums
  for (ull h = ull(blockIdx.x) * blockDim.x + threadIdx.x; h < end; h += ull(gridDim.x) * blockDim.x) {
    if (h >= count) continue;
    const vid_t i = hubs[h];
    const double sum = hub_sum[h];
    hub_sum[h] = 0;
    gather_store(prog, lo + i, i, prog.apply(sum, dangling_in), out_off, next_contrib, ranks, l1, dangling);
  }
  add_gather_sums(l1, dangling, c);
}

// The tiled gather (--gpu_gather=tiled; kernels/cuda/gather_plan.h): a block
// per tile of kItems row ends + edges. Every thread loads its kItems/kBlock
// edges' sources, then their values (all in flight together), finds each
// edge's row by binary search in the tile's row ends (shared memory), and
// each warp adds its run of a row with one shared atomic after a segmented
// scan. The tile then finishes its own rows and adds the parts of split rows
// to their slots; hub_finish_kernel finishes those. kStream: the edges'
// sources are read evict-first (each is read once per iteration), so they
// do not push the contributions out of L2.
template <typename P, int kItems, bool kStream>
__global__ void __launch_bounds__(kBlock)
    tile_gather_kernel(P prog, const GatherTile* __restrict__ tiles, ull count, const eid_t* __restrict__ in_off,
                       const vid_t* __restrict__ in_targets, const eid_t* out_off, vid_t lo,
                       const float* __restrict__ contrib, float* next_contrib, float* ranks, double* split_sum,
                       double dangling_in, Counters* c) {
  static_assert(kItems % kBlock == 0, "whole rounds of the block");
  constexpr int kPer = kItems / kBlock;
  constexpr vid_t kNone = ~vid_t(0);
  __shared__ eid_t s_end[kItems];
  __shared__ double s_sum[kItems + 1];
  const int lane = threadIdx.x & 31;
  double l1 = 0, dangling = 0;
  for (ull t = blockIdx.x; t < count; t += gridDim.x) {
    const GatherTile a = tiles[t], b = tiles[t + 1];
    const vid_t rows = b.row - a.row;                  // finished here; at most kItems
    const vid_t touched = rows + (b.lead != kNoSlot);  // and the row split after the tile
    for (vid_t k = threadIdx.x; k < touched; k += kBlock) {
      if (k < rows) s_end[k] = in_off[a.row + k + 1];
      s_sum[k] = 0;
    }
    __syncthreads();
    vid_t src[kPer];
#pragma unroll
    for (int q = 0; q < kPer; ++q) {
      const eid_t e = a.edge + threadIdx.x + eid_t(q) * kBlock;
      src[q] = e < b.edge ? (kStream ? __ldcs(&in_targets[e]) : __ldg(&in_targets[e])) : kNone;
    }
    double x[kPer];
#pragma unroll
    for (int q = 0; q < kPer; ++q) x[q] = src[q] != kNone ? double(__ldg(&contrib[src[q]])) : 0.0;
#pragma unroll
    for (int q = 0; q < kPer; ++q) {
      const eid_t e = a.edge + threadIdx.x + eid_t(q) * kBlock;
      vid_t k = kNone;  // the edge's row within the tile: the rows whose ends are <= e come before it
      if (src[q] != kNone) {
        vid_t l = 0, h = rows;
        while (l < h) {
          const vid_t m = (l + h) / 2;
          if (s_end[m] <= e)
            l = m + 1;
          else
            h = m;
        }
        k = l;
      }
      // A warp's edges are consecutive, so its rows ascend by lane: a
      // segmented scan leaves each run's total on its last lane.
      double v = x[q];
      for (int o = 1; o < 32; o <<= 1) {
        const double up = __shfl_up_sync(kFullMask, v, o);
        const vid_t kup = __shfl_up_sync(kFullMask, k, o);
        if (lane >= o && kup == k) v += up;
      }
      const vid_t next = __shfl_down_sync(kFullMask, k, 1);
      if (k != kNone && (lane == 31 || next != k)) atomicAdd(&s_sum[k], v);
    }
    __syncthreads();
    for (vid_t k = threadIdx.x; k < touched; k += kBlock) {
      const vid_t i = a.row + k;
      if (k == 0 && a.lead != kNoSlot)
        atomicAdd(&split_sum[a.lead], s_sum[k]);
      else if (k == rows)
        atomicAdd(&split_sum[b.lead], s_sum[k]);
      else
        gather_store(prog, lo + i, i, prog.apply(s_sum[k], dangling_in), out_off, next_contrib, ranks, l1, dangling);
    }
    __syncthreads();  // the next tile overwrites the shared arrays
  }
  add_gather_sums(l1, dangling, c);
}

// Peers send the published values of their boundary vertices: both buffers take them.
template <typename V>
__global__ void merge_contrib_kernel(const Update<V>* rec, ull count, V* contrib, V* next_contrib) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    contrib[rec[i].v] = next_contrib[rec[i].v] = rec[i].value;
}

}  // namespace chatty::cuda
