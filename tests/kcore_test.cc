// The k-core app: its reference against brute-force peeling, the engine
// against the reference on known and generated graphs, and its verifier
// and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "apps/kcore/reference.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "runtime/graph/graph_builder.h"
#include "test_util.h"

namespace chatty {
namespace {

Graph undirected(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges) {
  std::string text = "# Undirected graph\n# Nodes: " + std::to_string(n) + "\n";
  for (auto [u, v] : edges) text += std::to_string(u) + " " + std::to_string(v) + "\n";
  return load_graph(testing::write_file("kcore.el", text), {});  // positions: isolated vertices stay
}

// Coreness by definition: peel every vertex of degree < k, for k = 1, 2, ...
std::vector<uint32_t> brute_force(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<uint32_t> core(n, 0);
  std::vector<char> alive(n, 1);
  for (uint32_t k = 1;; ++k) {
    bool peeled = true;
    while (peeled) {
      peeled = false;
      for (vid_t v = 0; v < n; ++v) {
        if (!alive[v]) continue;
        uint32_t d = 0;
        for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) d += alive[c.targets[e]];
        if (d < k) alive[v] = 0, peeled = true;
      }
    }
    if (std::none_of(alive.begin(), alive.end(), [](char a) { return a != 0; })) return core;
    for (vid_t v = 0; v < n; ++v)
      if (alive[v]) core[v] = k;
  }
}

TEST(Kcore, CliqueWithATail) {
  // A 4-clique 0..3, a path 3-4-5, a triangle 6-7-8 and an isolated 9.
  Graph g = undirected(10, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {6, 8}});
  const std::vector<uint32_t> want{3, 3, 3, 3, 1, 1, 2, 2, 2, 0};
  EXPECT_EQ(reference::kcore(g), want);
  for (int p = 1; p <= 4; ++p) {
    EngineOptions o;
    o.devices = p;
    EXPECT_EQ(run_app(parse_app("kcore"), g, 0, o).ints, want) << p << " devices";
  }
}

TEST(Kcore, ReferenceMatchesPeelingOnRandomGraphs) {
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    const vid_t n = 5 + rng() % 60;
    std::vector<std::pair<vid_t, vid_t>> edges;
    for (vid_t i = 0, m = rng() % (4 * n); i < m; ++i) edges.push_back({vid_t(rng() % n), vid_t(rng() % n)});
    Graph g = undirected(n, edges);
    const std::vector<uint32_t> want = brute_force(g);
    EXPECT_EQ(reference::kcore(g), want) << "round " << round;
    EngineOptions o;
    o.devices = 1 + round % 8;
    EXPECT_EQ(run_app(parse_app("kcore"), g, 0, o).ints, want) << "round " << round;
  }
}

TEST(Kcore, EveryDeviceCountMatchesTheReference) {
  for (const char* spec : {"kron:12", "urand:12:6", "grid:50x30"}) {
    Graph g = load_graph(spec, {});
    const std::vector<uint32_t> want = reference::kcore(g);
    for (int p = 1; p <= 8; ++p) {
      EngineOptions o;
      o.devices = p;
      o.migrate = p % 2 == 0;
      const AppOutput out = run_app(parse_app("kcore"), g, 0, o);
      EXPECT_EQ(out.ints, want) << spec << " on " << p << " devices";
      EXPECT_TRUE(validate_app(out, g, 0, o).ok) << spec;
    }
  }
}

TEST(Kcore, VerifierCatchesWrongCoreness) {
  Graph g = load_graph("kron:10", {});
  AppOutput out = run_app(parse_app("kcore"), g, 0, {});
  ASSERT_TRUE(validate_app(out, g, 0, {}).ok);
  const vid_t hub = vid_t(std::max_element(out.ints.begin(), out.ints.end()) - out.ints.begin());
  AppOutput high = out;
  high.ints[hub] += 1;  // more than its neighbours support
  Validation v = validate_app(high, g, 0, {});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex " + std::to_string(hub)), std::string::npos) << v.message;
  AppOutput zeros = out;
  std::fill(zeros.ints.begin(), zeros.ints.end(), 0u);  // locally consistent, but not the coreness
  EXPECT_FALSE(validate_app(zeros, g, 0, {}).ok);
}

TEST(Kcore, RefusesADirectedGraph) {
  Graph g = load_graph(testing::write_file("directed.txt", "# Directed graph\n0 1\n1 2\n2 0\n"), {});
  ASSERT_TRUE(g.directed());
  EXPECT_NE(testing::error_of([&] { run_app(parse_app("kcore"), g, 0, {}); }).find("kcore needs an undirected graph"),
            std::string::npos);
  EXPECT_EQ(parse_app("coreness"), parse_app("kcore"));
}

}  // namespace
}  // namespace chatty
