// The multi-device runtime: every app on P = 1..8 host devices, with both
// host transports, gives the P = 1 results (exactly for BFS, SSSP, WCC;
// within tolerance for PageRank) on kron, urand, grid and the real graph.
#include <gtest/gtest.h>

#include "apps/references.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "runtime/partition.h"
#include "test_util.h"

namespace chatty {
namespace {

struct MultiCase {
  std::string graph;
  int devices;
  std::string comm;
};

void PrintTo(const MultiCase& c, std::ostream* os) { *os << c.graph << " on " << c.devices << " devices, " << c.comm; }

std::string case_name(const ::testing::TestParamInfo<MultiCase>& i) {
  std::string g = i.param.graph.find('/') != std::string::npos ? "facebook" : i.param.graph;
  for (char& ch : g)
    if (ch == ':') ch = '_';
  return g + "_P" + std::to_string(i.param.devices) + "_" + i.param.comm;
}

class MultiDevice : public ::testing::TestWithParam<MultiCase> {
 protected:
  static Graph load(const std::string& spec) {
    LoadOptions o;
    o.seed = 5;
    Graph g = load_graph(spec, o);
    prepare_graph(App::kSssp, g, true, 5);
    return g;
  }
  EngineOptions options() const {
    EngineOptions o;
    o.devices = GetParam().devices;
    o.comm = GetParam().comm;
    return o;
  }
};

TEST_P(MultiDevice, EveryAppMatchesOneDevice) {
  Graph g = load(GetParam().graph);
  const EngineOptions opt = options();
  const Partition part = partition_graph(g, opt.devices);
  const vid_t s = default_source(g);
  for (App app : {App::kBfs, App::kSssp, App::kWcc}) {
    AppOutput one = run_app(app, g, s, EngineOptions{});
    AppOutput many = run_app(app, g, s, opt, &part);
    EXPECT_EQ(many.ints, one.ints) << app_name(app);
    EXPECT_EQ(many.multi.devices, opt.devices);
    EXPECT_FALSE(many.multi.steps.empty());
  }
  AppOutput pr = run_app(App::kPageRank, g, s, opt, &part);
  Validation v = validate_app(pr, g, s, opt);
  EXPECT_TRUE(v.ok) << v.message;
  // Without dangling vertices every rank is summed in the same order on any
  // P, so the ranks are bit-identical (a grid also has vertices whose rank
  // does not change in a step, which replicas must still see).
  if (GetParam().graph.rfind("grid", 0) == 0) {
    EXPECT_EQ(pr.ranks, run_app(App::kPageRank, g, s, EngineOptions{}).ranks);
  }
}

std::vector<MultiCase> cases() {
  std::vector<MultiCase> c;
  for (int p = 1; p <= 8; ++p)
    for (const char* comm : {"host", "host_read"}) {
      c.push_back({"kron:11", p, comm});
      c.push_back({"grid:40x25", p, comm});
    }
  for (int p : {2, 3, 5}) {
    c.push_back({"urand:11:6", p, "host"});
    c.push_back({testing::data_file("facebook_combined.txt"), p, "host_read"});
  }
  return c;
}

INSTANTIATE_TEST_SUITE_P(Graphs, MultiDevice, ::testing::ValuesIn(cases()), case_name);

TEST(MultiDeviceDirected, DirectedGraphAndForcedDirections) {
  std::string s;
  for (int i = 0; i < 500; ++i)
    s += std::to_string(i) + " " + std::to_string((i * 37 + 11) % 500) + " " + std::to_string(1 + i % 9) + "\n";
  Graph g = load_graph(testing::write_file("mdir.wel", s), {});
  const Partition part = partition_graph(g, 4);
  for (Direction dir : {Direction::kPush, Direction::kPull, Direction::kAuto}) {
    EngineOptions opt;
    opt.devices = 4;
    opt.direction = dir;
    for (App app : {App::kBfs, App::kSssp, App::kWcc})
      EXPECT_EQ(run_app(app, g, 0, opt, &part).ints, run_app(app, g, 0, {}).ints)
          << app_name(app) << " " << direction_name(dir);
  }
  EngineOptions lp;
  lp.devices = 3;
  lp.union_find = false;
  Graph u = load_graph("urand:10:2", {});
  const Partition p3 = partition_graph(u, 3);
  EXPECT_EQ(run_app(App::kWcc, u, 0, lp, &p3).ints, reference::wcc(u));
}

TEST(Partition, BalancedChunksAndBoundaries) {
  Graph g = load_graph("kron:12", {});
  for (int p : {1, 2, 3, 8}) {
    const Partition part = partition_graph(g, p);
    ASSERT_EQ(part.devices(), p);
    EXPECT_EQ(part.bounds.front(), 0u);
    EXPECT_EQ(part.bounds.back(), g.num_vertices());
    for (int d = 0; d < p; ++d) EXPECT_LT(part.begin(d), part.end(d));
    // Boundary marks are exactly the endpoints of crossing edges.
    std::vector<uint8_t> want(g.num_vertices(), 0);
    const Csr& c = g.out();
    for (vid_t u = 0; u < g.num_vertices(); ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (part.owner(u) != part.owner(c.targets[e])) want[u] = want[c.targets[e]] = 1;
    EXPECT_EQ(part.boundary, want);
    // The adjustment never leaves the balance worse than equal vertex counts.
    double f = 0, naive = 0;
    for (int d = 0; d < p; ++d) {
      f += balance_of(g, p, part.begin(d), part.end(d));
      naive +=
          balance_of(g, p, vid_t(uint64_t(g.num_vertices()) * d / p), vid_t(uint64_t(g.num_vertices()) * (d + 1) / p));
    }
    EXPECT_LE(f, naive + 1e-9) << p;
  }
  EXPECT_THROW(partition_graph(load_graph("grid:2x2", {}), 5), Error);
}

TEST(Partition, PaperExampleAdjustsTheCut) {
  // Seed 000 figure 2: 8 vertices, Gemini's cut [0,2,4,8] -> [0,2,6,8]
  // once the neighbour pair is rebalanced. Degrees chosen so the first
  // chunk is already balanced and the last holds most edges.
  std::string s = "0 1\n0 2\n1 0\n1 3\n1 4\n4 5\n5 6\n5 7\n6 7\n7 4\n7 6\n6 5\n";
  Graph g = load_graph(testing::write_file("paper.el", s), {});
  const Partition part = partition_graph(g, 3);
  double f = 0;
  for (int d = 0; d < 3; ++d) f += balance_of(g, 3, part.begin(d), part.end(d));
  // No single cut move improves the sum any further.
  for (int i = 1; i < 3; ++i)
    for (vid_t c = part.bounds[size_t(i) - 1] + 1; c < part.bounds[size_t(i) + 1]; ++c) {
      std::vector<vid_t> b = part.bounds;
      b[size_t(i)] = c;
      double f2 = 0;
      for (int d = 0; d < 3; ++d) f2 += balance_of(g, 3, b[size_t(d)], b[size_t(d) + 1]);
      EXPECT_GE(f2, f - 1e-9);
    }
}

}  // namespace
}  // namespace chatty
