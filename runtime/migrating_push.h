// The push step of a multi-device superstep, with work migration: the
// device's frontier is a worklist of 64-vertex blocks (seed 000's grab
// size). Its own threads take blocks from the front; a peer that ran out of
// frontier takes blocks from the back and relaxes them into its own replica,
// reading only the sources' values from the owner - as RGraph's migrating
// node keeps the states it computed in its own array until the sync. What
// the peer changes reaches owners through its own compaction and exchange,
// like any update it makes, so nothing the owner holds is written by a peer.
#pragma once

#include <omp.h>

#include <atomic>

#include "kernels/cpu/push_advance.h"
#include "runtime/frontier.h"
#include "runtime/work_migration.h"

namespace chatty::multi {

// What a peer reads to relax a device's frontier blocks.
template <typename V>
struct PushTask {
  const vid_t* ids = nullptr;     // the frontier
  const V* val = nullptr;         // the owner's values (of the frontier's vertices)
  const CsrChunk* out = nullptr;  // the owner's out-edges
  Degrees degree;                 // every vertex's out-degree
};

struct PushSums {
  uint64_t edges = 0, migrated = 0, scout = 0;
};

// The push step over device d's frontier `in` (vertices of its chunk g), with
// blocks of it relaxed by peers and blocks of theirs relaxed here. `out`
// gets every vertex this device's replica changed (own blocks and migrated
// ones); adds the peers' vertices relaxed here to `migrated`. With kScout,
// returns the out-degree sum of `out` (the direction switch's scout count),
// which costs a miss on the offsets of every changed vertex; else 0.
template <typename P, bool kScout = false>
uint64_t push_step(MigrationBoard<PushTask<typename P::Value>>& board, int d, const GraphChunk& g, const P& prog,
                   typename P::Value* val, const Queue& in, Queue& out, Bitmap& claimed, SuperstepStats& st,
                   uint64_t& migrated) {
  using V = typename P::Value;
  // A peer's relaxations of this frontier reach the owners as records,
  // owned targets included, where the owner would have written them in
  // place: small frontiers (a grid's wavefront) are not worth the traffic,
  // so the last kKeep blocks stay with the owner.
  constexpr uint32_t kKeep = 8;
  board.open(d, PushTask<V>{in.ids.data(), val, &g.out, g.out_degree}, 0, vid_t(in.count), vid_t(cpu::kGrain), kKeep);
  PushSums sums;
  if (omp_get_max_threads() == 1) {
    vid_t* next = out.ids.mutable_data();
    size_t k = 0;
    board.run(d, sums, [&](const PushTask<V>& t, vid_t lo, vid_t hi, PushSums& s) {
      // Counters in locals: through the references they would be reloaded
      // after every store to the values, which may alias them. Without
      // kScout the scout count is left unused, so that it compiles away.
      uint64_t scout = 0, edges = 0;
      size_t at = k;
      cpu::push_block<false>(*t.out, t.degree, prog, t.val, val, t.ids, lo, hi, claimed, scout, edges,
                             [next, &at](vid_t v) { next[at++] = v; });
      k = at;
      s.edges += edges;
      if constexpr (kScout) s.scout += scout;
    });
    out.count = k;
  } else {
    std::atomic<size_t> tail{0};
#pragma omp parallel
    {
      LocalQueue local;
      PushSums mine;
      board.run(d, mine, [&](const PushTask<V>& t, vid_t lo, vid_t hi, PushSums& s) {
        uint64_t scout = 0, edges = 0;
        cpu::push_block<true>(*t.out, t.degree, prog, t.val, val, t.ids, lo, hi, claimed, scout, edges,
                              [&local](vid_t v) { local.push(v); });
        s.edges += edges;
        if constexpr (kScout) s.scout += scout;
      });
      local.flush_into(out, tail);
#pragma omp critical(chatty_push_sums)
      {
        sums.edges += mine.edges;
        sums.migrated += mine.migrated;
        sums.scout += mine.scout;
      }
    }
    out.count = tail.load();
  }
  board.wait_done(d);  // peers read `in` and the values of its vertices until then
  cpu::release_claims<P>(out, claimed);
  st.active = in.count;
  st.updated = out.count;
  st.edges = sums.edges;
  migrated += sums.migrated;
  return sums.scout;
}

}  // namespace chatty::multi
