// The edges of an undirected graph once each, as (u, v) with u < v: row
// u's are the entries of its sorted list above u, numbered from first[u].
// What per-edge results (similarity, truss numbers) are indexed by.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

struct UpperEdges {
  std::vector<eid_t> first;  // n + 1: row u's edges are [first[u], first[u + 1])
  std::vector<eid_t> above;  // n: the position in row u's list of its first entry above u

  eid_t count() const { return first.empty() ? 0 : first.back(); }
  // The number of edge (u, v), u < v, whose list entry is at position `e` of
  // the CSR's targets.
  eid_t number(const Csr& c, vid_t u, eid_t e) const { return first[u] + (e - c.offsets[u] - above[u]); }
  // The number of the edge {a, b} (a != b), found in the lower one's list.
  eid_t find(const Csr& c, vid_t a, vid_t b) const {
    if (a > b) std::swap(a, b);
    const vid_t* begin = c.targets.data() + c.offsets[a];
    const vid_t* at = std::lower_bound(begin + above[a], c.targets.data() + c.offsets[a + 1], b);
    return number(c, a, eid_t(at - c.targets.data()));
  }
};

// Made sequentially: a binary search a row, O(n log d), small beside any
// per-edge work.
inline UpperEdges upper_edges(const Csr& c) {
  const vid_t n = c.num_vertices();
  UpperEdges u;
  u.first.assign(size_t(n) + 1, 0);
  u.above.assign(n, 0);
  for (vid_t x = 0; x < n; ++x) {
    const vid_t* begin = c.targets.data() + c.offsets[x];
    const vid_t* end = c.targets.data() + c.offsets[x + 1];
    const vid_t* at = std::upper_bound(begin, end, x);
    u.above[x] = eid_t(at - begin);
    u.first[x + 1] = u.first[x] + eid_t(end - at);
  }
  return u;
}

// Every edge (u, v), u < v, in its number's order.
inline std::vector<std::pair<vid_t, vid_t>> upper_pairs(const Csr& c, const UpperEdges& u) {
  std::vector<std::pair<vid_t, vid_t>> out;
  out.reserve(u.count());
  for (vid_t x = 0; x < c.num_vertices(); ++x)
    for (eid_t e = c.offsets[x] + u.above[x]; e < c.offsets[x + 1]; ++e) out.emplace_back(x, c.targets[e]);
  return out;
}

}  // namespace chatty
