// The push step of a multi-device superstep, with work migration: the
// device's frontier is a worklist of 64-vertex blocks (RGraph's grab
// size). Its own threads take blocks from the front; a peer that ran out of
// frontier takes blocks from the back and relaxes them into its own replica,
// reading only the sources' values from the owner - as RGraph's migrating
// node keeps the states it computed in its own array until the sync. What
// the peer changes reaches owners through its own compaction and exchange,
// like any update it makes, so nothing the owner holds is written by a peer.
// Peers on other ranks read the frontier and the rows it needs from the
// owner's exposed memory instead (runtime/host/remote_push.h).
#pragma once

#include <omp.h>

#include <atomic>

#include "kernels/cpu/push_advance.h"
#include "runtime/base/frontier.h"
#include "runtime/host/remote_push.h"
#include "runtime/migration/work_migration.h"

namespace chatty::multi {

// What a peer reads to relax a device's frontier blocks.
template <typename V>
struct PushTask {
  const vid_t* ids = nullptr;     // the frontier
  const V* val = nullptr;         // the owner's values (of the frontier's vertices)
  const CsrChunk* out = nullptr;  // the owner's out-edges
  Degrees degree;                 // every vertex's out-degree
};

using host::PushSums;

// A lone device's frontier whose rows one thread relaxes in about the time
// its team takes to start and meet. Not a grid's or a road's wavefront of
// a few thousand edges: the team shares those faster (grid:1000x1000 BFS
// at 2 threads, medians of 15: 23-26 ms against 30-35 ms alone, road
// 21-23 against 31-33; SSSP the same either way). Reading the rows'
// offsets is what the relaxation does first anyway.
inline constexpr eid_t kAloneEdges = 1024;
inline bool thin_frontier(const Queue& in, const GraphChunk& g) {
  if (in.count <= size_t(cpu::kGrain)) return true;
  if (in.count > size_t(kAloneEdges)) return false;
  eid_t edges = 0;
  for (size_t i = 0; i < in.count; ++i) edges += g.out_degree[in.ids[i]];
  return edges <= kAloneEdges;
}

// The push step over device d's frontier `in` (vertices of its chunk g), with
// blocks of it relaxed by peers and blocks of theirs relaxed here; with
// `remote`, peers on other ranks too (runtime/host/remote_push.h). `out`
// gets every vertex this device's replica changed (own blocks and migrated
// ones). Returns the step's edges, the peers' vertices relaxed here and
// the blocks claimed from other ranks (no scout count: cpu::degree_sum
// sums it after the step, where its misses overlap).
template <typename P>
PushSums push_step(MigrationBoard<PushTask<typename P::Value>>& board, int d, const GraphChunk& g, const P& prog,
                   typename P::Value* val, const Queue& in, Queue& out, Bitmap& claimed,
                   host::RemotePush<P>* remote = nullptr) {
  using V = typename P::Value;
  // A peer's relaxations of this frontier reach the owners as records,
  // owned targets included, where the owner would have written them in
  // place: small frontiers (a grid's wavefront) are not worth the traffic,
  // so the last kKeep blocks stay with the owner.
  constexpr uint32_t kKeep = 8;
  // A frontier of too few blocks for any to go to another rank is not
  // published: no thief can win a block of it.
  const bool publish = remote && board.claimable(uint32_t((in.count + cpu::kGrain - 1) / cpu::kGrain), kKeep);
  if (publish) remote->publish(in, val);
  board.open(d, PushTask<V>{in.ids.data(), val, &g.out, g.out_degree}, 0, vid_t(in.count), vid_t(cpu::kGrain), kKeep);
  PushSums sums;
  // Blocks relaxed by one thread at a time, appended to `out` from k on.
  vid_t* next = out.ids.mutable_data();
  size_t k = 0;
  auto alone = [&](const PushTask<V>& t, vid_t lo, vid_t hi, PushSums& s) {
    // Counters in locals: through the references they would be reloaded
    // after every store to the values, which may alias them. The scout
    // count is left unused, so that it compiles away.
    uint64_t scout = 0, edges = 0;
    size_t at = k;
    cpu::push_block<false>(*t.out, t.degree, prog, t.val, val, t.ids, lo, hi, claimed, scout, edges,
                           [next, &at](vid_t v) { next[at++] = v; });
    k = at;
    s.edges += edges;
  };
  if (omp_get_max_threads() == 1 || (board.devices() == 1 && thin_frontier(in, g))) {
    if (remote) remote->begin_step(val, &claimed, /*shared=*/false);
    board.run(d, sums, alone, remote);
  } else {
    if (remote) remote->begin_step(val, &claimed, /*shared=*/true);
    std::atomic<size_t> tail{0};
#pragma omp parallel
    {
      LocalQueue local(out, tail);
      PushSums mine;
      board.run(
          d, mine,
          [&](const PushTask<V>& t, vid_t lo, vid_t hi, PushSums& s) {
            uint64_t scout = 0, edges = 0;
            cpu::push_block<true>(*t.out, t.degree, prog, t.val, val, t.ids, lo, hi, claimed, scout, edges,
                                  [&local](vid_t v) { local.push(v); });
            s.edges += edges;
          },
          remote, omp_get_thread_num() == 0);
      local.flush();
#pragma omp critical(chatty_push_sums)
      sums += mine;
    }
    k = tail.load();
  }
  // Peers read `in` and the values of its vertices until then; blocks
  // taken back from a late thief are relaxed here.
  board.wait_done(d, sums, alone);
  out.count = k;
  if (remote) {
    if (publish) remote->done(in.count, size_t(cpu::kGrain));
    std::vector<vid_t>& theirs = remote->changed();  // what claims from other ranks changed here
    std::copy(theirs.begin(), theirs.end(), out.ids.mutable_data() + out.count);
    out.count += theirs.size();
    theirs.clear();
  }
  cpu::release_claims<P>(out, claimed);
  return sums;
}

}  // namespace chatty::multi
