// Launch configuration, kept apart from the kernels (which all use
// grid-stride loops, so any grid is correct): enough blocks to fill the GPU
// a few times over, never more than the work needs.
#pragma once

#include <cstdint>

namespace chatty::cuda {

inline constexpr int kBlock = 256;  // threads per block; a multiple of the warp size

struct Launch {
  unsigned grid = 1, block = kBlock;
};

// One thread per item (or per `lanes_per_item` lanes), at most
// `waves` x 2048 resident threads per multiprocessor.
inline Launch launch_for(uint64_t items, int multiprocessors, uint64_t lanes_per_item = 1, int waves = 4) {
  Launch l;
  const uint64_t threads = items * lanes_per_item;
  uint64_t blocks = (threads + kBlock - 1) / kBlock;
  const uint64_t cap = uint64_t(multiprocessors > 0 ? multiprocessors : 1) * (2048 / kBlock) * uint64_t(waves);
  if (blocks > cap) blocks = cap;
  l.grid = unsigned(blocks > 0 ? blocks : 1);
  return l;
}

}  // namespace chatty::cuda
