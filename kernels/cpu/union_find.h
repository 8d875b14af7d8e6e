// Connectivity by union-find over the label array (Afforest: Sutton,
// Ben-Nun, Barak, IPDPS 2018). Labels start as the vertex ids; linking always
// hangs the larger root under the smaller with one CAS, so every root is the
// smallest id of its tree and the final labels are the smallest id of each
// component - the same fixed point as min-label propagation.
//  1. link each vertex to its first few neighbours (a sparse sample),
//  2. compress, and guess the giant component from a random sample,
//  3. link the remaining edges of vertices outside the giant component
//     (on an undirected graph its inner edges cannot change anything).
#pragma once

#include <algorithm>
#include <atomic>

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

inline constexpr vid_t kNoRoot = ~vid_t(0);

// Joins the trees of u and v; returns the root it re-parented (the larger
// of the two), or kNoRoot when they already were one tree.
inline vid_t uf_union(vid_t u, vid_t v, vid_t* comp) {
  vid_t p1 = std::atomic_ref<vid_t>(comp[u]).load(std::memory_order_relaxed);
  vid_t p2 = std::atomic_ref<vid_t>(comp[v]).load(std::memory_order_relaxed);
  while (p1 != p2) {
    const vid_t high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    std::atomic_ref<vid_t> ph(comp[high]);
    vid_t p_high = ph.load(std::memory_order_relaxed);
    if (p_high == low) return kNoRoot;
    if (p_high == high && ph.compare_exchange_strong(p_high, low, std::memory_order_relaxed)) return high;
    p1 = std::atomic_ref<vid_t>(comp[std::atomic_ref<vid_t>(comp[high]).load(std::memory_order_relaxed)])
             .load(std::memory_order_relaxed);
    p2 = std::atomic_ref<vid_t>(comp[low]).load(std::memory_order_relaxed);
  }
  return kNoRoot;
}

// uf_union that also halves the paths it climbs (each vertex passed on the
// way points at its grandparent after): a pass that links several edges of
// a vertex before any compression keeps its trees shallow. A halving store
// writes an ancestor over a non-root's parent, which any concurrent store
// there also does: roots change only by the CAS.
inline vid_t uf_union_halving(vid_t u, vid_t v, vid_t* comp) {
  auto at = [comp](vid_t x) { return std::atomic_ref<vid_t>(comp[x]); };
  vid_t p1 = at(u).load(std::memory_order_relaxed);
  vid_t p2 = at(v).load(std::memory_order_relaxed);
  while (p1 != p2) {
    const vid_t high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    vid_t p_high = at(high).load(std::memory_order_relaxed);
    if (p_high == low) return kNoRoot;
    if (p_high == high && at(high).compare_exchange_strong(p_high, low, std::memory_order_relaxed)) return high;
    const vid_t grand = at(p_high).load(std::memory_order_relaxed);
    if (grand != p_high) at(high).store(grand, std::memory_order_relaxed);
    p1 = grand;
    p2 = at(low).load(std::memory_order_relaxed);
  }
  return kNoRoot;
}

// The same for a thread that links alone (a device whose team is one
// thread): plain loads and stores. The CAS of the shared form is a full
// fence on x86, which keeps the core from overlapping one union's cache
// misses with the next one's.
inline vid_t uf_union_alone(vid_t u, vid_t v, vid_t* comp) {
  vid_t p1 = comp[u], p2 = comp[v];
  while (p1 != p2) {
    const vid_t high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    const vid_t p_high = comp[high];
    if (p_high == low) return kNoRoot;
    if (p_high == high) {
      comp[high] = low;
      return high;
    }
    p1 = comp[p_high];
    p2 = comp[low];
  }
  return kNoRoot;
}

// Returns whether it re-parented a root (whether any label can change).
inline bool uf_link(vid_t u, vid_t v, vid_t* comp) { return uf_union(u, v, comp) != kNoRoot; }

// The root of v's tree, without modifying it.
inline vid_t uf_find(vid_t v, const vid_t* comp) {
  auto at = [comp](vid_t x) {
    return std::atomic_ref<vid_t>(const_cast<vid_t&>(comp[x])).load(std::memory_order_relaxed);
  };
  vid_t c = at(v);
  for (vid_t p = at(c); p != c; p = at(c)) c = p;
  return c;
}

// Points v and every vertex on its path straight at the root; returns the
// root. Only while nothing links: concurrent flattens write the same roots.
inline vid_t uf_flatten(vid_t v, vid_t* comp) {
  const vid_t root = uf_find(v, comp);
  for (vid_t x = v;;) {
    std::atomic_ref<vid_t> at(comp[x]);
    const vid_t parent = at.load(std::memory_order_relaxed);
    if (parent == root) return root;
    at.store(root, std::memory_order_relaxed);
    x = parent;
  }
}

// Joins the trees of u and v, flattening both paths first; for a thread
// that links alone (a device applying the unions its peers sent).
inline bool uf_link_alone(vid_t u, vid_t v, vid_t* comp) {
  const vid_t ru = uf_flatten(u, comp), rv = uf_flatten(v, comp);
  if (ru == rv) return false;
  std::atomic_ref<vid_t>(comp[ru > rv ? ru : rv]).store(ru < rv ? ru : rv, std::memory_order_relaxed);
  return true;
}

// Passes over many vertices fetch the parent of a vertex a few places ahead
// while this one's path is walked: a walk is a chain of dependent cache misses.
inline constexpr vid_t kPrefetchAhead = 16;

// Points every vertex of [lo, hi), and every vertex on their paths, at its
// root, on the calling thread (others may flatten the same paths); returns
// how many vertices of [lo, hi) are not roots.
inline vid_t uf_compress_serial(vid_t lo, vid_t hi, vid_t* comp) {
  vid_t inner = 0;
  for (vid_t v = lo; v < hi; ++v) {
    if (v + kPrefetchAhead < hi)  // other threads may be flattening that vertex: an atomic read
      __builtin_prefetch(comp + std::atomic_ref<vid_t>(comp[v + kPrefetchAhead]).load(std::memory_order_relaxed));
    inner += uf_flatten(v, comp) != v;
  }
  return inner;
}

// The same on the calling thread's team.
inline void uf_compress(vid_t lo, vid_t hi, vid_t* comp) {
  constexpr vid_t kChunk = 16384;
  const vid_t chunks = hi > lo ? (hi - lo + kChunk - 1) / kChunk : 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (vid_t i = 0; i < chunks; ++i) uf_compress_serial(lo + i * kChunk, std::min(hi, lo + (i + 1) * kChunk), comp);
}

inline void uf_compress(vid_t n, vid_t* comp) { uf_compress(0, n, comp); }

// The same for the listed vertices.
inline void uf_compress_list(const vid_t* list, size_t count, vid_t* comp) {
#pragma omp parallel for schedule(dynamic, 16384)
  for (size_t i = 0; i < count; ++i) {
    if (i + kPrefetchAhead < count) __builtin_prefetch(comp + list[i + kPrefetchAhead]);
    uf_flatten(list[i], comp);
  }
}

// Afforest's stages on one device that holds every vertex (g's chunk
// starts at 0 and ends at |V|), on the calling thread's team.

// The sample rounds [0, rounds) in one pass: links every vertex to each of
// its first `rounds` neighbours (halving the paths it climbs), then
// compresses; returns the edges linked.
inline uint64_t afforest_sample(const CsrChunk& chunk, eid_t rounds, vid_t* comp) {
  const CsrChunk g = chunk;
  const vid_t n = g.hi;
  uint64_t edges = 0;
#pragma omp parallel for schedule(dynamic, 16384) firstprivate(g) reduction(+ : edges)
  for (vid_t u = 0; u < n; ++u) {
    if (u + 4 * kPrefetchAhead < n) __builtin_prefetch(g.targets + g.begin(u + 4 * kPrefetchAhead));
    if (u + kPrefetchAhead < n) {
      const eid_t ahead = g.begin(u + kPrefetchAhead);
      if (ahead < g.end(u + kPrefetchAhead)) __builtin_prefetch(comp + g.targets[ahead]);
    }
    const eid_t lo = g.begin(u), hi = std::min(g.end(u), lo + rounds);
    for (eid_t e = lo; e < hi; ++e) uf_union_halving(u, g.targets[e], comp);
    edges += hi - lo;
  }
  uf_compress(n, comp);
  return edges;
}

// Links every edge from `skip` on of the vertices not labelled `giant`
// (on an undirected graph the giant's inner edges cannot change anything),
// then compresses; returns the edges linked.
inline uint64_t afforest_rest(const CsrChunk& chunk, eid_t skip, vid_t giant, vid_t* comp) {
  const CsrChunk g = chunk;  // a copy, as above
  const vid_t n = g.hi;
  uint64_t edges = 0;
#pragma omp parallel for schedule(dynamic, kGrain) firstprivate(g) reduction(+ : edges)
  for (vid_t u = 0; u < n; ++u) {
    if (std::atomic_ref<vid_t>(comp[u]).load(std::memory_order_relaxed) == giant) continue;
    const eid_t lo = g.begin(u) + skip, hi = g.end(u);
    for (eid_t e = lo; e < hi; ++e) uf_link(u, g.targets[e], comp);
    edges += hi > lo ? hi - lo : 0;
  }
  uf_compress(n, comp);
  return edges;
}

}  // namespace chatty::cpu
