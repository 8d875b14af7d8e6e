// Ordered triangle counting on a GPU over lower lists (each vertex lists
// its neighbours below it, ascending): for every list entry (u, v), u's
// entries below v are intersected with v's list, so each triangle
// w < v < u is found once, at the entry (u, v). Two mechanisms
// (--gpu_tc): a warp per row u, with u's list and a hit count per entry in
// shared memory, so a triangle's third vertex w costs a shared atomic and
// each row flushes its counts once; or a thread per entry, equal shares
// however skewed the rows, each hit a global atomic on w's count (threads
// of one row hit the same w's).
#pragma once

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty::cuda {

// The first position in the ascending list [list, list + len) whose entry
// is not below x.
__device__ __forceinline__ eid_t lower_bound_in(const vid_t* list, eid_t len, vid_t x) {
  eid_t lo = 0;
  while (len > 0) {
    const eid_t half = len / 2;
    if (list[lo + half] < x) {
      lo += half + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  return lo;
}

// The row whose entries hold entry e: the last u in [lo, hi) with
// offsets[u] <= e (rows of no entries are skipped by taking the last).
__device__ __forceinline__ vid_t row_of(const eid_t* offsets, vid_t lo, vid_t hi, eid_t e) {
  while (hi - lo > 1) {
    const vid_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Counts the triangles of entries [e_lo, e_hi) into count (per vertex: u,
// v and w each get one per triangle).
__global__ void count_triangles_entries_kernel(const eid_t* offsets, const vid_t* targets, vid_t n, eid_t e_lo,
                                               eid_t e_hi, unsigned long long* count) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = e_lo + eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e < e_hi; e += stride) {
    const vid_t u = row_of(offsets, 0, n, e);
    const vid_t v = targets[e];
    const vid_t* a = targets + offsets[u];
    const eid_t a_len = e - offsets[u];  // u's entries below v
    const vid_t* b = targets + offsets[v];
    const eid_t b_len = offsets[v + 1] - offsets[v];
    if (a_len == 0 || b_len == 0) continue;
    // The shorter list is walked and each entry searched in the longer.
    const bool a_short = a_len <= b_len;
    const vid_t* s = a_short ? a : b;
    const vid_t* l = a_short ? b : a;
    const eid_t s_len = a_short ? a_len : b_len;
    eid_t l_len = a_short ? b_len : a_len;
    unsigned long long k = 0;
    for (eid_t i = 0; i < s_len && l_len > 0; ++i) {
      const vid_t x = s[i];
      // Entries of the longer list below x are behind every later x too.
      eid_t lo = lower_bound_in(l, l_len, x);
      if (lo < l_len && l[lo] == x) {
        ++k;
        atomicAdd(count + x, 1ull);
        ++lo;
      }
      l += lo;
      l_len -= lo;
    }
    if (k) {
      atomicAdd(count + u, k);
      atomicAdd(count + v, k);
    }
  }
}

// Rows [row_lo, row_hi), a warp per row u. Each of u's entries v_j (j >= 1)
// is intersected with u's entries before it (the prefix list[0, j)): the
// lanes walk the shorter of the prefix and v_j's list, searching the other.
// Rows up to kRowSlots entries are staged in shared memory with a hit count
// per entry, added to the global counts once per row; longer rows search
// in place and add each hit globally.
inline constexpr int kRowSlots = 512;
inline constexpr int kRowWarps = 8;  // per block of 256 threads

__global__ void __launch_bounds__(256)
    count_triangles_rows_kernel(const eid_t* offsets, const vid_t* targets, vid_t row_lo, vid_t row_hi,
                                unsigned long long* count) {
  __shared__ vid_t staged[kRowWarps][kRowSlots];
  __shared__ unsigned hits[kRowWarps][kRowSlots];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  for (uint64_t r = row_lo + (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; r < row_hi; r += warps) {
    const vid_t u = vid_t(r);
    const eid_t base = offsets[u], len = offsets[u + 1] - base;
    if (len < 2) continue;  // the whole warp moves on together
    const bool local = len <= kRowSlots;
    if (local) {
      for (eid_t i = lane; i < len; i += 32) staged[warp][i] = targets[base + i], hits[warp][i] = 0;
      __syncwarp();
    }
    const vid_t* list = local ? staged[warp] : targets + base;
    unsigned long long at_u = 0;
    for (eid_t j = 1; j < len; ++j) {
      const vid_t v = list[j];
      const eid_t vb = offsets[v], vlen = offsets[v + 1] - vb;
      unsigned k = 0;
      if (vlen <= j) {  // walk v's list, search the prefix
        for (eid_t t = lane; t < vlen; t += 32) {
          const vid_t w = targets[vb + t];
          const eid_t at = lower_bound_in(list, j, w);
          if (at < j && list[at] == w) {
            ++k;
            if (local)
              atomicAdd(&hits[warp][at], 1u);
            else
              atomicAdd(count + w, 1ull);
          }
        }
      } else {  // walk the prefix, search v's list
        for (eid_t t = lane; t < j; t += 32) {
          const vid_t w = list[t];
          const eid_t at = lower_bound_in(targets + vb, vlen, w);
          if (at < vlen && targets[vb + at] == w) {
            ++k;
            if (local)
              atomicAdd(&hits[warp][t], 1u);
            else
              atomicAdd(count + w, 1ull);
          }
        }
      }
      k = __reduce_add_sync(0xffffffffu, k);
      if (lane == 0 && k) atomicAdd(count + v, (unsigned long long)k);
      at_u += k;
    }
    if (local) {
      __syncwarp();
      for (eid_t i = lane; i < len; i += 32)
        if (hits[warp][i]) atomicAdd(count + staged[warp][i], (unsigned long long)hits[warp][i]);
      __syncwarp();
    }
    if (lane == 0 && at_u) atomicAdd(count + u, at_u);
  }
}

}  // namespace chatty::cuda
