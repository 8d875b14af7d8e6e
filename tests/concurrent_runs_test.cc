// Runs of the engine from several threads of one process at once: each
// with its own graph (or the same one, read-only) and options, each
// answer the one it gives alone. ThreadSanitizer runs this suite too
// (scripts/test.sh), which finds shared state that a run writes.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "api/chattygraph.h"
#include "apps/run_app.h"
#include "datasets/load.h"

namespace chatty {
namespace {

TEST(ConcurrentRuns, TwoThreadsTwoGraphsEachGetTheirOwnAnswer) {
  Graph big = load_graph("kron:11", {});
  Graph small = load_graph("grid:20x20", {});
  prepare_graph(parse_app("bfs"), small, true, 1);
  prepare_graph(parse_app("bc"), big, true, 1);
  EngineOptions two;
  two.devices = 2;
  std::vector<vid_t> every(big.num_vertices());
  for (vid_t v = 0; v < big.num_vertices(); ++v) every[v] = v;
  every.resize(256);  // a long run beside a short one
  const AppOutput bc_alone = run_app(parse_app("bc"), big, every, two);
  const AppOutput bfs_alone = run_app(parse_app("bfs"), small, 0, EngineOptions{});

  AppOutput bc_both, bfs_both;
  std::atomic<bool> long_done{false};
  bool short_ended_first = false;
  std::thread long_run([&] {
    bc_both = run_app(parse_app("bc"), big, every, two);
    long_done = true;
  });
  std::thread short_run([&] {
    for (int i = 0; i < 3; ++i) bfs_both = run_app(parse_app("bfs"), small, 0, EngineOptions{});
    short_ended_first = !long_done;
  });
  long_run.join();
  short_run.join();
  EXPECT_EQ(bfs_both.ints, bfs_alone.ints);
  ASSERT_EQ(bc_both.ranks.size(), bc_alone.ranks.size());
  for (size_t v = 0; v < bc_alone.ranks.size(); ++v)
    EXPECT_NEAR(bc_both.ranks[v], bc_alone.ranks[v], 1e-4 * std::max(1.0f, bc_alone.ranks[v])) << v;
  EXPECT_TRUE(short_ended_first) << "the short run waited for the long one";
}

TEST(ConcurrentRuns, TwoThreadsOnTheSameGraph) {
  Graph g = load_graph("kron:10", {});
  prepare_graph(parse_app("sssp"), g, true, 1);
  prepare_graph(parse_app("pr"), g, true, 1);
  const AppOutput sssp_alone = run_app(parse_app("sssp"), g, 0, EngineOptions{});
  const AppOutput pr_alone = run_app(parse_app("pr"), g, 0, EngineOptions{});
  AppOutput sssp_both, pr_both;
  std::thread a([&] { sssp_both = run_app(parse_app("sssp"), g, 0, EngineOptions{}); });
  std::thread b([&] { pr_both = run_app(parse_app("pr"), g, 0, EngineOptions{}); });
  a.join();
  b.join();
  EXPECT_EQ(sssp_both.ints, sssp_alone.ints);
  ASSERT_EQ(pr_both.ranks.size(), pr_alone.ranks.size());
  for (size_t v = 0; v < pr_alone.ranks.size(); ++v) EXPECT_NEAR(pr_both.ranks[v], pr_alone.ranks[v], 1e-6) << v;
}

// The library's whole path (options checked, the graph prepared and cached,
// the job run and reported) from two threads on two graphs, and a third
// thread on the first graph with other options.
TEST(ConcurrentRuns, ThroughTheLibrary) {
  const chattygraph::Graph big = chattygraph::Graph::load("kron:11");
  const chattygraph::Graph small = chattygraph::Graph::load("grid:20x20");
  chattygraph::Options bc;
  for (uint64_t s = 0; s < 128; ++s) bc.sources.push_back(big.id_of(s));
  bc.devices = 2;
  chattygraph::Options bfs;
  bfs.source = 0;
  chattygraph::Options pr;
  pr.threads = 1;
  const chattygraph::Result bc_alone = chattygraph::run(big, "bc", bc);
  const chattygraph::Result bfs_alone = chattygraph::run(small, "bfs", bfs);
  const chattygraph::Result pr_alone = chattygraph::run(big, "pr", pr);
  chattygraph::Result bc_both, bfs_both, pr_both;
  std::thread a([&] { bc_both = chattygraph::run(big, "bc", bc); });
  std::thread b([&] {
    for (int i = 0; i < 3; ++i) bfs_both = chattygraph::run(small, "bfs", bfs);
  });
  std::thread c([&] { pr_both = chattygraph::run(big, "pr", pr); });
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(bfs_both.ints, bfs_alone.ints);
  EXPECT_EQ(bfs_both.ids, bfs_alone.ids);
  ASSERT_EQ(bc_both.reals.size(), bc_alone.reals.size());
  for (size_t v = 0; v < bc_alone.reals.size(); ++v)
    EXPECT_NEAR(bc_both.reals[v], bc_alone.reals[v], 1e-4 * std::max(1.0f, bc_alone.reals[v])) << v;
  ASSERT_EQ(pr_both.reals.size(), pr_alone.reals.size());
  for (size_t v = 0; v < pr_alone.reals.size(); ++v) EXPECT_NEAR(pr_both.reals[v], pr_alone.reals[v], 1e-6) << v;
}

}  // namespace
}  // namespace chatty
