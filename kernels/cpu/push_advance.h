// Push (top-down) step on the CPU: every active vertex offers its value to
// its out-neighbours; a neighbour whose value the offer improves joins the
// next frontier once. Work is grabbed from a shared counter 64 vertices at a
// time (OpenMP dynamic schedule) and reduces are CAS loops, never locks.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "runtime/base/csr_view.h"
#include "runtime/base/frontier.h"
#include "runtime/base/parallel.h"
#include "runtime/base/run_stats.h"

namespace chatty::cpu {

inline constexpr int kGrain = 64;  // vertices per grab from a frontier (RGraph)
// Dense passes over every vertex (pull steps, gathers) grab 16 bitmap words
// at a time: 64-vertex grabs there cost ~10% of a kron:20 BFS in contention
// on the shared counter, and per-vertex work is already even.
inline constexpr int kDenseGrain = 1024;
inline constexpr eid_t kPrefetch = 16;        // edges ahead for value prefetches
inline constexpr size_t kVertexPrefetch = 4;  // bucket vertices between the prefetch stages below

// Starts the misses of the rows ahead of ids[i] (vertices below `end`), in
// three stages, each reading what the stage before fetched: the value and
// offset of ids[i + 3k], the start of ids[i + 2k]'s row (targets and
// weights), and the values of ids[i + k]'s first kPrefetch targets (a
// row's own loop fetches the rest kPrefetch edges ahead). An ordered
// program's buckets are scattered low-degree vertices, each a chain of
// three misses (offset, row, its targets' values) that the rows' own
// prefetches never reached. src: the rows' own values (val, or a peer's
// array for a migrated block); wgt: null where the program reads no weights.
// A BFS or WCC frontier on a grid is near in memory and loses by the
// prefetches: not for them. Always inlined: GCC 12 finds a call to a
// function that only prefetches free of side effects and deletes it, which
// it did to every call of this one where it was not inlined early.
template <typename V, typename W>
[[gnu::always_inline]] inline void prefetch_rows_ahead(const vid_t* ids, size_t i, size_t end, const V* src,
                                                       const V* val, const eid_t* off, vid_t base, const vid_t* tgt,
                                                       const W* wgt) {
  constexpr size_t k = kVertexPrefetch;
  if (i + 3 * k < end) {
    const vid_t u = ids[i + 3 * k];
    __builtin_prefetch(&src[u]);
    __builtin_prefetch(off + (u - base));
  }
  if (i + 2 * k < end) {
    const eid_t e = off[ids[i + 2 * k] - base];
    __builtin_prefetch(tgt + e);
    __builtin_prefetch(tgt + e + kPrefetch - 1);
    if (wgt) __builtin_prefetch(wgt + e);
  }
  if (i + k < end) {
    const vid_t u = ids[i + k] - base;
    const eid_t lo = off[u], hi = std::min(off[u + 1], lo + kPrefetch);
    for (eid_t e = lo; e < hi; ++e) __builtin_prefetch(&val[tgt[e]], 1, 3);
  }
}

namespace detail {

// Relaxes u's row of out-edges tgt[lo, hi) (weights wgt, wide or a byte each, or null), u's
// value being vu. kShared: other threads update the same values and claim
// bits, so reduces are CAS loops and claims atomic; a team of one (a device
// that owns one core) reduces with plain loads and stores - relaxed atomic
// ones, which compile to plain moves, because a peer helping with this
// device's frontier reads them.
template <bool kShared, typename P, typename W, typename Push>
inline void relax_row(const Degrees& degree, const P& prog, typename P::Value vu, vid_t u, const vid_t* tgt,
                      const W* wgt, eid_t lo, eid_t hi, typename P::Value* val, Bitmap& claimed, uint64_t& scout,
                      uint64_t& edges, Push&& push) {
  using V = typename P::Value;
  edges += hi - lo;
  for (eid_t e = lo; e < hi; ++e) {
    const vid_t v = tgt[e];
    // Values are random accesses: start the miss a few edges early.
    if (e + kPrefetch < hi) __builtin_prefetch(&val[tgt[e + kPrefetch]], 1, 3);
    const V offer = prog.scatter(vu, u, v, wgt ? wgt[e] : 1);
    if constexpr (kShared) {
      if (!atomic_combine(&val[v], offer, [](V a, V b) { return P::reduce(a, b); })) continue;
    } else {
      std::atomic_ref<V> at(val[v]);
      const V was = at.load(std::memory_order_relaxed), now = P::reduce(was, offer);
      if (now == was) continue;
      at.store(now, std::memory_order_relaxed);
    }
    // A first-visit program changes a vertex once, so no dedupe needed.
    bool first = true;
    if constexpr (!P::kPullable) {
      if constexpr (kShared) {
        first = claimed.set_atomic(v);
      } else {
        first = !claimed.get(v);
        if (first) claimed.set(v);
      }
    }
    if (first) {
      push(v);
      scout += degree[v];
    }
  }
}

}  // namespace detail

// Relaxes the out-edges of ids[first, last) (vertices of chunk g), the
// sources' values read from src, into val; push(v) sees each vertex whose
// value changed (once, for programs that are not first-visit, while
// `claimed` is not reset), and `scout` adds degree[v] of each.
template <bool kShared, typename P, typename Push>
inline void push_block(const CsrChunk& g, const Degrees& degree, const P& prog, const typename P::Value* src,
                       typename P::Value* val, const vid_t* ids, size_t first, size_t last, Bitmap& claimed,
                       uint64_t& scout, uint64_t& edges, Push&& push) {
  using V = typename P::Value;
  // The chunk's fields in locals: a store to val may alias its bounds.
  const vid_t base = g.lo;
  const eid_t* off = g.offsets;
  const vid_t* tgt = g.targets;
  auto rows = [&](const auto* wgt) {
    for (size_t i = first; i < last; ++i) {
      const vid_t u = ids[i];
      if constexpr (P::kOrdered) prefetch_rows_ahead(ids, i, last, src, val, off, base, tgt, wgt);
      // src is val itself, or on a block migrated from a peer device the peer's array.
      const V vu = std::atomic_ref<V>(const_cast<V&>(src[u])).load(std::memory_order_relaxed);
      detail::relax_row<kShared>(degree, prog, vu, u, tgt, wgt, off[u - base], off[u - base + 1], val, claimed, scout,
                                 edges, push);
    }
  };
  with_weights<P::kNeedsWeights>(g, rows);
}

// The out-degree sum of q's vertices (Degrees::sum), over blocks of the
// team where q is long.
inline uint64_t degree_sum(const Queue& q, const Degrees& degree) {
  constexpr size_t kBlock = 4096;
  if (q.count <= 2 * kBlock) return degree.sum(q.ids.data(), q.count);
  return sum_over_blocks<uint64_t>(size_t(0), q.count, kBlock, [&](size_t lo, size_t hi, uint64_t& s) {
    s += degree.sum(q.ids.data() + lo, hi - lo);
  });
}

// Clears the claims of a push step's output.
template <typename P>
void release_claims(const Queue& out, Bitmap& claimed) {
  if constexpr (!P::kPullable) {
#pragma omp parallel for schedule(static) if (out.count > 4096)
    for (size_t i = 0; i < out.count; ++i) claimed.reset_atomic(out.ids[i]);
  }
}

}  // namespace chatty::cpu
