// The ChattyGraph superstep over P devices (seed 001 algorithm 1). One
// thread of an outer OpenMP team drives each device; each superstep it
//   merges recv[parity] into its replica (owned vertices that change become
//   active) -> computes over its owned active vertices -> compacts changed
//   boundary vertices into its send buffer -> publishes status and meets the
//   others -> exchanges through the policy's transport -> meets again,
// until no device has work (PageRank: until the global L1 change < tolerance).
// Every device keeps the full value array; the exchange broadcasts each
// device's updates to all peers, so replicas of boundary vertices stay
// current for pull steps and a push offer reaches the vertex's owner.
#pragma once

#include <omp.h>

#include <memory>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "kernels/cpu/pull_advance.h"
#include "runtime/device_context.h"
#include "runtime/engine.h"
#include "runtime/hash.h"
#include "runtime/migrating_push.h"
#include "runtime/multi_connectivity.h"
#include "runtime/multi_stats.h"
#include "runtime/partition.h"
#include "runtime/superstep_decisions.h"
#include "runtime/work_migration.h"

namespace chatty {
// Binds the calling thread (and the threads it starts) to NUMA node
// d % nodes and prefers that node's memory; no-op without libnuma support.
void bind_to_numa_node(int d);

namespace multi {

template <typename P>
using Ctx = DeviceContext<typename P::Value>;
template <typename P>
using PushBoard = MigrationBoard<PushTask<typename P::Value>>;
template <typename P>
using PullBoard = MigrationBoard<cpu::PullTask<typename P::Value>>;

// The device's driving thread alone touches its queue and marks here.
inline void push_unique(Queue& q, Bitmap& in_q, vid_t v) {
  if (in_q.test_and_set(v)) q.ids[q.count++] = v;
}

inline void clear_marks(Queue& q, Bitmap& b) {
  for (size_t i = 0; i < q.count; ++i) b.reset(q.ids[i]);
  q.count = 0;
}

// Frontier programs (BFS with the direction switch made on global counts,
// and plain push programs such as WCC by label propagation).
template <typename P>
void traverse(Ctx<P>& c, const Graph& g, const P& prog, const EngineOptions& opt, PushBoard<P>& board,
              PullBoard<P>& pull_board) {
  using V = typename P::Value;
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  const bool can_pull = P::kPullable && opt.direction != Direction::kPush;
  Queue active(n), changed(n);
  Bitmap claimed(n), front(can_pull ? n : 0), next(can_pull ? n : 0);
  V level{};
  bool have_level = false;
  uint64_t scout = 0;
  for (vid_t v : detail::start_set(prog, n)) {
    if (c.owns(v)) push_unique(active, c.marks, v);
    if (can_pull) front.set(v);
    if (!have_level) level = prog.init(v), have_level = true;
    scout += out.degree(v);
  }
  DirectionSwitch direction(out.num_edges(), scout, n, opt.alpha, opt.beta);
  bool pull = can_pull && opt.direction == Direction::kPull;
  for (int k = 0;; ++k) {
    const int parity = k & 1;
    DeviceStatus mine;
    c.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c.owns(v)) push_unique(active, c.marks, v), ++mine.updated;
          if (can_pull) front.set(v);
        });
    c.begin(kCompute);
    SuperstepStats st;
    c.pull_ = pull;
    if (pull) {
      // Bottom-up: the owned vertices that joined form the next frontier
      // (remote ones arrive by merge). The active queue is only needed
      // again when the run goes back to push, so it is rebuilt then.
      // Blocks of the step are on the device's worklist, for idle peers to
      // help with: they write into this device's values and `next`.
      next.clear();
      pull_board.open(c.d, {c.values.data(), &front, &next, level, c.lo}, cpu::pull_blocks_begin(c.lo), c.hi,
                      cpu::kPullBlock);
      cpu::PullSums sums;
      pull_board.run_team(c.d, sums, [&](const cpu::PullTask<V>& t, vid_t lo, vid_t hi, cpu::PullSums& s) {
        cpu::pull_range(g.in(), prog, t, lo, hi, s);
      });
      if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
      st.edges = sums.edges;
      mine.migrated += sums.migrated;
      clear_marks(active, c.marks);
      changed.count = next.collect(c.lo, c.hi, changed.ids.mutable_data());
      front.swap(next);
      mine.updated += changed.count;
      mine.active = changed.count;
    } else {
      push_step(board, c.d, out, prog, c.values.data(), active, changed, claimed, st, mine.migrated);
      clear_marks(active, c.marks);
      if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
      if (can_pull) front.clear();
      for (size_t i = 0; i < changed.count; ++i) {
        const vid_t v = changed.ids[i];
        if (can_pull) front.set(v);
        if (!c.owns(v)) continue;
        push_unique(active, c.marks, v);
        ++mine.updated;
        mine.scout += out.degree(v);
      }
      mine.active = active.count;
    }
    mine.edges = st.edges;
    c.end();
    c.compact(changed.ids.data(), changed.count);
    const auto all = c.sync(parity, mine);
    if (total(all, &DeviceStatus::active) == 0 && total(all, &DeviceStatus::sent) == 0) break;
    // Direction for the next superstep, from global counts (same on every device).
    if (can_pull && opt.direction == Direction::kAuto) {
      const bool was_pull = pull;
      pull = direction.next(pull, total(all, &DeviceStatus::updated), total(all, &DeviceStatus::scout));
      if (was_pull && !pull)
        for (vid_t v = c.lo; v < c.hi; ++v)  // the owned frontier, as the push step's queue
          if (front.get(v)) push_unique(active, c.marks, v);
    }
  }
}

// Ordered programs (SSSP): distributed delta-stepping. Every device relaxes
// its share of the globally lowest non-empty bucket each superstep.
template <typename P>
void ordered(Ctx<P>& c, const Graph& g, const P& prog, uint64_t delta, PushBoard<P>& board) {
  using V = typename P::Value;
  constexpr uint64_t kNone = ~uint64_t(0);
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  std::vector<std::vector<vid_t>> bins;
  auto bin_of = [&](vid_t v) { return size_t(prog.priority(c.values[v]) / delta); };
  auto put = [&](vid_t v) {
    const size_t b = bin_of(v);
    if (b >= bins.size()) bins.resize(b + 1);
    bins[b].push_back(v);
  };
  uint64_t bucket = kNone;
  for (vid_t v : detail::start_set(prog, n)) {
    bucket = std::min<uint64_t>(bucket, bin_of(v));
    if (c.owns(v)) put(v);
  }
  Queue frontier(n), changed(n);
  Bitmap claimed(n);
  for (int k = 0; bucket != kNone; ++k) {
    const int parity = k & 1;
    DeviceStatus mine;
    c.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c.owns(v)) put(v), ++mine.updated;
        });
    c.begin(kCompute);
    frontier.count = 0;
    if (bucket < bins.size()) {
      const std::vector<vid_t>& bin = bins[bucket];
      for (size_t i = 0; i < bin.size(); ++i) {  // drop stale and repeated entries
        if (i + c.kAhead < bin.size()) __builtin_prefetch(&c.values[bin[i + c.kAhead]]);
        const vid_t v = bin[i];
        if (bin_of(v) == bucket && c.marks.test_and_set(v)) frontier.ids[frontier.count++] = v;
      }
      bins[bucket].clear();
      for (size_t i = 0; i < frontier.count; ++i) c.marks.reset(frontier.ids[i]);
    }
    SuperstepStats st;
    push_step(board, c.d, out, prog, c.values.data(), frontier, changed, claimed, st, mine.migrated);
    mine.edges = st.edges;
    for (size_t i = 0; i < changed.count; ++i) {
      if (i + c.kAhead < changed.count) __builtin_prefetch(&c.values[changed.ids[i + c.kAhead]]);
      const vid_t v = changed.ids[i];
      mine.bucket = std::min<uint64_t>(mine.bucket, bin_of(v));  // receivers will bin remote ones
      if (c.owns(v)) put(v), ++mine.updated;
    }
    for (size_t b = bucket; b < bins.size(); ++b)
      if (!bins[b].empty()) {
        mine.bucket = std::min<uint64_t>(mine.bucket, b);
        break;
      }
    c.end();
    c.compact(changed.ids.data(), changed.count);
    const auto all = c.sync(parity, mine);
    bucket = kNone;
    // Every sent record is also counted in its sender's bucket, so kNone
    // means no device has work and nothing is in flight.
    for (auto& s : all) bucket = std::min(bucket, s.bucket);
  }
}

// Gather programs (PageRank): Jacobi supersteps over owned vertices; the
// contributions of owned boundary vertices are sent every superstep;
// dangling mass and the L1 change are summed over devices as status data.
// The owned vertices are blocks on the device's worklist, which idle peers
// help empty (work migration), so a slowed device holds the others less.
template <typename P>
void gather(Ctx<P>& c, const Graph& g, const P& prog, const EngineOptions& opt,
            MigrationBoard<cpu::GatherTask<typename P::Value>>& board) {
  using V = typename P::Value;
  const Csr& out = g.out();
  const Csr& in = g.in();
  cpu::GatherState state = cpu::gather_init(out, prog, c.values.data());  // all vertices: global dangling
  const auto [send_first, send_last] = c.partition().boundary_of(c.d);    // owned boundary vertices
  for (int k = 0; k < opt.max_iters; ++k) {
    const int parity = k & 1;
    // Peers read only contributions, so owners send those: a received
    // record is two stores, no division and no rank replica to keep.
    c.for_each_received(
        parity, [&](vid_t v, V contribution) { state.contrib[v] = state.next_contrib[v] = float(contribution); });
    c.begin(kCompute);
    board.open(c.d, {c.values.data(), state.contrib.data(), state.next_contrib.data(), state.dangling}, c.lo, c.hi,
               vid_t(cpu::kDenseGrain));
    cpu::GatherSums sums;
    auto work = [&](const cpu::GatherTask<V>& t, vid_t lo, vid_t hi, cpu::GatherSums& s) {
      cpu::gather_range(out, in, prog, t, lo, hi, s);
    };
    board.run_team(c.d, sums, work);  // waits for the blocks peers took: they wrote into this device's buffers
    state.contrib.swap(state.next_contrib);
    DeviceStatus mine;
    mine.l1 = sums.l1;
    mine.edges = sums.edges;
    mine.dangling = sums.dangling;
    mine.updated = c.hi - c.lo;
    mine.migrated = sums.migrated;
    c.end();
    c.compact(send_first, size_t(send_last - send_first), [&](vid_t v) { return V(state.contrib[v]); });
    const auto all = c.sync(parity, mine);
    double l1 = 0, dangling = 0;
    for (auto& s : all) l1 += s.l1, dangling += s.dangling;
    state.dangling = dangling;
    if (l1 < opt.tolerance) break;
  }
}

}  // namespace multi

// Runs `prog` on P = part.devices() host devices; the machine's threads are
// split evenly between them. Results equal run_program's (exactly for
// BFS/SSSP/WCC, within tolerance for PageRank).
template <typename P>
EngineResult<typename P::Value> run_program_multi(const Graph& g, const P& prog, const Partition& part,
                                                  const EngineOptions& opt, TransportPolicy& policy,
                                                  MultiStats& stats) {
  using V = typename P::Value;
  if constexpr (P::kKind == ProgramKind::kTraversal)
    if constexpr (P::kNeedsWeights) CHATTY_CHECK(g.weighted(), "this app needs edge weights");
  const int D = part.devices();
  const vid_t n = g.num_vertices();
  if constexpr (P::kKind == ProgramKind::kGather) {
    (void)g.in();
  } else if constexpr (P::kPullable) {
    (void)g.in();
  }
  Mailboxes mb(D, sizeof(Update<V>));
  StatusBoard board(D);
  stats.devices = D;
  stats.steps.clear();
  stats.device_seconds.assign(size_t(D), {});
  stats.transport = policy.describe();
  stats.structure_bytes = g.num_edges() * sizeof(vid_t) + (uint64_t(n) + uint64_t(D)) * sizeof(eid_t);
  const int per_device = std::max(1, omp_get_max_threads() / D);
  const int saved_levels = omp_get_max_active_levels();
  omp_set_max_active_levels(2);
  std::vector<std::vector<V>> replicas(static_cast<size_t>(D));
  MigrationBoard<cpu::GatherTask<V>> gather_board(D, opt.migrate);
  multi::PushBoard<P> push_board(D, opt.migrate);
  multi::PullBoard<P> pull_board(D, opt.migrate);
  MigrationBoard<multi::wcc::SampleTask> wcc_board(D, opt.migrate);
  uint64_t delta = 1;
  if constexpr (P::kKind == ProgramKind::kTraversal) delta = opt.delta ? opt.delta : detail::auto_delta(g);
#pragma omp parallel num_threads(D)
  {
    const int d = omp_get_thread_num();
    omp_set_num_threads(per_device);
    if (opt.numa) bind_to_numa_node(d);  // before any of the device's memory is touched
    DeviceContext<V> c(d, part, mb, board, policy, stats, replicas[size_t(d)], n);
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n; ++v) c.values[v] = prog.init(v);
    if constexpr (P::kKind == ProgramKind::kGather) {
      multi::gather(c, g, prog, opt, gather_board);
    } else {
      if (P::kConnectivity && opt.union_find)
        multi::connectivity(c, g, wcc_board);
      else if (P::kOrdered)
        multi::ordered(c, g, prog, delta, push_board);
      else
        multi::traverse(c, g, prog, opt, push_board, pull_board);
    }
    // Device 0's replica becomes the result (no fresh array to fault in):
    // once every device is done reading it, the others copy their chunks in.
#pragma omp barrier
    if (d != 0) std::copy(c.values.begin() + c.lo, c.values.begin() + c.hi, replicas[0].begin() + c.lo);
  }
  omp_set_max_active_levels(saved_levels);
  EngineResult<V> r;
  r.values = std::move(replicas[0]);
  return r;
}

}  // namespace chatty
