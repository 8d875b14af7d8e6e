// The HITS app: hand-worked hubs and authorities (unweighted, weighted),
// the engine against its sequential reference on random directed graphs
// at 1..5 host devices, the not-converged exit and the verifier's checks.
// (tests/python compares the scores with NetworkX's.)
#include <gtest/gtest.h>

#include <random>

#include "apps/hits/reference.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

struct Edge {
  vid_t u, v;
  uint32_t w = 1;
};

Graph directed(const std::string& name, vid_t n, const std::vector<Edge>& edges, bool weighted = false) {
  std::string text = "# Nodes: " + std::to_string(n) + "\n";
  for (const Edge& e : edges) {
    text.append(std::to_string(e.u)).append(" ").append(std::to_string(e.v));
    if (weighted) text.append(" ").append(std::to_string(e.w));
    text.append("\n");
  }
  return load_graph(testing::write_file(name + (weighted ? ".wel" : ".el"), text), LoadOptions{});
}

AppOutput run_hits(const Graph& g, int devices, double tolerance = 1e-10, int max_iters = 1000) {
  EngineOptions o;
  o.devices = devices;
  o.tolerance = tolerance;
  o.max_iters = max_iters;
  return run_app(parse_app("hits"), g, 0, o);
}

void expect_scores(const AppOutput& out, const std::vector<double>& hubs, const std::vector<double>& authorities,
                   const std::string& what) {
  ASSERT_EQ(out.ranks.size(), hubs.size()) << what;
  ASSERT_EQ(out.second.size(), authorities.size()) << what;
  for (size_t v = 0; v < hubs.size(); ++v) {
    EXPECT_NEAR(out.ranks[v], hubs[v], 1e-6) << what << ": hub of " << v;
    EXPECT_NEAR(out.second[v], authorities[v], 1e-6) << what << ": authority of " << v;
  }
}

// Langville and Meyer's example, as NetworkX's tests have it (nodes 1..6
// there, 0..5 here): authorities (3 + sqrt 3) / 12 ... worked out from
// A^T A's principal eigenvector.
TEST(Hits, LangvilleMeyerExample) {
  const Graph g = directed("langville", 6, {{0, 2}, {0, 4}, {1, 0}, {2, 4}, {4, 3}, {4, 2}, {5, 4}});
  const double r3 = std::sqrt(3.0);
  const std::vector<double> hubs = {(r3 - 1) / 2, 0, (3 - r3) / 6, 0, (3 - r3) / 6, (3 - r3) / 6};
  const std::vector<double> authorities = {0, 0, (r3 - 1) / 2, (2 - r3) / 2, 0.5, 0};
  for (int p : {1, 2, 5}) {
    const AppOutput out = run_hits(g, p);
    expect_scores(out, hubs, authorities, std::to_string(p) + " devices");
    EXPECT_TRUE(out.multi.converged);
    EXPECT_TRUE(validate_app(out, g, 0, EngineOptions{}).ok) << validate_app(out, g, 0, EngineOptions{}).message;
  }
}

// One hub with edges of weight 1 and 2: the authorities are the weights'
// shares (unweighted they would be equal), the hub holds all.
TEST(Hits, ReadsWeights) {
  const Graph g = directed("weighted", 3, {{0, 1, 1}, {0, 2, 2}}, true);
  expect_scores(run_hits(g, 1), {1, 0, 0}, {0, 1.0 / 3, 2.0 / 3}, "weighted");
  expect_scores(run_hits(directed("unweighted", 3, {{0, 1}, {0, 2}}), 1), {1, 0, 0}, {0, 0.5, 0.5}, "unweighted");
}

TEST(Hits, EngineMatchesReferenceOnRandomGraphs) {
  std::mt19937 rng(7);
  for (vid_t n : {50u, 2000u}) {
    std::uniform_int_distribution<vid_t> any(0, n - 1);
    std::vector<Edge> e;
    for (vid_t i = 0; i < 6 * n; ++i) e.push_back({any(rng), vid_t(std::min<uint32_t>(any(rng), any(rng))), 1});
    for (bool weighted : {false, true}) {
      if (weighted)
        for (Edge& x : e) x.w = 1 + rng() % 9;
      const Graph g = directed("random" + std::to_string(n), n, e, weighted);
      const reference::HitsScores want = reference::hits(g, 1e-10, 1000);
      for (int p : {1, 3}) {
        const AppOutput out = run_hits(g, p);
        expect_scores(out, want.hubs, want.authorities, std::to_string(n) + " vertices, " + std::to_string(p));
        EngineOptions o;
        o.tolerance = 1e-10, o.max_iters = 1000;
        EXPECT_TRUE(validate_app(out, g, 0, o).ok) << validate_app(out, g, 0, o).message;
      }
    }
  }
}

TEST(Hits, StopsAtMaxItersNotConverged) {
  // A path both ways: its two largest singular values are close, so the
  // iterates move for long.
  std::vector<Edge> e;
  for (vid_t v = 0; v + 1 < 30; ++v) e.push_back({v, v + 1}), e.push_back({v + 1, v});
  const Graph g = directed("path", 30, e);
  const AppOutput out = run_hits(g, 2, 1e-10, 3);
  EXPECT_FALSE(out.multi.converged);
  EXPECT_EQ(out.multi.supersteps(), 3u);
  const reference::HitsScores want = reference::hits(g, 1e-10, 3);
  expect_scores(out, want.hubs, want.authorities, "third iterate");
}

TEST(Hits, VerifierCatchesAWrongScore) {
  const Graph g = directed("langville", 6, {{0, 2}, {0, 4}, {1, 0}, {2, 4}, {4, 3}, {4, 2}, {5, 4}});
  EngineOptions o;
  o.tolerance = 1e-10;
  AppOutput out = run_hits(g, 1);
  ASSERT_TRUE(validate_app(out, g, 0, o).ok);
  AppOutput moved = out;
  moved.ranks[0] -= 1e-3f, moved.ranks[2] += 1e-3f;  // still summing to 1
  EXPECT_FALSE(validate_app(moved, g, 0, o).ok);
  moved = out;
  moved.second[3] = -moved.second[3];
  EXPECT_FALSE(validate_app(moved, g, 0, o).ok);
}

TEST(Hits, IsolatedVerticesScoreZero) {
  const AppOutput out = run_hits(directed("isolated", 4, {{0, 1}}), 2);
  expect_scores(out, {1, 0, 0, 0}, {0, 1, 0, 0}, "one edge");
}

// Closeness, harmonic centrality and eccentricity from the walks of every
// vertex: 64 at a time on a graph of few levels (kron, a random directed
// graph), one at a time on one of many (a grid, a long path), each against
// the sequential reference at 1 and 3 devices; the run says which.
TEST(Closeness, BatchedAndSingleWalksMatchTheReference) {
  std::mt19937 rng(5);
  std::string random_directed = "# Directed graph\n", path = "# Undirected graph\n";
  std::uniform_int_distribution<vid_t> any(0, 699);
  for (int i = 0; i < 2800; ++i) random_directed += std::to_string(any(rng)) + " " + std::to_string(any(rng)) + "\n";
  for (vid_t v = 0; v + 1 < 300; ++v) path += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
  const Graph graphs[] = {load_graph("kron:10", {}),
                          load_graph(testing::write_file("walks_dir.el", random_directed), {}),
                          load_graph("grid:40x30", {}), load_graph(testing::write_file("walks_path.el", path), {})};
  const bool batched[] = {true, true, false, false};
  for (size_t i = 0; i < 4; ++i)
    for (DistanceMeasure m : {DistanceMeasure::kCloseness, DistanceMeasure::kHarmonic, DistanceMeasure::kEccentricity})
      for (int p : {1, 3}) {
        EngineOptions o;
        o.devices = p, o.distance_measure = m;
        const AppOutput out = run_app(parse_app("closeness"), graphs[i], 0, o);
        EXPECT_TRUE(validate_app(out, graphs[i], 0, o).ok) << "graph " << i << " P=" << p;
        EXPECT_EQ(out.multi.transport.find("64 walks") != std::string::npos, batched[i]) << out.multi.transport;
      }
}

}  // namespace
}  // namespace chatty
