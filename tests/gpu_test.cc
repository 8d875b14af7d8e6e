// The CUDA backend against the CPU backend: every app on P = 1..4 GPU
// devices (virtual devices when the machine has fewer GPUs), with every
// GPU transport and both load-balancing mechanisms, gives the CPU's results
// (exactly for BFS, SSSP, WCC; within tolerance for PageRank). Labelled
// `gpu`; every test skips cleanly on a machine without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "apps/run_app.h"
#include "comm/transport_table.h"
#include "datasets/load.h"
#include "runtime/base/status.h"
#include "runtime/cuda/gpu_plan.h"
#include "runtime/graph/partition.h"
#include "runtime/graph/reorder.h"
#include "test_util.h"

namespace chatty {
namespace {

const GpuInventory& gpus() {
  static const GpuInventory inv = probe_gpus();
  return inv;
}

#define SKIP_WITHOUT_GPU() \
  if (gpus().gpus.empty()) GTEST_SKIP() << "no usable GPU: " << gpus().why_none

struct GpuCase {
  std::string graph;
  int devices;
  std::string comm;
  std::string lb;
};

void PrintTo(const GpuCase& c, std::ostream* os) {
  *os << c.graph << " on " << c.devices << " GPU devices, " << c.comm << ", " << c.lb;
}

std::string case_name(const ::testing::TestParamInfo<GpuCase>& i) {
  std::string g = i.param.graph.find('/') != std::string::npos ? "facebook" : i.param.graph;
  for (char& ch : g)
    if (ch == ':') ch = '_';
  return g + "_P" + std::to_string(i.param.devices) + "_" + i.param.comm + "_" + i.param.lb;
}

Graph load(const std::string& spec) {
  LoadOptions o;
  o.seed = 7;
  Graph g = load_graph(spec, o);
  prepare_graph(parse_app("sssp"), g, true, 7);
  (void)g.in();
  return g;
}

class GpuBackend : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuBackend, EveryAppMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const GpuCase& c = GetParam();
  Graph g = load(c.graph);
  EngineOptions gpu;
  gpu.backend = Backend::kCuda;
  gpu.devices = c.devices;
  gpu.comm = parse_comm(c.comm);
  gpu.gpu_lb = parse_gpu_lb(c.lb);
  const vid_t s = default_source(g);
  for (App app : all_apps()) {
    const AppSpec& a = app_spec(app);
    bool accepted = true;
    try {
      if (a.check) a.check(g, gpu);
    } catch (const Error&) {
      accepted = false;  // kcore: undirected graphs only
    }
    // The CPU's alone (no GPU steps yet) left out, and the whole-graph apps
    // that one GPU device computes (SCC: a test of its own).
    if (a.values != Values::kInts || !accepted || !a.run_gpu || a.whole_graph) continue;
    const AppOutput cpu = run_app(app, g, s, EngineOptions{});
    const AppOutput out = run_app(app, g, s, gpu);
    EXPECT_EQ(out.backend, Backend::kCuda);
    EXPECT_EQ(out.ints, cpu.ints) << app_name(app);
    EXPECT_EQ(int(out.gpu_of.size()), c.devices);
    EXPECT_FALSE(out.multi.steps.empty()) << app_name(app);
  }
  // The iterations of real values (PageRank, Katz, eigenvector): valid by
  // their verifiers, and within float rounding of the CPU's answer.
  for (App app : all_apps()) {
    const AppSpec& a = app_spec(app);
    if (a.values != Values::kReals || a.whole_graph || !a.run_gpu) continue;  // BC and HITS have tests of their own
    const AppOutput out = run_app(app, g, s, gpu);
    const Validation v = validate_app(out, g, s, gpu);
    EXPECT_TRUE(v.ok) << app_name(app) << ": " << v.message;
    const AppOutput cpu = run_app(app, g, s, EngineOptions{});
    ASSERT_EQ(out.ranks.size(), cpu.ranks.size()) << app_name(app);
    double l1 = 0;
    for (size_t i = 0; i < out.ranks.size(); ++i) l1 += std::abs(double(out.ranks[i]) - double(cpu.ranks[i]));
    EXPECT_LT(l1, 1e-4) << app_name(app);
  }
}

std::vector<GpuCase> cases() {
  std::vector<GpuCase> v;
  for (const char* graph : {"kron:14", "urand:13", "grid:120x90", CHATTY_TEST_DATA "/facebook_combined.txt"})
    for (int p = 1; p <= 4; ++p) v.push_back({graph, p, "p2p", "split"});
  for (const char* comm : {"uva", "host", "auto"}) v.push_back({"kron:14", 3, comm, "split"});
  v.push_back({"kron:14", 1, "p2p", "lb"});
  v.push_back({"kron:14", 4, "p2p", "lb"});
  v.push_back({"grid:120x90", 2, "uva", "lb"});
  v.push_back({"kron:14", 1, "p2p", "twc"});
  v.push_back({"kron:14", 3, "p2p", "twc"});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Apps, GpuBackend, ::testing::ValuesIn(cases()), case_name);

TEST(GpuBackendDirections, ForcedPushAndPullAndLabelPropagation) {
  SKIP_WITHOUT_GPU();
  Graph g = load("kron:13");
  const vid_t s = default_source(g);
  const AppOutput cpu = run_app(parse_app("bfs"), g, s, EngineOptions{});
  for (Direction d : {Direction::kPush, Direction::kPull})
    for (int p : {1, 3}) {
      EngineOptions o;
      o.backend = Backend::kCuda, o.devices = p, o.comm = Comm::kP2p, o.direction = d;
      EXPECT_EQ(run_app(parse_app("bfs"), g, s, o).ints, cpu.ints) << direction_name(d) << " P=" << p;
    }
  EngineOptions lp;
  lp.backend = Backend::kCuda, lp.devices = 2, lp.comm = Comm::kP2p, lp.union_find = false;
  EXPECT_EQ(run_app(parse_app("wcc"), g, s, lp).ints, run_app(parse_app("wcc"), g, s, EngineOptions{}).ints);
}

// Shapes the generated graphs lack: a directed graph (its CSC differs from
// its CSR), and a hub with more in-edges than the gather's block threshold.
Graph directed_with_hub() {
  std::string text;
  const int n = 9000;
  for (int i = 0; i < n; ++i) {
    text += std::to_string(i) + " " + std::to_string((i * 7 + 3) % n) + " " + std::to_string(1 + i % 9) + "\n";
    text += std::to_string(i) + " " + std::to_string((i * 13 + 5) % n) + " " + std::to_string(1 + i % 5) + "\n";
    if (i > 0 && i <= 5000) text += std::to_string(i) + " 0 3\n";  // in-degree 5000 >= the 4096 hub threshold
  }
  Graph g = load_graph(chatty::testing::write_file("gpu_directed_hub.wel", text), {});
  (void)g.in();
  return g;
}

double l1(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += std::abs(double(a[i]) - double(b[i]));
  return d;
}

TEST(GpuBackendShapes, DirectedGraphWithAHubMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Graph g = directed_with_hub();
  ASSERT_TRUE(g.directed());
  ASSERT_GE(g.in().degree(0), 4096u);
  for (int p : {1, 3}) {
    EngineOptions o;
    o.backend = Backend::kCuda, o.devices = p, o.comm = Comm::kP2p;
    for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc")})
      EXPECT_EQ(run_app(app, g, 1, o).ints, run_app(app, g, 1, EngineOptions{}).ints) << app_name(app) << " P=" << p;
    const AppOutput pr = run_app(parse_app("pr"), g, 0, o);
    EXPECT_TRUE(validate_app(pr, g, 0, o).ok) << "P=" << p;
    EXPECT_LT(l1(pr.ranks, run_app(parse_app("pr"), g, 0, EngineOptions{}).ranks), 1e-4) << "P=" << p;
  }
}

TEST(GpuBackendShapes, DegreeReorderedPageRankOnSeveralDevices) {
  SKIP_WITHOUT_GPU();
  Graph g = load("kron:14");
  for (int p : {2, 4}) {
    const Partition part = partition_graph(g, p);
    Reordered r = reorder_by_degree(g, part.bounds);
    (void)r.graph.in();
    const Partition chunks = partition_at(r.graph, part.bounds);
    EngineOptions o;
    o.backend = Backend::kCuda, o.devices = p, o.comm = Comm::kP2p;
    const AppOutput gpu = in_input_ids(run_app(parse_app("pr"), r.graph, 0, o, &chunks), r.old_of_new);
    EXPECT_TRUE(validate_app(gpu, g, 0, o).ok) << "P=" << p;
    EXPECT_LT(l1(gpu.ranks, run_app(parse_app("pr"), g, 0, EngineOptions{}).ranks), 1e-4) << "P=" << p;
  }
}

// Every --gpu_gather gives the CPU's ranks: tiled (the default; merge-path
// tiles, rows split between tiles), binned (lane bins, a warp per row, hubs
// split over blocks) and groups (the hub graph's 5000-edge hub is five
// tiles, or three pieces).
TEST(GpuBackendVariants, EveryGatherMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Graph kron = load("kron:14");
  Graph hub = directed_with_hub();
  for (Graph* g : {&kron, &hub}) {
    const std::vector<float> cpu = run_app(parse_app("pr"), *g, 0, EngineOptions{}).ranks;
    for (GpuGather gather : {GpuGather::kTiled, GpuGather::kStreamed, GpuGather::kBinned, GpuGather::kGroups}) {
      for (int p : {1, 3}) {
        EngineOptions o;
        o.backend = Backend::kCuda, o.devices = p, o.comm = Comm::kP2p, o.gpu_gather = gather;
        const AppOutput pr = run_app(parse_app("pr"), *g, 0, o);
        const std::string where =
            std::string(gpu_gather_name(gather)) + " P=" + std::to_string(p) + (g == &hub ? " hub graph" : " kron");
        EXPECT_TRUE(validate_app(pr, *g, 0, o).ok) << where;
        EXPECT_LT(l1(pr.ranks, cpu), 1e-4) << where;
      }
    }
  }
}

// Out-hubs of 6000..21000 edges, several reached in the same superstep, on
// a weighted ring.
Graph out_hubs() {
  std::string text;
  const int n = 30000;
  for (int i = 0; i < n; ++i) text += std::to_string(i) + " " + std::to_string((i + 1) % n) + " 2\n";
  for (int h = 0; h < 4; ++h)
    for (int k = 0; k < 6000 + 5000 * h; ++k)
      text += std::to_string(h * 10) + " " + std::to_string((k * 31 + h * 977) % n) + " " + std::to_string(1 + k % 7) +
              "\n";
  Graph g = load_graph(chatty::testing::write_file("gpu_out_hubs.wel", text), {});
  (void)g.in();
  return g;
}

// --gpu_lb=split (the default: hubs' edges shared by every block) and twc,
// --gpu_bucket_min=warp (the default) and thread give the CPU's depths and
// distances, and split examines each edge of a forced push exactly once.
TEST(GpuBackendVariants, SplitHubsAndBucketMinimaMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  Graph hubs = out_hubs();
  ASSERT_GE(hubs.out().degree(30), 21000u);
  Graph kron = load("kron:14");
  for (Graph* g : {&hubs, &kron}) {
    const vid_t s = g == &hubs ? 0 : default_source(*g);
    const std::string which = g == &hubs ? "hubs" : "kron";
    const AppOutput bfs = run_app(parse_app("bfs"), *g, s, EngineOptions{});
    const AppOutput sssp = run_app(parse_app("sssp"), *g, s, EngineOptions{});
    for (int p : {1, 3}) {
      for (GpuLb lb : {GpuLb::kSplit, GpuLb::kTwc}) {
        EngineOptions o;
        o.backend = Backend::kCuda, o.devices = p, o.comm = Comm::kP2p, o.gpu_lb = lb;
        o.direction = Direction::kPush;
        const std::string where = which + " " + gpu_lb_name(lb) + " P=" + std::to_string(p);
        const AppOutput b = run_app(parse_app("bfs"), *g, s, o);
        EXPECT_EQ(b.ints, bfs.ints) << where;
        if (p == 1 && g == &hubs) {
          EXPECT_EQ(b.multi.edges(), g->num_edges()) << where << ": each edge once";
        }
        EXPECT_EQ(run_app(parse_app("sssp"), *g, s, o).ints, sssp.ints) << where;
      }
      EngineOptions t;
      t.backend = Backend::kCuda, t.devices = p, t.comm = Comm::kP2p, t.gpu_bucket_min = GpuBucketMin::kThread;
      EXPECT_EQ(run_app(parse_app("sssp"), *g, s, t).ints, sssp.ints) << which << " thread minima P=" << p;
    }
  }
}

// --gpu_steps_per_sync: a lone device queueing a grid's thin supersteps
// gives the same depths and reports the same supersteps as a sync per step,
// and counts the edges of the supersteps it did not sync (push from a
// corner of a grid examines each edge once).
TEST(GpuBackendVariants, StepsPerSyncKeepsResultsAndSupersteps) {
  SKIP_WITHOUT_GPU();
  Graph g = load("grid:120x90");
  const vid_t s = default_source(g);
  EngineOptions one;
  one.backend = Backend::kCuda, one.gpu_steps_per_sync = 1, one.direction = Direction::kPush;
  EngineOptions batched = one;
  batched.gpu_steps_per_sync = 16;
  const AppOutput a = run_app(parse_app("bfs"), g, s, one), b = run_app(parse_app("bfs"), g, s, batched);
  EXPECT_EQ(a.ints, b.ints);
  EXPECT_EQ(a.ints, run_app(parse_app("bfs"), g, s, EngineOptions{}).ints);
  EXPECT_EQ(a.multi.supersteps(), b.multi.supersteps());
  EXPECT_LT(b.multi.steps.size(), a.multi.steps.size() / 4) << "the thin run was batched";
  EXPECT_EQ(a.multi.edges(), g.num_edges());
  EXPECT_EQ(b.multi.edges(), g.num_edges());
}

// --gpu_wave: thin supersteps inside one cooperative launch give the CPU's
// answers (BFS depths, SSSP distances, WCC labels by propagation) on
// graphs of long thin frontiers and on a power-law one, where waves hand
// wide frontiers back to the load-balanced kernels; in both directions,
// and with a threshold low enough to switch often. A grid's BFS from its
// corner runs in a few syncs and examines each edge once.
TEST(GpuBackendVariants, WavesKeepEveryAnswer) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"grid:120x90", "road:100x80", "kron:13"}) {
    SCOPED_TRACE(spec);
    Graph g = load(spec);
    const vid_t s = default_source(g);
    EngineOptions cpu;
    cpu.union_find = false;
    for (const char* app : {"bfs", "sssp", "wcc"}) {
      const AppOutput want = run_app(parse_app(app), g, s, cpu);
      for (uint64_t items : {uint64_t(64), uint64_t(1) << 20})
        for (Direction d : {Direction::kAuto, Direction::kPush}) {
          EngineOptions gpu = cpu;
          gpu.backend = Backend::kCuda, gpu.gpu_wave = items, gpu.direction = d;
          const AppOutput got = run_app(parse_app(app), g, s, gpu);
          EXPECT_EQ(got.ints, want.ints) << app << " --gpu_wave=" << items << " " << direction_name(d);
        }
    }
  }
  Graph grid = load("grid:120x90");
  EngineOptions wave;
  wave.backend = Backend::kCuda, wave.direction = Direction::kPush, wave.gpu_wave = 1 << 20;
  const AppOutput b = run_app(parse_app("bfs"), grid, 0, wave);
  EXPECT_EQ(b.multi.edges(), grid.num_edges());
  EXPECT_LE(b.multi.steps.size(), 4u) << "209 levels in waves of up to 1024";
  EXPECT_EQ(b.multi.supersteps(), run_app(parse_app("bfs"), grid, 0, EngineOptions{}).multi.supersteps());
}

// k-truss on a GPU device gives the CPU's truss numbers exactly (they do
// not depend on the order a round's edges are peeled in): kron, whose
// hubs' rows meet in binary searches, ego-Facebook symmetrized (trusses up
// to 97), and a grid (no triangles: every edge 2); and the verifier's pass.
TEST(GpuOperators, TrussNumbersMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"kron:12", "grid:40x30", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    SCOPED_TRACE(spec);
    const Graph loaded = load(spec);
    const Graph g = loaded.directed() ? symmetrized(loaded) : loaded;
    const AppOutput cpu = run_app(parse_app("ktruss"), g, 0, EngineOptions{});
    EngineOptions gpu;
    gpu.backend = Backend::kCuda;
    const AppOutput got = run_app(parse_app("ktruss"), g, 0, gpu);
    EXPECT_EQ(got.pairs, cpu.pairs);
    EXPECT_EQ(got.ints, cpu.ints);
    EXPECT_TRUE(app_spec(parse_app("ktruss")).validate(got, g, 0, gpu).ok);
  }
}

// Label propagation on a GPU device gives the CPU's labels exactly: the
// same classes, swept in the same order, with the same tie rule (on kron,
// whose hubs' rows are sorted by the segmented sort's large-segment path,
// a grid, whose rows tie often, and ego-Facebook symmetrized), and its
// answer passes the verifier; P = 2 devices leave the second idle.
TEST(GpuOperators, LabelPropagationMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"kron:13", "grid:60x50", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    SCOPED_TRACE(spec);
    const Graph loaded = load(spec);
    const Graph g = loaded.directed() ? symmetrized(loaded) : loaded;
    const AppOutput cpu = run_app(parse_app("lpa"), g, 0, EngineOptions{});
    for (int p : {1, 2}) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda, gpu.devices = p;
      AppOutput got = run_app(parse_app("lpa"), g, 0, gpu);
      EXPECT_EQ(got.ints, cpu.ints) << p << " devices";
      EXPECT_TRUE(app_spec(parse_app("lpa")).validate(got, g, 0, gpu).ok) << p << " devices";
    }
  }
}

// A community app on GPU devices (one computes, whatever P) at each
// resolution: the CPU's communities, modularity, levels, every level's cut
// (--keep_levels) and, for Leiden, passes; on kron (hubs past a segmented
// sort's small segments), a grid, a road graph (its lengths as weights)
// and ego-Facebook; the verifier's pass.
void expect_gpu_communities(const char* app, std::initializer_list<double> resolutions) {
  for (const char* spec : {"kron:13", "grid:60x50", "road:40x30", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    SCOPED_TRACE(spec);
    const Graph loaded = load(spec);
    const Graph g = loaded.directed() ? symmetrized(loaded) : loaded;
    for (double resolution : resolutions) {
      EngineOptions o;
      o.resolution = resolution, o.keep_levels = true;
      const AppOutput cpu = run_app(parse_app(app), g, 0, o);
      for (int p : {1, 2}) {
        EngineOptions gpu = o;
        gpu.backend = Backend::kCuda, gpu.devices = p;
        const AppOutput got = run_app(parse_app(app), g, 0, gpu);
        EXPECT_EQ(got.backend, Backend::kCuda);
        EXPECT_EQ(got.ints, cpu.ints) << p << " devices, resolution " << resolution;
        EXPECT_EQ(got.figures, cpu.figures);  // modularity, levels, Leiden's passes
        EXPECT_EQ(got.levels, cpu.levels);
        EXPECT_TRUE(app_spec(parse_app(app)).validate(got, g, 0, gpu).ok) << p << " devices";
      }
    }
  }
}

TEST(GpuOperators, LouvainMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_gpu_communities("louvain", {1.0, 0.5});
}

// Leiden also at a resolution where some vertices are not well connected.
TEST(GpuOperators, LeidenMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_gpu_communities("leiden", {1.0, 6.0});
}

// Triangle counting and betweenness on GPU devices equal the CPU's: the
// per-vertex triangles exactly, by rows and by entries (on relabelled kron and facebook, and the
// unrelabelled urand; directed Facebook symmetrized for TC), BC within 1e-6
// relative from sources split over 1..4 devices, and the verifier's pass.
TEST(GpuOperators, TrianglesAndBetweennessMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"kron:13", "grid:60x50", "urand:12", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    const Graph g = load(spec);
    const Graph undirected = g.directed() ? symmetrized(g) : Graph();
    const Graph& t = g.directed() ? undirected : g;
    const vid_t n = g.num_vertices();
    const std::vector<vid_t> sources{default_source(g), 1, n / 3, n / 2, n - 1};
    const AppOutput tc_cpu = run_app(parse_app("tc"), t, 0, EngineOptions{});
    const AppOutput bc_cpu = run_app(parse_app("bc"), g, sources, EngineOptions{});
    for (int p = 1; p <= 4; ++p) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda;
      gpu.devices = p;
      for (GpuTc how : {GpuTc::kRows, GpuTc::kEntries}) {
        gpu.gpu_tc = how;
        const AppOutput tc = run_app(parse_app("tc"), t, 0, gpu);
        EXPECT_EQ(tc.backend, Backend::kCuda);
        EXPECT_EQ(int(tc.gpu_of.size()), p);
        EXPECT_EQ(tc.counts, tc_cpu.counts) << spec << " P=" << p << " --gpu_tc=" << gpu_tc_name(how);
      }
      const AppOutput bc = run_app(parse_app("bc"), g, sources, gpu);
      ASSERT_EQ(bc.ranks.size(), bc_cpu.ranks.size());
      double worst = 0;
      for (size_t v = 0; v < bc.ranks.size(); ++v)
        worst = std::max(worst, std::abs(double(bc.ranks[v]) - double(bc_cpu.ranks[v])) /
                                    std::max(1.0, std::abs(double(bc_cpu.ranks[v]))));
      EXPECT_LT(worst, 1e-6) << spec << " P=" << p;
      const Validation v = validate_app(bc, g, sources[0], gpu);
      EXPECT_TRUE(v.ok) << spec << " P=" << p << ": " << v.message;
      EXPECT_GT(bc.multi.edges(), 0u);
    }
  }
}

// Weighted betweenness on GPU devices (sources spread over them): within
// rounding of the CPU's scores and valid by its verifier, on a road graph
// (its lengths) and on kron and ego-Facebook with the default weights.
TEST(GpuOperators, WeightedBetweennessMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"road:40x30", "kron:12", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    const Graph g = load(spec);
    const vid_t n = g.num_vertices();
    const std::vector<vid_t> sources{default_source(g), 1, n / 3, n - 1};
    const AppOutput cpu = run_app(parse_app("wbc"), g, sources, EngineOptions{});
    for (int p : {1, 3}) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda;
      gpu.devices = p;
      const AppOutput out = run_app(parse_app("wbc"), g, sources, gpu);
      EXPECT_EQ(out.backend, Backend::kCuda);
      ASSERT_EQ(out.ranks.size(), cpu.ranks.size());
      double worst = 0;
      for (size_t v = 0; v < out.ranks.size(); ++v)
        worst = std::max(worst, std::abs(double(out.ranks[v]) - double(cpu.ranks[v])) /
                                    std::max(1.0, std::abs(double(cpu.ranks[v]))));
      EXPECT_LT(worst, 1e-6) << spec << " P=" << p;
      const Validation v = validate_app(out, g, sources[0], gpu);
      EXPECT_TRUE(v.ok) << spec << " P=" << p << ": " << v.message;
      EXPECT_GT(out.multi.edges(), 0u);
    }
  }
}

// HITS on GPU devices (one computes, whatever P): valid by its verifier
// and within float rounding of the CPU's hubs and authorities, with and
// without weights, on a directed graph with dangling vertices too.
TEST(GpuOperators, HitsMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"kron:13", "grid:60x50", "road:40x30", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    const Graph g = load(spec);
    const AppOutput cpu = run_app(parse_app("hits"), g, 0, EngineOptions{});
    for (int p : {1, 3}) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda;
      gpu.devices = p;
      const AppOutput out = run_app(parse_app("hits"), g, 0, gpu);
      EXPECT_EQ(out.backend, Backend::kCuda);
      const Validation v = validate_app(out, g, 0, gpu);
      EXPECT_TRUE(v.ok) << spec << " P=" << p << ": " << v.message;
      ASSERT_EQ(out.ranks.size(), cpu.ranks.size());
      ASSERT_EQ(out.second.size(), cpu.second.size());
      double l1 = 0;
      for (size_t i = 0; i < out.ranks.size(); ++i)
        l1 += std::abs(double(out.ranks[i]) - double(cpu.ranks[i])) +
              std::abs(double(out.second[i]) - double(cpu.second[i]));
      EXPECT_LT(l1, 1e-5) << spec << " P=" << p;
      EXPECT_LE(std::abs(double(out.multi.supersteps()) - double(cpu.multi.supersteps())), 1.0) << spec;
    }
  }
}

// SCC on GPU devices (one computes, whatever P) labels every vertex as the
// CPU does, on directed graphs whose rounds peel, colour and claim: random
// ones with planted cycles, and a long chain of two-cycles.
TEST(GpuOperators, StrongComponentsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(11);
  std::vector<std::string> texts;
  for (vid_t n : {200u, 5000u}) {
    std::string text = "# Directed graph\n";
    std::uniform_int_distribution<vid_t> any(0, n - 1);
    for (vid_t i = 0; i < 2 * n; ++i) text += std::to_string(any(rng)) + " " + std::to_string(any(rng)) + "\n";
    for (vid_t v = 0; v + 7 < n; v += 50)  // cycles of 7
      for (vid_t k = 0; k < 7; ++k) text += std::to_string(v + k) + " " + std::to_string(v + (k + 1) % 7) + "\n";
    texts.push_back(text);
  }
  std::string chain = "# Directed graph\n";
  for (vid_t v = 0; v < 3000; ++v) chain += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
  for (vid_t v = 0; v < 3000; v += 2) chain += std::to_string(v + 1) + " " + std::to_string(v) + "\n";
  texts.push_back(chain);
  for (size_t i = 0; i < texts.size(); ++i) {
    const Graph g = load_graph(testing::write_file("scc_gpu_" + std::to_string(i) + ".el", texts[i]), {});
    const AppOutput cpu = run_app(parse_app("scc"), g, 0, EngineOptions{});
    for (int p : {1, 3}) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda;
      gpu.devices = p;
      const AppOutput out = run_app(parse_app("scc"), g, 0, gpu);
      EXPECT_EQ(out.backend, Backend::kCuda);
      EXPECT_EQ(out.ints, cpu.ints) << "graph " << i << " P=" << p;
      EXPECT_TRUE(validate_app(out, g, 0, gpu).ok) << "graph " << i;
    }
  }
}

// Closeness, harmonic centrality and eccentricity on GPU devices (one
// walks, 64 walks a level) as the CPU's, on graphs of few and of many
// levels, undirected and directed.
TEST(GpuOperators, DistanceMeasuresMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(5);
  std::string directed = "# Directed graph\n";
  std::uniform_int_distribution<vid_t> any(0, 999);
  for (int i = 0; i < 4000; ++i) directed += std::to_string(any(rng)) + " " + std::to_string(any(rng)) + "\n";
  const Graph graphs[] = {load("kron:11"), load("grid:50x40"),
                          load_graph(testing::write_file("gpu_walks_dir.el", directed), {})};
  for (const Graph& g : graphs)
    for (DistanceMeasure m :
         {DistanceMeasure::kCloseness, DistanceMeasure::kHarmonic, DistanceMeasure::kEccentricity}) {
      EngineOptions cpu_opt;
      cpu_opt.distance_measure = m;
      const AppOutput cpu = run_app(parse_app("closeness"), g, 0, cpu_opt);
      for (int p : {1, 3}) {
        EngineOptions gpu = cpu_opt;
        gpu.backend = Backend::kCuda;
        gpu.devices = p;
        const AppOutput out = run_app(parse_app("closeness"), g, 0, gpu);
        EXPECT_EQ(out.backend, Backend::kCuda);
        EXPECT_TRUE(validate_app(out, g, 0, gpu).ok) << g.num_vertices() << " vertices P=" << p;
        ASSERT_EQ(out.ranks.size(), cpu.ranks.size());
        for (size_t v = 0; v < out.ranks.size(); ++v) {
          if (out.ranks[v] == cpu.ranks[v]) continue;  // eccentricity's infinities too
          EXPECT_NEAR(out.ranks[v], cpu.ranks[v], 1e-6 * std::max(1.0f, std::abs(cpu.ranks[v]))) << v;
        }
      }
    }
}

// Similarity on GPU devices (one scores, whatever P): given pairs, every
// edge and each vertex's K most similar, bit for bit the CPU's coefficients
// (the same quotients of whole numbers) and the CPU's order.
TEST(GpuOperators, SimilarityMatchesTheCpuBitForBit) {
  SKIP_WITHOUT_GPU();
  for (const char* spec : {"kron:12", "grid:40x30", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    const Graph loaded = load(spec);
    const Graph g = loaded.directed() ? symmetrized(loaded) : Graph();
    const Graph& u = loaded.directed() ? g : loaded;
    const vid_t n = u.num_vertices();
    PairQuery pairs;
    for (vid_t i = 0; i < 500; ++i) pairs.pairs.push_back({(i * 7919u) % n, (i * 104729u + 1) % n});
    const PairQuery every_edge;
    for (const PairQuery* q : {static_cast<const PairQuery*>(&pairs), &every_edge}) {
      const AppOutput cpu = run_app(parse_app("similarity"), u, *q, EngineOptions{});
      for (int p : {1, 3}) {
        EngineOptions gpu;
        gpu.backend = Backend::kCuda;
        gpu.devices = p;
        const AppOutput out = run_app(parse_app("similarity"), u, *q, gpu);
        EXPECT_EQ(out.backend, Backend::kCuda);
        EXPECT_EQ(out.pairs, cpu.pairs) << spec;
        EXPECT_EQ(out.scores, cpu.scores) << spec << " P=" << p;
      }
    }
    PairQuery top, some;
    top.top_k = 3;
    some.top_k = 40;  // past most vertices' two-hop counts: short lists end in zeros
    for (vid_t v = 0; v < n; v += 17) some.of.push_back(v);
    for (const PairQuery* q : {&top, &some}) {
      const AppOutput cpu = run_app(parse_app("similarity"), u, *q, EngineOptions{});
      for (int p : {1, 2}) {
        EngineOptions gpu;
        gpu.backend = Backend::kCuda;
        gpu.devices = p;
        const AppOutput out = run_app(parse_app("similarity"), u, *q, gpu);
        EXPECT_EQ(out.pairs, cpu.pairs) << spec << " top " << q->top_k;
        EXPECT_EQ(out.scores, cpu.scores) << spec << " top " << q->top_k << " P=" << p;
      }
    }
  }
}

// A wheel: a hub above a ring of 1999 vertices. Too few edges a vertex to
// relabel, so the hub's lower list holds the whole ring, longer than a
// warp's shared-memory row: the rows mechanism searches it in place. The
// hub is in 1999 triangles, every ring vertex in 2.
TEST(GpuOperators, AHubLongerThanTheStagedRow) {
  SKIP_WITHOUT_GPU();
  const vid_t ring = 1999;
  std::string text = "# Undirected graph\n";
  for (vid_t v = 0; v < ring; ++v)
    text += std::to_string(v) + " " + std::to_string((v + 1) % ring) + "\n" + std::to_string(v) + " " +
            std::to_string(ring) + "\n";
  const Graph g = load_graph(testing::write_file("wheel.el", text), {});
  std::vector<uint64_t> want(ring + 1, 2);
  want[ring] = ring;
  for (GpuTc how : {GpuTc::kRows, GpuTc::kEntries})
    for (int p : {1, 3}) {
      EngineOptions gpu;
      gpu.backend = Backend::kCuda, gpu.devices = p, gpu.gpu_tc = how;
      EXPECT_EQ(run_app(parse_app("tc"), g, 0, gpu).counts, want) << gpu_tc_name(how) << " P=" << p;
    }
}

TEST(GpuBackendComm, NcclAcrossDistinctGpus) {
  SKIP_WITHOUT_GPU();
  if (gpus().gpus.size() < 2) GTEST_SKIP() << "NCCL needs two GPUs; this machine has one";
  Graph g = load("kron:14");
  const vid_t s = default_source(g);
  EngineOptions o;
  o.backend = Backend::kCuda, o.devices = int(gpus().gpus.size()), o.comm = Comm::kNccl;
  for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc")})
    EXPECT_EQ(run_app(app, g, s, o).ints, run_app(app, g, s, EngineOptions{}).ints) << app_name(app);
}

TEST(GpuBackendErrors, NcclOnVirtualDevicesIsRefused) {
  SKIP_WITHOUT_GPU();
  Graph g = load("kron:10");
  EngineOptions o;
  o.backend = Backend::kCuda, o.devices = int(gpus().gpus.size()) + 1, o.comm = Comm::kNccl;
  EXPECT_THROW(run_app(parse_app("bfs"), g, 0, o), Error);
}

}  // namespace
}  // namespace chatty
