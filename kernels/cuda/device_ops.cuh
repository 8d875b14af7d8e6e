// Device building blocks the kernels share: warp-aggregated appends to a
// queue, bitmaps, and union-find on the label array (the reduce as a CAS
// loop is ops::reduce_into, the same on both backends).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty::cuda {

using ull = unsigned long long;
inline constexpr unsigned kFullMask = 0xffffffffu;

// Position for the calling thread in a queue whose length is *count: one
// atomic per group of threads that arrive together (warp aggregation).
__device__ __forceinline__ ull append_slot(ull* count) {
  namespace cg = cooperative_groups;
  cg::coalesced_group g = cg::coalesced_threads();
  ull base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(count, ull(g.size()));
  return g.shfl(base, 0) + g.thread_rank();
}

__device__ __forceinline__ bool test_bit(const uint32_t* bits, vid_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }
__device__ __forceinline__ void set_bit(uint32_t* bits, vid_t v) { atomicOr(&bits[v >> 5], 1u << (v & 31)); }

// Sum over the warp; every lane gets the total.
template <typename T>
__device__ __forceinline__ T warp_sum(T x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFullMask, x, o);
  return x;
}

// Lowers *low to the least of every lane's x: one atomic per thread, or with
// kWarp one per warp after a warp minimum (all 32 lanes must call it then).
// ~0 is "none".
template <bool kWarp>
__device__ __forceinline__ void min_into(ull* low, ull x) {
  if constexpr (kWarp)
    for (int o = 16; o > 0; o >>= 1) {
      const ull y = __shfl_xor_sync(kFullMask, x, o);
      x = y < x ? y : x;
    }
  if (x != ~0ull && (!kWarp || (threadIdx.x & 31) == 0)) atomicMin(low, x);
}

// Adds every lane's x to *total with one atomic per warp; all 32 lanes must call it.
__device__ __forceinline__ void add_warp_total(ull* total, ull x) {
  x = warp_sum(x);
  if ((threadIdx.x & 31) == 0 && x) atomicAdd(total, x);
}

// Union-find as on the CPU (kernels/cpu/union_find.h): the larger root is
// hung under the smaller with one CAS, so roots are component minima.
__device__ __forceinline__ bool uf_link(vid_t u, vid_t v, vid_t* comp) {
  volatile vid_t* c = comp;
  vid_t p1 = c[u], p2 = c[v];
  while (p1 != p2) {
    const vid_t high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    const vid_t p_high = c[high];
    if (p_high == low) return false;
    if (p_high == high && atomicCAS(&comp[high], high, low) == high) return true;
    p1 = c[c[high]];
    p2 = c[low];
  }
  return false;
}

__device__ __forceinline__ vid_t uf_find(vid_t v, const vid_t* comp) {
  const volatile vid_t* c = comp;
  vid_t r = c[v];
  for (vid_t p = c[r]; p != r; p = c[r]) r = p;
  return r;
}

}  // namespace chatty::cuda
