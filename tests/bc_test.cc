// Betweenness centrality: known graphs, the kernel against its reference
// from one, several and all sources and on several devices, the verifier.
#include <gtest/gtest.h>
#include <omp.h>

#include "apps/bc/brandes.h"
#include "apps/bc/reference.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

void expect_near_all(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t v = 0; v < want.size(); ++v)
    EXPECT_NEAR(double(got[v]), want[v], 1e-6 * std::max(1.0, want[v])) << what << " vertex " << v;
}

TEST(Bc, PathAndStar) {
  // Path 0-1-2-3-4 (undirected): from every source, vertex 2 lies on the
  // paths 0-3, 0-4, 1-3, 1-4 and back: 8; 1 and 3 on 0-2, 0-3, 0-4 and back: 6.
  const Graph path = load_graph(testing::write_file("bc_path.el", "# Undirected graph\n0 1\n1 2\n2 3\n3 4\n"), {});
  const std::vector<vid_t> all{0, 1, 2, 3, 4};
  EXPECT_EQ(reference::betweenness(path, all), (std::vector<double>{0, 6, 8, 6, 0}));
  EngineOptions o;
  for (int p : {1, 2}) {
    o.devices = p;
    expect_near_all(run_app(parse_app("bc"), path, all, o).ranks, {0, 6, 8, 6, 0}, "path");
  }
  // Two shortest paths 0-1-3 and 0-2-3 share the dependency of 3 on 0.
  const Graph diamond = load_graph(testing::write_file("bc_diamond.el", "0 1\n0 2\n1 3\n2 3\n"), {});
  expect_near_all(run_app(parse_app("bc"), diamond, 0, EngineOptions{}).ranks, {0, 0.5, 0.5, 0}, "diamond");
}

TEST(Bc, KernelMatchesReference) {
  for (const char* spec : {"kron:10", "urand:10:4", "grid:20x15"}) {
    const Graph g = load_graph(spec, {});
    const std::vector<vid_t> some{0, 7, 100, 250};
    const std::vector<double> want = reference::betweenness(g, some);
    for (int p : {1, 3}) {
      EngineOptions o;
      o.devices = p;
      const AppOutput out = run_app(parse_app("bc"), g, some, o);
      expect_near_all(out.ranks, want, std::string(spec) + " P=" + std::to_string(p));
      EXPECT_TRUE(validate_app(out, g, some[0], o).ok);
    }
  }
}

// Sources shared by levels (one team) and by source (one per thread) give
// the reference's scores; the automatic rule takes the grid's small levels
// by source and kron's large ones by levels.
TEST(Bc, BothSplitsMatchTheReference) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);  // the rule scales with the threads
  for (const char* spec : {"kron:10", "grid:20x15", "kron:12"}) {
    const Graph g = load_graph(spec, {});
    const std::vector<vid_t> some{0, 7, 100, 250, 7};
    const std::vector<double> want = reference::betweenness(g, some);
    for (bc::Split how : {bc::Split::kLevels, bc::Split::kSources})
      for (int p : {1, 3}) {
        host::HostOperators h(p);
        const bc::Scores s = bc::brandes(h, g, some, how);
        EXPECT_EQ(s.by_source, how == bc::Split::kSources);
        expect_near_all(std::vector<float>(s.score.begin(), s.score.end()), want,
                        std::string(spec) + (s.by_source ? " by source" : " by levels") + " P=" + std::to_string(p));
      }
  }
  const Graph grid = load_graph("grid:60x60", {}), kron = load_graph("kron:12", {});
  const std::vector<vid_t> three{0, 1, 2};
  host::HostOperators h(1);
  EXPECT_TRUE(bc::brandes(h, grid, three).by_source);
  EXPECT_FALSE(bc::brandes(h, kron, three).by_source);
  EXPECT_EQ(bc::probe_levels(grid.out(), 0, 2), bc::Levels::kSmall);
  EXPECT_EQ(bc::probe_levels(grid.out(), 0, 0), bc::Levels::kLarge);  // no level too small for no threads
  vid_t hub = 0, isolated = 0;
  for (vid_t v = 0; v < kron.num_vertices(); ++v) {
    if (kron.out().degree(v) > kron.out().degree(hub)) hub = v;
    if (kron.out().degree(v) == 0) isolated = v;
  }
  ASSERT_EQ(kron.out().degree(isolated), 0u);
  EXPECT_EQ(bc::probe_levels(kron.out(), hub, 2), bc::Levels::kLarge);
  EXPECT_EQ(bc::probe_levels(kron.out(), isolated, 2), bc::Levels::kUnsure);
  omp_set_num_threads(threads);
}

TEST(Bc, VerifierCatchesAWrongScore) {
  const Graph g = load_graph("kron:9", {});
  EngineOptions o;
  AppOutput out = run_app(parse_app("bc"), g, std::vector<vid_t>{1, 2}, o);
  out.ranks[5] += 1;
  const Validation v = validate_app(out, g, 1, o);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex 5"), std::string::npos) << v.message;
  EXPECT_NE(testing::error_of([&] {
              run_app(parse_app("bfs"), g, std::vector<vid_t>{1, 2}, o);
            }).find("one source"),
            std::string::npos);
}

}  // namespace
}  // namespace chatty
