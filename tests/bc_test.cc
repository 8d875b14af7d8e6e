// Betweenness centrality: known graphs, the kernel against its reference
// from one, several and all sources and on several devices, the verifier.
#include <gtest/gtest.h>
#include <omp.h>

#include "apps/bc/brandes.h"
#include "apps/bc/reference.h"
#include "apps/run_app.h"
#include "apps/wbc/reference.h"
#include "apps/wbc/steps.h"
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

// GPU devices' weighted Brandes (apps/wbc/steps.h) run here one item after
// another, with gpu.cu's rounds and layers written out: the reference's
// scores, on a road graph (its lengths) and on kron with weights 1..3 (many
// shortest paths of equal length); and the app's own run on host devices.
TEST(Wbc, GpuStepsGiveTheReferencesScores) {
  const Graph kron = load_graph("kron:9", {});
  std::string text;
  for (vid_t u = 0; u < kron.num_vertices(); ++u)
    for (eid_t e = kron.out().offsets[u]; e < kron.out().offsets[u + 1]; ++e)
      if (const vid_t v = kron.out().targets[e]; u < v)
        text += std::to_string(u) + " " + std::to_string(v) + " " + std::to_string(1 + (u * 7 + v * 13) % 3) + "\n";
  LoadOptions sym;
  sym.build.symmetrize = true;
  const Graph graphs[] = {load_graph("road:30x20", {}), load_graph(testing::write_file("wbc_kron.wel", text), sym)};
  for (const Graph& g : graphs) {
    ASSERT_TRUE(g.weighted());
    const Csr& c = g.out();
    const vid_t n = g.num_vertices();
    const std::vector<vid_t> sources{0, 5, n / 2, n - 1};
    std::vector<uint64_t> dist(n), tail(1);
    std::vector<double> sigma(n), share(n), score(n, 0.0);
    std::vector<uint32_t> pending(n), changed(1);
    std::vector<uint8_t> now(n), next(n, 0);
    std::vector<vid_t> order(n);
    const eid_t* off = c.offsets.data();
    const vid_t* tgt = c.targets.data();
    const weight_t* w = c.weights.data();
    for (vid_t s : sources) {
      for (vid_t v = 0; v < n; ++v) wbc::Reset{dist.data(), sigma.data(), pending.data(), now.data()}(v);
      wbc::Seed{dist.data(), sigma.data(), now.data(), order.data()}(s);
      for (changed[0] = 1; changed[0];) {
        changed[0] = 0;
        for (vid_t v = 0; v < n; ++v) wbc::Relax{off, tgt, w, dist.data(), now.data(), next.data(), changed.data()}(v);
        std::swap(now, next);
      }
      for (vid_t v = 0; v < n; ++v) wbc::CountPredecessors{off, tgt, w, dist.data(), pending.data()}(v);
      tail[0] = 1;
      std::vector<uint64_t> layer{0, 1};
      while (layer[layer.size() - 2] < layer.back()) {
        const wbc::PassPaths pass{off, tgt, w, dist.data(), sigma.data(), pending.data(), order.data(), tail.data()};
        for (uint64_t i = layer[layer.size() - 2]; i < layer.back(); ++i) pass(i);
        layer.push_back(tail[0]);
      }
      for (size_t j = layer.size() - 1; j-- > 0;)
        for (uint64_t i = layer[j]; i < layer[j + 1]; ++i)
          wbc::Settle{off, tgt, w, dist.data(), sigma.data(), order.data(), share.data(), score.data(), s}(i);
    }
    const std::vector<double> want = reference::weighted_betweenness(g, sources);
    expect_near_all(std::vector<float>(score.begin(), score.end()), want, "steps");
    EngineOptions o;
    o.devices = 2;
    const AppOutput out = run_app(parse_app("wbc"), g, sources, o);
    expect_near_all(out.ranks, want, "host run");
  }
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
