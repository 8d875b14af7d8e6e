// Leiden's own steps for devices that run a thread an item (GPU devices,
// apps/leiden/gpu.cu), beside Louvain's (apps/louvain/device_steps.h),
// written for both sides so that a host test runs them too: refine.h's
// refinement with each round's rows sorted per vertex where the host keeps
// tallies, connected parts by a union-find whose roots are the least ids,
// and the modularity of the input's partition from integer sums.
#pragma once

#include <cstdint>

#include "apps/leiden/program.h"
#include "apps/louvain/device_steps.h"

namespace chatty::leiden::dev {

using louvain::dev::Counters;
using louvain::dev::kItself;
using louvain::dev::LevelRows;

// refine.h's Refining.
struct RefineState {
  vid_t *ref, *next;
  int64_t *rstot, *rext, *vext, *joined;
  uint8_t *alone, *round;
};

// Each input vertex's community of the level's partition.
struct PartOf {
  const vid_t* comm;
  const vid_t* of;
  vid_t* part;
  CHATTY_HD void operator()(size_t v) const { part[v] = comm[of[v]]; }
};

// Every vertex alone, with its weight to the rest of its community of P.
struct RefineStart {
  LevelRows r;
  const vid_t* comm;
  RefineState f;
  uint32_t level;
  uint8_t rounds;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    int64_t ext = 0;
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
      if (const vid_t u = r.tgt[e]; u != v && comm[u] == comm[v]) ext += int64_t(r.w[e]);
    f.ref[v] = f.next[v] = v, f.rstot[v] = r.k[v], f.rext[v] = f.vext[v] = ext, f.alone[v] = 1;
    f.round[v] = louvain::round_of(level, kRefineSweep, v, rounds);
  }
};

// Round j's deciders: still alone, and well connected to their community.
struct RefinePick {
  LevelRows r;
  const vid_t* comm;
  const int64_t* stot;
  RefineState f;
  uint8_t j;
  double resolution, two_m;
  uint64_t* flag;
  CHATTY_HD void operator()(size_t v) const {
    const int64_t k = r.k[v];
    flag[v] = f.round[v] == j && f.alone[v] && k != 0 && well_connected(f.vext[v], k, stot[comm[v]], resolution, two_m);
  }
};

// Entry j of the deciders' rows: the refined community at its other end
// where that end is in the same community of P, else kItself.
struct RefineGather {
  LevelRows r;
  const vid_t* comm;
  const vid_t* ref;
  const vid_t* list;
  const uint64_t* at;
  uint64_t count;
  vid_t* key;
  uint64_t* weight;
  CHATTY_HD void operator()(size_t j) const {
    const uint64_t i = ops::segment_of(at, count, j);
    const vid_t v = list[i];
    const eid_t e = r.off[v] + (j - at[i]);
    const vid_t u = r.tgt[e];
    key[j] = u != v && comm[u] == comm[v] ? ref[u] : kItself;
    weight[j] = r.w[e];
  }
};

// A decider's join (refine.h): among the refined communities well
// connected to its community and not lone ones of this round, and itself,
// the one TieDraw picks near the most gain.
struct RefineDecide {
  LevelRows r;
  const vid_t* comm;
  const int64_t* stot;
  RefineState f;
  const vid_t* list;
  const uint64_t* at;
  const vid_t* key;
  const uint64_t* weight;
  uint8_t j;
  double resolution, two_m;
  uint32_t salt;  // the level's (salt_of)
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = list[i];
    const int64_t k = r.k[v], kc = stot[comm[v]];
    const louvain::Score score(k, resolution, two_m);
    // Each candidate with its weight from v, by the sorted runs of keys.
    const auto each = [&](auto&& visit) {
      for (uint64_t a = at[i], end = at[i + 1]; a < end;) {
        const vid_t c = key[a];
        if (c == kItself) break;
        int64_t to = 0;
        for (; a < end && key[a] == c; ++a) to += int64_t(weight[a]);
        if ((f.alone[c] && f.round[c] == j) || !well_connected(f.rext[c], f.rstot[c], kc, resolution, two_m)) continue;
        visit(c, to, score(to, f.rstot[c]));
      }
    };
    double best_gain = 0;
    each([&](vid_t, int64_t, double gain) { best_gain = gain > best_gain ? gain : best_gain; });
    TieDraw draw(salt, v, best_gain);
    int64_t joined = 0;
    each([&](vid_t c, int64_t to, double gain) {
      draw.offer(c, gain);
      if (draw.pick() == c) joined = to;
    });
    f.next[v] = draw.pick(), f.joined[v] = draw.pick() == v ? 0 : joined;
  }
};

// The joins: the mover's degree and outside weight go to the community it
// joins, which is alone no more.
struct RefineJoin {
  LevelRows r;
  RefineState f;
  const vid_t* list;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = list[i], c = f.next[v];
    if (c == v) return;
    ops::atomic_add(reinterpret_cast<uint64_t*>(f.rstot + c), uint64_t(r.k[v]));
    ops::atomic_add(reinterpret_cast<uint64_t*>(f.rext + c), uint64_t(f.vext[v] - 2 * f.joined[v]));
    f.alone[c] = 0;
    f.alone[v] = 0, f.rstot[v] = 0, f.rext[v] = 0;
  }
};
struct RefineCommit {
  RefineState f;
  const vid_t* list;
  CHATTY_HD void operator()(size_t i) const { f.ref[list[i]] = f.next[list[i]]; }
};

// Each community's first refined community: the least next vertex of its members.
struct FirstOf {
  const vid_t* comm;
  const vid_t* next_of;
  uint32_t* first;  // kInfinity first
  CHATTY_HD void operator()(size_t v) const {
    uint32_t* at = first + comm[v];
    for (uint32_t now = ops::atomic_load(at); next_of[v] < now;) {
      const uint32_t was = ops::atomic_cas(at, now, next_of[v]);
      if (was == now) break;
      now = was;
    }
  }
};
// The next level starts each refined community in its community's first.
struct StartOf {
  const vid_t* comm;
  const vid_t* next_of;
  const uint32_t* first;
  vid_t* start;
  CHATTY_HD void operator()(size_t v) const { start[next_of[v]] = first[comm[v]]; }
};

// Union-find whose links hang the larger root under the smaller: the roots
// end as each part's least vertex.
CHATTY_HD inline vid_t root_of(vid_t x, vid_t* label) {
  for (vid_t p = ops::atomic_load(label + x); p != x; p = ops::atomic_load(label + x)) x = p;
  return x;
}
struct LinkParts {
  LevelRows r;  // the input's
  const vid_t* part;
  vid_t* label;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e) {
      const vid_t u = r.tgt[e];
      if (u >= v || part[u] != part[v]) continue;
      for (vid_t a = root_of(u, label), b = root_of(v, label); a != b; a = root_of(a, label), b = root_of(b, label)) {
        const vid_t high = a > b ? a : b, low = a + b - high;
        if (ops::atomic_cas(label + high, high, low) == high) break;
      }
    }
  }
};
struct Flatten {
  vid_t* label;
  CHATTY_HD void operator()(size_t v) const { label[v] = root_of(vid_t(v), label); }
};

// The input partition's sums: each community's degree, and into [2] twice
// the weight inside communities (a vertex's own twice, each edge from both ends).
struct PartitionSums {
  LevelRows r;
  const vid_t* label;
  int64_t* stot;
  Counters sums;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    ops::atomic_add(reinterpret_cast<uint64_t*>(stot + label[v]), uint64_t(r.k[v]));
    uint64_t twice = 2 * r.self[v];
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
      if (const vid_t u = r.tgt[e]; u != v && label[u] == label[v]) twice += r.w[e];
    ops::atomic_add(sums + 2, twice);
  }
};

}  // namespace chatty::leiden::dev
