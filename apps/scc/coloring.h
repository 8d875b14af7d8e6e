// Strong components by colouring (Orzan; the method of Slota et al.'s
// Multistep after its trim), on the host operators. Each round, every open
// vertex takes the least id that reaches it through open vertices (a
// forward propagation of minima along out-edges); a vertex whose colour
// is its own id is a root, and its component is the vertices of its colour
// that reach it (a backward advance over in-edges within the colour):
// every vertex w with colour c is reached from c, so w is in c's component
// exactly when it reaches c, and every vertex on such a path has colour c
// too. The components found close; the next round colours the rest.
// Each round first peels, in time linear in the open edges, every vertex
// with no open in-neighbour or none out (a component of its own), again
// and again as peeling exposes more: the acyclic parts of a graph (most of
// a power-law graph's small components, a path) never cost a round each.
// The per-edge steps are steps.h's, which GPU devices run too (gpu.cu).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "apps/scc/steps.h"
#include "runtime/base/operators.h"
#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::scc {

// Closes, as components of their own, the open vertices (open[0, m)) with
// no open neighbour along `side` (their in-edges: those that nothing open
// reaches), and those that closing them leaves so, walking `other` (the
// reverse of `side`) from each closed one.
inline void peel(host::TeamThread& t, const Csr& side, const Csr& other, const vid_t* open, size_t m, uint32_t* label,
                 uint32_t* count, vid_t* first, host::LevelQueue& queue) {
  host::compute(t, 0, m, [&](int, size_t i) {
    const vid_t v = open[i];
    uint32_t k = 0;
    for (eid_t e = side.offsets[v]; e < side.offsets[v + 1]; ++e) k += label[side.targets[e]] == kOpen;
    count[v] = k;
    return uint64_t(side.degree(v));
  });
  const size_t closed = host::filter(
      t, m, [&](size_t i) { return open[i]; }, [&](vid_t v) { return count[v] == 0; }, first);
  host::compute(t, 0, closed, [&](size_t i) { label[first[i]] = first[i]; });
  for (host::Level l = queue.start(t, other, {first, closed}); !l.empty();)
    l = host::advance(t, other, queue, l, Peel{count, label});
}

// Each vertex's component, named by its least vertex id; `in` is the
// graph's reverse (the graph itself where it is undirected).
inline std::vector<uint32_t> components(host::HostOperators& h, const Csr& out, const Csr& in) {
  const vid_t n = out.num_vertices();
  CHATTY_CHECK(n < (vid_t(1) << 31), "scc: at most 2^31 vertices");
  std::vector<uint32_t> color(n), label(n, kOpen), stamp(n, 0), count(n);
  std::vector<vid_t> open(n), next(n);
  // A forward level holds each vertex once, after the level it grew from.
  host::LevelQueue forward(2 * n), backward(n);
  h.team([&](host::TeamThread& t) {
    const auto still_open = [&] {
      return host::filter(
          t, n, [](size_t i) { return vid_t(i); }, [&](vid_t v) { return label[v] == kOpen; }, open.data());
    };
    uint32_t level = 0;
    for (;;) {
      size_t m = still_open();
      if (m == 0 || t.interrupted()) break;  // an interrupted team throws at its end
      peel(t, in, out, open.data(), m, label.data(), count.data(), next.data(), backward);
      m = still_open();
      peel(t, out, in, open.data(), m, label.data(), count.data(), next.data(), backward);
      m = still_open();
      if (m == 0) break;
      host::compute(t, 0, m, [&](size_t i) { color[open[i]] = open[i]; });
      for (host::Level l = forward.start(t, out, {open.data(), m}); !l.empty();) {
        l = host::advance(t, out, forward, l, Lower{color.data(), label.data(), stamp.data(), ++level});
        if (l.empty()) break;
        // The next level starts the queue again, so that it never holds more than two levels.
        const vid_t* found = forward.order() + l.lo;
        host::compute(t, 0, l.hi - l.lo, [&](size_t i) { next[i] = found[i]; });
        l = forward.start(t, out, {next.data(), size_t(l.hi - l.lo)});
      }
      const size_t roots = host::filter(
          t, m, [&](size_t i) { return open[i]; }, [&](vid_t v) { return color[v] == v; }, next.data());
      host::compute(t, 0, roots, [&](size_t i) { label[next[i]] = next[i]; });
      for (host::Level l = backward.start(t, in, {next.data(), roots}); !l.empty();)
        l = host::advance(t, in, backward, l, Claim{color.data(), label.data()});
    }
  });
  return label;
}

}  // namespace chatty::scc
