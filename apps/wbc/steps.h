// Weighted Brandes' steps as functors written once for both sides: GPU
// devices (gpu.cu) run them a thread an item, a host test item by item.
// Dijkstra's order has no levels to share, so a source runs in three
// sweeps: Bellman-Ford rounds to the distances (a round relaxes the rows
// of the vertices the round before lowered); then the shortest-path
// graph's layers by Kahn's rule (a vertex joins the layer after its last
// predecessor's, with every predecessor's paths counted); then the layers
// from the last, each vertex gathering its successors' shares with the
// host's expressions (dijkstra_brandes.h), in its row's order.
#pragma once

#include <cstdint>

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::wbc {

inline constexpr uint64_t kFar = ~uint64_t(0);

// Before a source: every vertex unreached, without paths or predecessors.
struct Reset {
  uint64_t* dist;
  double* sigma;
  uint32_t* pending;
  uint8_t* active;
  CHATTY_HD void operator()(size_t v) const {
    dist[v] = kFar;
    sigma[v] = 0;
    pending[v] = 0;
    active[v] = 0;
  }
};

// The source: at distance 0 with one path, active, and the first layer.
struct Seed {
  uint64_t* dist;
  double* sigma;
  uint8_t* active;
  vid_t* order;
  CHATTY_HD void operator()(size_t s) const {
    dist[s] = 0;
    sigma[s] = 1;
    active[s] = 1;
    order[0] = vid_t(s);
  }
};

// A Bellman-Ford round: a vertex active in `now` relaxes its row; a target
// whose distance falls is active in `next`, and *changed is set. A
// distance read while a peer lowers it is no harm: the lowered vertex is
// active again next round.
struct Relax {
  const eid_t* offsets;
  const vid_t* targets;
  const weight_t* weights;
  uint64_t* dist;
  uint8_t *now, *next;
  uint32_t* changed;
  CHATTY_HD void operator()(size_t u) const {
    if (!now[u]) return;
    now[u] = 0;
    const uint64_t du = ops::atomic_load(dist + u);
    for (eid_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      const uint64_t nd = du + weights[e];
      if (ops::atomic_min(dist + targets[e], nd) > nd) {
        next[targets[e]] = 1;
        ops::atomic_store(changed, 1u);
      }
    }
  }
};

// Each edge on a shortest path (dist[u] + w == dist[x]) is one more
// predecessor for x to wait for.
struct CountPredecessors {
  const eid_t* offsets;
  const vid_t* targets;
  const weight_t* weights;
  const uint64_t* dist;
  uint32_t* pending;
  CHATTY_HD void operator()(size_t u) const {
    if (dist[u] == kFar) return;
    for (eid_t e = offsets[u]; e < offsets[u + 1]; ++e)
      if (dist[u] + weights[e] == dist[targets[e]]) ops::atomic_add(pending + targets[e], 1u);
  }
};

// Layer vertex order[i] passes its paths along its shortest-path edges (its
// own count final: every predecessor was in an earlier layer); a target
// whose last predecessor it was joins the next layer at *tail.
struct PassPaths {
  const eid_t* offsets;
  const vid_t* targets;
  const weight_t* weights;
  const uint64_t* dist;
  double* sigma;
  uint32_t* pending;
  vid_t* order;
  uint64_t* tail;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t u = order[i];
    for (eid_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      const vid_t x = targets[e];
      if (dist[u] + weights[e] != dist[x]) continue;
      ops::atomic_add(sigma + x, sigma[u]);
      if (ops::atomic_sub(pending + x, 1) == 1) order[ops::atomic_add(tail, uint64_t(1))] = x;
    }
  }
};

// Layer vertex order[i], its successors settled (later layers): its
// dependency from their shares, added to its score (not the source's), and
// what it passes back per path, as the host computes them.
struct Settle {
  const eid_t* offsets;
  const vid_t* targets;
  const weight_t* weights;
  const uint64_t* dist;
  const double* sigma;
  const vid_t* order;
  double *share, *score;
  vid_t source;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = order[i];
    double shares = 0;
    for (eid_t e = offsets[v]; e < offsets[v + 1]; ++e)
      if (dist[v] + weights[e] == dist[targets[e]]) shares += share[targets[e]];
    const double dependency = sigma[v] * shares;
    if (v != source) score[v] += dependency;
    share[v] = (1 + dependency) / sigma[v];
  }
};

// A reached vertex's row length: what each sweep of the layers reads.
struct DegreeAt {
  const eid_t* offsets;
  const vid_t* order;
  CHATTY_HD uint64_t operator()(size_t i) const { return offsets[order[i] + 1] - offsets[order[i]]; }
};

}  // namespace chatty::wbc
