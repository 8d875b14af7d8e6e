// Truss numbers on host devices. Each edge's support (the triangles it
// closes) by intersecting its ends' lists; then level L = 0, 1, ...: the
// edges left with support <= L are peeled in rounds, each round's edges
// together (truss number L + 2), and each triangle a peeled edge closes
// with two edges left takes one from their supports; an edge whose support
// falls to L joins the next round. A triangle with two edges in the same
// round is taken from its third edge once, by the lower-numbered of the
// two; one with all three in the round, or one already broken, by none.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <vector>

#include "runtime/base/operators.h"
#include "runtime/graph/upper_edges.h"
#include "runtime/host/edge_triangles.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::ktruss {

struct Edges {
  UpperEdges up;
  std::vector<vid_t> lo, hi;     // each edge's ends, lo < hi
  std::vector<vid_t> number_of;  // each CSR entry's edge number
};

inline std::vector<uint64_t> truss_numbers(host::HostOperators& h, const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Edges E;
  E.up = upper_edges(c);
  const size_t m = E.up.count();
  E.lo.resize(m), E.hi.resize(m), E.number_of.resize(c.targets.size());
  std::vector<int32_t> support(m, 0);
  std::vector<uint8_t> peeled(m, 0), in_round(m, 0);
  std::vector<vid_t> round(m), next(m);
  std::vector<uint64_t> truss(m, 0);
  std::atomic<size_t> next_count{0};
  const vid_t* tgt = c.targets.data();
  const eid_t* off = c.offsets.data();
  // The lists the peel intersects (each entry with its edge's number), and
  // the edges left: the input's until the first compaction.
  std::vector<eid_t> own_off[2];
  std::vector<vid_t> own_tgt[2], own_num[2], alive[2];
  const eid_t* l_off = off;
  const vid_t *l_tgt = tgt, *l_num = E.number_of.data();
  alive[0].resize(m);
  size_t alive_count = m, at_compaction = m;
  int side = 0;

  auto take = [&](vid_t x, int32_t level) {  // one triangle of x's broken
    std::atomic_ref<int32_t> s(support[x]);
    if (s.load(std::memory_order_relaxed) <= level) return;
    const int32_t was = s.fetch_sub(1, std::memory_order_relaxed);
    if (was == level + 1) {
      next[next_count.fetch_add(1, std::memory_order_relaxed)] = x;
    } else if (was <= level) {
      s.fetch_add(1, std::memory_order_relaxed);  // another round's edge took it first
    }
  };

  std::vector<uint32_t> triangles(m, 0);
  host::LowerLists lower(g);
  const Csr& l = lower.lists();
  const host::DeviceRanges by_lower =
      host::balanced_ranges(n, h.devices(), [&](vid_t x) { return 1 + l.offsets[x + 1] - l.offsets[x]; });
  // Keeps the entries and the edges left (a collective step).
  auto compact = [&](host::TeamThread& t, size_t left) {
    const int to = 1 - side;
    t.single([&] { own_off[to].assign(size_t(n) + 1, 0); });
    host::compute(t, 0, n, [&](size_t u) {
      eid_t k = 0;
      for (eid_t e = l_off[u]; e < l_off[u + 1]; ++e) k += !peeled[l_num[e]];
      own_off[to][u + 1] = k;
    });
    t.single([&] {
      for (vid_t u = 0; u < n; ++u) own_off[to][u + 1] += own_off[to][u];
      own_tgt[to].resize(own_off[to][n]), own_num[to].resize(own_off[to][n]), alive[to].resize(left);
    });
    host::compute(t, 0, n, [&](size_t u) {
      eid_t at = own_off[to][u];
      for (eid_t e = l_off[u]; e < l_off[u + 1]; ++e)
        if (!peeled[l_num[e]]) own_tgt[to][at] = l_tgt[e], own_num[to][at++] = l_num[e];
    });
    const vid_t* now = alive[side].data();
    const size_t kept = host::filter(
        t, alive_count, [&](size_t i) { return now[i]; }, [&](vid_t e) { return !peeled[e]; }, alive[to].data());
    t.single([&] {
      l_off = own_off[to].data(), l_tgt = own_tgt[to].data(), l_num = own_num[to].data();
      own_off[side] = {}, own_tgt[side] = {}, own_num[side] = {}, alive[side] = {};
      side = to, alive_count = kept, at_compaction = left;
    });
  };

  h.team([&](host::TeamThread& t) {
    host::number_entries(t, c, E.up, E.number_of.data());
    host::compute(t, 0, n, [&](size_t u) {
      for (eid_t e = off[u] + E.up.above[u]; e < off[u + 1]; ++e) {
        const vid_t k = E.number_of[e];
        E.lo[k] = vid_t(u), E.hi[k] = tgt[e];
      }
    });
    lower.number(t, c, E.up);
    host::edge_triangles(t, lower, by_lower, triangles.data());
    host::compute(t, 0, m, [&](size_t e) { support[e] = int32_t(triangles[e]), alive[0][e] = vid_t(e); });
    size_t left = m;
    int32_t level = 0;
    while (left > 0) {
      const vid_t* now = alive[side].data();
      size_t count = host::filter(
          t, alive_count, [&](size_t i) { return now[i]; }, [&](vid_t e) { return !peeled[e] && support[e] <= level; },
          round.data());
      if (count == 0) {
        if (4 * (at_compaction - left) >= at_compaction) {
          compact(t, left);
        } else {  // the next level: the least support left
          level = host::reduce(
              t, 0, alive_count, INT32_MAX, [&](size_t i) { return peeled[now[i]] ? INT32_MAX : support[now[i]]; },
              [](int32_t a, int32_t b) { return std::min(a, b); });
        }
        continue;
      }
      while (count > 0) {
        host::compute(t, 0, count, [&](size_t i) { in_round[round[i]] = 1; });
        host::compute(t, 0, count, [&](int, size_t i) -> uint64_t {
          const vid_t e = round[i], u = E.lo[e], v = E.hi[e];
          return 1 + ops::intersect_searching(l_tgt + l_off[u], l_off[u + 1] - l_off[u], l_tgt + l_off[v],
                                              l_off[v + 1] - l_off[v], [&](size_t a, size_t b) {
                                                const vid_t x = l_num[l_off[u] + a], y = l_num[l_off[v] + b];
                                                if (peeled[x] || peeled[y]) return;
                                                const bool rx = in_round[x], ry = in_round[y];
                                                if (!rx && !ry) {
                                                  take(x, level), take(y, level);
                                                } else if (rx && !ry) {
                                                  if (e < x) take(y, level);
                                                } else if (!rx && ry) {
                                                  if (e < y) take(x, level);
                                                }
                                              });
        });
        host::compute(t, 0, count, [&](size_t i) {
          const vid_t e = round[i];
          peeled[e] = 1, in_round[e] = 0, truss[e] = uint64_t(level) + 2;
        });
        const size_t joined = next_count.load(std::memory_order_relaxed);
        t.barrier();  // every thread has read the count before it is reset
        t.single([&] {
          std::swap(round, next);
          next_count.store(0, std::memory_order_relaxed);
        });
        left -= count;
        count = joined;
      }
    }
  });
  return truss;
}

}  // namespace chatty::ktruss
