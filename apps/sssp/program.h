// Single-source shortest paths over non-negative uint32 weights: distance
// of every vertex from the source (kInfinity where unreachable). Offers only
// grow along a path, so the engine runs it ordered (delta-stepping).
#pragma once

#include "runtime/base/program.h"

namespace chatty {

struct SsspProgram {
  using Value = uint32_t;
  static constexpr ProgramKind kKind = ProgramKind::kTraversal;
  static constexpr bool kUniformFrontier = false;
  static constexpr bool kPullable = false;
  static constexpr bool kNeedsWeights = true;
  static constexpr bool kOrdered = true;
  static constexpr bool kConnectivity = false;

  vid_t source;

  CHATTY_HD Value init(vid_t v) const { return v == source ? 0 : kInfinity; }
  CHATTY_HD bool active_at_start(vid_t v) const { return v == source; }
  // Sums saturate at kOverflow, which no real distance reaches; the driver
  // reports a run that produced it as an error instead of a wrong answer.
  static constexpr Value kOverflow = kInfinity - 1;
  CHATTY_HD Value scatter(Value dist, vid_t, vid_t, weight_t w) const {
    const uint64_t s = uint64_t(dist) + w;
    return s < kOverflow ? Value(s) : kOverflow;
  }
  CHATTY_HD static Value reduce(Value a, Value b) { return a < b ? a : b; }
  CHATTY_HD static bool changed(Value now, Value before) { return now != before; }
  CHATTY_HD static bool unvisited(Value d) { return d == kInfinity; }
  CHATTY_HD uint64_t priority(Value d) const { return d; }
};

}  // namespace chatty
