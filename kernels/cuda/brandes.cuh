// Brandes' betweenness on a GPU, one source at a time: a forward BFS level
// by level counting shortest paths (sigma, atomically), then a backward
// sweep over the levels, deepest first, each vertex pulling its dependency
// from its successors (those one level deeper), so the way back has no
// atomics. The vertices of each level are a slice of `order`, appended as
// they are discovered. A group of L lanes takes one vertex's list.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty::cuda {

// Every vertex unreached with no paths and no dependency, except the
// source: depth 0, one path, first in the order.
__global__ void brandes_start_kernel(vid_t n, vid_t source, int32_t* depth, double* sigma, double* delta, vid_t* order,
                                     unsigned* tail) {
  const vid_t stride = gridDim.x * blockDim.x;
  for (vid_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    depth[v] = v == source ? 0 : -1;
    sigma[v] = v == source ? 1.0 : 0.0;
    delta[v] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) order[0] = source, *tail = 1;
}

// Expands order[lo, hi) (level next - 1): claims unreached neighbours for
// level `next`, appending them to the order, and adds the expanded
// vertex's paths to every neighbour at level `next`.
template <int L>
__global__ void brandes_forward_kernel(const eid_t* offsets, const vid_t* targets, vid_t lo, vid_t hi, int32_t next,
                                       int32_t* depth, double* sigma, vid_t* order, unsigned* tail) {
  namespace cg = cooperative_groups;
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t groups = uint64_t(gridDim.x) * blockDim.x / L;
  const unsigned lane = threadIdx.x % L;
  for (uint64_t i = lo + t / L; i < hi; i += groups) {
    const vid_t u = order[i];
    const double paths = sigma[u];
    for (eid_t e = offsets[u] + lane; e < offsets[u + 1]; e += L) {
      const vid_t v = targets[e];
      int32_t d = depth[v];
      if (d < 0) {
        d = atomicCAS(depth + v, -1, next);
        if (d < 0) {
          d = next;
          // One slot claim per warp's discoveries, not one per vertex.
          cg::coalesced_group found = cg::coalesced_threads();
          unsigned at = 0;
          if (found.thread_rank() == 0) at = atomicAdd(tail, found.size());
          order[found.shfl(at, 0) + found.thread_rank()] = v;
        }
      }
      if (d == next) atomicAdd(sigma + v, paths);
    }
  }
}

// Level next - 1's vertices order[lo, hi): each sums (1 + delta) / sigma
// over its successors (at level `next`, whose dependencies are final) and
// takes delta = sigma * sum; every vertex but the source adds it to score.
// The warp walks the slice in step, so the lanes' reduction always has
// every lane of the warp.
template <int L>
__global__ void brandes_backward_kernel(const eid_t* offsets, const vid_t* targets, vid_t lo, vid_t hi, int32_t next,
                                        vid_t source, const int32_t* depth, const double* sigma, double* delta,
                                        const vid_t* order, double* score) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t per_warp = 32 / L;
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % L;
  for (uint64_t first = lo + (t / 32) * per_warp; first < hi; first += warps * per_warp) {
    const uint64_t i = first + (threadIdx.x % 32) / L;
    double sum = 0;
    vid_t w = 0;
    if (i < hi) {
      w = order[i];
      for (eid_t e = offsets[w] + lane; e < offsets[w + 1]; e += L) {
        const vid_t x = targets[e];
        if (depth[x] == next) sum += (1 + delta[x]) / sigma[x];
      }
    }
    for (int o = L / 2; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o, L);
    if (i < hi && lane == 0) {
      const double dw = sigma[w] * sum;
      delta[w] = dw;
      if (w != source) score[w] += dw;
    }
  }
}

}  // namespace chatty::cuda
