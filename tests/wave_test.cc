// Waves (kernels/wave.h) run here as the GPU runs them: every lane a thread
// of its own, std::barrier for the grid's sync. A test plays the engine's
// part: it runs waves until the frontier is empty, and a plain push
// superstep where a wave hands a wide frontier back, and compares every
// answer with the sequential references.
#include "kernels/wave.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <thread>
#include <vector>

#include "apps/bfs/program.h"
#include "apps/bfs/reference.h"
#include "apps/sssp/program.h"
#include "apps/sssp/reference.h"
#include "apps/wcc/program.h"
#include "datasets/generators.h"
#include "runtime/drivers/wave_rule.h"
#include "runtime/graph/graph_builder.h"

namespace chatty {
namespace {

Graph make(const std::string& spec) { return generate_graph(parse_graph_spec(spec), 7); }

// Every lane on a thread of its own; all must end alike.
template <typename W>
wave::End run_threads(const W& w, int lanes, uint64_t bucket = 0) {
  std::barrier meet(lanes);
  std::vector<wave::End> ends(size_t(lanes), wave::kRunning);
  std::vector<std::thread> team;
  for (int l = 0; l < lanes; ++l)
    team.emplace_back([&, l] {
      ends[size_t(l)] = wave::run_wave(w, uint64_t(l), uint64_t(lanes), bucket, [&meet] { meet.arrive_and_wait(); });
    });
  for (auto& t : team) t.join();
  for (wave::End e : ends) EXPECT_EQ(e, ends[0]);
  return ends[0];
}

// The device's arrays and counters a wave works on.
struct Device {
  explicit Device(const Graph& g)
      : n(g.num_vertices()), first(n), second(n), hubs(n), current(n), marks(n, 0), front((n + 31) / 32, 0) {}
  vid_t n;
  std::vector<vid_t> first, second, hubs, current;
  std::vector<uint32_t> marks, front;
  wave::Counts counts{};
  uint64_t size = 0, scout = 0, low = 0, extra = 0, edges = 0, updated = 0;
  uint32_t end = 0;

  wave::Shared shared(const Graph& g, const wave::Limits& limits, bool keep_scout, bool keep_low) {
    const Csr& out = g.out();
    return wave::Shared{
        wave::Rows{out.offsets.data(), out.targets.data(), out.weights.empty() ? nullptr : out.weights.data()},
        &counts,
        {first.data(), second.data()},
        &size,
        hubs.data(),
        limits,
        wave::Out{&size, keep_scout ? &scout : nullptr, keep_low ? &low : nullptr, &extra, &edges, &updated, &end}};
  }
};

struct Outcome {
  std::vector<uint32_t> values;
  std::vector<wave::End> ends;  // of every wave, in order
  uint64_t levels = 0, edges = 0;
};

// A push program as the traversal driver runs it with waves on: a wave
// while the frontier fits, one push superstep (sequential) where it does not.
template <typename P>
Outcome push_by_waves(const Graph& g, const P& prog, wave::Limits limits, int lanes, bool bitmap) {
  Device d(g);
  Outcome o;
  o.values.resize(d.n);
  for (vid_t v = 0; v < d.n; ++v) {
    o.values[v] = prog.init(v);
    if (prog.active_at_start(v)) d.first[d.size++] = v;
  }
  uint32_t epoch = 1;
  while (d.size > 0) {
    if (d.size <= limits.items) {
      const uint64_t before = d.extra;
      wave::TraversalWave<P> w{d.shared(g, limits, true, false),
                               prog,
                               o.values.data(),
                               d.marks.data(),
                               epoch,
                               bitmap ? d.front.data() : nullptr,
                               bitmap ? d.front.size() : 0};
      o.ends.push_back(run_threads(w, lanes));
      EXPECT_EQ(d.end, o.ends.back());
      const uint64_t levels = d.extra - before + 1;
      o.levels += levels, epoch += uint32_t(levels);
      if (bitmap) {  // the last frontier's bits, none other
        std::vector<uint32_t> want(d.front.size(), 0);
        for (uint64_t i = 0; i < d.size; ++i) want[d.first[i] >> 5] |= 1u << (d.first[i] & 31);
        EXPECT_EQ(d.front, want);
      }
      continue;
    }
    std::vector<vid_t> next;  // a wide frontier: the load-balanced kernels' superstep
    for (uint64_t i = 0; i < d.size; ++i) {
      const vid_t u = d.first[i];
      for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e) {
        const vid_t v = g.out().targets[e];
        const uint32_t now = P::reduce(o.values[v], prog.scatter(o.values[u], u, v, 1));
        if (now == o.values[v]) continue;
        o.values[v] = now;
        if (d.marks[v] != epoch) d.marks[v] = epoch, next.push_back(v);
      }
    }
    std::copy(next.begin(), next.end(), d.first.begin());
    d.size = next.size(), ++epoch, ++o.levels;
  }
  o.edges = d.edges;
  return o;
}

Outcome bfs_by_waves(const Graph& g, vid_t source, wave::Limits limits, int lanes, bool bitmap) {
  return push_by_waves(g, BfsProgram{source}, limits, lanes, bitmap);
}

TEST(Wave, BreadthFirstLevelsEqualTheReference) {
  for (const char* spec : {"grid:40x25", "road:30x30", "kron:10"}) {
    SCOPED_TRACE(spec);
    const Graph g = make(spec);
    const std::vector<uint32_t> want = reference::bfs(g, 1);
    // Lanes in groups of 2 and 4, a wave that runs to the end, and waves
    // cut by their level budget and by a frontier outgrowing them.
    for (const wave::Limits lim : {wave::Limits{1u << 20, 1u << 23, 1024, 2}, wave::Limits{1u << 20, 1u << 23, 7, 4},
                                   wave::Limits{40, 320, 1024, 2}}) {
      const Outcome o = bfs_by_waves(g, 1, lim, 8, true);
      EXPECT_EQ(o.values, want);
      EXPECT_EQ(o.ends.back(), wave::kEmpty);
    }
  }
}

// Labels by propagation change a vertex at several levels: each level's
// claim mark lets it join that level's queue again.
TEST(Wave, PropagationQueuesAVertexAtEveryLevelItChanges) {
  for (const char* spec : {"road:30x30", "kron:9"}) {
    SCOPED_TRACE(spec);
    const Graph g = make(spec);
    std::vector<uint32_t> want(g.num_vertices());  // the least id of each component
    for (vid_t v = 0; v < g.num_vertices(); ++v) want[v] = v;
    for (bool moved = true; moved;) {
      moved = false;
      for (vid_t u = 0; u < g.num_vertices(); ++u)
        for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e)
          if (want[g.out().targets[e]] > want[u]) want[g.out().targets[e]] = want[u], moved = true;
    }
    for (const wave::Limits lim : {wave::Limits{1u << 20, 1u << 23, 1024, 2}, wave::Limits{100, 800, 1024, 4}})
      EXPECT_EQ(push_by_waves(g, WccProgram{}, lim, 8, false).values, want);
  }
}

TEST(Wave, EndsByItsBudgetAndByAWideFrontier) {
  const Graph grid = make("grid:40x25");
  const uint32_t levels = reference::bfs(grid, 0)[grid.num_vertices() - 1];  // the far corner: 63 levels
  const Outcome whole = bfs_by_waves(grid, 0, wave::Limits{1u << 20, 1u << 23, 1024, 2}, 6, false);
  EXPECT_EQ(whole.ends, std::vector<wave::End>{wave::kEmpty});
  EXPECT_EQ(whole.levels, levels + 1);       // the last level finds nothing
  EXPECT_EQ(whole.edges, grid.num_edges());  // every row once
  const Outcome budget = bfs_by_waves(grid, 0, wave::Limits{1u << 20, 1u << 23, 10, 2}, 6, false);
  EXPECT_EQ(budget.ends.size(), size_t((levels + 1 + 9) / 10));
  EXPECT_EQ(budget.ends.front(), wave::kLevels);
  // A wave from the corner ends at the first diagonal past 20 vertices.
  const Outcome wide = bfs_by_waves(grid, 0, wave::Limits{20, 1u << 23, 1024, 2}, 6, false);
  EXPECT_EQ(wide.ends.front(), wave::kWide);
  EXPECT_EQ(wide.values, reference::bfs(grid, 0));
}

TEST(Wave, LongRowsAreSharedByEveryLane) {
  // A star's centre has more than kHubEdges edges: its row goes to the
  // list every lane relaxes.
  const vid_t leaves = 3 * vid_t(wave::kHubEdges);
  std::vector<EdgeList> lists(1);
  for (vid_t v = 1; v <= leaves; ++v) lists[0].src.push_back(0), lists[0].dst.push_back(v);
  for (vid_t v = 1; v < leaves; ++v) lists[0].src.push_back(v), lists[0].dst.push_back(v + 1);
  BuildOptions both;
  both.symmetrize = true;
  const Graph star = build_graph(std::move(lists), leaves + 1, false, both);
  const Outcome o = bfs_by_waves(star, 0, wave::Limits{1u << 20, 1u << 23, 1024, 4}, 8, false);
  EXPECT_EQ(o.values, reference::bfs(star, 0));
  EXPECT_EQ(o.edges, star.num_edges());
}

// SSSP as the ordered driver runs it with waves: the pile in `first`,
// flags in `marks`, waves from the least bucket until the pile is empty.
std::vector<uint32_t> sssp_by_waves(const Graph& g, vid_t source, uint64_t delta, wave::Limits limits, int lanes,
                                    std::vector<wave::End>* ends) {
  Device d(g);
  std::vector<uint32_t> values(d.n, kInfinity);
  values[source] = 0;
  d.first[0] = source, d.size = 1, d.marks[source] = 1;
  uint64_t bucket = 0;
  SsspProgram prog{source};
  for (int waves = 0; d.size > 0 && waves < 100000; ++waves) {
    wave::OrderedWave<SsspProgram> w{
        d.shared(g, limits, false, true), prog, values.data(), d.marks.data(), d.current.data(), delta};
    ends->push_back(run_threads(w, lanes, bucket));
    bucket = d.low;
    for (uint64_t i = 0; i < d.size; ++i) {  // the pile as left: flagged, its least bucket kept
      EXPECT_EQ(d.marks[d.first[i]], 1u);
      EXPECT_GE(values[d.first[i]] / delta, bucket);
    }
  }
  EXPECT_EQ(d.size, 0u);
  EXPECT_EQ(d.low, ~uint64_t(0));
  return values;
}

TEST(Wave, DeltaSteppingEqualsDijkstra) {
  for (const char* spec : {"road:40x30", "kron:10"}) {
    SCOPED_TRACE(spec);
    Graph g = make(spec);
    if (!g.weighted()) {  // weights 1..100 by edge, the same both ways
      Buffer<weight_t> w(g.num_edges());
      for (vid_t u = 0; u < g.num_vertices(); ++u)
        for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e) {
          const vid_t v = g.out().targets[e];
          w[e] = 1 + (std::min(u, v) * 31u + std::max(u, v) * 17u) % 100u;
        }
      g.set_weights(std::move(w));
    }
    const std::vector<uint32_t> want = reference::sssp(g, 1);
    for (const uint64_t delta : {uint64_t(1), uint64_t(64), uint64_t(1) << 20})
      for (const wave::Limits lim : {wave::Limits{1u << 20, 0, 1024, 2}, wave::Limits{1u << 20, 0, 5, 4}}) {
        std::vector<wave::End> ends;
        EXPECT_EQ(sssp_by_waves(g, 1, delta, lim, 8, &ends), want) << "delta " << delta;
        EXPECT_EQ(ends.back(), wave::kEmpty);
      }
  }
}

TEST(Wave, TheRuleTakesThinFrontiersOnly) {
  const WaveRule off;
  EXPECT_FALSE(off.fits(1, 1));
  const WaveRule rule(1000);
  EXPECT_TRUE(rule.fits(1000, 1000 * WaveRule::kEdgesPerItem));
  EXPECT_FALSE(rule.fits(1001, 10));
  EXPECT_FALSE(rule.fits(10, 1000 * WaveRule::kEdgesPerItem + 1));
  EXPECT_EQ(rule.limits().items, 1000u);
  EXPECT_EQ(rule.limits().levels, WaveRule::kLevels);
  EXPECT_EQ(rule.limits().group % 2, 0u);  // divides a GPU block's lanes
}

}  // namespace
}  // namespace chatty
