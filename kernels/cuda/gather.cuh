// PageRank's pull-gather superstep on the GPU. A group of G lanes (G chosen
// from the chunk's in-degrees: 4..32) sums the contributions of one vertex's
// in-neighbours, so short lists do not idle a whole warp and long ones are
// read coalesced; vertices with at least kHeavyDegree in-edges get a whole
// block each in a second kernel, so a hub does not stall one group for the
// whole step. Both write the vertex's next contribution and sum the L1
// change and dangling mass (warp or block sums, one atomic each).
#pragma once

#include <cub/block/block_reduce.cuh>

#include "kernels/cuda/launch.h"
#include "kernels/cuda/traversal.cuh"

namespace chatty::cuda {

inline constexpr eid_t kHeavyDegree = 4096;

// Applies the program to owned vertex v (chunk index i) with gathered `sum`.
template <typename P>
__device__ __forceinline__ void gather_apply(const P& prog, vid_t v, vid_t i, float sum, const eid_t* out_off,
                                             float* next_contrib, float* ranks, double dangling_in, double& l1,
                                             double& dangling) {
  const float value = prog.apply(double(sum), dangling_in);
  l1 += fabs(double(value) - double(ranks[v]));
  ranks[v] = value;
  const eid_t d = out_off[i + 1] - out_off[i];
  if (d == 0) dangling += double(value);
  next_contrib[v] = d ? float(prog.contribution(value, d)) : 0.0f;
}

template <int G, typename P>
__global__ void gather_kernel(P prog, const eid_t* __restrict__ in_off, const vid_t* __restrict__ in_targets,
                              const eid_t* out_off, vid_t lo, vid_t nd, const float* __restrict__ contrib,
                              float* next_contrib, float* ranks, double dangling_in, Counters* c) {
  static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "group size divides the warp");
  const int lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned warps = (gridDim.x * blockDim.x) >> 5;
  double l1 = 0, dangling = 0;
  // Loop bounds are uniform per warp, so every lane reaches the shuffles.
  for (ull base = ull(warp) * (32 / G); base < nd; base += ull(warps) * (32 / G)) {
    const vid_t i = vid_t(base) + vid_t(lane / G);
    bool mine = i < nd;
    float sum = 0;
    if (mine) {
      const eid_t first = in_off[i], last = in_off[i + 1];
      mine = last - first < kHeavyDegree;  // hubs are gathered by heavy_gather_kernel
      if (mine)
        for (eid_t e = first + lane % G; e < last; e += G) sum += __ldg(&contrib[__ldg(&in_targets[e])]);
    }
    for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_down_sync(kFullMask, sum, o, G);
    if (mine && lane % G == 0)
      gather_apply(prog, lo + i, i, sum, out_off, next_contrib, ranks, dangling_in, l1, dangling);
  }
  l1 = warp_sum(l1);
  dangling = warp_sum(dangling);
  if (lane == 0) {
    if (l1 != 0) atomicAdd(&c->l1, l1);
    if (dangling != 0) atomicAdd(&c->dangling, dangling);
  }
}

// One block per owned vertex with >= kHeavyDegree in-edges (listed once at setup).
template <typename P>
__global__ void heavy_gather_kernel(P prog, const vid_t* heavy, ull count, const eid_t* __restrict__ in_off,
                                    const vid_t* __restrict__ in_targets, const eid_t* out_off, vid_t lo,
                                    const float* __restrict__ contrib, float* next_contrib, float* ranks,
                                    double dangling_in, Counters* c) {
  using Reduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (ull h = blockIdx.x; h < count; h += gridDim.x) {
    const vid_t v = heavy[h], i = v - lo;
    float sum = 0;
    for (eid_t e = in_off[i] + threadIdx.x; e < in_off[i + 1]; e += blockDim.x)
      sum += __ldg(&contrib[__ldg(&in_targets[e])]);
    sum = Reduce(tmp).Sum(sum);
    if (threadIdx.x == 0) {
      double l1 = 0, dangling = 0;
      gather_apply(prog, v, i, sum, out_off, next_contrib, ranks, dangling_in, l1, dangling);
      if (l1 != 0) atomicAdd(&c->l1, l1);
      if (dangling != 0) atomicAdd(&c->dangling, dangling);
    }
    __syncthreads();  // tmp is reused by the next vertex
  }
}

// Peers send contributions of their boundary vertices: both buffers take them.
__global__ void merge_contrib_kernel(const Update<float>* rec, ull count, float* contrib, float* next_contrib) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    contrib[rec[i].v] = next_contrib[rec[i].v] = rec[i].value;
}

}  // namespace chatty::cuda
