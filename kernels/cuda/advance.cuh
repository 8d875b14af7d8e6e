// Push advance with degree-aware load balancing: the kernels visit the
// edges of a set of source vertices and call an edge functor for each.
// Two mechanisms, picked by policy in the engine (EngineOptions::gpu_lb):
//   twc - thread / warp / block per vertex by degree (Merrill, Garland,
//         Grimshaw, PPoPP 2012): a block first drains the vertices with at
//         least blockDim edges together, then each warp those with at least
//         32, then every thread its own small one;
//   lb  - edge-balanced: degrees are scanned (CUB) and every thread takes
//         edges, finding each edge's source by binary search in the scan.
// A Source maps item i < *count to (u, first edge, end edge); EdgeFn is
// called as fn(u, e).
#pragma once

#include "kernels/cuda/device_ops.cuh"

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

template <typename Source, typename EdgeFn>
__global__ void twc_advance_kernel(Source src, EdgeFn fn, ull* edges) {
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
    // Block phase: the whole block on each vertex with >= blockDim edges.
    while (true) {
      if (threadIdx.x == 0) s_owner = -1;
      __syncthreads();
      if (e - b >= blockDim.x) s_owner = int(threadIdx.x);
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

// lb, step 1: degree of every source item (then an inclusive scan).
template <typename Source>
__global__ void lb_degrees_kernel(Source src, eid_t* deg) {
  const ull count = src.size();
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    vid_t u;
    eid_t b, e;
    src.get(i, u, b, e);
    deg[i] = e - b;
  }
}

// lb, step 2: thread per edge over the scanned degrees.
template <typename Source, typename EdgeFn>
__global__ void lb_advance_kernel(Source src, const eid_t* scan, EdgeFn fn, ull* edges) {
  const ull count = src.size();
  if (count == 0) return;
  const eid_t total = scan[count - 1];
  ull visited = 0;
  for (eid_t k = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; k < total; k += eid_t(gridDim.x) * blockDim.x) {
    // First item whose inclusive scan exceeds k owns edge k.
    ull lo = 0, hi = count - 1;
    while (lo < hi) {
      const ull mid = (lo + hi) / 2;
      if (scan[mid] > k)
        hi = mid;
      else
        lo = mid + 1;
    }
    vid_t u;
    eid_t b, e;
    src.get(lo, u, b, e);
    // The edge from the scanned degree and the end offset only: a source
    // whose start depends on live state (WCC skips the giant component)
    // may report a different start now than when the degrees were scanned.
    fn(u, e - (scan[lo] - k));
    ++visited;
  }
  if (edges) {
    visited = warp_sum(visited);
    if ((threadIdx.x & 31) == 0 && visited) atomicAdd(edges, visited);
  }
}

}  // namespace chatty::cuda
