// Pull (bottom-up) step on the CPU for first-visit programs (BFS): every
// unvisited vertex scans its in-edges for a frontier member and stops at the
// first one. Each vertex is written only by the thread that owns it, so no
// atomics are needed on values (Ligra's update vs updateAtomic).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/push_advance.h"
#include "runtime/base/parallel.h"

namespace chatty::cpu {

// Where one pull step reads and writes: a device's values and frontier
// bitmaps (a peer computing migrated blocks gets the owner's).
template <typename V>
struct PullTask {
  V* val = nullptr;
  const Bitmap* front = nullptr;
  Bitmap* next = nullptr;        // cleared before the step; gets the vertices that joined
  V level{};                     // what every frontier vertex holds (P::kUniformFrontier)
  vid_t lo = 0;                  // the first vertex of the range; blocks may start below it
  const CsrChunk* in = nullptr;  // the owner's in-edges
};

struct PullSums {
  uint64_t awake = 0, edges = 0, migrated = 0;
  PullSums& operator+=(const PullSums& o) {
    awake += o.awake, edges += o.edges, migrated += o.migrated;
    return *this;
  }
};

// Blocks of a pull step start at multiples of 64 (from pull_blocks_begin),
// so each writes whole words of `next` and the non-atomic bit sets of two
// threads never meet in one word.
inline constexpr vid_t kPullBlock = vid_t(kDenseGrain);
static_assert(kPullBlock % 64 == 0, "pull blocks must cover whole bitmap words");
inline vid_t pull_blocks_begin(vid_t lo) { return lo & ~vid_t(63); }

// Visits the vertices of [max(lo, t.lo), hi), which t.in holds.
template <typename P>
void pull_range(const P& prog, const PullTask<typename P::Value>& t, vid_t lo, vid_t hi, PullSums& sums) {
  using V = typename P::Value;
  constexpr vid_t kAhead = 16;  // measured on kron:20: 0.87-0.95x the time of 8 ahead, 32 no better than 16
  // The chunk's fields in locals: a store to val (vid_t-sized values) may
  // alias the chunk's bounds, and would make every vertex reload them.
  const vid_t base = t.in->lo, n = t.in->hi;
  const eid_t* off = t.in->offsets;
  const vid_t* tgt = t.in->targets;
  const weight_t* wgt = t.in->weights;
  V* val = t.val;
  const V level = t.level;
  const Bitmap& front = *t.front;
  Bitmap& next = *t.next;
  uint64_t awake = 0, edges = 0;
  for (vid_t v = std::max(lo, t.lo); v < hi; ++v) {
    // A pull step reads one or two in-edges of each vertex, a scattered
    // walk over the edge array that the hardware prefetcher cannot follow.
    if (v + kAhead < n) __builtin_prefetch(&tgt[off[v + kAhead - base]], 0, 0);
    if (!P::unvisited(val[v])) continue;
    const eid_t first = off[v - base], last = off[v - base + 1];
    eid_t e = first;
    for (; e < last; ++e) {
      const vid_t u = tgt[e];
      if (!front.get(u)) continue;
      const V from = P::kUniformFrontier ? level : val[u];
      val[v] = P::reduce(val[v], prog.scatter(from, u, v, wgt ? wgt[e] : 1));
      next.set(v);
      ++awake;
      break;
    }
    edges += e < last ? e - first + 1 : last - first;
  }
  sums.awake += awake;
  sums.edges += edges;
}

// Returns the number of vertices that joined `next` (cleared on entry).
// `level` is the value every frontier vertex holds when the program is level
// synchronous (P::kUniformFrontier, BFS); it saves a random read of the
// parent's value per visited vertex, and on return holds the new level.
// Visits the vertices of in_edges' chunk (`next` bits outside stay 0).
template <typename P>
uint64_t pull_step(const CsrChunk& in_edges, const P& prog, typename P::Value* val, const Bitmap& front, Bitmap& next,
                   typename P::Value& level, SuperstepStats& st) {
  const vid_t lo = in_edges.lo, n = in_edges.hi;
  const PullTask<typename P::Value> t{val, &front, &next, level, lo, &in_edges};
  next.clear();
  const PullSums sums =
      sum_over_blocks<PullSums>(pull_blocks_begin(lo), n, kPullBlock,
                                [&](vid_t first, vid_t last, PullSums& s) { pull_range(prog, t, first, last, s); });
  if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
  st.active = n - lo;
  st.updated = sums.awake;
  st.edges = sums.edges;
  st.pull = true;
  return sums.awake;
}

}  // namespace chatty::cpu
