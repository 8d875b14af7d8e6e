// Each app against its sequential reference on kron, urand, grid and the
// real graph, directed and undirected.
#include <gtest/gtest.h>

#include <numeric>

#include "apps/bfs/reference.h"
#include "apps/pagerank/reference.h"
#include "apps/run_app.h"
#include "apps/sssp/reference.h"
#include "apps/wcc/reference.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

// A directed graph with unreachable parts, two components and a sink.
std::string directed_graph_file() {
  std::string s;
  for (int i = 0; i < 300; ++i) {
    s += std::to_string(i) + " " + std::to_string((i * 7 + 1) % 300) + " " + std::to_string(1 + i % 13) + "\n";
    if (i % 3 == 0) s += std::to_string(i) + " " + std::to_string((i + 11) % 300) + " 4\n";
  }
  for (int i = 400; i < 450; ++i) s += std::to_string(i) + " " + std::to_string(i + 1) + " 2\n";
  return s;
}

struct Case {
  const char* name;
  std::string graph;
  bool symmetrize;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class AppsOnGraph : public ::testing::TestWithParam<Case> {
 protected:
  Graph load() {
    LoadOptions o;
    o.build.symmetrize = GetParam().symmetrize;
    o.seed = 3;
    if (GetParam().graph == "DIRECTED")
      return load_graph(testing::write_file("directed.wel", directed_graph_file()), o);
    return load_graph(GetParam().graph, o);
  }
};

TEST_P(AppsOnGraph, BfsMatchesReference) {
  Graph g = load();
  prepare_graph(parse_app("bfs"), g, true, 1);
  const vid_t s = default_source(g);
  AppOutput out = run_app(parse_app("bfs"), g, s, {});
  EXPECT_EQ(out.ints, reference::bfs(g, s));
  // Not a trivial run: something beyond the source was reached.
  EXPECT_GT(std::count_if(out.ints.begin(), out.ints.end(), [](uint32_t d) { return d != kInfinity; }), 10);
}

TEST_P(AppsOnGraph, SsspMatchesDijkstra) {
  Graph g = load();
  prepare_graph(parse_app("sssp"), g, true, 9);
  const vid_t s = default_source(g);
  AppOutput out = run_app(parse_app("sssp"), g, s, {});
  EXPECT_EQ(out.ints, reference::sssp(g, s));
}

TEST_P(AppsOnGraph, WccMatchesUnionFind) {
  Graph g = load();
  AppOutput out = run_app(parse_app("wcc"), g, 0, {});
  std::vector<uint32_t> want = reference::wcc(g);
  EXPECT_EQ(out.ints, want);
  for (vid_t v = 0; v < g.num_vertices(); ++v) ASSERT_LE(out.ints[v], v);  // smallest id labels
}

TEST_P(AppsOnGraph, PageRankMatchesPowerIteration) {
  Graph g = load();
  prepare_graph(parse_app("pr"), g, true, 1);
  EngineOptions opt;
  AppOutput out = run_app(parse_app("pr"), g, 0, opt);
  Validation v = validate_app(out, g, 0, opt);
  EXPECT_TRUE(v.ok) << v.message;
  const double sum = std::accumulate(out.ranks.begin(), out.ranks.end(), 0.0);
  EXPECT_NEAR(sum, 1.0, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Graphs, AppsOnGraph,
                         ::testing::Values(Case{"kron", "kron:12", false}, Case{"urand", "urand:12", false},
                                           Case{"grid", "grid:60x40", false},
                                           Case{"facebook", testing::data_file("facebook_combined.txt"), false},
                                           Case{"directed", "DIRECTED", false}),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

TEST(AppsDirected, AllAppsOnADirectedWeightedGraph) {
  Graph g = load_graph(testing::write_file("directed.wel", directed_graph_file()), {});
  ASSERT_TRUE(g.directed());
  for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc"), parse_app("pr")}) {
    prepare_graph(app, g, true, 1);
    AppOutput out = run_app(app, g, 400, {});
    Validation v = validate_app(out, g, 400, {});
    EXPECT_TRUE(v.ok) << app_name(app) << ": " << v.message;
  }
}

TEST(Validation, DetectsAWrongAnswer) {
  Graph g = load_graph("grid:10x10", {});
  AppOutput out = run_app(parse_app("bfs"), g, 0, {});
  out.ints[57] += 1;
  Validation v = validate_app(out, g, 0, {});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex 57"), std::string::npos) << v.message;
  AppOutput pr = run_app(parse_app("pr"), g, 0, {});
  pr.ranks[3] *= 1.01f;
  EXPECT_FALSE(validate_app(pr, g, 0, {}).ok);
}

// A verifier that finds a wrong value names the vertex as the input does.
TEST(Validate, FailuresNameTheInputsIds) {
  LoadInfo info;
  Graph g = load_graph(testing::write_file("named.txt", "10 20\n20 30\n"), {}, &info);
  AppOutput bfs = run_app(parse_app("bfs"), g, 0, EngineOptions{});
  bfs.ids = &info.ids;
  ASSERT_TRUE(validate_app(bfs, g, 0, EngineOptions{}).ok);
  bfs.ints[2] = 5;  // vertex 30 is at depth 2
  const Validation v = validate_app(bfs, g, 0, EngineOptions{});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex 30"), std::string::npos) << v.message;
  AppOutput wcc = run_app(parse_app("wcc"), g, 0, EngineOptions{});
  wcc.ids = &info.ids;
  wcc.ints[1] = 2;  // 20 labelled by 30, not its component's least id 10
  const Validation w = validate_app(wcc, g, 0, EngineOptions{});
  EXPECT_NE(w.message.find("vertex 20: label 30"), std::string::npos) << w.message;
}

}  // namespace
}  // namespace chatty
