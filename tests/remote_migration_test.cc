// Work migration across ranks without mpirun: ranks are groups of devices
// in one process (a thread fabric with devices per rank) and exposed
// memory is plain memory, so the worklist's remote claims, the thief's
// computation from what it fetched, and the migration cache are checked
// against the owner's own computation, exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "apps/bfs/program.h"
#include "apps/pagerank/program.h"
#include "apps/sssp/program.h"
#include "comm/fabric.h"
#include "datasets/generators.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/host/claim_pacer.h"
#include "runtime/host/migration_cache.h"
#include "runtime/host/remote_gather.h"
#include "runtime/host/remote_push.h"
#include "runtime/migration/exposed_memory.h"
#include "runtime/migration/work_migration.h"

namespace chatty {
namespace {

TEST(MigrationCache, EvictsTheLeastUsedThenTheOldest) {
  MigrationCache<int> cache(300);
  cache.insert(1, 10, 100);
  cache.insert(2, 20, 100);
  cache.insert(3, 30, 100);
  ASSERT_NE(cache.find(1), nullptr);  // 1 and 3 used twice, 2 once
  ASSERT_NE(cache.find(3), nullptr);
  cache.insert(4, 40, 100);  // 2 goes
  EXPECT_EQ(cache.find(2), nullptr);
  EXPECT_EQ(*cache.find(1), 10);
  EXPECT_EQ(*cache.find(4), 40);  // 1: 3 uses, 3: 2 uses, 4: 2 uses (newer)
  cache.insert(5, 50, 100);       // 3 goes: as used as 4, but older
  EXPECT_EQ(cache.find(3), nullptr);
  EXPECT_NE(cache.find(4), nullptr);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.bytes(), 300u);
  EXPECT_EQ(cache.evictions(), 2u);
  EXPECT_EQ(cache.insert(6, 60, 1000), 60);  // larger than the budget: kept alone
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.hits(), 5u);
  EXPECT_EQ(cache.misses(), 2u);
}

// A thief tries an owner whose tries claim nothing 16 us, 32 us, ...
// apart, at most 1 ms, and whenever it likes again once a try claims.
TEST(ClaimPacer, BacksOffFromOwnersWithNothingToClaim) {
  host::ClaimPacer pacer(2);
  std::vector<int> tried_at;  // in microseconds
  for (int us = 0; us < 3000; ++us)
    if (pacer.try_now(1, us * 1e-6)) {
      tried_at.push_back(us);
      pacer.tried(1, /*claimed=*/us >= 2000, us * 1e-6);
    }
  // 16, 32, ..., 512, then 1000 apart until the first claim (past 2000
  // us), then every microsecond (to the microsecond: the clock is real).
  const std::vector<int> gaps = {16, 32, 64, 128, 256, 512, 1000, 1, 1, 1};
  ASSERT_GT(tried_at.size(), gaps.size());
  for (size_t i = 0; i < gaps.size(); ++i) EXPECT_NEAR(tried_at[i + 1] - tried_at[i], gaps[i], 1) << i;
  EXPECT_EQ(tried_at.back(), 2999);
  EXPECT_TRUE(pacer.try_now(0, 0));  // owners apart
}

// The boards' tests: a task names its owner, and a device's sums keep the
// ranges it computed.
struct Task {
  int owner = -1;
};
using Ranges = std::vector<std::pair<vid_t, vid_t>>;
struct Acc {
  uint64_t migrated = 0, remote_blocks = 0;
  Ranges ranges;
  Acc& operator+=(const Acc& o) {
    migrated += o.migrated, remote_blocks += o.remote_blocks;
    ranges.insert(ranges.end(), o.ranges.begin(), o.ranges.end());
    return *this;
  }
};

// The ranges of every device together cover [0, end) once each.
void expect_every_block_once(Ranges all, vid_t end) {
  std::sort(all.begin(), all.end());
  vid_t next = 0;
  for (auto [lo, hi] : all) {
    EXPECT_EQ(lo, next);
    next = hi;
  }
  EXPECT_EQ(next, end);
}

// A peer on another rank claims `take` blocks at a time while more than
// the owner keeps from other ranks are left; local peers keep their own
// threshold; every block is handed out once.
TEST(RemoteMigration, BoardClaimsSeveralBlocksFromAnotherRank) {
  auto fabric = make_thread_fabric(3, 2);  // devices 0 and 1 on one rank, 2 on another
  MigrationBoard<Task> board(*fabric, true, {3, 4});
  board.open(0, Task{0}, 0, 64 * 20, 64, 2);  // 20 blocks
  board.open(1, Task{1}, 0, 0, 64);
  board.open(2, Task{2}, 0, 0, 64);
  Acc remote, local, owner;
  auto never = [](const Task&, vid_t, vid_t, Acc&) { ADD_FAILURE() << "a remote peer ran a local task"; };
  struct Thief {
    uint32_t left = 0;  // what it wants the owner to keep, beside the board's 4
    int commits = 0;
    void operator()(int p, vid_t lo, vid_t hi, Acc& a) {
      EXPECT_EQ(p, 0);
      a.ranges.push_back({lo, hi});
    }
    void commit(int) { ++commits; }
    uint32_t keep(int, uint32_t) const { return left; }
    bool try_now(int) { return true; }
    void tried(int, bool) {}
  } thief;
  thief.left = 30;  // more than there are: no claim
  board.run(2, remote, never, &thief);
  EXPECT_EQ(remote.remote_blocks, 0u);
  thief.left = 0;
  board.run(2, remote, never, &thief);
  EXPECT_EQ(remote.remote_blocks, 16u);  // down to the 4 the owner keeps from other ranks
  EXPECT_EQ(remote.ranges.size(), 6u);   // 3 at a time, then the 1 left
  EXPECT_EQ(thief.commits, 6);           // none late: each written back
  EXPECT_EQ(remote.migrated, 16u * 64u);
  auto work = [](const Task& t, vid_t lo, vid_t hi, Acc& a) {
    EXPECT_EQ(t.owner, 0);
    a.ranges.push_back({lo, hi});
  };
  board.run(1, local, work);  // a local peer: down to 2
  EXPECT_EQ(local.ranges.size(), 2u);
  board.run(0, owner, work);
  EXPECT_EQ(owner.ranges.size(), 2u);
  board.wait_done(0);
  Ranges all = remote.ranges;
  all.insert(all.end(), local.ranges.begin(), local.ranges.end());
  all.insert(all.end(), owner.ranges.begin(), owner.ranges.end());
  expect_every_block_once(all, 64 * 20);
}

// A thief on another rank that stalls after its claim: the owner, late
// for the claim, takes it back and computes it itself; the thief, when it
// wakes, finds its claim gone and neither writes back nor reports it.
// Every block is computed once by whoever kept it.
TEST(RemoteMigration, OwnerTakesBackAStalledThiefsBlocks) {
  auto fabric = make_thread_fabric(2, 1);  // one device per rank
  MigrationBoard<Task> board(*fabric, true, {2, 0, /*stall_s=*/0.05});
  board.open(0, Task{0}, 0, 64 * 10, 64);  // 10 blocks
  board.open(1, Task{1}, 0, 0, 64);
  struct Thief {
    std::atomic<bool> inside{false}, wake{false};
    std::atomic<int> calls{0}, commits{0};
    void operator()(int, vid_t lo, vid_t hi, Acc& a) {
      if (calls++ == 0) {  // the first claim stalls until told
        inside = true;
        while (!wake) std::this_thread::yield();
      }
      a.ranges.push_back({lo, hi});
    }
    void commit(int) { ++commits; }
    uint32_t keep(int, uint32_t) const { return 0; }
    bool try_now(int) { return true; }
    void tried(int, bool) {}
  } thief;
  auto never = [](const Task&, vid_t, vid_t, Acc&) { ADD_FAILURE() << "a remote peer ran a local task"; };
  Acc stolen, owner;
  std::thread t([&] { board.run(1, stolen, never, &thief); });
  while (!thief.inside) std::this_thread::yield();
  auto work = [](const Task& task, vid_t lo, vid_t hi, Acc& a) {
    EXPECT_EQ(task.owner, 0);
    a.ranges.push_back({lo, hi});
  };
  board.run(0, owner, work);
  board.wait_done(0, owner, work);  // returns only once the stalled claim is taken back
  thief.wake = true;
  t.join();
  EXPECT_EQ(thief.commits, thief.calls - 1);  // all but the stalled one written back
  EXPECT_EQ(stolen.remote_blocks, 2u * uint64_t(thief.calls - 1));
  Ranges all = owner.ranges;
  all.insert(all.end(), stolen.ranges.begin(), stolen.ranges.end());
  expect_every_block_once(all, 64 * 10);
  EXPECT_TRUE(std::find(owner.ranges.begin(), owner.ranges.end(), std::pair<vid_t, vid_t>(64 * 8, 64 * 10)) !=
              owner.ranges.end());  // the thief's first claim: the last two blocks
}

// The owner's side of a superstep, as GatherOps lays it out in its region,
// its published values in buffer `current` and zeros in the other.
struct Owner {
  using V = float;
  Owner(ExposedMemory& mem, int d, const GraphChunk& c, const Partition& part, const PageRankProgram& prog,
        const std::vector<V>& val, int current)
      : r(c.n, part.end(d) - part.begin(d)) {
    std::byte* region = mem.local(d);
    host::expose_gather(region, r, c.in);
    state = cpu::gather_init(c.n, c.out_degree, prog, val.data());
    std::copy_n(state.contrib, c.n, reinterpret_cast<V*>(region + r.contrib[current]));
    std::fill_n(reinterpret_cast<V*>(region + r.contrib[1 - current]), c.n, V(0));
    std::copy(val.begin() + part.begin(d), val.begin() + part.end(d), reinterpret_cast<V*>(region + r.val));
    host::write_gather_header(region, current, state.dangling, /*seconds_per_block=*/1e-6);
  }
  host::GatherRegion<V> r;
  cpu::GatherState<V> state;
};

// kron's sources are scattered (read through a pattern), a grid's lie
// close together (read as a span).
class RemoteGatherTest : public testing::TestWithParam<const char*> {};

TEST_P(RemoteGatherTest, ThiefComputesBlocksAsTheOwnerDoes) {
  const Graph g = generate_graph(parse_graph_spec(GetParam()), 3);
  const vid_t n = g.num_vertices();
  const Partition part = partition_graph(g, 2);
  const ChunkedGraph chunks(g, part, /*in_edges=*/true, /*copy=*/true);
  const PageRankProgram prog{n};
  std::vector<float> val(n);
  for (vid_t v = 0; v < n; ++v) val[v] = float(1 + v % 7) / float(n);  // not uniform: sources matter
  const vid_t lo = part.begin(1), hi = part.end(1);
  // What the owner computes itself.
  cpu::GatherState<float> ref = cpu::gather_init(n, chunks[1].out_degree, prog, val.data());
  std::vector<float> want = val;
  cpu::GatherSums want_sums;
  cpu::gather_range(prog,
                    {want.data(), ref.contrib, ref.next_contrib, ref.dangling, &chunks[1].in, chunks[1].out_degree}, lo,
                    hi, want_sums);
  for (size_t cache : {size_t(64) << 20, size_t(0)}) {  // all kept, and nothing kept
    SCOPED_TRACE(cache);
    const host::GatherRegion<float> r0(n, part.end(0) - part.begin(0)), r1(n, hi - lo);
    auto mem = make_local_exposed({r0.bytes(chunks[0].in.num_edges()), r1.bytes(chunks[1].in.num_edges())});
    const vid_t block = 64;
    host::RemoteGather<PageRankProgram> thief(*mem, part, n, chunks[0].out_degree, prog, block, cache);
    EXPECT_EQ(thief.keep(1, 3), 0u);        // nothing measured yet: the board's threshold alone
    for (int step = 0; step < 2; ++step) {  // the second superstep hits the cache
      Owner owner(*mem, 1, chunks[1], part, prog, val, step);
      const auto* got_val = reinterpret_cast<const float*>(mem->local(1) + r1.val);
      host::RemoteGather<PageRankProgram> late(*mem, part, n, chunks[0].out_degree, prog, block, 0);
      cpu::GatherSums dropped;
      late(1, lo, hi, dropped);  // computed, never committed (its owner took it back): writes nothing
      for (vid_t v = lo; v < hi; ++v) ASSERT_EQ(got_val[v - lo], val[v]) << v;
      cpu::GatherSums sums;
      for (vid_t v = hi; v > lo;) {  // from the back, 3 blocks a claim, the owner's last block short
        const vid_t first_block = (v - lo - 1) / block;
        const vid_t from = lo + (first_block >= 2 ? first_block - 2 : 0) * block;
        thief(1, from, v, sums);
        thief.commit(1);
        v = from;
      }
      const auto* got_next = reinterpret_cast<const float*>(mem->local(1) + r1.contrib[1 - step]);
      for (vid_t v = lo; v < hi; ++v) {
        ASSERT_EQ(got_val[v - lo], want[v]) << v;
        ASSERT_EQ(got_next[v], ref.next_contrib[v]) << v;
      }
      EXPECT_EQ(sums.edges, want_sums.edges);
      EXPECT_EQ(sums.dangling, want_sums.dangling);
      EXPECT_NEAR(sums.l1, want_sums.l1, 1e-9);
    }
    // Both times known: a claim of 3 waits for more than 3 blocks left.
    EXPECT_GT(thief.keep(1, 3), 3u);
    // Every block fetched once and found once, or fetched every time.
    EXPECT_EQ(thief.cache_hits(), cache ? thief.cache_misses() : 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Graphs, RemoteGatherTest, testing::Values("kron:11", "grid:40x50"));

// A push step's blocks claimed from another rank (a frontier published in
// the owner's region, rows fetched, cached or read in place) change the
// thief's replica exactly as relaxing them against the owner's own rows
// does: BFS, and SSSP over weights.
template <typename P>
void check_remote_push(const Graph& g, const P& prog) {
  using V = typename P::Value;
  const vid_t n = g.num_vertices();
  const Partition part = partition_graph(g, 2);
  const ChunkedGraph chunks(g, part, /*in_edges=*/false, /*copy=*/true);
  const vid_t lo = part.begin(1), hi = part.end(1);
  // The owner's values and frontier: every third owned vertex, at a depth
  // or distance that varies; the thief's replica knows some targets better.
  std::vector<V> owner_val(n, V(~V(0))), thief_val(n, V(~V(0)));
  Queue frontier(n);
  for (vid_t v = lo; v < hi; v += 3) {
    owner_val[v] = V(1 + v % 5);
    frontier.ids.mutable_data()[frontier.count++] = v;
  }
  for (vid_t v = 0; v < n; v += 7) thief_val[v] = V(v % 4);
  std::vector<V> want = thief_val;
  Bitmap claimed(n);
  uint64_t scout = 0, edges = 0;
  std::vector<vid_t> want_changed;
  cpu::push_block<false>(chunks[1].out, chunks[1].out_degree, prog, owner_val.data(), want.data(), frontier.ids.data(),
                         0, frontier.count, claimed, scout, edges, [&](vid_t v) { want_changed.push_back(v); });
  // BFS lists a vertex each time an offer improves it, which depends on the order.
  const auto as_set = [](std::vector<vid_t> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  want_changed = as_set(want_changed);
  ASSERT_FALSE(want_changed.empty());
  // Rows got and all kept, got and nothing kept, and read in place (a
  // shared window).
  for (auto [cache, mapped] : {std::pair{size_t(64) << 20, false}, {size_t(0), false}, {size_t(64) << 20, true}}) {
    SCOPED_TRACE(testing::Message() << "cache " << cache << (mapped ? ", read in place" : ""));
    const CsrChunk &out0 = chunks[0].out, &out1 = chunks[1].out;
    const host::PushRegion<V> r0(out0.hi - out0.lo, out0.num_edges()), r1(hi - lo, out1.num_edges());
    auto mem = make_local_exposed(
        {r0.bytes(out0.num_edges(), out0.weighted()), r1.bytes(out1.num_edges(), out1.weighted())}, mapped);
    host::expose_push<V>(mem->local(0), out0);
    host::expose_push<V>(mem->local(1), out1);
    host::RemotePush<P> owner(*mem, part, 1, chunks[1].out_degree, prog, 0);
    host::RemotePush<P> thief(*mem, part, 0, chunks[0].out_degree, prog, cache);
    for (int step = 0; step < 2; ++step) {  // the second step finds the rows in the cache
      owner.publish(frontier, owner_val.data());
      std::vector<V> got = thief_val;
      Bitmap thief_claimed(n);
      thief.begin_step(got.data(), &thief_claimed, /*shared=*/false);
      host::PushSums sums;
      for (vid_t v = vid_t(frontier.count); v > 0;) {  // from the back, 3 blocks of 64 a claim
        const vid_t from = v > 192 ? v - 192 : 0;
        thief(1, from, v, sums);
        v = from;
      }
      owner.done(frontier.count, 64);
      for (vid_t v = 0; v < n; ++v) ASSERT_EQ(got[v], want[v]) << v;
      EXPECT_EQ(as_set(thief.changed()), want_changed);
      thief.changed().clear();
      EXPECT_EQ(sums.edges, edges);
    }
    if (mapped) {  // nothing fetched, so nothing cached
      EXPECT_EQ(thief.cache_hits() + thief.cache_misses(), 0u);
      continue;
    }
    EXPECT_EQ(thief.cache_hits(), cache ? thief.cache_misses() : 0u);
    EXPECT_EQ(thief.cache_misses(), cache ? frontier.count : 2 * frontier.count);
  }
}

TEST(RemotePush, ThiefRelaxesBlocksAsTheOwnerDoes) {
  check_remote_push(generate_graph(parse_graph_spec("kron:11"), 3), BfsProgram{0});
  check_remote_push(generate_graph(parse_graph_spec("grid:40x50"), 3), BfsProgram{0});
  Graph g = generate_graph(parse_graph_spec("kron:11"), 5);
  Buffer<weight_t> w(g.num_edges());
  for (eid_t e = 0; e < g.num_edges(); ++e) w.mutable_data()[e] = weight_t(1 + e % 9);
  g.set_weights(std::move(w));
  check_remote_push(g, SsspProgram{0});
}

}  // namespace
}  // namespace chatty
