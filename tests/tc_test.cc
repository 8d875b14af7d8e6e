// Triangle counting: known graphs, the kernel against its reference with
// and without relabelling and on several devices, and the refusals.
#include <gtest/gtest.h>

#include "apps/run_app.h"
#include "apps/tc/count.h"
#include "apps/tc/reference.h"
#include "datasets/cgr_format.h"
#include "datasets/load.h"
#include "runtime/graph/orient.h"
#include "runtime/graph/reorder.h"
#include "test_util.h"

namespace chatty {
namespace {

Graph undirected(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges, const LoadOptions& opt = {}) {
  std::string text = "# Undirected graph\n# Nodes: " + std::to_string(n) + "\n";
  for (auto [u, v] : edges) text += std::to_string(u) + " " + std::to_string(v) + "\n";
  return load_graph(testing::write_file("tc.el", text), opt);
}

TEST(Tc, CliqueAndTail) {
  // K5 on 0..4 (each vertex in C(4,2) = 6 triangles, 10 in all), a
  // triangle 5-6-7 hanging off 4 by an edge, a self-loop, an isolated 8.
  std::vector<std::pair<vid_t, vid_t>> e;
  for (vid_t u = 0; u < 5; ++u)
    for (vid_t v = u + 1; v < 5; ++v) e.push_back({u, v});
  for (auto x : {std::pair<vid_t, vid_t>{4, 5}, {5, 6}, {6, 7}, {5, 7}}) e.push_back(x);
  LoadOptions keep_loops;
  keep_loops.build.drop_self_loops = false;
  e.push_back({2, 2});
  const Graph g = undirected(9, e, keep_loops);
  const std::vector<uint64_t> want{6, 6, 6, 6, 6, 1, 1, 1, 0};
  EXPECT_EQ(reference::triangles(g), want);
  for (int p : {1, 2, 3}) {
    EngineOptions o;
    o.devices = p;
    const AppOutput out = run_app(parse_app("tc"), g, 0, o);
    EXPECT_EQ(out.counts, want) << p << " devices";
    EXPECT_TRUE(validate_app(out, g, 0, o).ok);
  }
}

TEST(Tc, KernelMatchesReferenceOnGeneratedGraphs) {
  for (const char* spec : {"kron:12", "urand:12:8", "grid:40x30"}) {
    const Graph g = load_graph(spec, {});
    const std::vector<uint64_t> want = reference::triangles(g);
    for (int p : {1, 4}) {
      EngineOptions o;
      o.devices = p;
      EXPECT_EQ(run_app(parse_app("tc"), g, 0, o).counts, want) << spec << " on " << p << " devices";
    }
    // Without relabelling too, on any split of the rows.
    host::HostOperators two(2);
    EXPECT_EQ(tc::count(two, g, {0, g.num_vertices() / 3, g.num_vertices()}), want) << spec;
  }
  EXPECT_TRUE(skewed_degrees(load_graph("kron:12", {})));
  EXPECT_FALSE(skewed_degrees(load_graph("grid:40x30", {})));
}

// The lower lists GPU devices count on: each vertex's neighbours below it,
// ascending, one entry per edge, with and without the degree relabelling;
// counting on them gives every vertex's triangles. From a mapped .cgr too,
// whose pages the second pass drops (kDrop) and reads back.
TEST(Tc, LowerListsHoldEachEdgeOnceAndCountTheSame) {
  for (const char* spec : {"kron:12", "urand:12:8"}) {
    const Graph made = load_graph(spec, {});
    const std::string cgr = testing::temp_path("lower.cgr");
    write_cgr(made, cgr);
    const Graph mapped = read_cgr(cgr);
    ASSERT_TRUE(mapped.out().targets.file_mapped());
    const std::vector<uint64_t> want = reference::triangles(made);
    for (const auto& [g, pages] : {std::pair{&made, InputPages::kKeep}, std::pair{&mapped, InputPages::kDrop},
                                   std::pair{&mapped, InputPages::kKeep}})
      for (bool by_degree : {false, true}) {
        const Oriented o = orient_lower(*g, by_degree, pages);
        const Csr& c = o.graph.out();
        EXPECT_EQ(c.num_edges() * 2, g->num_edges()) << spec;
        EXPECT_EQ(o.old_of_new.size(), by_degree ? size_t(g->num_vertices()) : 0u);
        for (vid_t x = 0; x < c.num_vertices(); ++x)
          for (eid_t e = c.offsets[x]; e < c.offsets[x + 1]; ++e) {
            ASSERT_LT(c.targets[e], x) << spec;
            if (e > c.offsets[x]) {
              ASSERT_LT(c.targets[e - 1], c.targets[e]) << spec;
            }
          }
        host::HostOperators one(1), two(2);
        std::vector<uint64_t> got = tc::count(one, o.graph, {0, c.num_vertices()});
        if (by_degree) got = to_old_order(got, o.old_of_new);
        EXPECT_EQ(got, want) << spec << (by_degree ? " by degree" : "");
        // Told the lists hold lower ids only, it reads them whole.
        got = tc::count(two, o.graph, {0, c.num_vertices() / 3, c.num_vertices()}, nullptr, nullptr, true);
        if (by_degree) got = to_old_order(got, o.old_of_new);
        EXPECT_EQ(got, want) << spec << (by_degree ? " by degree" : "") << ", lower lists only";
        if (by_degree) {  // counted straight into the input's order
          EXPECT_EQ(tc::count(two, o.graph, {0, c.num_vertices() / 2, c.num_vertices()}, o.old_of_new.data()), want)
              << spec;
        }
      }
  }
}

TEST(Tc, VerifierCatchesAWrongCount) {
  const Graph g = load_graph("kron:10", {});
  EngineOptions o;
  AppOutput out = run_app(parse_app("tc"), g, 0, o);
  out.counts[7] += 3;  // still a multiple of 3 in all
  const Validation v = validate_app(out, g, 0, o);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex 7"), std::string::npos) << v.message;
}

TEST(Tc, Refusals) {
  EngineOptions o;
  const Graph directed = load_graph(testing::write_file("tc_dir.el", "0 1\n1 2\n2 0\n"), {});
  EXPECT_NE(testing::error_of([&] { run_app(parse_app("tc"), directed, 0, o); }).find("undirected"), std::string::npos);
  LoadOptions keep;
  keep.build.dedupe = false;
  const Graph parallel = undirected(3, {{0, 1}, {0, 1}, {1, 2}, {0, 2}}, keep);
  EXPECT_NE(testing::error_of([&] { run_app(parse_app("tc"), parallel, 0, o); }).find("parallel edge"),
            std::string::npos);
}

}  // namespace
}  // namespace chatty
