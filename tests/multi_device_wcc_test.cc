// Union-find WCC across host devices: the unions each device makes reach
// the others in the linking stages, whatever the ids and the cuts, and the
// labels equal the sequential union-find's.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "apps/run_app.h"
#include "apps/wcc/reference.h"
#include "datasets/load.h"
#include "runtime/graph/partition.h"
#include "test_util.h"

namespace chatty {
namespace {

// An edge list as a graph, both directions of every edge unless `directed`.
Graph edge_list_graph(const std::string& file, const std::string& edges, bool directed = false) {
  LoadOptions o;
  o.build.symmetrize = !directed;
  return load_graph(testing::write_file(file, edges), o);
}

// WCC with a device per chunk of `part`.
// The edges of the path first - first+1 - ... - last, one per line.
std::string path_edges(int first, int last) {
  std::string s;
  for (int v = first; v < last; ++v) s += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
  return s;
}

AppOutput wcc_on(const Graph& g, const Partition& part) {
  EngineOptions opt;
  opt.devices = part.devices();
  return run_app(parse_app("wcc"), g, 0, opt, &part);
}

// WCC sends the unions each device makes, one exchange per linking stage:
// a path whose ids are scrambled crosses every chunk many times and has its
// minimum far from most of its vertices; small components (one of them
// with a single edge per vertex, so it is linked only in the rest stage
// on one side) and isolated vertices sit beside it.
TEST(MultiDeviceWcc, UnionsFromEveryDeviceMeetInFourSupersteps) {
  constexpr int kPath = 3000;
  std::string s;
  auto id = [](int i) { return (i * 1237 + 17) % kPath; };
  for (int i = 0; i + 1 < kPath; ++i) s += std::to_string(id(i)) + " " + std::to_string(id(i + 1)) + "\n";
  for (int star = 0; star < 20; ++star)  // stars of 5 leaves, centre last
    for (int leaf = 0; leaf < 5; ++leaf)
      s += std::to_string(kPath + star * 6 + leaf) + " " + std::to_string(kPath + star * 6 + 5) + "\n";
  s += std::to_string(kPath + 200) + " " + std::to_string(kPath + 119) + "\n";  // joins the last star late
  const Graph g = edge_list_graph("wcc_path.el", s);
  const std::vector<vid_t> want = reference::wcc(g);
  for (int p = 2; p <= 8; ++p) {
    const AppOutput out = wcc_on(g, partition_graph(g, p));
    EXPECT_EQ(out.ints, want) << p << " devices";
    EXPECT_EQ(out.multi.steps.size(), 4u) << p << " devices";
  }
}

// Many small components with several edges per vertex, their ids either
// scattered over every chunk or in runs that straddle chunk borders: most
// are linked in the rest stage, where a device re-parents roots that peers
// learnt as labels earlier (inner vertices among them) and inner roots that
// no peer has seen.
class MultiDeviceWccComponents : public ::testing::TestWithParam<bool> {};

TEST_P(MultiDeviceWccComponents, RestStageUnionsMatchTheReference) {
  std::mt19937 rng(11);
  std::vector<int> sizes = {1500};
  for (int i = 0; i < 150; ++i) sizes.push_back(3 + int(rng() % 30));
  int n = 0;
  for (int sz : sizes) n += sz;
  std::vector<int> id(size_t(n), 0);
  std::iota(id.begin(), id.end(), 0);
  if (GetParam()) std::shuffle(id.begin(), id.end(), rng);
  std::string s;
  auto edge = [&](int a, int b) { s += std::to_string(id[size_t(a)]) + " " + std::to_string(id[size_t(b)]) + "\n"; };
  int first = 0;
  for (int sz : sizes) {
    for (int i = 1; i < sz; ++i) edge(first + i, first + int(rng() % uint32_t(i)));  // a random tree
    for (int i = 0; i < 2 * sz; ++i) edge(first + int(rng() % uint32_t(sz)), first + int(rng() % uint32_t(sz)));
    first += sz;
  }
  const Graph g = edge_list_graph("wcc_scattered.el", s);
  const std::vector<vid_t> want = reference::wcc(g);
  for (int p = 2; p <= 8; ++p) EXPECT_EQ(wcc_on(g, partition_graph(g, p)).ints, want) << p << " devices";
}

INSTANTIATE_TEST_SUITE_P(Ids, MultiDeviceWccComponents, ::testing::Bool(),
                         [](const auto& i) { return std::string(i.param ? "scattered" : "in_runs"); });

// Device 0 owns [0, 10). The sample links {1, 2, 8} (root 1, an inner
// vertex; 2 borders vertex 10 on device 1) and {0, 4, 5, 6}; only the rest
// stage joins them, through 8-6, and re-parents root 1 under 0. Device 1
// knows 10 ~ 2 ~ 1 from the sample stage, so that union of an inner vertex
// must reach it. Vertices 20..59 form the giant, on device 1.
TEST(MultiDeviceWcc, RestStageUnionOfAnInnerRootReachesPeers) {
  const Graph g =
      edge_list_graph("wcc_inner_root.el", "1 2\n1 8\n2 8\n2 10\n8 6\n0 4\n0 5\n0 6\n4 5\n4 6\n" + path_edges(20, 59));
  ASSERT_EQ(g.num_vertices(), 60u);
  const Partition part = partition_at(g, {0, 10, 60});
  ASSERT_FALSE(part.boundary[1]);
  const AppOutput out = wcc_on(g, part);
  EXPECT_EQ(out.ints, reference::wcc(g));
  EXPECT_EQ(out.ints[10], 0u);
}

// The mirror case: device 0 owns [0, 50), device 1 [50, 60). Device 0
// sends its inner roots 1 and 3 as labels of boundary vertices; only
// device 1's rest stage joins their trees (through 50-52), re-parenting
// root 3, a vertex device 1 knows only as a label it received.
TEST(MultiDeviceWcc, RestStageUnionOfAReceivedRootReachesItsOwner) {
  const Graph g = edge_list_graph("wcc_received_root.el",
                                  "1 2\n3 4\n3 5\n2 50\n4 52\n5 52\n50 51\n50 52\n58 59\n" + path_edges(10, 49));
  ASSERT_EQ(g.num_vertices(), 60u);
  const Partition part = partition_at(g, {0, 50, 60});
  ASSERT_FALSE(part.boundary[3]);
  const AppOutput out = wcc_on(g, part);
  EXPECT_EQ(out.ints, reference::wcc(g));
  EXPECT_EQ(out.ints[4], 1u);
}

// Random sparse graphs (many small components, local and scattered ids,
// directed and undirected) cut at random places into 2..8 chunks.
TEST(MultiDeviceWcc, RandomGraphsAndCutsMatchTheReference) {
  std::mt19937 rng(2026);
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 40 + int(rng() % 400);
    const bool directed = trial % 3 == 0, local = trial % 2 == 0;
    std::string s;
    const int m = n * (1 + int(rng() % 3)) / 2;
    for (int e = 0; e < m; ++e) {
      const int u = int(rng() % uint32_t(n));
      const int v = local ? std::min(n - 1, u + 1 + int(rng() % 6)) : int(rng() % uint32_t(n));
      s += std::to_string(u) + " " + std::to_string(v) + "\n";
    }
    s += std::to_string(n - 1) + " " + std::to_string(n - 1) + "\n";  // |V| = n (self loops are dropped)
    const Graph g = edge_list_graph("wcc_random.el", s, directed);
    const int p = 2 + int(rng() % 7);
    std::vector<vid_t> bounds = {0};
    std::vector<vid_t> cuts(size_t(g.num_vertices()) - 1);
    std::iota(cuts.begin(), cuts.end(), 1);
    std::shuffle(cuts.begin(), cuts.end(), rng);
    cuts.resize(size_t(p) - 1);
    std::sort(cuts.begin(), cuts.end());
    bounds.insert(bounds.end(), cuts.begin(), cuts.end());
    bounds.push_back(g.num_vertices());
    const Partition part = partition_at(g, bounds);
    EXPECT_EQ(wcc_on(g, part).ints, reference::wcc(g))
        << "trial " << trial << ": " << p << " devices, " << (directed ? "directed" : "undirected");
    // Devices of several threads link with CAS, and touch the rest stage's
    // neighbours in a pass before they link.
    const int threads = omp_get_max_threads();
    omp_set_num_threads(3 * p);
    EXPECT_EQ(wcc_on(g, part).ints, reference::wcc(g)) << "trial " << trial << ": " << p << " devices of 3 threads";
    omp_set_num_threads(threads);
  }
}

}  // namespace
}  // namespace chatty
