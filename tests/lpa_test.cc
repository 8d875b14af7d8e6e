// The label propagation app: the engine against its sequential reference
// on known and random graphs and 1..4 host devices; the verifier's
// stopping rule. (tests/python compares both with NetworkX itself.)
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "apps/lpa/reference.h"
#include "apps/lpa/semi_sync.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

Graph undirected(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges, bool loops = false) {
  std::string text = "# Undirected graph\n# Nodes: " + std::to_string(n) + "\n";
  for (auto [u, v] : edges) text += std::to_string(u) + " " + std::to_string(v) + "\n";
  LoadOptions o;
  o.build.drop_self_loops = !loops;
  return load_graph(testing::write_file("lpa.el", text), o);
}

AppOutput run_lpa(const Graph& g, int devices) {
  EngineOptions o;
  o.devices = devices;
  return run_app(parse_app("lpa"), g, 0, o);
}

TEST(Lpa, TwoCliquesJoinedByOneEdge) {
  std::vector<std::pair<vid_t, vid_t>> e;
  for (vid_t a = 0; a < 5; ++a)
    for (vid_t b = a + 1; b < 5; ++b) e.push_back({a, b}), e.push_back({a + 5, b + 5});
  e.push_back({4, 5});
  const Graph g = undirected(11, e);  // 10 is alone
  const std::vector<uint32_t> got = reference::label_propagation(g);
  for (vid_t v = 1; v < 5; ++v) EXPECT_EQ(got[v], got[0]);
  for (vid_t v = 6; v < 10; ++v) EXPECT_EQ(got[v], got[5]);
  EXPECT_NE(got[0], got[5]);
  EXPECT_EQ(got[10], 10u);
  for (int p = 1; p <= 4; ++p) EXPECT_EQ(run_lpa(g, p).ints, got) << p << " devices";
}

TEST(Lpa, EngineMatchesReferenceOnRandomGraphs) {
  std::mt19937 rng(3);
  for (vid_t n : {30u, 400u, 3000u}) {
    std::uniform_int_distribution<vid_t> any(0, n - 1);
    std::vector<std::pair<vid_t, vid_t>> e;
    // Planted groups of 10, dense inside, sparse between.
    for (vid_t i = 0; i < 4 * n; ++i) {
      const vid_t u = any(rng);
      const vid_t v = i % 5 == 0 ? any(rng) : u / 10 * 10 + any(rng) % 10;
      if (v < n && u != v) e.push_back({u, v});
    }
    // Self-loops count as NetworkX counts them (twice in the degree, once as a neighbour).
    for (vid_t v = 0; v < n; v += 7) e.push_back({v, v});
    const Graph g = undirected(n, e, n != 400);
    const std::vector<uint32_t> want = reference::label_propagation(g);
    for (int p : {1, 3}) {
      const AppOutput out = run_lpa(g, p);
      EXPECT_EQ(out.ints, want) << n << " vertices, " << p << " devices";
      EXPECT_TRUE(validate_app(out, g, 0, EngineOptions{}).ok);
    }
  }
}

// A clique of 300 and a pendant path need 300 colours: more than the
// byte-wide colours hold, so the colouring starts over in wider ones.
TEST(Lpa, ColouringPastTwoHundredFiftyFiveColours) {
  std::vector<std::pair<vid_t, vid_t>> e;
  for (vid_t a = 0; a < 300; ++a)
    for (vid_t b = a + 1; b < 300; ++b) e.push_back({a, b});
  for (vid_t v = 300; v < 320; ++v) e.push_back({v - 1, v});
  const Graph g = undirected(320, e);
  const std::vector<std::vector<vid_t>> classes = lpa::colour_classes(g.out());
  ASSERT_EQ(classes.size(), 300u);
  for (const std::vector<vid_t>& members : classes)
    EXPECT_EQ(std::count_if(members.begin(), members.end(), [](vid_t v) { return v < 300; }), 1);
  const std::vector<uint32_t> want = reference::label_propagation(g);
  for (int p : {1, 2}) EXPECT_EQ(run_lpa(g, p).ints, want) << p << " devices";
}

TEST(Lpa, VerifierCatchesALabelNoNeighbourHolds) {
  const Graph g = undirected(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
  AppOutput out = run_lpa(g, 1);
  ASSERT_TRUE(validate_app(out, g, 0, EngineOptions{}).ok);
  out.ints[3] = out.ints[2] == 0 ? 1 : 0;  // its one neighbour holds another label
  const Validation v = validate_app(out, g, 0, EngineOptions{});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("most frequent"), std::string::npos) << v.message;
}

TEST(Lpa, RefusesADirectedGraph) {
  const Graph g = load_graph(testing::write_file("lpa_directed.el", "0 1\n1 2\n"), {});
  EXPECT_THROW(run_lpa(g, 1), Error);
}

}  // namespace
}  // namespace chatty
