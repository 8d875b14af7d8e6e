// A summing gather over tiles (kernels/cpu/sum_tiles.h, --cpu_gather):
// every edge in its tile once, each superstep what the rows give, and the
// rule that picks them.
#include "kernels/cpu/sum_tiles.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "apps/katz/reference.h"
#include "apps/pagerank/program.h"
#include "apps/pagerank/reference.h"
#include "apps/registry.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/host/sum_layout.h"

namespace chatty {
namespace {

// A directed multigraph on n vertices, self-loops and repeated edges
// included, a few hubs with many in-edges, and vertices with no edges.
Graph random_multigraph(vid_t n, eid_t m, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<EdgeList> lists(1);
  std::uniform_int_distribution<vid_t> any(0, n - 1), hub(0, 7);
  for (eid_t e = 0; e < m; ++e) {
    const vid_t u = any(rng) % (n - n / 10);  // the last tenth sends nothing: sinks
    const vid_t v = e % 5 == 0 ? hub(rng) * (n / 8) : any(rng);
    lists[0].src.push_back(u), lists[0].dst.push_back(v);
    if (e % 97 == 0) lists[0].src.push_back(u), lists[0].dst.push_back(v);  // repeated
    if (e % 89 == 0) lists[0].src.push_back(u), lists[0].dst.push_back(u);  // a loop
  }
  BuildOptions keep_all;
  keep_all.dedupe = false, keep_all.drop_self_loops = false;
  return build_graph(std::move(lists), n, false, keep_all);
}

TEST(SumTiles, ShapeCoversEveryVertexWithinTheTable) {
  for (vid_t n : {vid_t(0), vid_t(1), vid_t(8191), vid_t(8193), vid_t(1) << 20, (vid_t(1) << 24) + 5, vid_t(1) << 26,
                  vid_t(1) << 27}) {
    const cpu::TileShape s = cpu::sum_tile_shape(n);
    ASSERT_GE(s.dst_shift, 13u) << n;
    ASSERT_LE(s.dst_shift, 16u) << n;
    ASSERT_GE(s.src_shift, 14u) << n;
    ASSERT_LE(s.src_shift, 16u) << n;
    EXPECT_GE(uint64_t(s.dst_strips) << s.dst_shift, n) << n;
    EXPECT_LT(uint64_t(s.dst_strips) << s.dst_shift, uint64_t(n) + (uint64_t(1) << s.dst_shift)) << n;
    EXPECT_GE(uint64_t(s.src_strips) << s.src_shift, n) << n;
    EXPECT_LE(s.tiles(), size_t(1) << 22) << n;
  }
  EXPECT_EQ(cpu::sum_tile_shape((vid_t(1) << 27) + 1).dst_shift, 0u);
}

// Decoded, the tiles hold the out-edges, each once, each source's edges in
// a tile in its row's order; in the default shape and in the widest, whose
// offsets use all 16 bits.
TEST(SumTiles, HoldEveryEdgeOnceEachRowInOrder) {
  for (auto [n, wide] : {std::pair{vid_t(5), false},
                         {vid_t(20011), false},
                         {vid_t(70000), false},
                         {vid_t(70000), true},
                         {vid_t(150001), true}}) {
    const Graph g = random_multigraph(n, eid_t(n) * 6, n);
    const cpu::SumTiles t =
        cpu::build_sum_tiles(chunk_view(g.out(), 0, n), n, wide ? cpu::tile_shape(n, 16, 16) : cpu::TileShape{});
    const cpu::TileShape s = t.shape;
    ASSERT_EQ(t.num_edges(), g.num_edges());
    std::vector<std::pair<vid_t, vid_t>> got, want;
    std::vector<size_t> last_tile(n, ~size_t(0));  // the tile of each source's last edge seen, and its target
    std::vector<vid_t> last_target(n);
    for (vid_t d = 0; d < s.dst_strips; ++d)
      for (vid_t src = 0; src < s.src_strips; ++src) {
        const size_t tile = size_t(d) * s.src_strips + src;
        for (eid_t e = t.start[tile]; e < t.start[tile + 1]; ++e) {
          const uint32_t x = t.edges[e];
          const vid_t u = (src << s.src_shift) + (x >> 16), v = (d << s.dst_shift) + (x & 0xffff);
          ASSERT_LT(x & 0xffff, 1u << s.dst_shift);
          ASSERT_LT(u, n);
          ASSERT_LT(v, n);
          if (last_tile[u] == tile) {
            ASSERT_LE(last_target[u], v) << "tile " << tile << ", source " << u;
          }
          last_tile[u] = tile, last_target[u] = v;
          got.emplace_back(u, v);
        }
      }
    for (vid_t u = 0; u < n; ++u)
      for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e) want.emplace_back(u, g.out().targets[e]);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << n;
  }
}

// Restores the team size a test changed, however it ends.
struct TeamSize {
  int saved = omp_get_max_threads();
  ~TeamSize() { omp_set_num_threads(saved); }
};

// One superstep over tiles writes what one over rows writes, on every team
// size and in a wider shape too.
TEST(SumTiles, SuperstepMatchesTheRows) {
  const vid_t n = 40009;
  const Graph g = random_multigraph(n, eid_t(n) * 8, 3);
  const CsrChunk in = chunk_view(g.in(), 0, n), out = chunk_view(g.out(), 0, n);
  const Degrees degree{g.out().offsets.data()};
  PageRankProgram prog{n};
  std::mt19937 rng(7);
  std::vector<float> val(n);
  for (float& x : val) x = std::uniform_real_distribution<float>(0, 2.0f / float(n))(rng);
  const TeamSize team;
  for (auto [threads, wide] : {std::pair{1, false}, {2, false}, {5, false}, {2, true}}) {
    omp_set_num_threads(threads);
    const cpu::SumTiles tiles = cpu::build_sum_tiles(out, n, wide ? cpu::tile_shape(n, 15, 16) : cpu::TileShape{});
    cpu::GatherState<float> st = cpu::gather_init(n, degree, prog, val.data());
    std::vector<float> val_rows = val, val_tiles = val, next_rows(n), next_tiles(n);
    cpu::GatherTask<float> task;
    task.contrib = st.contrib, task.dangling_in = st.dangling, task.in = &in, task.degree = degree;
    cpu::GatherSums rows, over_tiles;
    task.val = val_rows.data(), task.next = next_rows.data();
    cpu::gather_range(prog, task, 0, n, rows);
    task.val = val_tiles.data(), task.next = next_tiles.data();
    cpu::gather_tiles(prog, tiles, task, over_tiles);
    for (vid_t v = 0; v < n; ++v) {
      ASSERT_NEAR(val_tiles[v], val_rows[v], 1e-6 * val_rows[v]) << v << " threads " << threads;
      ASSERT_NEAR(next_tiles[v], next_rows[v], 1e-6 * next_rows[v]) << v << " threads " << threads;
    }
    EXPECT_NEAR(over_tiles.l1, rows.l1, 1e-6 * rows.l1);
    EXPECT_NEAR(over_tiles.dangling, rows.dangling, 1e-6 * rows.dangling);
    EXPECT_EQ(over_tiles.edges, rows.edges);
  }
}

double l1_off(const std::vector<float>& got, const std::vector<double>& want) {
  double l1 = 0;
  for (size_t v = 0; v < got.size(); ++v) l1 += std::fabs(double(got[v]) - want[v]);
  return l1;
}

// Whole runs of PageRank and Katz on tiles, against the double references:
// a Kronecker graph (ids without locality), a directed multigraph with
// sinks, a road network (its rows summed without branches) and a star
// whose centre sums 20000 alike values.
TEST(SumTiles, PageRankAndKatzRunsMatchTheReferences) {
  std::vector<std::tuple<const char*, Graph>> graphs;
  graphs.emplace_back("kron:14", load_graph("kron:14", {}));
  graphs.emplace_back("multigraph", random_multigraph(30011, 30011 * 5, 11));
  graphs.emplace_back("road:150x150", load_graph("road:150x150", {}));  // rows of varying short lengths
  std::vector<EdgeList> star(1);
  for (vid_t u = 1; u <= 20000; ++u) star[0].src.push_back(u), star[0].dst.push_back(0);
  graphs.emplace_back("star", build_graph(std::move(star), 20001, false, {}));
  for (auto& [name, g] : graphs) {
    const std::vector<double> pr = reference::pagerank(g, 0.85, 1e-6, 100);
    const double katz_alpha = 0.5 / double(std::max<eid_t>(1, g.num_edges()));
    bool converged = false;
    const std::vector<double> katz = reference::katz(g, katz_alpha, 1.0, 1e-6, 100, &converged);
    for (CpuGather layout : {CpuGather::kRows, CpuGather::kTiles}) {
      EngineOptions o;
      o.cpu_gather = layout;
      const AppOutput out = run_app(parse_app("pr"), g, 0, o);
      EXPECT_EQ(out.multi.gather, cpu_gather_name(layout)) << name;  // the layout asked for is the one that ran
      const std::vector<float>& ranks = out.ranks;
      ASSERT_EQ(ranks.size(), pr.size());
      EXPECT_LT(l1_off(ranks, pr), 1e-6) << name << " " << cpu_gather_name(layout);
      o.katz_alpha = katz_alpha, o.katz_normalized = false;
      const std::vector<float> scores = run_app(parse_app("katz"), g, 0, o).ranks;
      ASSERT_EQ(scores.size(), katz.size());
      double scale = 0;
      for (double x : katz) scale += x;
      EXPECT_LT(l1_off(scores, katz) / scale, 1e-6) << name << " katz " << cpu_gather_name(layout);
    }
  }
}

TEST(SumTiles, AutoLaysTilesOutWhereRowsReadFarAndTheRunIsLong) {
  const Graph grid = load_graph("grid:600x600", {}), urand = load_graph("urand:18", {});
  EXPECT_TRUE(host::in_edges_local(chunk_view(grid.in(), 0, grid.num_vertices())));
  EXPECT_FALSE(host::in_edges_local(chunk_view(urand.in(), 0, urand.num_vertices())));
  // Rows of varying short lengths: a road network's, not a grid's (4 each)
  // nor urand's (long).
  const Graph road = load_graph("road:300x300", {});
  EXPECT_TRUE(host::rows_vary(chunk_view(road.in(), 0, road.num_vertices())));
  EXPECT_FALSE(host::rows_vary(chunk_view(grid.in(), 0, grid.num_vertices())));
  EXPECT_FALSE(host::rows_vary(chunk_view(urand.in(), 0, urand.num_vertices())));
  EXPECT_FALSE(host::rows_vary(CsrChunk{}));
  PageRankProgram prog{1000};
  prog.tolerance = 1e-6, prog.max_iters = 100;
  // Halving each superstep from 1e-2: 14 more to 1e-6, which repay them.
  EXPECT_TRUE(host::tiles_pay(prog, 2, 2e-2, 1e-2, 0));
  // From 1e-5: 4 more; nor when max_iters leaves 5.
  EXPECT_FALSE(host::tiles_pay(prog, 2, 2e-5, 1e-5, 0));
  prog.max_iters = 7;
  EXPECT_FALSE(host::tiles_pay(prog, 2, 2e-2, 1e-2, 0));
  // No progress (or a tolerance never met): every superstep left counts.
  prog.max_iters = 100, prog.tolerance = 0;
  EXPECT_TRUE(host::tiles_pay(prog, 2, 1e-2, 1e-2, 0));
  EXPECT_FALSE(host::tiles_possible<PageRankProgram>(CpuGather::kRows, true, {}, {}, 0));
}

TEST(SumTiles, OptionParsesItsThreeNames) {
  EXPECT_EQ(parse_cpu_gather("auto"), CpuGather::kAuto);
  EXPECT_EQ(parse_cpu_gather("rows"), CpuGather::kRows);
  EXPECT_EQ(parse_cpu_gather("tiles"), CpuGather::kTiles);
  EXPECT_EQ(std::string(cpu_gather_name(CpuGather::kTiles)), "tiles");
  EXPECT_THROW(parse_cpu_gather("tiled"), Error);
}

}  // namespace
}  // namespace chatty
