// Afforest's rest stage (kernels/cpu/union_find.h) on small undirected
// graphs built so that a link of the rest stage moves a root: labels that
// pointed at it must reach the new root, whether the giant's root stays
// (only the vertices outside the giant are flattened again) or moves (every
// vertex is), and with no giant skipped.
#include "kernels/cpu/union_find.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <numeric>
#include <utility>
#include <vector>

#include "apps/wcc/reference.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/graph_chunk.h"

namespace chatty {
namespace {

// The symmetrised graph of `edges` on n vertices.
Graph symmetric(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges) {
  EdgeList list;
  for (auto [u, v] : edges) list.src.push_back(u), list.dst.push_back(v);
  BuildOptions opt;
  opt.symmetrize = true;
  std::vector<EdgeList> lists;
  lists.push_back(std::move(list));
  return build_graph(std::move(lists), n, false, opt);
}

// A giant path 10..109 (root 10). Vertices 400, 401 hang at 410 and 402,
// 403 at 420; 410 and 420 are each other's third neighbour, so only the
// rest stage joins the trees of 400 and 402, after it has flattened 403
// onto 402. With `under_giant`, 200 (with 2 and 3) is 50's third neighbour
// and 50 is 200's: the rest stage hangs the giant's root 10 under 2.
std::vector<std::pair<vid_t, vid_t>> rest_moves_roots(bool under_giant) {
  std::vector<std::pair<vid_t, vid_t>> e;
  for (vid_t v = 10; v < 109; ++v) e.push_back({v, v + 1});
  e.insert(e.end(), {{400, 410}, {401, 410}, {402, 420}, {403, 420}, {410, 420}});
  if (under_giant) e.insert(e.end(), {{2, 200}, {3, 200}, {50, 200}});
  return e;
}

TEST(UnionFind, RestStageLabelsReachRootsItMoves) {
  constexpr vid_t n = 500, giant = 10;
  const int saved = omp_get_max_threads();
  for (bool under_giant : {false, true}) {
    const auto edges = rest_moves_roots(under_giant);
    const Graph graph = symmetric(n, edges);
    const CsrChunk g = chunk_view(graph.out(), 0, n);
    const std::vector<vid_t> want = reference::wcc(graph);
    for (int t : {1, 2, 3}) {
      omp_set_num_threads(t);
      std::vector<vid_t> comp(n);
      std::iota(comp.begin(), comp.end(), vid_t(0));
      cpu::afforest_sample(g, 2, comp.data());
      ASSERT_EQ(cpu::uf_find(109, comp.data()), giant);
      std::vector<vid_t> unskipped = comp;
      cpu::afforest_rest(g, 2, giant, comp.data());
      EXPECT_EQ(comp, want) << (under_giant ? "giant's root moved" : "giant's root stayed") << ", threads " << t;
      cpu::afforest_rest(g, 2, n, unskipped.data());  // no giant: every vertex's edges
      EXPECT_EQ(unskipped, want) << "no giant, threads " << t;
    }
  }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace chatty
