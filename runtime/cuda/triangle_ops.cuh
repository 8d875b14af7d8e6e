// Triangle counting's steps on one GPU device (kernels/cuda/triangles.cuh):
// the triangles through each vertex of the lower lists, added to `count`,
// from a share of rows (a warp's lanes per row) or of entries (a thread
// per entry), on `stream`.
#pragma once

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/launch.h"
#include "kernels/cuda/triangles.cuh"
#include "runtime/base/types.h"

namespace chatty::cuda {

// The rows [lo, hi) of the lower lists (offsets, targets).
inline void count_triangles_of_rows(cudaStream_t stream, int multiprocessors, const eid_t* offsets,
                                    const vid_t* targets, vid_t lo, vid_t hi, unsigned long long* count) {
  const Launch l = launch_for(hi - lo, multiprocessors, 32);
  if (hi > lo) count_triangles_rows_kernel<<<l.grid, l.block, 0, stream>>>(offsets, targets, lo, hi, count);
  CHATTY_CUDA_LAUNCHED("count_triangles_rows_kernel");
}

// The entries [lo, hi) of the lower lists of n rows.
inline void count_triangles_of_entries(cudaStream_t stream, int multiprocessors, const eid_t* offsets,
                                       const vid_t* targets, vid_t n, eid_t lo, eid_t hi, unsigned long long* count) {
  const Launch l = launch_for(hi - lo, multiprocessors);
  if (hi > lo) count_triangles_entries_kernel<<<l.grid, l.block, 0, stream>>>(offsets, targets, n, lo, hi, count);
  CHATTY_CUDA_LAUNCHED("count_triangles_entries_kernel");
}

}  // namespace chatty::cuda
