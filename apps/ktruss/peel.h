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
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::ktruss {

struct Edges {
  UpperEdges up;
  std::vector<vid_t> lo, hi;     // each edge's ends, lo < hi
  std::vector<vid_t> number_of;  // each CSR entry's edge number
};

inline std::vector<uint64_t> truss_numbers(host::HostOperators& h, const Csr& c) {
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

  h.team([&](host::TeamThread& t) {
    // Every row, whatever this rank's share: one rank peels them all.
    host::compute(t, 0, n, [&](int, size_t row) -> uint64_t {
      const vid_t u = vid_t(row);
      for (eid_t e = off[u]; e < off[u + 1]; ++e) {
        const vid_t v = tgt[e];
        const eid_t k = v > u ? E.up.number(c, u, e) : E.up.find(c, v, u);
        E.number_of[e] = vid_t(k);
        if (v > u) E.lo[k] = u, E.hi[k] = v;
      }
      return off[u + 1] - off[u];
    });
    host::compute(t, 0, m, [&](int, size_t e) -> uint64_t {
      const vid_t u = E.lo[e], v = E.hi[e];
      const ops::Common k = ops::count_common(tgt + off[u], off[u + 1] - off[u], tgt + off[v], off[v + 1] - off[v]);
      support[e] = int32_t(k.count);
      return k.read;
    });
    size_t left = m;
    int32_t level = 0;
    while (left > 0) {
      size_t count = host::filter(
          t, m, [](size_t i) { return vid_t(i); }, [&](vid_t e) { return !peeled[e] && support[e] <= level; },
          round.data());
      if (count == 0) {  // the next level: the least support left
        level = host::reduce(
            t, 0, m, INT32_MAX, [&](size_t e) { return peeled[e] ? INT32_MAX : support[e]; },
            [](int32_t a, int32_t b) { return std::min(a, b); });
        continue;
      }
      while (count > 0) {
        host::compute(t, 0, count, [&](size_t i) { in_round[round[i]] = 1; });
        host::compute(t, 0, count, [&](int, size_t i) -> uint64_t {
          const vid_t e = round[i], u = E.lo[e], v = E.hi[e];
          return 1 + ops::intersect_sorted(tgt + off[u], off[u + 1] - off[u], tgt + off[v], off[v + 1] - off[v],
                                           [&](size_t a, size_t b) {
                                             const vid_t x = E.number_of[off[u] + a], y = E.number_of[off[v] + b];
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
