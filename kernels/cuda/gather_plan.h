// Plans of the summing gather's variants for one device's chunk, made once
// at setup.
// Binned (--gpu_gather=binned): every owned vertex in exactly one place by
// its in-degree, so that no warp waits on a row much longer than its
// others' and no hub is summed by one block alone:
//   - lane bins: 1, 2, 4, 8, 16 or 32 lanes per vertex, the fewest lanes
//     that cover the row (32 lanes, a warp, up to kHubDegree edges);
//   - hubs (kHubDegree+ in-edges): split into pieces of at most
//     kPieceEdges edges, a block each, summed into the hub with atomics.
// Tiled (--gpu_gather=tiled; merge-path, Merrill and Garland, SC 2016):
// the rows' ends and the edges, merged in order, cut into tiles of
// kTileItems items, a block each, so every block reads the same amount
// whatever the degrees. A row whose edges lie in several tiles is "split":
// each tile adds its part to the row's slot with an atomic, and a second
// kernel finishes it; every other row is finished by its one tile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/base/types.h"

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
// `edges` in-edges (runtime/cuda/gpu_plan's layout).
constexpr uint64_t gather_bins_bytes(uint64_t count, uint64_t edges) {
  const uint64_t hubs = edges / kHubDegree;
  return count * sizeof(vid_t) + hubs * (sizeof(vid_t) + sizeof(double)) +
         (edges / kPieceEdges + hubs + 1) * sizeof(GatherPiece);
}

inline constexpr uint64_t kTileItems = 1024;  // row ends + edges per tile
inline constexpr uint32_t kNoSlot = ~0u;

// Where a tile starts in the merge: its first row (the rows it finishes
// begin there) and first edge (chunk-local); `lead` is the split slot of
// that row when earlier tiles hold some of its edges, else kNoSlot.
struct GatherTile {
  eid_t edge;
  vid_t row;
  uint32_t lead;
};

struct GatherTiles {
  std::vector<GatherTile> tiles;  // tile count + 1: the last is the merge's end {edges, count, kNoSlot}
  std::vector<vid_t> split;       // chunk index of each split slot's row, ascending
};

// `offsets`: the chunk's count + 1 in-edge offsets (global positions).
// Tile t finishes rows [tiles[t].row, tiles[t+1].row) and sums edges
// [tiles[t].edge, tiles[t+1].edge); row tiles[t+1].row takes some of those
// edges exactly when tiles[t+1].lead is a slot.
GatherTiles plan_gather_tiles(const eid_t* offsets, vid_t count, uint64_t items = kTileItems);

constexpr uint64_t gather_tiles_bytes(uint64_t count, uint64_t edges) {
  const uint64_t tiles = (count + edges) / kTileItems + 2;
  return tiles * (sizeof(GatherTile) + sizeof(vid_t) + sizeof(double));
}

}  // namespace chatty
