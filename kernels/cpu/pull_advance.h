// Pull (bottom-up) step on the CPU for first-visit programs (BFS): every
// unvisited vertex scans its in-edges for a frontier member and stops at the
// first one. Each vertex is written only by the thread that owns it, so no
// atomics are needed on values (Ligra's update vs updateAtomic).
#pragma once

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

// Returns the number of vertices that joined `next` (cleared on entry).
template <typename P>
uint64_t pull_step(const Csr& in_edges, const P& prog, typename P::Value* val, const Bitmap& front, Bitmap& next,
                   SuperstepStats& st) {
  const vid_t n = in_edges.num_vertices();
  const bool weighted = !in_edges.weights.empty();
  next.clear();
  uint64_t awake = 0, edges = 0;
#pragma omp parallel for schedule(dynamic, kGrain) reduction(+ : awake, edges)
  for (vid_t v = 0; v < n; ++v) {
    if (!P::unvisited(val[v])) continue;
    const eid_t lo = in_edges.offsets[v], hi = in_edges.offsets[v + 1];
    for (eid_t e = lo; e < hi; ++e) {
      const vid_t u = in_edges.targets[e];
      if (!front.get(u)) continue;
      val[v] = P::reduce(val[v], prog.scatter(val[u], u, v, weighted ? in_edges.weights[e] : 1));
      next.set_atomic_blind(v);
      ++awake;
      edges += e - lo + 1;
      break;
    }
    if (P::unvisited(val[v])) edges += hi - lo;
  }
  st.active = n;
  st.updated = awake;
  st.edges = edges;
  st.pull = true;
  return awake;
}

}  // namespace chatty::cpu
