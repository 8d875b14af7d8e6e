// Generators: deterministic for a seed (whatever the thread count), and
// with the degree shape their names promise.
#include "datasets/generators.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

bool same_csr(const Graph& a, const Graph& b) {
  const Csr &x = a.out(), &y = b.out();
  return a.num_vertices() == b.num_vertices() && a.num_edges() == b.num_edges() &&
         std::equal(x.offsets.begin(), x.offsets.end(), y.offsets.begin()) &&
         std::equal(x.targets.begin(), x.targets.end(), y.targets.begin());
}

struct Degrees {
  eid_t max = 0, isolated = 0;
  double mean = 0;
};

Degrees degrees(const Graph& g) {
  Degrees d;
  for (vid_t v = 0; v < g.num_vertices(); ++v) {
    d.max = std::max(d.max, g.out_degree(v));
    d.isolated += g.out_degree(v) == 0;
  }
  d.mean = double(g.num_edges()) / g.num_vertices();
  return d;
}

TEST(Generators, DeterministicForSeedAndThreadCount) {
  for (const char* spec : {"kron:12", "urand:12:8", "grid:30x20", "road:40x30"}) {
    LoadOptions o;
    o.seed = 42;
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    Graph one = load_graph(spec, o);
    omp_set_num_threads(3);
    Graph three = load_graph(spec, o);
    omp_set_num_threads(saved);
    EXPECT_TRUE(same_csr(one, three)) << spec;
    o.seed = 43;
    if (std::string(spec).rfind("grid", 0) != 0) {
      EXPECT_FALSE(same_csr(one, load_graph(spec, o))) << spec;
    }
  }
}

// A generated graph written as text (a file the parse maps and splits
// between threads, giving its pages back behind it) loads back to the same
// graph on 1 and on 3 threads: the builder's owned row ranges place every
// edge once, whatever the team.
TEST(Generators, TextOfAGraphLoadsBackOnAnyThreadCount) {
  LoadOptions o;
  o.seed = 42;
  const Graph g = load_graph("kron:12", o);
  const std::string path = testing::write_file("kron12.txt", "");
  save_graph(g, path);
  const int saved = omp_get_max_threads();
  LoadOptions as_positions;  // the generator's isolated vertices stay
  as_positions.ids = IdChoice::kPositions;
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    const Graph back = load_graph(path, as_positions);
    EXPECT_TRUE(same_csr(g, back)) << threads << " threads";
  }
  omp_set_num_threads(saved);
}

TEST(Generators, KroneckerIsSkewedAndUndirected) {
  Graph g = load_graph("kron:14", {});
  EXPECT_EQ(g.num_vertices(), 1u << 14);
  EXPECT_FALSE(g.directed());
  Degrees d = degrees(g);
  // Up to 16 * 2^14 edges each way, less duplicates and self loops.
  EXPECT_GT(g.num_edges(), 20u << 14);
  EXPECT_LE(g.num_edges(), 32u << 14);
  EXPECT_GT(double(d.max), 50 * d.mean);         // heavy-tailed: hubs
  EXPECT_GT(d.isolated, g.num_vertices() / 10);  // Graph500 graphs leave many vertices isolated
}

TEST(Generators, UniformRandomIsFlat) {
  Graph g = load_graph("urand:14", {});
  Degrees d = degrees(g);
  EXPECT_NEAR(d.mean, 32.0, 1.0);
  EXPECT_LT(double(d.max), 2.5 * d.mean);
  EXPECT_EQ(d.isolated, 0u);
}

TEST(Generators, GridIsRoadLike) {
  Graph g = load_graph("grid:50x40", {});
  EXPECT_EQ(g.num_vertices(), 2000u);
  EXPECT_EQ(g.num_edges(), 2u * (49 * 40 + 50 * 39));
  Degrees d = degrees(g);
  EXPECT_EQ(d.max, 4u);
  EXPECT_EQ(g.out_degree(0), 2u);  // corner
}

// Road networks' shape: degrees 2-4 for most points (mean about 2.9),
// almost every point in one component whose diameter is about W + H, and
// symmetric weights by length (a lattice step is about 100).
TEST(Generators, RoadIsRoadLike) {
  LoadOptions o;
  o.weights = WeightUse::kNeeded;
  Graph g = load_graph("road:200x150", o);
  ASSERT_EQ(g.num_vertices(), 30000u);
  ASSERT_TRUE(g.weighted());
  const Degrees d = degrees(g);
  EXPECT_NEAR(d.mean, 2.9, 0.15);
  EXPECT_LE(d.max, 6u);
  eid_t low = 0;
  for (vid_t v = 0; v < g.num_vertices(); ++v) low += g.out_degree(v) >= 2 && g.out_degree(v) <= 4;
  EXPECT_GT(double(low), 0.85 * g.num_vertices());
  const Csr& c = g.out();
  for (vid_t u = 0; u < g.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      const vid_t v = c.targets[e];
      ASSERT_GE(c.weights[e], 30u) << u << "-" << v;  // jitter moves each end by at most 0.3 a way
      ASSERT_LE(c.weights[e], 230u) << u << "-" << v;
      const eid_t back =
          eid_t(std::lower_bound(c.targets.begin() + c.offsets[v], c.targets.begin() + c.offsets[v + 1], u) -
                c.targets.begin());
      ASSERT_EQ(c.weights[back], c.weights[e]) << "an undirected edge's two weights differ: " << u << "-" << v;
    }
  // One giant component: BFS from a point of it reaches nearly all, over
  // about W + H levels.
  std::vector<int> depth(g.num_vertices(), -1);
  std::vector<vid_t> frontier;
  vid_t start = 0;
  while (g.out_degree(start) == 0) ++start;
  depth[start] = 0, frontier.push_back(start);
  int levels = 0;
  size_t reached = 1;
  while (!frontier.empty()) {
    std::vector<vid_t> next;
    for (vid_t u : frontier)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (depth[c.targets[e]] < 0) depth[c.targets[e]] = levels + 1, next.push_back(c.targets[e]), ++reached;
    frontier.swap(next);
    levels += !frontier.empty();
  }
  EXPECT_GT(double(reached), 0.95 * g.num_vertices());
  EXPECT_GT(levels, 200);
  EXPECT_LT(levels, 2 * (200 + 150));
}

TEST(Generators, EdgeFactorScalesEdges) {
  Graph a = load_graph("urand:12:4", {}), b = load_graph("urand:12:16", {});
  EXPECT_NEAR(double(b.num_edges()) / double(a.num_edges()), 4.0, 0.2);
}

TEST(Generators, DefaultWeightsAreSymmetricAndInRange) {
  Graph g = load_graph("kron:10", {});
  Buffer<weight_t> w = default_weights(g.out(), 5);
  const Csr& c = g.out();
  for (vid_t u = 0; u < g.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      ASSERT_GE(w[e], 1u);
      ASSERT_LE(w[e], 255u);
      const vid_t v = c.targets[e];
      const vid_t* back = std::lower_bound(c.targets.begin() + c.offsets[v], c.targets.begin() + c.offsets[v + 1], u);
      ASSERT_EQ(w[e], w[eid_t(back - c.targets.begin())]);
    }
}

}  // namespace
}  // namespace chatty
