// Brandes' steps as functors written once for both backends: each driver
// (brandes.h on host devices, gpu.cu on GPU devices) composes them with
// its backend's operators.
#pragma once

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::bc {

// Before a source: every vertex unreached and without paths (the same
// stores everywhere: a compiler makes them wide), then the source seeded
// at depth 0 with one path.
struct Reset {
  int32_t* depth;
  double* sigma;
  CHATTY_HD void operator()(size_t v) const {
    depth[v] = -1;
    sigma[v] = 0;
  }
};
struct Seed {
  int32_t* depth;
  double* sigma;
  CHATTY_HD void operator()(size_t source) const {
    depth[source] = 0;
    sigma[source] = 1;
  }
};

// The forward advance's edge u -> v, u at depth next - 1: v unreached
// joins level `next`; every edge into level `next` is on a shortest path,
// adds u's paths to v's and is marked for the way back. kShared: other
// threads visit the same vertices, so the claim is a CAS and the add
// atomic; a thread that runs a source alone (by_source.h) uses plain
// loads and stores, whose misses overlap where a locked instruction's
// fence would keep them apart.
template <bool kShared>
struct CountPathsOn {
  int32_t* depth;
  double* sigma;
  int32_t next;
  CHATTY_HD unsigned operator()(vid_t u, vid_t v, eid_t) const {
    unsigned visit = ops::kSkip;
    if constexpr (kShared) {
      int32_t seen = ops::atomic_load(depth + v);
      if (seen < 0) {
        seen = ops::atomic_cas(depth + v, -1, next);
        if (seen < 0) seen = next, visit = ops::kJoin;
      }
      if (seen != next) return visit;
      ops::atomic_add(sigma + v, sigma[u]);
    } else {
      if (depth[v] < 0) depth[v] = next, visit = ops::kJoin;
      if (depth[v] != next) return visit;
      sigma[v] += sigma[u];
    }
    return visit | ops::kMark;
  }
  // Host push advances: v's depth and paths are read at random.
  CHATTY_HD void fetch_ahead(vid_t v) const {
#ifndef __CUDA_ARCH__
    __builtin_prefetch(depth + v);
    __builtin_prefetch(sigma + v);
#endif
  }
};
using CountPaths = CountPathsOn<true>;

// The backward gather over v's marked edges (to its successors w): what
// each successor passes back per path, (1 + delta(w)) / sigma(w), kept in
// `share` once w is settled.
struct SuccessorShare {
  const double* share;
  CHATTY_HD double operator()(vid_t, vid_t w, eid_t) const { return share[w]; }
};

// v's dependency from its successors' shares, added to its score (the
// source's own is not a betweenness); then what v passes back per path to
// its predecessors, one division per vertex rather than one per edge.
struct Settle {
  const double* sigma;
  double *share, *score;
  vid_t source;
  CHATTY_HD void operator()(vid_t v, double shares) const {
    const double delta = sigma[v] * shares;
    if (v != source) score[v] += delta;
    share[v] = (1 + delta) / sigma[v];
  }
};

using ops::Plus;

}  // namespace chatty::bc
