// Afforest's rest stage (kernels/cpu/union_find.h) on small undirected
// graphs built so that a link of the rest stage moves a root: labels that
// pointed at it must reach the new root, whether the giant's root stays
// (only the vertices outside the giant are flattened again) or moves (every
// vertex is), and with no giant skipped.
#include "kernels/cpu/union_find.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace chatty {
namespace {

// Sorted symmetric rows of n vertices.
struct SmallGraph {
  std::vector<eid_t> offsets;
  std::vector<vid_t> targets;
  CsrChunk chunk(vid_t n) const { return CsrChunk{0, n, offsets.data(), targets.data()}; }
};

SmallGraph symmetric(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges) {
  std::vector<std::vector<vid_t>> rows(n);
  for (auto [u, v] : edges) rows[u].push_back(v), rows[v].push_back(u);
  SmallGraph g;
  g.offsets.push_back(0);
  for (std::vector<vid_t>& r : rows) {
    std::sort(r.begin(), r.end());
    g.targets.insert(g.targets.end(), r.begin(), r.end());
    g.offsets.push_back(eid_t(g.targets.size()));
  }
  return g;
}

// The least id of each vertex's component, by repeated relaxation.
std::vector<vid_t> least_ids(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& edges) {
  std::vector<vid_t> label(n);
  std::iota(label.begin(), label.end(), vid_t(0));
  for (bool again = true; again;) {
    again = false;
    for (auto [u, v] : edges) {
      const vid_t m = std::min(label[u], label[v]);
      again |= label[u] != m || label[v] != m;
      label[u] = label[v] = m;
    }
  }
  return label;
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
    const SmallGraph g = symmetric(n, edges);
    const std::vector<vid_t> want = least_ids(n, edges);
    for (int t : {1, 2, 3}) {
      omp_set_num_threads(t);
      std::vector<vid_t> comp(n);
      std::iota(comp.begin(), comp.end(), vid_t(0));
      cpu::afforest_sample(g.chunk(n), 2, comp.data());
      ASSERT_EQ(cpu::uf_find(109, comp.data()), giant);
      std::vector<vid_t> unskipped = comp;
      cpu::afforest_rest(g.chunk(n), 2, giant, comp.data());
      EXPECT_EQ(comp, want) << (under_giant ? "giant's root moved" : "giant's root stayed") << ", threads " << t;
      cpu::afforest_rest(g.chunk(n), 2, n, unskipped.data());  // no giant: every vertex's edges
      EXPECT_EQ(unskipped, want) << "no giant, threads " << t;
    }
  }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace chatty
