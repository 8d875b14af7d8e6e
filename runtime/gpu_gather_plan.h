// The binned summing gather's plan for one device's chunk
// (--gpu_gather=binned), made once at setup: every owned vertex in exactly
// one place by its in-degree, so that no warp waits on a row much longer
// than its others' and no hub is summed by one block alone:
//   - lane bins: 1, 2, 4, 8, 16 or 32 lanes per vertex, the fewest lanes
//     that cover the row (32 lanes, a warp, up to kHubDegree edges);
//   - hubs (kHubDegree+ in-edges): split into pieces of at most
//     kPieceEdges edges, a block each, summed into the hub with atomics.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/types.h"

namespace chatty {

inline constexpr eid_t kHubDegree = 4096;
inline constexpr eid_t kPieceEdges = 2048;
inline constexpr int kLaneBins = 6;  // 1, 2, 4, 8, 16, 32 lanes

// A piece of a hub's in-edges, chunk-local edge positions [first, last).
struct GatherPiece {
  uint32_t hub;  // index into GatherBins::hubs
  uint32_t pad = 0;
  eid_t first, last;
};

struct GatherBins {
  std::vector<vid_t> list;                      // chunk indices, bin after bin, ascending within a bin
  std::array<uint64_t, kLaneBins + 1> start{};  // lane bin b is list[start[b], start[b + 1])
  std::vector<vid_t> hubs;                      // chunk indices of the hubs, ascending
  std::vector<GatherPiece> pieces;              // every hub's edges, in order
};

// `offsets`: the chunk's count + 1 in-edge offsets (global positions).
GatherBins plan_gather_bins(const eid_t* offsets, vid_t count);

constexpr int lanes_of_bin(int b) { return 1 << b; }

// Bytes the plan can take on the device for a chunk of `count` vertices and
// `edges` in-edges (runtime/gpu_plan's layout).
constexpr uint64_t gather_bins_bytes(uint64_t count, uint64_t edges) {
  const uint64_t hubs = edges / kHubDegree;
  return count * sizeof(vid_t) + hubs * (sizeof(vid_t) + sizeof(double)) +
         (edges / kPieceEdges + hubs + 1) * sizeof(GatherPiece);
}

}  // namespace chatty
