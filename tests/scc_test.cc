// The SCC app: its reference against reachability by definition, the
// engine against the reference on graphs of every shape the colouring
// rounds and the peeling meet, on 1..5 host devices, and its verifier.
#include <gtest/gtest.h>

#include <random>

#include "apps/run_app.h"
#include "apps/scc/reference.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

using Edges = std::vector<std::pair<vid_t, vid_t>>;

Graph directed(vid_t n, const Edges& edges) {
  std::string text = "# Directed graph\n# Nodes: " + std::to_string(n) + "\n";
  for (auto [u, v] : edges) text += std::to_string(u) + " " + std::to_string(v) + "\n";
  LoadOptions o;
  o.build.drop_self_loops = false;
  return load_graph(testing::write_file("scc.el", text), o);
}

// By definition: u and v share a component when each reaches the other;
// the label is the least such vertex.
std::vector<uint32_t> by_reachability(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (vid_t s = 0; s < n; ++s) {
    std::vector<vid_t> stack{s};
    reach[s][s] = 1;
    while (!stack.empty()) {
      const vid_t u = stack.back();
      stack.pop_back();
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (!reach[s][c.targets[e]]) reach[s][c.targets[e]] = 1, stack.push_back(c.targets[e]);
    }
  }
  std::vector<uint32_t> label(n);
  for (vid_t v = 0; v < n; ++v) {
    label[v] = v;
    for (vid_t u = 0; u < v; ++u)
      if (reach[u][v] && reach[v][u]) {
        label[v] = u;
        break;
      }
  }
  return label;
}

std::vector<uint32_t> run_scc(const Graph& g, int devices) {
  EngineOptions o;
  o.devices = devices;
  Graph prepared = g;
  prepare_graph(parse_app("scc"), prepared, false, 1);
  return run_app(parse_app("scc"), prepared, 0, o).ints;
}

TEST(Scc, CyclesJoinedByOneWayEdges) {
  // Cycles 0-1-2 and 3-4, 2->3 one way; 5 points into 4; 6 has a loop; 7 alone.
  const Graph g = directed(8, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}, {5, 4}, {6, 6}});
  const std::vector<uint32_t> want{0, 0, 0, 3, 3, 5, 6, 7};
  EXPECT_EQ(reference::scc(g), want);
  EXPECT_EQ(by_reachability(g), want);
  for (int p = 1; p <= 4; ++p) EXPECT_EQ(run_scc(g, p), want) << p << " devices";
}

// Random graphs with what each step meets: acyclic stretches (the
// peeling), chains of cycles (a colouring round each), and dense cores.
Edges shaped(std::mt19937& rng, vid_t n, int shape) {
  Edges e;
  std::uniform_int_distribution<vid_t> any(0, n - 1);
  if (shape == 0)  // sparse random: a giant component and many small ones
    for (vid_t i = 0; i < 2 * n; ++i) e.push_back({any(rng), any(rng)});
  if (shape == 1)  // a path with back edges every so often
    for (vid_t v = 0; v + 1 < n; ++v) {
      e.push_back({v, v + 1});
      if (v % 7 == 3) e.push_back({v + 1, v - 3});
    }
  if (shape == 2)  // two-cycles chained one way, scrambled ids
    for (vid_t v = 0; v + 1 < n; v += 2) {
      e.push_back({v, v + 1}), e.push_back({v + 1, v});
      if (v + 2 < n) e.push_back({v + 1, v + 2});
    }
  if (shape == 3)  // a DAG by id order, and a few edges back
    for (vid_t i = 0; i < 3 * n; ++i) {
      vid_t a = any(rng), b = any(rng);
      if (a != b) e.push_back({std::min(a, b), std::max(a, b)});
      if (i % 50 == 0) e.push_back({std::max(a, b), std::min(a, b)});
    }
  if (shape == 2) {
    std::vector<vid_t> perm(n);
    for (vid_t v = 0; v < n; ++v) perm[v] = v;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (auto& [u, v] : e) u = perm[u], v = perm[v];
  }
  return e;
}

TEST(Scc, ReferenceMatchesReachability) {
  std::mt19937 rng(5);
  for (int shape = 0; shape < 4; ++shape)
    for (vid_t n : {9u, 25u, 60u}) {
      const Graph g = directed(n, shaped(rng, n, shape));
      EXPECT_EQ(reference::scc(g), by_reachability(g)) << "shape " << shape << ", n " << n;
    }
}

TEST(Scc, EngineMatchesReferenceOnEveryShapeAndDeviceCount) {
  std::mt19937 rng(7);
  for (int shape = 0; shape < 4; ++shape)
    for (vid_t n : {8u, 200u, 1500u}) {
      n = shape == 2 ? std::min(n, 150u) : n;  // a colouring round per two-cycle
      const Graph g = directed(n, shaped(rng, n, shape));
      const std::vector<uint32_t> want = reference::scc(g);
      for (int p : {1, 3}) EXPECT_EQ(run_scc(g, p), want) << "shape " << shape << ", n " << n << ", " << p;
    }
}

TEST(Scc, VerifierCatchesMergedAndMislabelledComponents) {
  const Graph g = directed(5, {{0, 1}, {1, 0}, {1, 2}, {3, 4}, {4, 3}});
  EngineOptions o;
  Graph prepared = g;
  prepare_graph(parse_app("scc"), prepared, false, 1);
  AppOutput out = run_app(parse_app("scc"), prepared, 0, o);
  EXPECT_TRUE(validate_app(out, prepared, 0, o).ok);
  AppOutput merged = out;
  merged.ints[2] = 0;  // 2 is reached from 0 but does not reach it
  EXPECT_FALSE(validate_app(merged, prepared, 0, o).ok);
  AppOutput named = out;
  named.ints[3] = named.ints[4] = 4;  // not the least id of {3, 4}
  const Validation v = validate_app(named, prepared, 0, o);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("least id"), std::string::npos) << v.message;
}

}  // namespace
}  // namespace chatty
