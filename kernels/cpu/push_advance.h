// Push (top-down) step on the CPU: every active vertex offers its value to
// its out-neighbours; a neighbour whose value the offer improves joins the
// next frontier once. Work is grabbed from a shared counter 64 vertices at a
// time (OpenMP dynamic schedule) and reduces are CAS loops, never locks.
#pragma once

#include <omp.h>

#include <atomic>

#include "runtime/frontier.h"
#include "runtime/graph.h"
#include "runtime/parallel.h"
#include "runtime/run_stats.h"

namespace chatty::cpu {

inline constexpr int kGrain = 64;  // vertices per grab from a frontier (seed 000)
// Dense passes over every vertex (pull steps, gathers) grab 16 bitmap words
// at a time: 64-vertex grabs there cost ~10% of a kron:20 BFS in contention
// on the shared counter, and per-vertex work is already even.
inline constexpr int kDenseGrain = 1024;

// Returns the out-degree sum of the next frontier (the direction switch's
// "scout count"). `claimed` must be all clear on entry and is left clear.
template <typename P>
uint64_t push_step(const Csr& g, const P& prog, typename P::Value* val, const Queue& in, Queue& out, Bitmap& claimed,
                   SuperstepStats& st) {
  using V = typename P::Value;
  const bool weighted = !g.weights.empty();
  std::atomic<size_t> tail{0};
  uint64_t scout = 0, edges = 0;
#pragma omp parallel reduction(+ : scout, edges)
  {
    LocalQueue local;
#pragma omp for schedule(dynamic, kGrain) nowait
    for (size_t i = 0; i < in.count; ++i) {
      const vid_t u = in.ids[i];
      const V vu = std::atomic_ref<V>(val[u]).load(std::memory_order_relaxed);
      const eid_t lo = g.offsets[u], hi = g.offsets[u + 1];
      edges += hi - lo;
      for (eid_t e = lo; e < hi; ++e) {
        const vid_t v = g.targets[e];
        const V offer = prog.scatter(vu, u, v, weighted ? g.weights[e] : 1);
        if (!atomic_combine(&val[v], offer, [](V a, V b) { return P::reduce(a, b); })) continue;
        // A first-visit program changes a vertex once, so no dedupe needed.
        if (P::kPullable || claimed.set_atomic(v)) {
          local.push(v);
          scout += g.offsets[v + 1] - g.offsets[v];
        }
      }
    }
    local.flush_into(out, tail);
  }
  out.count = tail.load();
  if (!P::kPullable) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < out.count; ++i) claimed.reset_atomic(out.ids[i]);
  }
  st.active = in.count;
  st.updated = out.count;
  st.edges = edges;
  return scout;
}

}  // namespace chatty::cpu
