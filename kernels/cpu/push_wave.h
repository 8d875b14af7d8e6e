// A wave on the CPU: the push levels of a thin frontier (a grid's or a
// road's wavefront of a few thousand vertices) inside one parallel
// region, levels apart by a barrier of the team, where each would
// otherwise be a superstep: a team started and met, the driver's status,
// the frontier rebuilt. A grid's level is a few microseconds of work, so
// those costs were most of a high-diameter BFS.
//
// Each thread appends what it changes to a queue of its own; the next
// level's frontier is the threads' queues end to end, which every thread
// splits the same way after the barrier (equal counts of vertices: a thin
// frontier's rows are alike). The sizes a thread publishes and the queues
// alternate by level parity, so one barrier a level orders them. A
// program that is not first-visit claims what it queues in the bitmap of
// the level's parity; the next level clears those bits while it reads
// the vertices, so the bitmap is clean again when its parity returns.
// The policy (when a wave runs, its limits) is the driver's
// (runtime/drivers/wave_rule.h); the GPU's waves are kernels/wave.h.
#pragma once

#include <omp.h>

#include <algorithm>
#include <vector>

#include "kernels/cpu/push_advance.h"
#include "kernels/wave.h"
#include "runtime/base/spin_barrier.h"

namespace chatty::cpu {

// What one thread of a wave holds: its queues and their counts, by level
// parity (its own cache lines: the others read the counts after a barrier).
struct alignas(64) WaveLane {
  std::vector<vid_t> queue[2];
  size_t size[2] = {0, 0};
  uint64_t scout[2] = {0, 0};  // out-degree sums of the queues
  uint64_t edges = 0;          // relaxed over the wave
  uint64_t queued = 0;         // vertices queued over the wave
};

// What a wave did.
struct WaveRun {
  wave::End end = wave::kRunning;
  uint32_t levels = 0;   // levels run
  uint64_t edges = 0;    // edges relaxed
  uint64_t updated = 0;  // vertices queued, over all levels
  uint64_t scout = 0;    // the last queue's out-degree sum
};

namespace detail {

// The frontier of a level as pieces laid end to end: the first level's
// queue, or the lanes' queues of the level's parity.
struct WavePieces {
  const vid_t* first;
  size_t first_size;
  const std::vector<WaveLane>* lanes;
  int parity;

  size_t total() const {
    if (first) return first_size;
    size_t n = 0;
    for (const WaveLane& l : *lanes) n += l.size[parity];
    return n;
  }
  // f(ids, i, j) over the pieces' parts that [lo, hi) of the whole covers.
  template <typename F>
  void each(size_t lo, size_t hi, F&& f) const {
    if (first) {
      if (lo < hi) f(first, lo, hi);
      return;
    }
    size_t at = 0;
    for (const WaveLane& l : *lanes) {
      const size_t n = l.size[parity], a = std::max(lo, at), b = std::min(hi, at + n);
      if (a < b) f(l.queue[parity].data(), a - at, b - at);
      at += n;
      if (at >= hi) return;
    }
  }
};

}  // namespace detail

// Runs push levels of program `prog` from the frontier `q` (vertices of
// the lone chunk g, whose out-degrees `degree` holds) on the calling
// thread's team, until a level queues nothing, queues more than
// limits.items vertices or limits.edges out-edges, or limits.levels
// levels have run; then leaves the last level's queue in q. `claims`: two
// clear bitmaps of every vertex (one for a first-visit program, which
// needs none), clear again at the end. `lanes` is the threads' room,
// kept between waves.
template <typename P>
WaveRun push_wave(const CsrChunk& g, const Degrees& degree, const P& prog, typename P::Value* val, Queue& q,
                  Bitmap* claims[2], const wave::Limits& limits, std::vector<WaveLane>& lanes) {
  const int team = omp_get_max_threads();
  // A level queues each vertex once (the claims are of every vertex), and
  // at most one per out-edge of its frontier: the first's counted here,
  // the later ones' within the limits.
  uint64_t first_edges = 0;
  for (size_t i = 0; i < q.count; ++i) first_edges += degree[q.ids[i]];
  const size_t room = size_t(std::min<uint64_t>(std::max(limits.edges, first_edges), claims[0]->size())) + 1;
  if (int(lanes.size()) != team) lanes.assign(size_t(team), WaveLane{});
  for (WaveLane& l : lanes) {
    for (std::vector<vid_t>& v : l.queue)
      if (v.size() < room) v.resize(room);
    l.size[0] = l.size[1] = l.scout[0] = l.scout[1] = l.edges = l.queued = 0;
  }
  WaveRun run;
  SpinBarrier barrier;  // a level's (the levels of a grid are a few vertices each)
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    WaveLane& me = lanes[size_t(t)];
    uint32_t k = 0;
    wave::End end = wave::kRunning;
    for (;; ++k) {
      const int in = k & 1, out = in ^ 1;
      const detail::WavePieces pieces{k == 0 ? q.ids.data() : nullptr, q.count, &lanes, in};
      const size_t n = pieces.total(), lo = n * size_t(t) / size_t(T), hi = n * size_t(t + 1) / size_t(T);
      vid_t* next = me.queue[out].data();
      size_t at = 0;
      uint64_t scout = 0, edges = 0;
      Bitmap& claim = *claims[in];
      pieces.each(lo, hi, [&](const vid_t* ids, size_t i, size_t j) {
        if constexpr (!P::kPullable)  // claimed by the level before, in the other bitmap
          if (k > 0)
            for (size_t x = i; x < j; ++x) claims[out]->reset_atomic(ids[x]);
        push_block<true>(g, degree, prog, val, val, ids, i, j, claim, scout, edges, [&](vid_t v) { next[at++] = v; });
      });
      me.size[out] = at, me.scout[out] = scout, me.edges += edges, me.queued += at;
      barrier.wait(T);
      size_t size = 0;
      uint64_t scouts = 0;
      for (const WaveLane& l : lanes) size += l.size[out], scouts += l.scout[out];
      if (size == 0)
        end = wave::kEmpty;
      else if (size > limits.items || scouts > limits.edges)
        end = wave::kWide;
      else if (k + 1 >= limits.levels)
        end = wave::kLevels;
      if (end != wave::kRunning) break;
    }
    // The last queue into q, each thread its own part where the parts
    // before it end; its claims cleared.
    const int last = (k & 1) ^ 1;
    size_t at = 0;
    for (int i = 0; i < t; ++i) at += lanes[size_t(i)].size[last];
    const vid_t* mine = me.queue[last].data();
    std::copy(mine, mine + me.size[last], q.ids.mutable_data() + at);
    if constexpr (!P::kPullable)
      for (size_t x = 0; x < me.size[last]; ++x) claims[k & 1]->reset_atomic(mine[x]);
    barrier.wait(T);
    if (t == 0) {
      run.end = end, run.levels = k + 1;
      q.count = 0;
      for (const WaveLane& l : lanes)
        q.count += l.size[last], run.scout += l.scout[last], run.edges += l.edges, run.updated += l.queued;
    }
  }
  return run;
}

}  // namespace chatty::cpu
