// Connectivity by union-find over the label array (Afforest: Sutton,
// Ben-Nun, Barak, IPDPS 2018). Labels start as the vertex ids; linking always
// hangs the larger root under the smaller with one CAS, so every root is the
// smallest id of its tree and the final labels are the smallest id of each
// component - the same fixed point as min-label propagation.
//  1. link each vertex to its first few neighbours (a sparse sample),
//  2. guess the giant component from the roots of a random sample,
//  3. link the remaining edges of vertices outside the giant component
//     (on an undirected graph its inner edges cannot change anything).
// Parents always have smaller ids than their children.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

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
// thread, or a block linked on its own): plain loads and stores. The CAS
// of the shared form is a full fence on x86, which keeps the core from
// overlapping one union's cache misses with the next one's. kHalve: each
// vertex passed on the way points at its grandparent after, as
// uf_union_halving's.
template <bool kHalve = false>
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
    const vid_t grand = comp[p_high];
    if constexpr (kHalve) comp[high] = grand;
    p1 = grand;
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

// Points v and the vertices on its path at its root while other threads
// link; returns the root it found. Parents only ever have smaller ids and
// trees only merge, so writing the root over a parent with a larger id
// keeps the vertex in its tree and the forest acyclic; a parent at or
// below the root's id (the root itself, or one a concurrent link put
// above it) is left alone, and so is every root: a CAS may be re-parenting
// it. The label may trail a link that lands after the find.
inline vid_t uf_flatten_linking(vid_t v, vid_t* comp) {
  const vid_t root = uf_find(v, comp);
  for (vid_t x = v; x > root;) {
    std::atomic_ref<vid_t> at(comp[x]);
    const vid_t parent = at.load(std::memory_order_relaxed);
    if (parent <= root) break;
    at.store(root, std::memory_order_relaxed);
    x = parent;
  }
  return root;
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
  auto at = [comp](vid_t x) { return std::atomic_ref<vid_t>(comp[x]).load(std::memory_order_relaxed); };
  vid_t inner = 0;
  for (vid_t v = lo; v < hi; ++v) {
    if (v + kPrefetchAhead < hi)  // other threads may be flattening that vertex: an atomic read
      __builtin_prefetch(comp + at(v + kPrefetchAhead));
    // Most vertices are roots or hang under one already: two loads, no walk.
    const vid_t parent = at(v);
    if (parent == v) continue;
    ++inner;
    if (at(parent) != parent) uf_flatten(v, comp);
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

// The sample rounds [0, rounds) link every vertex to each of its first
// `rounds` neighbours. Where most of these links stay inside a block of
// kLinkBlock ids (a grid, a road, a relabelled graph: neighbours have
// nearby ids), each block's links go first on one thread without atomics
// (its forest holds only its own vertices until the cross-block links
// start), and the vertices with a link leaving their block are listed for
// a second pass with CAS. A CAS is a full fence, which keeps a core from
// overlapping one union's misses with the next one's. Elsewhere (a
// power-law graph, whose first neighbours are hubs anywhere) one pass
// links with CAS, halving the paths it climbs.
inline constexpr vid_t kLinkBlock = 16384;
inline bool same_link_block(vid_t u, vid_t v) { return u / kLinkBlock == v / kLinkBlock; }

// Whether most of the sampled links of a fixed spread of vertices stay
// inside their block.
inline bool sample_links_local(const CsrChunk& g, eid_t rounds) {
  const vid_t n = g.hi, step = std::max<vid_t>(1, n / 1024);
  uint64_t inside = 0, all = 0;
  for (vid_t u = step / 2; u < n; u += step)
    for (eid_t e = g.begin(u); e < std::min(g.end(u), g.begin(u) + rounds); ++e, ++all)
      inside += same_link_block(u, g.targets[e]);
  return 2 * inside > all;
}

inline uint64_t afforest_sample_local(const CsrChunk& chunk, eid_t rounds, vid_t* comp) {
  const CsrChunk g = chunk;
  const vid_t n = g.hi;
  const vid_t blocks = (n + kLinkBlock - 1) / kLinkBlock;
  std::vector<std::vector<vid_t>> leaving(static_cast<size_t>(omp_get_max_threads()));
  uint64_t edges = 0;
#pragma omp parallel firstprivate(g) reduction(+ : edges)
  {
    std::vector<vid_t>& mine = leaving[size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
    for (vid_t b = 0; b < blocks; ++b) {
      const vid_t lo = b * kLinkBlock, hi = std::min(n, lo + kLinkBlock);
      for (vid_t u = lo; u < hi; ++u) {
        const eid_t first = g.begin(u), last = std::min(g.end(u), first + rounds);
        bool leaves = false;
        for (eid_t e = first; e < last; ++e) {
          const vid_t v = g.targets[e];
          if (same_link_block(u, v))
            uf_union_alone<true>(u, v, comp);
          else
            leaves = true;
        }
        if (leaves) mine.push_back(u);
        edges += last - first;
      }
    }
    for (const std::vector<vid_t>& list : leaving) {
#pragma omp for schedule(dynamic, 1024) nowait
      for (size_t i = 0; i < list.size(); ++i) {
        const vid_t u = list[i];
        for (eid_t e = g.begin(u); e < std::min(g.end(u), g.begin(u) + rounds); ++e)
          if (const vid_t v = g.targets[e]; !same_link_block(u, v)) uf_union_halving(u, v, comp);
      }
    }
  }
  return edges;
}

// The sample rounds; returns the edges linked. The trees are left as
// linked: afforest_rest flattens them as it passes.
inline uint64_t afforest_sample(const CsrChunk& chunk, eid_t rounds, vid_t* comp) {
  const CsrChunk g = chunk;
  const vid_t n = g.hi;
  uint64_t edges = 0;
  if (sample_links_local(g, rounds)) {
    edges = afforest_sample_local(g, rounds, comp);
  } else {
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
  }
  return edges;
}

// Whether v is `root` or hangs one or two links below it, pointing it at
// root where two; for a root that may be re-parented while others link
// (then v stays in its tree, as uf_flatten_linking's writes keep it). Two
// loads and no walk: in the rest stage, after the sample, every vertex of
// the grid and of urand:20 but one hangs this near the giant's root, and
// 98 % of a road's; a walk's exit is a branch the core mispredicts.
inline bool uf_hangs_near(vid_t v, vid_t root, vid_t* comp) {
  std::atomic_ref<vid_t> at(comp[v]);
  const vid_t parent = at.load(std::memory_order_relaxed);
  if (parent == root) return true;
  if (std::atomic_ref<vid_t>(comp[parent]).load(std::memory_order_relaxed) != root) return false;
  at.store(root, std::memory_order_relaxed);
  return true;
}

// Points every vertex at its root and links every edge from `skip` on of
// the vertices whose root is not `giant` (on an undirected graph the
// giant's inner edges cannot change anything; an id past the graph's:
// every vertex's); returns the edges linked. Flattening as it goes saves
// the pass a compression would take. Where a link moved a root, the labels
// that trail it are brought up to date after: while the giant's root stays
// a root, only the vertices found outside the giant can trail (the giant's
// were pointed at its root), so only those are flattened again (kron:20:
// 68 edges linked, four roots moved, a few hundred vertices outside the
// giant with edges, where a pass over every vertex was a tenth of WCC).
inline uint64_t afforest_rest(const CsrChunk& chunk, eid_t skip, vid_t giant, vid_t* comp) {
  const CsrChunk g = chunk;  // a copy, as above
  const vid_t n = g.hi;
  uint64_t edges = 0, moved = 0;
  std::vector<std::vector<vid_t>> outside(static_cast<size_t>(omp_get_max_threads()));
#pragma omp parallel firstprivate(g) reduction(+ : edges, moved)
  {
    std::vector<vid_t>& mine = outside[size_t(omp_get_thread_num())];
    // Chunks of a few thousand: most vertices are the giant's, two loads
    // each. No parents fetched ahead: that took the stage 1.7x as long on
    // the grid and 1.15x on urand:20, and kron:20 gained nothing.
#pragma omp for schedule(dynamic, 4096) nowait
    for (vid_t u = 0; u < n; ++u) {
      if (uf_hangs_near(u, giant, comp) || uf_flatten_linking(u, comp) == giant) continue;
      const eid_t first = g.begin(u), lo = first + skip, hi = g.end(u);
      if (first == hi) continue;  // no edges: a root no link reaches
      mine.push_back(u);
      for (eid_t e = lo; e < hi; ++e) moved += uf_link(u, g.targets[e], comp);
      edges += hi > lo ? hi - lo : 0;
    }
  }
  if (!moved) return edges;
  size_t listed = 0;
  for (const std::vector<vid_t>& list : outside) listed += list.size();
  if (giant < n && comp[giant] == giant && listed < n / 4) {
    for (const std::vector<vid_t>& list : outside) uf_compress_list(list.data(), list.size(), comp);
  } else {
    uf_compress(n, comp);
  }
  return edges;
}

}  // namespace chatty::cpu
