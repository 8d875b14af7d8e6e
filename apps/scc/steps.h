// Strong components' per-edge steps (coloring.h), written once for host
// and GPU devices: the forward propagation of colours, the backward claim
// of a root's component and the peeling of vertices without open
// neighbours, each an advance functor on ops' atomics.
#pragma once

#include <cstdint>

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::scc {

constexpr uint32_t kOpen = 0xFFFFFFFFu;

// Forward: edge u->v lowers v's colour to u's; v joins the next level the
// first time it is lowered in this one (`stamp`, the level's number).
struct Lower {
  uint32_t* color;
  const uint32_t* label;
  uint32_t* stamp;
  uint32_t level;

  CHATTY_HD unsigned operator()(vid_t u, vid_t v, eid_t) const {
    if (label[v] != kOpen) return ops::kSkip;  // closed in an earlier round: labels change only between phases
    const uint32_t offer = ops::atomic_load(&color[u]);
    uint32_t now = ops::atomic_load(&color[v]);
    while (offer < now) {
      const uint32_t seen = ops::atomic_cas(&color[v], now, offer);
      if (seen == now) return ops::atomic_exchange(&stamp[v], level) != level ? ops::kJoin : ops::kSkip;
      now = seen;
    }
    return ops::kSkip;
  }
};

// Backward, over in-edges (u->v here: v reaches u): v joins u's component
// where it has u's colour and is still open; the label is claimed once.
struct Claim {
  const uint32_t* color;
  uint32_t* label;

  CHATTY_HD unsigned operator()(vid_t u, vid_t v, eid_t) const {
    const uint32_t c = color[u];
    if (color[v] != c) return ops::kSkip;
    return ops::atomic_cas(&label[v], kOpen, c) == kOpen ? ops::kJoin : ops::kSkip;
  }
};

// Peeling over the edges u->v of the CSR walked (out-edges after a
// vertex without open in-edges closes, in-edges after one without open
// out-edges): v loses an open neighbour, and closes as its own component
// when it has none left.
struct Peel {
  uint32_t* count;  // v's open neighbours on the side peeled
  uint32_t* label;

  CHATTY_HD unsigned operator()(vid_t, vid_t v, eid_t) const {
    if (ops::atomic_load(&label[v]) != kOpen) return ops::kSkip;
    if (ops::atomic_sub(&count[v], 1u) != 1) return ops::kSkip;
    ops::atomic_store(&label[v], v);
    return ops::kJoin;
  }
};

// v's open neighbours in the rows `offsets`, `targets` (a thread per open vertex).
struct CountOpen {
  const eid_t* offsets;
  const vid_t* targets;
  const uint32_t* label;
  const vid_t* open;
  uint32_t* count;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = open[i];
    uint32_t k = 0;
    for (eid_t e = offsets[v]; e < offsets[v + 1]; ++e) k += label[targets[e]] == kOpen;
    count[v] = k;
  }
};

}  // namespace chatty::scc
