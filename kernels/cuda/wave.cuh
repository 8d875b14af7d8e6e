// A wave on a GPU (kernels/wave.h): one cooperative launch of as many
// blocks as stay resident together, every thread a lane, the grid's sync
// the barrier between levels.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/launch.h"
#include "kernels/wave.h"

namespace chatty::cuda {

template <typename W>
__global__ void __launch_bounds__(kBlock) wave_kernel(W w, uint64_t bucket) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  wave::run_wave(w, grid.thread_rank(), grid.size(), bucket, [&grid] { grid.sync(); });
}

// The blocks of a wave on `gpu`: all that are resident at once (a grid
// sync needs every block running), 0 where the GPU cannot launch
// cooperatively.
template <typename W>
unsigned wave_blocks(int gpu, int sms) {
  int cooperative = 0;
  CHATTY_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, gpu));
  if (!cooperative) return 0;
  int per_sm = 0;
  CHATTY_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wave_kernel<W>, kBlock, 0));
  return unsigned(per_sm) * unsigned(sms > 0 ? sms : 1);
}

template <typename W>
void launch_wave(const W& w, uint64_t bucket, unsigned blocks, cudaStream_t stream) {
  W arg = w;
  void* args[] = {&arg, &bucket};
  CHATTY_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&wave_kernel<W>), dim3(blocks), dim3(kBlock),
                                          args, 0, stream));
}

}  // namespace chatty::cuda
