// PageRank's pull-gather superstep on the GPU. A group of G lanes (G from
// the chunk's mean in-degree: 4..32) sums the contributions of one vertex's
// in-neighbours, so short lists do not idle a whole warp and long ones are
// read coalesced. The same pass writes the vertex's next contribution and
// sums the L1 change and dangling mass (warp sums, one atomic per warp).
#pragma once

#include "kernels/cuda/traversal.cuh"

namespace chatty::cuda {

template <int G, typename P>
__global__ void gather_kernel(P prog, const eid_t* in_off, const vid_t* in_targets, const eid_t* out_off, vid_t lo,
                              vid_t nd, const float* contrib, float* next_contrib, float* ranks, double dangling_in,
                              Counters* c) {
  static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "group size divides the warp");
  const int lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned warps = (gridDim.x * blockDim.x) >> 5;
  double l1 = 0, dangling = 0;
  // Loop bounds are uniform per warp, so every lane reaches the shuffles.
  for (vid_t base = vid_t(warp) * (32 / G); base < nd; base += vid_t(warps) * (32 / G)) {
    const vid_t i = base + vid_t(lane / G);
    const bool mine = i < nd;
    float sum = 0;
    if (mine)
      for (eid_t e = in_off[i] + lane % G; e < in_off[i + 1]; e += G) sum += contrib[in_targets[e]];
    for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_down_sync(kFullMask, sum, o, G);
    if (mine && lane % G == 0) {
      const vid_t v = lo + i;
      const float value = prog.apply(double(sum), dangling_in);
      l1 += fabs(double(value) - double(ranks[v]));
      ranks[v] = value;
      const eid_t d = out_off[i + 1] - out_off[i];
      if (d == 0) dangling += double(value);
      next_contrib[v] = d ? float(prog.contribution(value, d)) : 0.0f;
    }
  }
  l1 = warp_sum(l1);
  dangling = warp_sum(dangling);
  if (lane == 0) {
    if (l1 != 0) atomicAdd(&c->l1, l1);
    if (dangling != 0) atomicAdd(&c->dangling, dangling);
  }
}

// Peers send contributions of their boundary vertices: both buffers take them.
__global__ void merge_contrib_kernel(const Update<float>* rec, ull count, float* contrib, float* next_contrib) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    contrib[rec[i].v] = next_contrib[rec[i].v] = rec[i].value;
}

}  // namespace chatty::cuda
