// Push advance with degree-aware load balancing: the kernels visit the
// edges of a set of source vertices and call an edge functor for each.
// Two mechanisms, picked by policy in the engine (EngineOptions::gpu_lb):
//   twc - thread / warp / block per vertex by degree (Merrill, Garland,
//         Grimshaw, PPoPP 2012): a block first drains the vertices with at
//         least blockDim edges together, then each warp those with at least
//         32, then every thread its own small one;
//   lb  - edge-balanced per block: a block scans its tile's degrees (CUB
//         BlockScan) and every thread takes edges, finding each edge's
//         source by binary search in the scan.
//   split - twc, but vertices of kSplitDegree+ edges are listed instead of
//         taking one block each; a one-block scan of their degrees lets
//         every block of a second kernel take an equal share of all their
//         edges (a hub of a million edges no longer holds one block for the
//         whole step).
// A Source maps item i < *count to (u, first edge, end edge); EdgeFn is
// called as fn(u, e).
#pragma once

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/device_ops.cuh"
#include "kernels/cuda/launch.h"

namespace chatty::cuda {

// Vertices from a queue; their edges in a chunk-local CSR (offsets of u at u - lo).
struct QueueSource {
  const vid_t* ids;
  const ull* count;
  const eid_t* off;
  vid_t lo;
  __device__ ull size() const { return *count; }
  __device__ void get(ull i, vid_t& u, eid_t& b, eid_t& e) const {
    u = ids[i];
    b = off[u - lo];
    e = off[u - lo + 1];
  }
};

inline constexpr eid_t kSplitDegree = 4096;

// A listed hub: its edges [b, e) and where they start in the scan of all hubs.
struct SplitHub {
  eid_t b, e, start;
  vid_t u;
};

// Where twc lists its hubs (split): at most `capacity`; a hub that finds the
// list full is done by its block as twc does. `run[0]` and `run[1]` take
// the listed hubs' edge total and count from the scan, which clears `count`
// for the next advance.
struct HubList {
  SplitHub* hubs = nullptr;
  ull* count = nullptr;
  ull capacity = 0;
  ull* run = nullptr;
};

template <typename Source, typename EdgeFn>
__global__ void twc_advance_kernel(Source src, EdgeFn fn, ull* edges, HubList split = {}) {
  __shared__ vid_t s_u;
  __shared__ eid_t s_b, s_e;
  __shared__ int s_owner;
  const ull count = src.size();
  const int lane = threadIdx.x & 31;
  ull visited = 0;
  for (ull base = ull(blockIdx.x) * blockDim.x; base < count; base += ull(gridDim.x) * blockDim.x) {
    const ull i = base + threadIdx.x;
    vid_t u = 0;
    eid_t b = 0, e = 0;
    if (i < count) src.get(i, u, b, e);
    if (split.hubs && e - b >= kSplitDegree) {
      const ull at = append_slot(split.count);
      if (at < split.capacity) split.hubs[at] = SplitHub{b, e, 0, u}, b = e;
    }
    // Block phase: the whole block on each vertex with >= blockDim edges.
    while (true) {
      if (threadIdx.x == 0) s_owner = -1;
      __syncthreads();
      // Several threads may qualify: an atomic picks one (the highest) without a
      // write race between them.
      if (e - b >= blockDim.x) atomicMax(&s_owner, int(threadIdx.x));
      __syncthreads();
      const int owner = s_owner;
      if (owner < 0) break;
      if (owner == int(threadIdx.x)) {
        s_u = u, s_b = b, s_e = e;
        b = e;
      }
      __syncthreads();
      for (eid_t k = s_b + threadIdx.x; k < s_e; k += blockDim.x) fn(s_u, k), ++visited;
      __syncthreads();
    }
    // Warp phase: the warp on each vertex with >= 32 edges.
    while (true) {
      const unsigned m = __ballot_sync(kFullMask, e - b >= 32);
      if (!m) break;
      const int leader = __ffs(m) - 1;
      const vid_t wu = __shfl_sync(kFullMask, u, leader);
      const eid_t wb = __shfl_sync(kFullMask, b, leader), we = __shfl_sync(kFullMask, e, leader);
      if (lane == leader) b = e;
      for (eid_t k = wb + lane; k < we; k += 32) fn(wu, k), ++visited;
    }
    // Thread phase.
    for (eid_t k = b; k < e; ++k) fn(u, k), ++visited;
  }
  if (edges) {
    visited = warp_sum(visited);
    if (lane == 0 && visited) atomicAdd(edges, visited);
  }
}

// split, second step: one block writes each listed hub's first position in
// the run of all their edges (an exclusive scan of the degrees) and the total.
static __global__ void __launch_bounds__(kBlock) scan_hubs_kernel(HubList split) {
  using Scan = cub::BlockScan<eid_t, kBlock>;
  __shared__ typename Scan::TempStorage tmp;
  const ull count = *split.count < split.capacity ? *split.count : split.capacity;
  __syncthreads();  // every thread has read the count before it is cleared
  eid_t carry = 0;
  for (ull base = 0; base < count; base += kBlock) {
    const ull i = base + threadIdx.x;
    const eid_t d = i < count ? split.hubs[i].e - split.hubs[i].b : 0;
    eid_t start = 0, sum = 0;
    Scan(tmp).ExclusiveSum(d, start, sum);
    if (i < count) split.hubs[i].start = carry + start;
    carry += sum;
    __syncthreads();  // tmp is reused by the next round
  }
  if (threadIdx.x == 0) split.run[0] = carry, split.run[1] = count, *split.count = 0;
}

// split, third step: block k of G takes the k-th of G equal runs of the
// hubs' edges; each thread finds its first edge's hub by binary search and
// walks on from there.
template <typename EdgeFn>
__global__ void spread_hubs_kernel(HubList split, EdgeFn fn, ull* edges) {
  const eid_t all = split.run[0];
  const ull count = split.run[1];
  const eid_t share = (all + gridDim.x - 1) / gridDim.x;
  const eid_t first = eid_t(blockIdx.x) * share, last = first + share < all ? first + share : all;
  ull visited = 0;
  ull h = 0;
  if (first + threadIdx.x < last) {
    ull lo = 0, hi = count - 1;  // the last hub starting at or before the edge
    while (lo < hi) {
      const ull mid = (lo + hi + 1) / 2;
      if (split.hubs[mid].start <= first + threadIdx.x)
        lo = mid;
      else
        hi = mid - 1;
    }
    h = lo;
  }
  for (eid_t k = first + threadIdx.x; k < last; k += blockDim.x) {
    while (h + 1 < count && split.hubs[h + 1].start <= k) ++h;
    const SplitHub hub = split.hubs[h];
    fn(hub.u, hub.b + (k - hub.start));
    ++visited;
  }
  if (edges) add_warp_total(edges, visited);
}

// lb: edge-balanced within each block. A block takes kBlock items, scans
// their degrees in shared memory and spreads the tile's edges evenly over
// its threads, each finding its edge's item by binary search in the scan.
// The item count is read on the device, so the step needs no copy to the
// host and no synchronisation (a global scan would need the count on the
// host); a tile with a hub keeps its block longer, as twc's block phase does.
template <typename Source, typename EdgeFn>
__global__ void __launch_bounds__(kBlock) lb_advance_kernel(Source src, EdgeFn fn, ull* edges) {
  using Scan = cub::BlockScan<eid_t, kBlock>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ eid_t s_start[kBlock], s_b[kBlock];
  __shared__ vid_t s_u[kBlock];
  const ull count = src.size();
  ull visited = 0;
  for (ull base = ull(blockIdx.x) * kBlock; base < count; base += ull(gridDim.x) * kBlock) {
    const ull i = base + threadIdx.x;
    vid_t u = 0;
    eid_t b = 0, e = 0;
    if (i < count) src.get(i, u, b, e);
    eid_t start = 0, total = 0;
    Scan(scan_tmp).ExclusiveSum(e - b, start, total);
    s_start[threadIdx.x] = start, s_b[threadIdx.x] = b, s_u[threadIdx.x] = u;
    __syncthreads();
    for (eid_t k = threadIdx.x; k < total; k += kBlock) {
      // The last item starting at or before k owns edge k (an item of
      // degree 0 shares its start with the next and is passed over).
      int lo = 0, hi = kBlock - 1;
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (s_start[mid] <= k)
          lo = mid;
        else
          hi = mid - 1;
      }
      fn(s_u[lo], s_b[lo] + (k - s_start[lo]));
      ++visited;
    }
    __syncthreads();  // the next tile overwrites the shared arrays
  }
  if (edges) {
    visited = warp_sum(visited);
    if ((threadIdx.x & 31) == 0 && visited) atomicAdd(edges, visited);
  }
}

}  // namespace chatty::cuda
