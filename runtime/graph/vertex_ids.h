// The ids a user types and reads, for the vertices the engine numbers
// 0..n-1 internally. Each input format says how its ids map (--ids):
//   positions  id = position (GAP's .el/.wel, generators, .cgr): 0..n-1
//   1-based    id = position + 1 (DIMACS, Matrix Market, METIS, KONECT as positions)
//   occurring  the ids that occur in the file, any non-negative 64-bit
//              integers, numbered in ascending order (SNAP, KONECT and
//              plain text, as NetworkX and SNAP's "# Nodes:" count them)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/types.h"

namespace chatty {

enum class IdScheme { kPositions, kOneBased, kOccurring };

struct VertexIds {
  IdScheme scheme = IdScheme::kPositions;
  std::vector<uint64_t> original;  // kOccurring: the input id of each vertex, ascending

  // The input's id of internal vertex v.
  uint64_t of(vid_t v) const {
    return scheme == IdScheme::kOccurring ? original[v] : uint64_t(v) + (scheme == IdScheme::kOneBased);
  }
  // The internal vertex the input calls `id`, or none when no vertex of a
  // graph of n vertices has that id.
  std::optional<vid_t> find(uint64_t id, vid_t n) const;
  // "positions", "1-based" or "occurring".
  const char* name() const;
  // What the ids are, for messages: "0..9", "1..10", "34 ids from 1 to 34".
  std::string describe(vid_t n) const;
};

}  // namespace chatty
