// Louvain's steps for devices that run a thread an item (GPU devices,
// apps/louvain/gpu.cu), written for both sides so that a host test runs
// them too. They make level.h's and contract.h's decisions with sorted
// lists where the host keeps tallies: a round's rows are gathered as
// (community, weight) pairs and sorted per vertex, so a vertex's runs are
// its weights to each community; the contraction sorts every edge by its
// two ends' next vertices and sums the runs. Integer sums and the host's
// choice rule (the best score, ties to the lowest community, its own
// community kept on a tie), so the communities are the host's.
#pragma once

#include <cstdint>

#include "apps/louvain/program.h"
#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::louvain::dev {

// A row entry that is the vertex itself (a self-loop of level 0): sorts
// after every community, never counted.
inline constexpr vid_t kItself = kInfinity;

// A level's graph: rows, and per vertex its degree and weight inside.
struct LevelRows {
  vid_t n = 0;
  const eid_t* off = nullptr;
  const vid_t* tgt = nullptr;
  const uint64_t* w = nullptr;
  const int64_t* k = nullptr;
  const uint64_t* self = nullptr;
};

// The moving state (level.h's Moving).
struct MovingState {
  vid_t *comm, *next, *best_comm;
  int64_t *stot, *best_stot;
  uint8_t *active, *round;
};

// Folds into three counters: [0] vertices moved, [1] the change in the
// weight inside communities (two's complement), [2] any sum a step needs.
using Counters = uint64_t*;

struct Start {
  LevelRows r;
  MovingState s;
  const vid_t* from;  // null: singletons
  CHATTY_HD void operator()(size_t v) const {
    const vid_t c = from ? from[v] : vid_t(v);
    s.comm[v] = s.next[v] = s.best_comm[v] = c;
    s.stot[v] = from ? 0 : r.k[v];
    s.active[v] = r.k[v] > 0;
  }
};

// From a partition: each community's degree, and twice the weight between
// members of a community (both rows) plus each vertex's own into [2].
struct StartSums {
  LevelRows r;
  MovingState s;
  Counters sums;
  bool from;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    if (from) ops::atomic_add(reinterpret_cast<uint64_t*>(s.stot + s.comm[v]), uint64_t(r.k[v]));
    uint64_t twice = 2 * r.self[v];
    if (from)
      for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
        if (const vid_t u = r.tgt[e]; u != v && s.comm[u] == s.comm[v]) twice += r.w[e];
    ops::atomic_add(sums + 2, twice);
  }
};

struct CopyBest {
  MovingState s;
  bool keep;  // true: the current into best; false: best back
  CHATTY_HD void operator()(size_t v) const {
    if (keep)
      s.best_comm[v] = s.comm[v], s.best_stot[v] = s.stot[v];
    else
      s.comm[v] = s.best_comm[v], s.stot[v] = s.best_stot[v];
  }
};

struct Rounds {
  MovingState s;
  uint32_t level, sweep;
  uint8_t rounds;
  CHATTY_HD void operator()(size_t v) const { s.round[v] = round_of(level, sweep, vid_t(v), rounds); }
};

// Round j's active vertices flagged (1) and made inactive; flag[n] = 0
// closes the scan.
struct Pick {
  MovingState s;
  uint8_t j;
  uint64_t* flag;
  CHATTY_HD void operator()(size_t v) const {
    const bool in = s.round[v] == j && s.active[v];
    if (in) s.active[v] = 0;
    flag[v] = in;
  }
};

// The flagged vertices listed at their scanned places, with their row lengths.
struct List {
  LevelRows r;
  const uint64_t *flag, *place;
  vid_t* list;
  uint64_t* len;
  CHATTY_HD void operator()(size_t v) const {
    if (!flag[v]) return;
    list[place[v]] = vid_t(v);
    len[place[v]] = r.off[v + 1] - r.off[v];
  }
};

// Entry j of the listed vertices' rows: the community at its other end
// (kItself for a self-loop) and its weight.
struct GatherRows {
  LevelRows r;
  const vid_t* comm;
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
    key[j] = u == v ? kItself : comm[u];
    weight[j] = r.w[e];
  }
};

// Listed vertex i's choice from its sorted runs: its own community unless
// another scores more; among the best others the lowest numbered; its own
// id where that community is empty (alone again), as level.h's decide.
struct Decide {
  LevelRows r;
  MovingState s;
  const vid_t* list;
  const uint64_t* at;
  const vid_t* key;
  const uint64_t* weight;
  double resolution, two_m;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = list[i], own = s.comm[v];
    const int64_t k = r.k[v];
    const Score score(k, resolution, two_m);
    int64_t to_own = 0;
    bool found = false;
    vid_t best = own;
    double best_score = 0;
    const auto consider = [&](vid_t c, int64_t to) {
      const double x = score(to, s.stot[c]);
      if (!found || x > best_score || (x == best_score && c < best)) best = c, best_score = x, found = true;
    };
    for (uint64_t a = at[i], end = at[i + 1]; a < end;) {
      const vid_t c = key[a];
      if (c == kItself) break;
      int64_t to = 0;
      for (; a < end && key[a] == c; ++a) to += int64_t(weight[a]);
      if (c == own)
        to_own = to;
      else
        consider(c, to);
    }
    if (own != v && s.stot[v] == 0) consider(v, 0);
    s.next[v] = found && best_score > score(to_own, s.stot[own] - k) ? best : own;
  }
};

// Listed vertex i's move (level.h's apply): its degree leaves and joins the
// communities' sums, its neighbours wake, and the weight inside changes by
// its edges' (an edge between two movers counted from its lower end).
struct Apply {
  LevelRows r;
  MovingState s;
  const vid_t* list;
  Counters sums;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = list[i], from = s.comm[v], to = s.next[v];
    if (from == to) return;
    ops::atomic_add(reinterpret_cast<uint64_t*>(s.stot + from), uint64_t(-r.k[v]));
    ops::atomic_add(reinterpret_cast<uint64_t*>(s.stot + to), uint64_t(r.k[v]));
    int64_t d = 0;
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e) {
      const vid_t u = r.tgt[e];
      if (u == v) continue;
      s.active[u] = 1;
      const vid_t was = s.comm[u], is = s.next[u];
      if (u < v && was != is) continue;
      d += int64_t(r.w[e]) * (int64_t(to == is) - int64_t(from == was));
    }
    ops::atomic_add(sums, uint64_t(1));
    ops::atomic_add(sums + 1, uint64_t(d));
  }
};

struct Commit {
  MovingState s;
  const vid_t* list;
  CHATTY_HD void operator()(size_t i) const { s.comm[list[i]] = s.next[list[i]]; }
};

// group(): communities with members marked, then numbered by a scan.
struct MarkUsed {
  const vid_t* comm;
  uint64_t* used;  // n + 1, zeroed
  CHATTY_HD void operator()(size_t v) const { used[comm[v]] = 1; }
};
struct NextOf {
  const vid_t* comm;
  const uint64_t* id;  // the scan of `used`
  vid_t* next_of;
  CHATTY_HD void operator()(size_t v) const { next_of[v] = vid_t(id[comm[v]]); }
};

// An input vertex's vertex of the next level.
struct Follow {
  vid_t* of;
  const vid_t* next_of;
  CHATTY_HD void operator()(size_t v) const { of[v] = next_of[of[v]]; }
};

// contract(): each level edge between two next vertices as the key
// (from << 32 | to) with its weight; an edge inside one goes to its
// weight inside (twice, once from either end), a self-loop nowhere (in
// `self` already). Keys of edges not kept are all ones (sorted last).
struct EdgeKeys {
  LevelRows r;
  const vid_t* next_of;
  uint64_t* key;
  uint64_t* weight;
  uint64_t* inside2;  // per next vertex
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    const vid_t cv = next_of[v];
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e) {
      const vid_t u = r.tgt[e];
      const vid_t cu = next_of[u];
      key[e] = ~uint64_t(0), weight[e] = 0;
      if (u == v) continue;
      if (cu == cv)
        ops::atomic_add(inside2 + cv, r.w[e]);
      else
        key[e] = uint64_t(cv) << 32 | cu, weight[e] = r.w[e];
    }
  }
};

// Each next vertex's degree and inside weight from its members'.
struct NextMasses {
  LevelRows r;
  const vid_t* next_of;
  int64_t* k;
  uint64_t* self;  // the inside weights' halves added after
  CHATTY_HD void operator()(size_t v) const {
    ops::atomic_add(reinterpret_cast<uint64_t*>(k + next_of[v]), uint64_t(r.k[v]));
    ops::atomic_add(self + next_of[v], r.self[v]);
  }
};
struct AddInside {
  const uint64_t* inside2;
  uint64_t* self;
  CHATTY_HD void operator()(size_t c) const { self[c] += inside2[c] / 2; }
};

// The summed runs as rows: run i's source row counted, its target and weight.
struct RowsOfRuns {
  const uint64_t* key;  // unique keys, ascending
  const uint64_t* sum;
  vid_t* tgt;
  uint64_t* w;
  uint64_t* count;  // per next vertex, zeroed
  CHATTY_HD void operator()(size_t i) const {
    tgt[i] = vid_t(key[i] & 0xFFFFFFFFu);
    w[i] = sum[i];
    ops::atomic_add(count + (key[i] >> 32), uint64_t(1));
  }
};

// The input's rows as a level: weights widened (1 without), degrees (a
// self-loop twice) and the weight inside (a self-loop once).
struct InputMasses {
  const eid_t* off;
  const vid_t* tgt;
  const weight_t* w;  // null: 1
  uint64_t* wide;
  int64_t* k;
  uint64_t* self;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t v = vid_t(i);
    int64_t deg = 0;
    uint64_t own = 0;
    for (eid_t e = off[v]; e < off[v + 1]; ++e) {
      const uint64_t x = w ? uint64_t(w[e]) : 1;
      wide[e] = x, deg += int64_t(x);
      if (tgt[e] == v) deg += int64_t(x), own += x;
    }
    k[v] = deg, self[v] = own;
  }
};

// Each input vertex labelled by the least vertex of its community.
struct LeastOf {
  const vid_t* comm;
  uint32_t* least;  // kInfinity first
  CHATTY_HD void operator()(size_t v) const {
    uint32_t* at = least + comm[v];
    for (uint32_t now = ops::atomic_load(at); uint32_t(v) < now;) {
      const uint32_t was = ops::atomic_cas(at, now, uint32_t(v));
      if (was == now) break;
      now = was;
    }
  }
};
struct LabelOf {
  const vid_t* comm;
  const uint32_t* least;
  uint32_t* label;
  CHATTY_HD void operator()(size_t v) const { label[v] = least[comm[v]]; }
};

struct Identity {
  vid_t* at;
  CHATTY_HD void operator()(size_t v) const { at[v] = vid_t(v); }
};
struct CopyTo {
  vid_t* to;
  const vid_t* from;
  CHATTY_HD void operator()(size_t v) const { to[v] = from[v]; }
};
struct Widen {
  const uint64_t* from;
  eid_t* to;
  CHATTY_HD void operator()(size_t i) const { to[i] = eid_t(from[i]); }
};

template <typename T>
struct Fill {
  T* at;
  T value;
  CHATTY_HD void operator()(size_t i) const { at[i] = value; }
};

}  // namespace chatty::louvain::dev
