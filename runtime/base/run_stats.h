// What one device's step did: the counts a kernel returns to its device's
// ops (runtime/engine/multi_stats.h keeps the run's record).
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

}  // namespace chatty
