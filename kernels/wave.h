// A wave: the supersteps of a thin frontier (a grid's or a road's wave of
// a few thousand vertices) run inside one launch, levels apart by a
// barrier across the launch instead of a return to the host. Where a
// superstep's kernels, launches and synchronisation cost tens of
// microseconds and its work a few, a barrier costs one or two.
//
// Written once for both sides: every lane of a cooperative GPU launch
// calls run_wave with the grid's sync as its barrier (kernels/cuda/wave.cuh);
// the host's tests call it from threads meeting at a std::barrier. A wave
// runs on a lone device (nothing to exchange between levels), so its
// vertices are its rows (chunk-local offsets at the vertex id).
//
// A level reads one queue and appends to the other; the counts of level k
// live in slot k % 3, so lane 0 clears the slot of level k + 2 while level
// k runs, with no barrier spent on it. Rows past kHubEdges go to a list
// that every lane then shares, edge by edge. A wave ends when the next
// queue is empty, outgrows the limits (a wide superstep goes back to the
// load-balanced kernels) or after `levels` levels (the host looks in now
// and then: interrupts, the watchdog), and leaves the last queue in
// buffer 0 and its counts in `out`.
#pragma once

#include <cstdint>

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

#ifdef __CUDACC__
#include <cooperative_groups.h>
#endif

namespace chatty::wave {

// Why a wave ended (0 while it runs).
enum End : uint32_t { kRunning = 0, kEmpty = 1, kWide = 2, kLevels = 3 };

// Rows of more edges are relaxed by every lane together, after the groups.
inline constexpr eid_t kHubEdges = 128;

struct Limits {
  uint64_t items = 0;   // a level's queue of more vertices ends the wave
  uint64_t edges = 0;   // or of more out-edges (traversal)
  uint32_t levels = 1;  // levels in one launch at most
  uint32_t group = 4;   // lanes per queued vertex; divides the lanes
};

// The wave's own counts (device memory), by level mod 3; run_wave sets them.
struct Counts {
  uint64_t size[3];   // the queue a level appends to
  uint64_t scout[3];  // its out-edges (where `out` keeps them)
  uint64_t low[3];    // ordered: its lowest bucket (~0: none)
  uint64_t front[3];  // ordered: the current bucket's vertices a level relaxes
  uint64_t hubs[3];   // rows a level left to every lane
};

// Where a wave leaves its results (the device's own counters).
struct Out {
  uint64_t* size = nullptr;          // the last queue's length
  uint64_t* scout = nullptr;         // its out-edges (null: not kept)
  uint64_t* low = nullptr;           // ordered: its lowest bucket, ~0 when empty
  uint64_t* extra_levels = nullptr;  // += levels run past the first (the host counted one)
  uint64_t* edges = nullptr;         // += edges relaxed
  uint64_t* updated = nullptr;       // += vertices queued
  uint32_t* end = nullptr;           // why it ended (null: not kept)
};

// Edges of a lone device: row v's are targets[off[v], off[v + 1]).
struct Rows {
  const eid_t* off;
  const vid_t* targets;
  const weight_t* weights;  // null: weight 1
  CHATTY_HD eid_t degree(vid_t v) const { return off[v + 1] - off[v]; }
};

// A lane's own tallies, added to `out` once at the end.
struct Tally {
  uint64_t edges = 0, updated = 0;
};

// A slot in a queue of length *count: on a GPU one atomic for the threads
// of a warp that append together.
CHATTY_HD inline uint64_t append(uint64_t* count) {
#ifdef __CUDA_ARCH__
  namespace cg = cooperative_groups;
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned long long base = 0;
  if (g.thread_rank() == 0) base = ops::atomic_add(count, g.size());
  return g.shfl(base, 0) + g.thread_rank();
#else
  return ops::atomic_add(count, 1);
#endif
}

// What both waves share: the rows, the counts, the hub list and the ending.
struct Shared {
  Rows rows;
  Counts* counts;
  vid_t* queue[2];        // [0] holds the first level's queue and, at the end, the last's
  const uint64_t* start;  // the first queue's length
  vid_t* hubs;            // room for a level's long rows
  Limits limits;
  Out out;

  // A lane may still read the slot's hub count, 0, from the level before
  // (no barrier follows a level without hubs): stores it can race with.
  CHATTY_HD void clear(uint32_t slot) const {
    Counts& c = *counts;
    ops::atomic_store(&c.size[slot], 0);
    ops::atomic_store(&c.scout[slot], 0);
    ops::atomic_store(&c.front[slot], 0);
    ops::atomic_store(&c.hubs[slot], 0);
    ops::atomic_store(&c.low[slot], ~uint64_t(0));
  }
  CHATTY_HD uint64_t queued(uint32_t k) const {
    return k == 0 ? ops::atomic_load(start) : ops::atomic_load(&counts->size[k % 3]);
  }
  // v joins level k + 1's queue.
  CHATTY_HD void enqueue(vid_t v, uint32_t k, Tally& t) const {
    const uint32_t next = (k + 1) % 3;
    queue[(k + 1) & 1][append(&counts->size[next])] = v;
    if (out.scout) ops::atomic_add(&counts->scout[next], rows.degree(v));
    ++t.updated;
  }
  // The long row u waits for every lane (false: the group relaxes it).
  CHATTY_HD bool leave_to_all(vid_t u, uint32_t k, uint64_t r) const {
    if (rows.degree(u) <= kHubEdges) return false;
    if (r == 0) hubs[append(&counts->hubs[k % 3])] = u;
    return true;
  }
  // After level k's barrier: every lane reads the same and ends alike.
  CHATTY_HD End verdict(uint32_t k, bool by_edges) const {
    const uint32_t next = (k + 1) % 3;
    const uint64_t n = ops::atomic_load(&counts->size[next]);
    if (n == 0) return kEmpty;
    if (n > limits.items || (by_edges && ops::atomic_load(&counts->scout[next]) > limits.edges)) return kWide;
    return k + 1 >= limits.levels ? kLevels : kRunning;
  }
  // The last queue (level `k`'s appends) into buffer 0, `set(v)` for each.
  template <typename F>
  CHATTY_HD void keep_last(uint32_t k, uint64_t lane, uint64_t lanes, F&& set) const {
    const uint64_t n = ops::atomic_load(&counts->size[(k + 1) % 3]);
    const vid_t* from = queue[(k + 1) & 1];
    for (uint64_t i = lane; i < n; i += lanes) {
      if (from != queue[0]) queue[0][i] = from[i];
      set(from[i]);
    }
  }
  CHATTY_HD void report(uint32_t k, End end, uint64_t lane, const Tally& t) const {
    if (t.edges) ops::atomic_add(out.edges, t.edges);
    if (t.updated) ops::atomic_add(out.updated, t.updated);
    if (lane != 0) return;
    const uint32_t next = (k + 1) % 3;
    *out.size = ops::atomic_load(&counts->size[next]);
    if (out.scout) *out.scout = ops::atomic_load(&counts->scout[next]);
    if (out.low) *out.low = ops::atomic_load(&counts->low[next]);
    *out.extra_levels += k;
    if (out.end) *out.end = end;
  }
};

// Edge x of u's row: u's value, scattered along it, folded into its
// target's; whether that improved it.
struct Offer {
  vid_t v;
  uint32_t value;
  bool improved;
};
template <typename P>
CHATTY_HD Offer offer_along(const Rows& rows, const P& prog, uint32_t* values, vid_t u, eid_t x, Tally& t) {
  const vid_t v = rows.targets[x];
  const uint32_t value = prog.scatter(ops::atomic_load(&values[u]), u, v, rows.weights ? rows.weights[x] : 1u);
  ++t.edges;
  return Offer{v, value, ops::reduce_into<P>(&values[v], value)};
}

// The rows of list[0, n) relaxed by w, a group of lanes to a row; long
// rows are listed for every lane to share after the level's barrier.
template <typename W>
CHATTY_HD void relax_rows(const W& w, const vid_t* list, uint64_t n, uint32_t k, uint64_t lane, uint64_t lanes,
                          Tally& t) {
  const Shared& s = w.s;
  const uint64_t G = s.limits.group, groups = lanes / G, r = lane % G;
  for (uint64_t i = lane / G; i < n; i += groups) {
    const vid_t u = list[i];
    if (s.leave_to_all(u, k, r)) continue;
    for (eid_t x = s.rows.off[u] + r; x < s.rows.off[u + 1]; x += G) w.relax(u, x, k, t);
  }
}

// Push levels of a traversal program (BFS, WCC by propagation): each queued
// vertex offers to its out-neighbours; the first to change a vertex in
// level k (claim mark epoch + k) queues it.
template <typename P>
struct TraversalWave {
  Shared s;
  P prog;
  uint32_t* values;
  uint32_t* claim;
  uint32_t epoch;
  uint32_t* front;  // pullable runs: the last queue's bitmap (null: none)
  uint64_t front_words;

  static constexpr bool kByEdges = true;
  CHATTY_HD void relax(vid_t u, eid_t x, uint32_t k, Tally& t) const {
    const Offer o = offer_along(s.rows, prog, values, u, x, t);
    if (o.improved && ops::atomic_exchange(&claim[o.v], epoch + k) != epoch + k) s.enqueue(o.v, k, t);
  }
  template <typename Barrier>
  CHATTY_HD void level(uint32_t k, uint64_t, uint64_t lane, uint64_t lanes, Tally& t, Barrier&) const {
    relax_rows(*this, s.queue[k & 1], s.queued(k), k, lane, lanes, t);
  }
  CHATTY_HD uint64_t bucket_after(uint32_t, uint64_t b) const { return b; }
  template <typename Barrier>
  CHATTY_HD void finish(uint32_t k, uint64_t lane, uint64_t lanes, Barrier& barrier) const {
    if (front) {
      for (uint64_t i = lane; i < front_words; i += lanes) front[i] = 0;
      barrier();
    }
    s.keep_last(k, lane, lanes, [this](vid_t v) {
      if (front) ops::atomic_or(&front[v >> 5], 1u << (v & 31));
    });
  }
};

// Delta-stepping levels of an ordered program (SSSP): a level splits the
// pile into the current bucket's vertices, which leave the pile (flag 0),
// and the rest, which stay; after a barrier it relaxes the former, and a
// vertex that improves rejoins the pile where its flag was 0. The next
// level's bucket is the least in the new pile. Splitting before the
// barrier is what makes it safe: a vertex that improves while its row is
// relaxed is pending again.
template <typename P>
struct OrderedWave {
  Shared s;
  P prog;
  uint32_t* values;
  uint32_t* pending;  // 1 while in the pile
  vid_t* current;     // room for a level's current bucket
  uint64_t delta;

  static constexpr bool kByEdges = false;
  CHATTY_HD void relax(vid_t u, eid_t x, uint32_t k, Tally& t) const {
    const Offer o = offer_along(s.rows, prog, values, u, x, t);
    if (!o.improved) return;
    ops::atomic_min(&s.counts->low[(k + 1) % 3], prog.priority(o.value) / delta);
    if (ops::atomic_exchange(&pending[o.v], 1u) == 0) s.enqueue(o.v, k, t);
  }
  template <typename Barrier>
  CHATTY_HD void level(uint32_t k, uint64_t bucket, uint64_t lane, uint64_t lanes, Tally& t, Barrier& barrier) const {
    const uint32_t slot = k % 3, next = (k + 1) % 3;
    const uint64_t n = s.queued(k);
    const vid_t* in = s.queue[k & 1];
    vid_t* out = s.queue[(k + 1) & 1];
    for (uint64_t i = lane; i < n; i += lanes) {
      const vid_t v = in[i];
      const uint64_t b = prog.priority(ops::atomic_load(&values[v])) / delta;
      if (b <= bucket) {
        ops::atomic_store(&pending[v], 0);
        current[append(&s.counts->front[slot])] = v;
      } else {
        out[append(&s.counts->size[next])] = v;
        ops::atomic_min(&s.counts->low[next], b);
      }
    }
    barrier();
    relax_rows(*this, current, ops::atomic_load(&s.counts->front[slot]), k, lane, lanes, t);
  }
  CHATTY_HD uint64_t bucket_after(uint32_t k, uint64_t) const { return ops::atomic_load(&s.counts->low[(k + 1) % 3]); }
  template <typename Barrier>
  CHATTY_HD void finish(uint32_t k, uint64_t lane, uint64_t lanes, Barrier&) const {
    s.keep_last(k, lane, lanes, [](vid_t) {});
  }
};

// Every lane of the launch calls it; `barrier()` returns once all have
// called it. `bucket`: an ordered wave's first bucket.
template <typename W, typename Barrier>
CHATTY_HD End run_wave(const W& w, uint64_t lane, uint64_t lanes, uint64_t bucket, Barrier&& barrier) {
  const Shared& s = w.s;
  if (lane == 0)
    for (uint32_t slot = 0; slot < 3; ++slot) s.clear(slot);
  barrier();
  Tally t;
  End end = kRunning;
  uint32_t k = 0;
  for (;; ++k) {
    if (lane == 0) s.clear((k + 2) % 3);
    w.level(k, bucket, lane, lanes, t, barrier);
    barrier();
    const uint64_t hubs = ops::atomic_load(&s.counts->hubs[k % 3]);
    for (uint64_t h = 0; h < hubs; ++h) {
      const vid_t u = s.hubs[h];
      for (eid_t x = s.rows.off[u] + lane; x < s.rows.off[u + 1]; x += lanes) w.relax(u, x, k, t);
    }
    if (hubs) barrier();
    end = s.verdict(k, W::kByEdges);
    if (end != kRunning) break;
    bucket = w.bucket_after(k, bucket);
  }
  w.finish(k, lane, lanes, barrier);
  s.report(k, end, lane, t);
  return end;
}

}  // namespace chatty::wave
