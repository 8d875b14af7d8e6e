// Walks from up to 64 vertices at once (the multi-source breadth-first
// search of Then et al., "The More the Merrier"): per vertex, a word of
// the walks that have reached it (`seen`) and of those that reached it at
// the last level (`front`). A level is a pull over the rows of R, the
// reverse of the CSR the walks follow: w's new walks are the OR of its
// R-neighbours' `front` words, less `seen`, and a row's scan stops once
// every walk w still lacks has come. One pass over the edges serves 64
// walks. Written once for host and GPU devices.
#pragma once

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty::closeness {

inline constexpr int kBatch = 64;

// One level's step at vertex w: writes next[w] (the walks that reach w
// now) and adds them to seen[w]; returns them.
struct Level {
  const eid_t* offsets;  // R's rows
  const vid_t* targets;
  const uint64_t* front;
  uint64_t* seen;
  uint64_t* next;
  uint64_t batch;  // the bits of this batch's walks
  CHATTY_HD uint64_t operator()(size_t i) const {
    const vid_t w = vid_t(i);
    const uint64_t want = batch & ~seen[w];
    uint64_t got = 0;
    if (want)
      for (eid_t e = offsets[w]; e < offsets[w + 1]; ++e) {
        got |= front[targets[e]];
        if ((got & want) == want) break;
      }
    const uint64_t fresh = got & want;
    next[w] = fresh;
    seen[w] |= fresh;
    return fresh;
  }
};

// Before a batch: no walk has reached any vertex.
struct Unseen {
  uint64_t* seen;
  uint64_t* front;
  CHATTY_HD void operator()(size_t v) const { seen[v] = front[v] = 0; }
};

}  // namespace chatty::closeness
