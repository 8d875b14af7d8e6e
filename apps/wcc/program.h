// Weakly connected components: edges taken as undirected, every vertex
// labelled with the smallest vertex id of its component. As a vertex program
// it is min-label propagation; the engine may reach the same fixed point
// faster by union-find (kConnectivity).
#pragma once

#include "runtime/base/program.h"

namespace chatty {

struct WccProgram {
  using Value = uint32_t;
  static constexpr ProgramKind kKind = ProgramKind::kTraversal;
  static constexpr bool kUniformFrontier = false;
  static constexpr bool kPullable = false;
  static constexpr bool kNeedsWeights = false;
  static constexpr bool kOrdered = false;
  static constexpr bool kConnectivity = true;

  CHATTY_HD Value init(vid_t v) const { return v; }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value scatter(Value label, vid_t, vid_t, weight_t) const { return label; }
  CHATTY_HD static Value reduce(Value a, Value b) { return a < b ? a : b; }
  CHATTY_HD static bool changed(Value now, Value before) { return now != before; }
  CHATTY_HD static bool unvisited(Value) { return false; }
  CHATTY_HD uint64_t priority(Value l) const { return l; }
};

}  // namespace chatty
