// Pull (bottom-up) step on the CPU for first-visit programs (BFS): every
// unvisited vertex scans its in-edges for a frontier member and stops at the
// first one. Each vertex is written only by the thread that owns it, so no
// atomics are needed on values (Ligra's update vs updateAtomic).
#pragma once

#include <algorithm>

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

// Returns the number of vertices that joined `next` (cleared on entry).
// `level` is the value every frontier vertex holds when the program is level
// synchronous (P::kUniformFrontier, BFS); it saves a random read of the
// parent's value per visited vertex, and on return holds the new level.
// Visits vertices [lo, hi) (a device's chunk; `next` bits outside stay 0).
template <typename P>
uint64_t pull_step(const Csr& in_edges, const P& prog, typename P::Value* val, const Bitmap& front, Bitmap& next,
                   typename P::Value& level, SuperstepStats& st, vid_t lo = 0, vid_t hi = ~vid_t(0)) {
  using V = typename P::Value;
  const vid_t n = std::min(hi, in_edges.num_vertices());
  const V level_in = level;
  constexpr vid_t kAhead = 8;
  const bool weighted = !in_edges.weights.empty();
  next.clear();
  uint64_t awake = 0, edges = 0;
#pragma omp parallel for schedule(dynamic, kDenseGrain) reduction(+ : awake, edges)
  for (vid_t v = lo; v < n; ++v) {
    // A pull step reads one or two in-edges of each vertex, a scattered
    // walk over the edge array that the hardware prefetcher cannot follow.
    if (v + kAhead < n) __builtin_prefetch(&in_edges.targets[in_edges.offsets[v + kAhead]], 0, 0);
    if (!P::unvisited(val[v])) continue;
    const eid_t first = in_edges.offsets[v], last = in_edges.offsets[v + 1];
    for (eid_t e = first; e < last; ++e) {
      const vid_t u = in_edges.targets[e];
      if (!front.get(u)) continue;
      const V from = P::kUniformFrontier ? level_in : val[u];
      val[v] = P::reduce(val[v], prog.scatter(from, u, v, weighted ? in_edges.weights[e] : 1));
      // Grabs are whole bitmap words, so no other thread writes this one.
      next.set(v);
      ++awake;
      edges += e - first + 1;
      break;
    }
    if (P::unvisited(val[v])) edges += last - first;
  }
  if (P::kUniformFrontier) level = prog.scatter(level_in, 0, 0, 1);
  st.active = n - lo;
  st.updated = awake;
  st.edges = edges;
  st.pull = true;
  return awake;
}

}  // namespace chatty::cpu
