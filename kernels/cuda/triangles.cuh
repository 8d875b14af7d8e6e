// Ordered triangle counting on a GPU over lower lists (each vertex lists
// its neighbours below it, ascending): one thread per list entry (u, v)
// intersects u's entries below v with v's list, so each triangle
// w < v < u is found once, at the entry (u, v). Edges, not rows, are the
// unit of work: a device takes a range of entries, so devices and threads
// get equal shares however skewed the rows are.
#pragma once

#include <cstdint>

#include "runtime/types.h"

namespace chatty::cuda {

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
__global__ void count_triangles_kernel(const eid_t* offsets, const vid_t* targets, vid_t n, eid_t e_lo, eid_t e_hi,
                                       unsigned long long* count) {
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
      eid_t lo = 0, len = l_len;
      while (len > 0) {
        const eid_t half = len / 2;
        if (l[lo + half] < x) {
          lo += half + 1;
          len -= half + 1;
        } else {
          len = half;
        }
      }
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

}  // namespace chatty::cuda
