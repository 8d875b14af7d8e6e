// Engine policies give the same answers: BFS push / pull / auto, SSSP at any
// bucket width, WCC by union-find or label propagation, any thread count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "apps/bfs/program.h"
#include "apps/bfs/reference.h"
#include "apps/pagerank/reference.h"
#include "apps/run_app.h"
#include "apps/sssp/reference.h"
#include "apps/wcc/reference.h"
#include "comm/transport.h"
#include "comm/transport_table.h"
#include "datasets/load.h"
#include "kernels/cpu/pull_advance.h"
#include "runtime/base/frontier.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/reorder.h"

namespace chatty {
namespace {

TEST(Engine, BfsDirectionsAgree) {
  for (const char* spec : {"kron:13", "grid:80x50"}) {
    Graph g = load_graph(spec, {});
    const vid_t s = default_source(g);
    const auto want = reference::bfs(g, s);
    for (Direction d : {Direction::kAuto, Direction::kPush, Direction::kPull}) {
      EngineOptions o;
      o.direction = d;
      AppOutput out = run_app(parse_app("bfs"), g, s, o);
      EXPECT_EQ(out.ints, want) << spec << " " << direction_name(d);
      bool any_pull = false;
      for (auto& st : out.multi.steps) any_pull |= st.pull;
      if (d != Direction::kAuto) {
        EXPECT_EQ(any_pull, d == Direction::kPull);
      }
    }
  }
}

TEST(Engine, AutoDirectionPullsOnKron) {
  Graph g = load_graph("kron:14", {});
  AppOutput out = run_app(parse_app("bfs"), g, default_source(g), {});
  bool any_pull = false, any_push = false;
  for (auto& st : out.multi.steps) (st.pull ? any_pull : any_push) = true;
  EXPECT_TRUE(any_pull && any_push);
}

// A device's pull step over a range that starts inside a bitmap word: its
// blocks start at the word below, yet it wakes exactly the range's unvisited
// neighbours of the frontier and leaves the vertices below the range alone
// (another device's), whichever thread runs which block.
TEST(Engine, PullStepOverARangeStartingMidWord) {
  Graph g = load_graph("kron:12", {});
  const vid_t n = g.num_vertices(), s = default_source(g);
  // Start just past a neighbour of s, in the same word: the block holding
  // the range's first vertices also holds that neighbour.
  vid_t lo = 0;
  for (eid_t e = g.in().offsets[s]; e < g.in().offsets[s + 1] && lo == 0; ++e)
    if (vid_t u = g.in().targets[e]; u % 64 < 63 && u / 64 != s / 64) lo = u + 1;
  ASSERT_NE(lo, 0u);
  const BfsProgram prog{s};
  std::vector<uint32_t> val(n, kInfinity);
  val[s] = 0;
  Bitmap front(n), next(n);
  front.set(s);
  uint32_t level = 0;
  SuperstepStats st;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(4);
  const uint64_t awake = cpu::pull_step(chunk_view(g.in(), lo, n), prog, val.data(), front, next, level, st);
  omp_set_num_threads(saved);
  uint64_t want = 0;
  for (vid_t v = 0; v < n; ++v) {
    bool neighbour = false;
    for (eid_t e = g.in().offsets[v]; e < g.in().offsets[v + 1]; ++e) neighbour |= g.in().targets[e] == s;
    const bool wakes = v >= lo && v != s && neighbour;
    want += wakes;
    EXPECT_EQ(next.get(v), wakes) << v;
    EXPECT_EQ(val[v], v == s ? 0u : wakes ? 1u : kInfinity) << v;
  }
  EXPECT_GT(want, 0u);
  EXPECT_EQ(awake, want);
  EXPECT_EQ(level, 1u);
}

// A first pull step with pending lists (the engine's; its blocks of mostly
// unvisited vertices test thirty-two first in-edges a step where the CPU
// gathers): on frontiers of every density and with some vertices already
// visited, exactly the unvisited vertices with a frontier in-neighbour
// join at the next level, and each block lists, in order, the unvisited
// ones with in-edges that did not.
TEST(Engine, FirstPullStepWithListsWakesExactlyTheFrontiersNeighbours) {
  for (const char* spec : {"kron:13", "urand:13"}) {
    const Graph g = load_graph(spec, {});
    const vid_t n = g.num_vertices();
    const CsrChunk in = chunk_view(g.in(), 0, n);
    std::mt19937 rng(5);
    for (unsigned front_in_1000 : {2u, 300u, 900u}) {
      for (unsigned visited_in_100 : {0u, 10u, 60u}) {
        const BfsProgram prog{0};
        std::vector<uint32_t> val(n, kInfinity);
        Bitmap front(n), next(n);
        for (vid_t v = 0; v < n; ++v)
          if (rng() % 1000 < front_in_1000)
            front.set(v), val[v] = 3;
          else if (rng() % 100 < visited_in_100)
            val[v] = 2;
        const std::vector<uint32_t> before = val;
        std::vector<vid_t> ids(n);
        std::vector<uint32_t> count((n + cpu::kPullBlock - 1) / cpu::kPullBlock);
        const cpu::PullTask<uint32_t> t{val.data(), &front, &next, 3, 0, &in, {ids.data(), count.data(), false}};
        cpu::PullSums sums;
        cpu::pull_range(prog, t, 0, n, sums);
        uint64_t woke = 0;
        for (vid_t b = 0; b * cpu::kPullBlock < n; ++b) {
          std::vector<vid_t> left;
          for (vid_t v = b * cpu::kPullBlock; v < std::min<vid_t>(n, (b + 1) * cpu::kPullBlock); ++v) {
            bool parent = false;
            for (eid_t e = g.in().offsets[v]; e < g.in().offsets[v + 1]; ++e) parent |= front.get(g.in().targets[e]);
            const bool wakes = before[v] == kInfinity && parent;
            woke += wakes;
            ASSERT_EQ(next.get(v), wakes) << spec << " " << v;
            ASSERT_EQ(val[v], wakes ? 4u : before[v]) << spec << " " << v;
            if (before[v] == kInfinity && !parent && g.in().offsets[v] != g.in().offsets[v + 1]) left.push_back(v);
          }
          ASSERT_EQ(std::vector<vid_t>(ids.begin() + long(b * cpu::kPullBlock),
                                       ids.begin() + long(b * cpu::kPullBlock + count[b])),
                    left)
              << spec << " block " << b;
        }
        EXPECT_EQ(sums.awake, woke) << spec;
      }
    }
  }
}

// A pull step after the first tries only the vertices the last one left
// unvisited (cpu::PullPending): with push steps in between, which visit
// some of them, every level still comes out as the reference's, whichever
// thread runs which block.
TEST(Engine, PullListsKeepEveryUnvisitedVertexAcrossPushSteps) {
  for (const char* spec : {"kron:12", "grid:60x40"}) {
    Graph g = load_graph(spec, {});
    const vid_t n = g.num_vertices(), s = default_source(g);
    const BfsProgram prog{s};
    const CsrChunk in = chunk_view(g.in(), 0, n);
    std::vector<uint32_t> val(n, kInfinity);
    val[s] = 0;
    Bitmap front(n), next(n);
    front.set(s);
    std::vector<vid_t> ids(n);
    std::vector<uint32_t> count((n + cpu::kPullBlock - 1) / cpu::kPullBlock);
    cpu::PullTask<uint32_t> t{val.data(), &front, &next, 0, 0, &in, {ids.data(), count.data(), false}};
    int pulls = 0;
    uint64_t wrong = 0;
    for (uint32_t level = 0;; ++level) {
      next.clear();
      if (level % 2 == 1) {  // pull at odd levels, push at even ones
        t.level = level;
        const int64_t blocks = int64_t(count.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(3)
        for (int64_t b = 0; b < blocks; ++b) {
          cpu::PullSums sums;
          cpu::pull_range(prog, t, vid_t(b) * cpu::kPullBlock, std::min<vid_t>(n, vid_t(b + 1) * cpu::kPullBlock),
                          sums);
        }
        t.pending.listed = true;
        ++pulls;
      } else {
        for (vid_t v = 0; v < n; ++v)
          if (front.get(v))
            for (eid_t e = g.out().offsets[v]; e < g.out().offsets[v + 1]; ++e)
              if (const vid_t u = g.out().targets[e]; val[u] == kInfinity) val[u] = level + 1, next.set(u);
      }
      front.swap(next);
      bool any = false;
      for (vid_t v = 0; v < n; ++v) {  // the next frontier: exactly the vertices of the next level
        any |= front.get(v);
        if (front.get(v) != (val[v] == level + 1)) ++wrong;
      }
      if (!any) break;
    }
    EXPECT_EQ(wrong, 0u) << spec << ": vertices in the wrong frontier";
    EXPECT_GE(pulls, 2) << spec;
    EXPECT_EQ(val, reference::bfs(g, s)) << spec;
  }
}

TEST(Engine, SsspAnyDelta) {
  for (const char* spec : {"kron:12", "grid:70x30"}) {
    Graph g = load_graph(spec, {});
    prepare_graph(parse_app("sssp"), g, true, 4);
    const vid_t s = default_source(g);
    const auto want = reference::sssp(g, s);
    for (uint64_t delta : {0, 1, 7, 64, 100000}) {
      EngineOptions o;
      o.delta = delta;
      EXPECT_EQ(run_app(parse_app("sssp"), g, s, o).ints, want) << spec << " delta " << delta;
    }
  }
}

TEST(Engine, WccUnionFindAndLabelPropagationAgree) {
  Graph g = load_graph("urand:13:1", {});  // many small components
  EngineOptions uf, lp;
  lp.union_find = false;
  const auto a = run_app(parse_app("wcc"), g, 0, uf).ints;
  EXPECT_EQ(a, run_app(parse_app("wcc"), g, 0, lp).ints);
  EXPECT_EQ(a, reference::wcc(g));
}

// Afforest on the only CPU device (kernels/cpu/union_find.h), both ways of
// linking its sample: paths of nearby ids, cut every few vertices into
// components, with links inside blocks of 16384 ids (linked without
// atomics first) and across them (a second pass with CAS), and random
// pairs (one pass with CAS); components that join only through the rest
// stage's edges, and trees that a smaller root joins there, relabelling them.
// Undirected and directed, at several team sizes, against the reference.
TEST(Engine, AfforestLinksBothWaysToTheReference) {
  constexpr vid_t n = 3 * 16384 + 1000;
  const int saved = omp_get_max_threads();
  for (bool local : {true, false}) {
    for (bool directed : {false, true}) {
      EdgeList e;
      const auto add = [&](vid_t u, vid_t v) { e.src.push_back(u), e.dst.push_back(v); };
      uint64_t x = 12345;
      const auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, vid_t(x >> 33); };
      for (vid_t u = 1; u < n; ++u) {
        if (local && u % 97 != 0) add(u, u - 1);                       // runs of 97 ids, some crossing a block's end
        if (!local && u % 5 != 0) add(u, next() % n);                  // random pairs, some vertices left alone
        if (u % 1013 == 0) add(u, (u * 7919) % n);                     // far links: a giant forms
        if (local && u % 4099 == 0) add(u, std::min(n - 1, u + 200));  // a third neighbour: the rest stage links it
      }
      add(5, n - 2);  // vertex 5's third neighbour: the rest stage hangs n - 2's tree under 0
      BuildOptions opt;
      opt.symmetrize = !directed;
      std::vector<EdgeList> lists;
      lists.push_back(std::move(e));
      const Graph g = build_graph(std::move(lists), n, false, opt);
      const auto want = reference::wcc(g);
      for (int t : {1, 2, 3, 5}) {
        omp_set_num_threads(t);
        EXPECT_EQ(run_app(parse_app("wcc"), g, 0, {}).ints, want)
            << (local ? "local" : "random") << (directed ? " directed" : " undirected") << " threads " << t;
      }
    }
  }
  omp_set_num_threads(saved);
}

// Thin push supersteps run as waves on the only CPU device
// (kernels/cpu/push_wave.h): the same answers and, for BFS, the same
// levels as one superstep each, at any team size, whether waves end by an
// empty frontier, a wide one (a small --cpu_wave; kron's bursts) or their
// level budget (a path of 1500 levels); label propagation queues a vertex
// again at every level it improves, which the claims' two bitmaps allow.
TEST(Engine, CpuWavesGiveTheSuperstepsAnswers) {
  const int saved = omp_get_max_threads();
  for (const char* spec : {"grid:60x40", "grid:1500x2", "road:50x40", "kron:12", "urand:13:1"}) {
    Graph g = load_graph(spec, {});
    const vid_t s = default_source(g);
    const auto bfs = reference::bfs(g, s), wcc = reference::wcc(g);
    EngineOptions plain;
    plain.cpu_wave = 0;
    const size_t levels = run_app(parse_app("bfs"), g, s, plain).multi.supersteps();
    for (int t : {1, 2, 3}) {
      omp_set_num_threads(t);
      for (uint64_t items : {uint64_t(8), uint64_t(64), uint64_t(1) << 30}) {
        EngineOptions o;
        o.cpu_wave = items;
        const AppOutput b = run_app(parse_app("bfs"), g, s, o);
        EXPECT_EQ(b.ints, bfs) << spec << " threads " << t << " --cpu_wave=" << items;
        EXPECT_EQ(b.multi.supersteps(), levels) << spec << " threads " << t << " --cpu_wave=" << items;
        bool waved = false;
        for (const auto& st : b.multi.steps) waved |= st.supersteps > 1;
        if (std::string(spec).rfind("kron", 0) != 0) {  // kron's frontiers may all be wider than 8
          EXPECT_TRUE(waved) << spec << " threads " << t << " --cpu_wave=" << items;
        }
        o.union_find = false;
        EXPECT_EQ(run_app(parse_app("wcc"), g, 0, o).ints, wcc) << spec << " threads " << t << " --cpu_wave=" << items;
      }
    }
    omp_set_num_threads(saved);
  }
}

TEST(Engine, ThreadCountDoesNotChangeResults) {
  Graph g = load_graph("kron:12", {});
  prepare_graph(parse_app("sssp"), g, true, 1);
  const int saved = omp_get_max_threads();
  std::vector<std::vector<uint32_t>> runs;
  std::vector<std::vector<float>> ranks;
  for (int t : {1, 2, 5}) {  // a team of one takes the loops' serial paths
    omp_set_num_threads(t);
    runs.push_back(run_app(parse_app("sssp"), g, 0, {}).ints);
    runs.push_back(run_app(parse_app("bfs"), g, 0, {}).ints);
    runs.push_back(run_app(parse_app("wcc"), g, 0, {}).ints);
    runs.push_back(run_app(parse_app("kcore"), g, 0, {}).ints);
    ranks.push_back(run_app(parse_app("pr"), g, 0, {}).ranks);
  }
  omp_set_num_threads(saved);
  for (size_t i = 4; i < runs.size(); ++i) EXPECT_EQ(runs[i], runs[i % 4]) << i;
  for (size_t i = 1; i < ranks.size(); ++i) {
    ASSERT_EQ(ranks[i].size(), ranks[0].size());
    for (size_t v = 0; v < ranks[0].size(); ++v) ASSERT_NEAR(ranks[i][v], ranks[0][v], 1e-6f) << i << " " << v;
  }
}

// A star's centre sums 20000 alike published values: summed in float, the
// ranks were 7.3e-4 off the double reference in L1.
TEST(Engine, PageRankHubSumsStayExact) {
  constexpr vid_t kLeaves = 20000;
  std::vector<EdgeList> lists(1);
  for (vid_t u = 1; u <= kLeaves; ++u) lists[0].src.push_back(u), lists[0].dst.push_back(0);
  Graph g = build_graph(std::move(lists), kLeaves + 1, false, {});
  const std::vector<double> want = reference::pagerank(g, 0.85, 1e-6, 100);
  // Per-edge messages add a hub's remote in-values up as they arrive.
  for (auto [devices, messages] : {std::pair{1, Messages::kAuto}, {3, Messages::kSendAll}, {3, Messages::kPerEdge}}) {
    EngineOptions o;
    o.devices = devices;
    o.messages = messages;
    const std::vector<float> got = run_app(parse_app("pr"), g, 0, o).ranks;
    ASSERT_EQ(got.size(), want.size());
    double l1 = 0;
    for (size_t v = 0; v < got.size(); ++v) l1 += std::fabs(double(got[v]) - want[v]);
    // Per-edge runs stop a superstep earlier here: within the stopping rule's 4 x tolerance.
    EXPECT_LT(l1, messages == Messages::kPerEdge ? 4e-6 : 1e-6) << devices << " devices, " << messages_name(messages);
    EXPECT_NEAR(got[0], want[0], 2e-6) << devices << " devices, " << messages_name(messages);
  }
}

TEST(Engine, PageRankStopsAtToleranceOrMaxIters) {
  Graph g = load_graph("kron:11", {});
  EngineOptions o;
  o.max_iters = 3;
  EXPECT_EQ(run_app(parse_app("pr"), g, 0, o).multi.steps.size(), 3u);
  o.max_iters = 1000;
  o.tolerance = 1e-3;
  const size_t loose = run_app(parse_app("pr"), g, 0, o).multi.steps.size();
  o.tolerance = 1e-7;
  const size_t tight = run_app(parse_app("pr"), g, 0, o).multi.steps.size();
  EXPECT_LT(loose, tight);
  EXPECT_LT(tight, 1000u);
}

TEST(Frontier, QueueBitmapRoundTrip) {
  Bitmap b(1000);
  b.clear();
  Queue q(1000);
  for (vid_t v : {0u, 63u, 64u, 500u, 999u}) q.ids[q.count++] = v;
  queue_to_bitmap(q, b);
  Queue back(1000);
  bitmap_to_queue(b, back);
  ASSERT_EQ(back.count, 5u);
  EXPECT_EQ(std::vector<vid_t>(back.begin(), back.end()), (std::vector<vid_t>{0, 63, 64, 500, 999}));
  EXPECT_TRUE(b.set_atomic(1));
  EXPECT_FALSE(b.set_atomic(1));
  b.reset_atomic(1);
  EXPECT_FALSE(b.get(1));
}

// Each thread fills its own words from the whole queue: every thread count
// (ranges that split a word's owners unevenly, more threads than words)
// gives exactly the queue's bits, whatever the bitmap held before.
TEST(Frontier, QueueToBitmapOnEveryThreadCount) {
  std::mt19937 rng(3);
  const int threads = omp_get_max_threads();
  for (size_t n : {1u, 63u, 65u, 1000u, 100003u}) {
    std::vector<vid_t> ids(n);
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), rng);
    Queue q(n);
    for (size_t i = 0; i < (n + 2) / 3; ++i) q.ids[q.count++] = ids[i];
    for (int t : {1, 2, 3, 5}) {
      omp_set_num_threads(t);
      Bitmap b(n);
      for (size_t v = 0; v < n; v += 2) b.set(v);  // stale bits
      queue_to_bitmap(q, b);
      std::vector<bool> want(n, false);
      for (size_t i = 0; i < q.count; ++i) want[q.ids[i]] = true;
      for (size_t v = 0; v < n; ++v) ASSERT_EQ(b.get(v), want[v]) << "n " << n << ", " << t << " threads, vertex " << v;
    }
  }
  omp_set_num_threads(threads);
}

// Word-at-a-time counting and collecting against a bit-by-bit scan, on
// ranges that start and end inside words, on word edges and empty.
TEST(Frontier, BitmapRangesMatchABitByBitScan) {
  std::mt19937 rng(7);
  for (size_t n : {1u, 63u, 64u, 65u, 200u, 1000u}) {
    Bitmap b(n);
    for (size_t i = 0; i < n; ++i)
      if (rng() % 3 == 0) b.set(i);
    std::vector<vid_t> out(n);
    for (int t = 0; t < 200; ++t) {
      size_t lo = rng() % (n + 1), hi = rng() % (n + 1);
      if (t % 5 == 0) lo = (lo / 64) * 64, hi = std::min(n, (hi / 64) * 64);
      if (lo > hi) std::swap(lo, hi);
      std::vector<vid_t> want;
      for (size_t i = lo; i < hi; ++i)
        if (b.get(i)) want.push_back(vid_t(i));
      EXPECT_EQ(b.count(lo, hi), want.size()) << n << " [" << lo << ", " << hi << ")";
      const size_t k = b.collect(lo, hi, out.data());
      EXPECT_EQ(std::vector<vid_t>(out.begin(), out.begin() + long(k)), want) << n << " [" << lo << ", " << hi << ")";
    }
  }
}

// Relabelling within chunks: every vertex stays in its chunk, degrees
// descend within each, and edges map one to one.
TEST(Reorder, WithinChunksKeepsEveryChunk) {
  const Graph g = load_graph("kron:10", {});
  const std::vector<vid_t> chunks = {0, 100, 700, g.num_vertices()};
  const Reordered r = reorder_by_degree(g, chunks);
  ASSERT_EQ(r.graph.num_edges(), g.num_edges());
  for (size_t d = 0; d + 1 < chunks.size(); ++d)
    for (vid_t i = chunks[d]; i < chunks[d + 1]; ++i) {
      const vid_t old = r.old_of_new[i];
      EXPECT_TRUE(old >= chunks[d] && old < chunks[d + 1]) << i;
      EXPECT_EQ(r.new_of_old[old], i);
      EXPECT_EQ(r.graph.out_degree(i), g.out_degree(old));
      if (i > chunks[d]) {
        EXPECT_GE(r.graph.out_degree(i - 1), r.graph.out_degree(i)) << i;
      }
    }
  for (vid_t u = 0; u < g.num_vertices(); u += 37)
    for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e) {
      const vid_t v = r.new_of_old[g.out().targets[e]];
      const auto& o = r.graph.out();
      const vid_t* first = o.targets.data() + o.offsets[r.new_of_old[u]];
      const vid_t* last = o.targets.data() + o.offsets[r.new_of_old[u] + 1];
      EXPECT_TRUE(std::binary_search(first, last, v)) << u;
    }
  EXPECT_THROW(reorder_by_degree(g, {0, 5}), Error);
  EXPECT_THROW(reorder_by_degree(g, {0, 700, 100, g.num_vertices()}), Error);
}

// Breadth-first relabelling: every vertex stays in its chunk, each chunk's
// vertices in the order one breadth-first walk from the hub visits them
// (a walk's level never comes before the level it grew from), edges map
// one to one, and BFS on the relabelled graph gives the input's depths.
TEST(Reorder, BreadthFirstWithinChunks) {
  for (const char* spec : {"kron:10", "grid:30x20"}) {
    SCOPED_TRACE(spec);
    const Graph g = load_graph(spec, {});
    const vid_t n = g.num_vertices();
    const std::vector<vid_t> chunks = {0, n / 3, n / 2, n};
    const Reordered r = reorder_by_bfs(g, chunks);
    ASSERT_EQ(r.graph.num_edges(), g.num_edges());
    vid_t hub = 0;
    for (vid_t v = 1; v < n; ++v)
      if (g.out_degree(v) > g.out_degree(hub)) hub = v;
    const std::vector<uint32_t> depth = reference::bfs(g, hub);
    for (size_t d = 0; d + 1 < chunks.size(); ++d)
      for (vid_t i = chunks[d]; i < chunks[d + 1]; ++i) {
        const vid_t old = r.old_of_new[i];
        EXPECT_TRUE(old >= chunks[d] && old < chunks[d + 1]) << i;
        EXPECT_EQ(r.new_of_old[old], i);
        EXPECT_EQ(r.graph.out_degree(i), g.out_degree(old));
        if (i > chunks[d] && depth[old] != kInfinity) {
          EXPECT_LE(depth[r.old_of_new[i - 1]], depth[old]) << i;
        }
      }
    const std::vector<uint32_t> moved = reference::bfs(r.graph, r.new_of_old[hub]);
    for (vid_t v = 0; v < n; ++v) EXPECT_EQ(moved[r.new_of_old[v]], depth[v]) << v;
  }
  EXPECT_THROW(reorder_by_bfs(load_graph("kron:8", {}), {0, 5}), Error);
}

// The transport table: every name --comm may give parses to its entry and
// back, a name means one transport per world, host devices and ranks have
// one default each, the policy's structure placement is not a --comm
// choice, and a world refuses another's transport naming its own.
// --comm=auto is decided in one place for every world: host devices take
// the table's default, ranks mpi_put while its window fits and one-sided
// transfers win, else the table's default, verbs and GPU devices their own
// policy.
TEST(TransportTable, AutoIsDecidedOnceForEveryWorld) {
  EXPECT_EQ(decide_auto(World::kHostDevices), Comm::kHostView);
  const size_t MB = size_t(1) << 20;
  EXPECT_EQ(decide_auto(World::kRanks, {Net::kAuto, 8 * MB, 1024 * MB, 32 << 10}), Comm::kMpiPut);
  EXPECT_EQ(decide_auto(World::kRanks, {Net::kAuto, 2048 * MB, 1024 * MB, 32 << 10}), Comm::kMpiRing);
  EXPECT_EQ(decide_auto(World::kRanks, {Net::kMpi, 8 * MB, 1024 * MB, 2 * MB}), Comm::kMpiRing);
  EXPECT_EQ(decide_auto(World::kRanks, {Net::kVerbs, 8 * MB, 1024 * MB, 32 << 10}), Comm::kAuto);
  EXPECT_EQ(decide_auto(World::kGpuDevices), Comm::kAuto);
  for (World w : {World::kHostDevices, World::kRanks}) {
    const Comm c = decide_auto(w, {Net::kAuto, 2048 * MB, 1024 * MB, 32 << 10});
    ASSERT_NE(find_transport(c, w), nullptr);
    EXPECT_TRUE(find_transport(c, w)->world_default);
  }
}

TEST(TransportTable, NamesParseBackAndWorldsRefuseEachOthers) {
  std::map<std::pair<int, std::string>, int> per_world;
  std::map<World, int> defaults;
  for (const TransportInfo& t : transport_table()) {
    ++per_world[{int(t.world), t.name}];
    defaults[t.world] += t.world_default;
    EXPECT_STREQ(comm_name(t.comm), t.name);
    if (t.policy_only) {
      EXPECT_THROW(parse_comm(t.name), Error) << t.name;
      EXPECT_THROW(check_serves(t.comm, t.world), Error) << t.name;
    } else {
      EXPECT_EQ(parse_comm(t.name), t.comm) << t.name;
      EXPECT_NO_THROW(check_serves(t.comm, t.world)) << t.name;
    }
  }
  for (const auto& [key, count] : per_world) EXPECT_EQ(count, 1) << key.second;
  EXPECT_EQ(defaults[World::kHostDevices], 1);
  EXPECT_EQ(defaults[World::kRanks], 1);
  EXPECT_EQ(defaults[World::kGpuDevices], 0);  // the topology policy ranks them
  try {
    check_serves(Comm::kNccl, World::kHostDevices);
    ADD_FAILURE() << "nccl served host devices";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("not available for host devices (" + transport_names(World::kHostDevices)));
    for (const char* name : {"host_view (auto)", "host", "host_read"})
      EXPECT_THAT(e.what(), ::testing::HasSubstr(name));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("nccl serves GPU devices"));
  }
  try {
    parse_comm("ncl");
    ADD_FAILURE() << "ncl parsed";
  } catch (const Error& e) {  // every name a --comm may give, host among them
    for (const TransportInfo& t : transport_table()) {
      if (!t.policy_only) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(std::string(", ") + t.name)) << t.name;
      }
    }
  }
  EXPECT_THROW(check_serves(Comm::kHostView, World::kRanks), Error);
  EXPECT_THROW(check_serves(Comm::kMpiRing, World::kGpuDevices), Error);
  try {
    check_serves(Comm::kNccl, World::kGpuDevices, /*gpus_shared=*/true);
    ADD_FAILURE() << "nccl connected devices sharing a GPU";
  } catch (const Error& e) {  // the alternatives offered can connect them
    EXPECT_THAT(e.what(), ::testing::HasSubstr("use auto, uva, p2p or host"));
  }
  EXPECT_NO_THROW(check_serves(Comm::kP2p, World::kGpuDevices, /*gpus_shared=*/true));
  EXPECT_NO_THROW(check_serves(Comm::kAuto, World::kRanks));
}

// --comm and --gpu_lb are enums parsed once, before loading; a transport
// the backend cannot serve is refused by that backend.
TEST(EngineOptions, EnumsRoundTripAndRefuseUnknownNames) {
  for (const char* s : {"auto", "host", "host_read", "host_view", "uva", "p2p", "nccl"})
    EXPECT_STREQ(comm_name(parse_comm(s)), s);
  EXPECT_THROW(parse_comm("ncl"), Error);
  EXPECT_EQ(parse_gpu_lb("lb"), GpuLb::kLb);
  EXPECT_EQ(parse_gpu_lb("twc"), GpuLb::kTwc);
  EXPECT_EQ(parse_gpu_lb("split"), GpuLb::kSplit);
  EXPECT_THROW(parse_gpu_lb("warp"), Error);
  EXPECT_EQ(parse_gpu_bucket_min("warp"), GpuBucketMin::kWarp);
  EXPECT_EQ(std::string(gpu_bucket_min_name(GpuBucketMin::kThread)), "thread");
  EXPECT_THROW(parse_gpu_bucket_min("block"), Error);
  EXPECT_EQ(parse_gpu_tc("entries"), GpuTc::kEntries);
  EXPECT_EQ(std::string(gpu_tc_name(GpuTc::kRows)), "rows");
  EXPECT_THROW(parse_gpu_tc("edges"), Error);
  EXPECT_EQ(parse_gpu_gather("tiled"), GpuGather::kTiled);
  EXPECT_THROW(make_host_transport(Comm::kNccl), Error);
  EXPECT_NO_THROW(make_host_transport(Comm::kAuto));
}

}  // namespace
}  // namespace chatty
