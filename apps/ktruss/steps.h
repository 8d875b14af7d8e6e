// k-truss's per-edge steps on GPU devices (gpu.cu), written once so that
// the host's tests can run them too: each list entry's edge number, the
// supports by common neighbours, a level's round, and a round's edges
// breaking their triangles with peel.h's rule (on ops' atomics).
#pragma once

#include <climits>
#include <cstdint>

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::ktruss {

// Entry j of the lists: its edge's number, and an edge's ends from the
// entry in its lower end's list.
struct NumberEntries {
  const eid_t* off;
  const vid_t* tgt;
  const eid_t* first;
  const eid_t* above;
  vid_t n;
  uint32_t* number_of;
  vid_t* lo;
  vid_t* hi;
  CHATTY_HD void operator()(size_t j) const {
    vid_t a = 0, b = n;  // u: the last row starting at or before j
    while (b - a > 1) {
      const vid_t mid = a + (b - a) / 2;
      if (off[mid] <= j)
        a = mid;
      else
        b = mid;
    }
    const vid_t u = a, v = tgt[j];
    if (u < v) {
      const eid_t k = first[u] + (eid_t(j) - off[u] - above[u]);
      number_of[j] = uint32_t(k), lo[k] = u, hi[k] = v;
      return;
    }
    eid_t l = off[v] + above[v], h = off[v + 1];  // u in v's entries above v
    while (l < h) {
      const eid_t mid = l + (h - l) / 2;
      if (tgt[mid] < u)
        l = mid + 1;
      else
        h = mid;
    }
    number_of[j] = uint32_t(first[v] + (l - off[v] - above[v]));
  }
};

struct Support {
  const eid_t* off;
  const vid_t* tgt;
  const vid_t* lo;
  const vid_t* hi;
  uint32_t* support;
  CHATTY_HD void operator()(size_t k) const {
    const vid_t u = lo[k], v = hi[k];
    support[k] = ops::count_common(tgt + off[u], off[u + 1] - off[u], tgt + off[v], off[v + 1] - off[v]).count;
  }
};

struct Position {
  CHATTY_HD vid_t operator()(size_t i) const { return vid_t(i); }
};
struct AtLevel {
  const uint8_t* peeled;
  const uint32_t* support;
  uint32_t level;
  CHATTY_HD bool operator()(vid_t k) const { return !peeled[k] && support[k] <= level; }
};
struct LeastLeft {
  const uint8_t* peeled;
  const uint32_t* support;
  CHATTY_HD uint32_t operator()(size_t k) const { return peeled[k] ? UINT32_MAX : support[k]; }
};
struct Least {
  CHATTY_HD uint32_t operator()(uint32_t a, uint32_t b) const { return a < b ? a : b; }
};
struct Mark {
  const vid_t* round;
  uint8_t* flag;
  uint8_t value;
  CHATTY_HD void operator()(size_t i) const { flag[round[i]] = value; }
};

// A round's edge e breaks its triangles: peel.h's rule.
struct Break {
  const eid_t* off;
  const vid_t* tgt;
  const uint32_t* number_of;
  const vid_t* lo;
  const vid_t* hi;
  const vid_t* round;
  const uint8_t* peeled;
  const uint8_t* in_round;
  uint32_t* support;
  vid_t* next;
  uint64_t* joined;
  uint32_t level;
  // One triangle of x's broken; x joins the next round where its support
  // falls to the level.
  CHATTY_HD void take(uint32_t x) const {
    if (ops::atomic_load(&support[x]) <= level) return;
    const uint32_t was = ops::atomic_sub(&support[x], 1);
    if (was == level + 1)
      next[ops::atomic_add(joined, 1)] = x;
    else if (was <= level)
      ops::atomic_sub(&support[x], ~uint32_t(0));  // adds the one back: another round's edge took it first
  }
  CHATTY_HD void operator()(size_t i) const {
    const vid_t e = round[i], u = lo[e], v = hi[e];
    ops::intersect_searching(tgt + off[u], off[u + 1] - off[u], tgt + off[v], off[v + 1] - off[v],
                             [&](size_t a, size_t b) {
                               const uint32_t x = number_of[off[u] + a], y = number_of[off[v] + b];
                               if (peeled[x] || peeled[y]) return;
                               const bool rx = in_round[x], ry = in_round[y];
                               if (!rx && !ry) {
                                 take(x), take(y);
                               } else if (rx && !ry) {
                                 if (e < x) take(y);
                               } else if (!rx && ry) {
                                 if (e < y) take(x);
                               }
                             });
  }
};
struct Settle {
  const vid_t* round;
  uint8_t* peeled;
  uint8_t* in_round;
  uint32_t* truss;
  uint32_t level;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t e = round[i];
    peeled[e] = 1, in_round[e] = 0, truss[e] = level + 2;
  }
};

}  // namespace chatty::ktruss
