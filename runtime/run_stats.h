// What a run did, per superstep and in total; printed by `chatty run` and
// written as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chatty {

struct SuperstepStats {
  uint64_t active = 0;   // vertices processed this step
  uint64_t updated = 0;  // vertices whose value changed
  uint64_t edges = 0;    // edges examined
  bool pull = false;     // direction of the step
  double seconds = 0;
};

struct RunStats {
  std::vector<SuperstepStats> steps;
  int iterations() const { return int(steps.size()); }
  uint64_t edges() const {
    uint64_t e = 0;
    for (const auto& s : steps) e += s.edges;
    return e;
  }
};

}  // namespace chatty
