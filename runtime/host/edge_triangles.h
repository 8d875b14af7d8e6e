// Each edge's triangles: the neighbours its two ends share, for every edge
// of an undirected graph at once (truss supports, Jaccard of every edge).
// On the lower lists triangle counting reads (runtime/graph/orient.h: hubs
// first where that pays, each vertex listing its neighbours below it),
// each triangle is found once, at its highest vertex x: x's lower list
// marked, then each lower neighbour y's lower list probed. A hit adds one
// to each of the triangle's three edges: (x, y) and (x, z) in slots of
// x's list, added to the shared counts once per row; (y, z) at once (an
// atomic). The work is triangle counting's, instead of a merge of two
// whole lists per edge.
#pragma once

#include <atomic>
#include <vector>

#include "runtime/graph/orient.h"
#include "runtime/graph/upper_edges.h"
#include "runtime/host/operators.h"

namespace chatty::host {

// Each CSR entry's edge number (UpperEdges'), the entry of (u, v) and of
// (v, u) alike. A collective step.
inline void number_entries(TeamThread& t, const Csr& c, const UpperEdges& up, vid_t* of_entry) {
  compute(t, 0, c.num_vertices(), [&](int, size_t row) -> uint64_t {
    const vid_t u = vid_t(row);
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      const vid_t v = c.targets[e];
      of_entry[e] = vid_t(v > u ? up.number(c, u, e) : up.find(c, v, u));
    }
    return c.offsets[u + 1] - c.offsets[u];
  });
}

// The lower lists of g (made outside a team: orient_lower runs its own
// steps) and, once number() has run, each lower entry's edge number.
class LowerLists {
 public:
  explicit LowerLists(const Graph& g)
      : o_(orient_lower(g, skewed_degrees(g), InputPages::kKeep)), num_(o_.graph.out().targets.size()) {}

  const Csr& lists() const { return o_.graph.out(); }
  vid_t old(vid_t x) const { return o_.old_of_new.empty() ? x : o_.old_of_new[x]; }

  // Each lower entry's edge number in g's numbering `up`. A collective step.
  void number(TeamThread& t, const Csr& c, const UpperEdges& up) {
    const Csr& l = lists();
    compute(t, 0, l.num_vertices(), [&](int, size_t x) -> uint64_t {
      for (eid_t e = l.offsets[x]; e < l.offsets[x + 1]; ++e)
        num_[e] = vid_t(up.find(c, old(vid_t(x)), old(l.targets[e])));
      return l.offsets[x + 1] - l.offsets[x];
    });
  }
  const vid_t* numbers() const { return num_.data(); }

 private:
  Oriented o_;
  std::vector<vid_t> num_;
};

// Adds each edge's triangles to count[its number] (zeros on entry) for the
// triangles whose highest vertex (in the lower lists' numbering) lies in
// `rows`. A collective step.
inline void edge_triangles(TeamThread& t, const LowerLists& lower, const DeviceRanges& rows, uint32_t* count) {
  const Csr& l = lower.lists();
  const eid_t* off = l.offsets.data();
  const vid_t* tgt = l.targets.data();
  const vid_t* num = lower.numbers();
  const vid_t n = l.num_vertices();
  compute(
      t, rows,
      [&](int, size_t row) -> uint64_t {
        thread_local std::vector<uint32_t> mark;  // z -> 1 + its position in x's list; 0 unmarked
        thread_local std::vector<uint32_t> slot;  // triangles of (x, z) by z's position
        if (mark.size() < n) mark.assign(n, 0);
        const eid_t lo = off[row], hi = off[row + 1];
        if (hi - lo < 2) return hi - lo;
        if (slot.size() < hi - lo) slot.resize(hi - lo, 0);
        for (eid_t i = lo; i < hi; ++i) mark[tgt[i]] = uint32_t(i - lo + 1);
        uint64_t read = hi - lo;
        for (eid_t i = lo + 1; i < hi; ++i) {  // the lowest neighbour has none below it in x's list
          const vid_t y = tgt[i];
          uint32_t at_xy = 0;
          for (eid_t j = off[y]; j < off[y + 1]; ++j) {
            const uint32_t z = mark[tgt[j]];
            if (!z) continue;
            ++at_xy, ++slot[z - 1];
            std::atomic_ref<uint32_t>(count[num[j]]).fetch_add(1, std::memory_order_relaxed);
          }
          slot[i - lo] += at_xy;
          read += off[y + 1] - off[y];
        }
        for (eid_t i = lo; i < hi; ++i) {
          mark[tgt[i]] = 0;
          if (slot[i - lo]) {
            std::atomic_ref<uint32_t>(count[num[i]]).fetch_add(slot[i - lo], std::memory_order_relaxed);
            slot[i - lo] = 0;
          }
        }
        return read;
      },
      64);
}

}  // namespace chatty::host
