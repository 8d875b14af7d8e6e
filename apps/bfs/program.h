// Breadth-first search: depth of every vertex from the source (kInfinity
// where unreachable). First-visit, so the engine may run bottom-up steps
// (direction-optimizing BFS, Beamer et al. SC 2012).
#pragma once

#include "runtime/base/program.h"

namespace chatty {

struct BfsProgram {
  using Value = uint32_t;
  static constexpr ProgramKind kKind = ProgramKind::kTraversal;
  static constexpr bool kUniformFrontier = true;
  static constexpr bool kPullable = true;
  static constexpr bool kNeedsWeights = false;
  static constexpr bool kOrdered = false;
  static constexpr bool kConnectivity = false;

  vid_t source;

  CHATTY_HD Value init(vid_t v) const { return v == source ? 0 : kInfinity; }
  CHATTY_HD bool active_at_start(vid_t v) const { return v == source; }
  CHATTY_HD Value scatter(Value depth, vid_t, vid_t, weight_t) const { return depth + 1; }
  CHATTY_HD static Value reduce(Value a, Value b) { return a < b ? a : b; }
  CHATTY_HD static bool changed(Value now, Value before) { return now != before; }
  CHATTY_HD static bool unvisited(Value d) { return d == kInfinity; }
  CHATTY_HD uint64_t priority(Value d) const { return d; }
};

}  // namespace chatty
