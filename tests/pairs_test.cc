// Apps with a value per pair of vertices: similarity (given pairs, every
// edge, each vertex's top K) and ktruss, against hand-worked answers and
// their sequential references at 1..4 host devices; the verifiers' checks
// catching a changed value; the graphs they refuse. (tests/python compares
// them with NetworkX's jaccard_coefficient and k_truss.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "apps/ktruss/reference.h"
#include "apps/ktruss/steps.h"
#include "apps/run_app.h"
#include "apps/similarity/reference.h"
#include "apps/similarity/top_k.h"
#include "datasets/generators.h"
#include "datasets/load.h"
#include "runtime/graph/upper_edges.h"
#include "test_util.h"

namespace chatty {
namespace {

Graph undirected(const std::string& name, const std::string& edges) {
  LoadOptions o;
  o.build.symmetrize = true;
  return load_graph(testing::write_file(name + ".el", edges), o);
}

EngineOptions on(int devices, Similarity m = Similarity::kJaccard) {
  EngineOptions o;
  o.devices = devices;
  o.similarity = m;
  return o;
}

App similarity() { return parse_app("similarity"); }
App ktruss() { return parse_app("ktruss"); }

// A 4-cycle 0-1-2-3 with the chord 0-2, and a pendant 4 on 2.
const char* kDiamond = "0 1\n1 2\n2 3\n3 0\n0 2\n2 4\n";

TEST(Similarity, HandWorkedPairs) {
  const Graph g = undirected("diamond", kDiamond);
  // N(1) = {0, 2}, N(3) = {0, 2}: Jaccard 1; N(0) = {1, 2, 3}, N(4) = {2}:
  // 1 / 3, overlap 1, Sorensen 2 / 4; N(1), N(2) = {0, 1, 3, 4}: 1 common.
  const PairQuery q{{{1, 3}, {0, 4}, {1, 2}}, {}, 0};
  const AppOutput j = run_app(similarity(), g, q, on(1));
  EXPECT_EQ(j.scores, (std::vector<double>{1.0, 1.0 / 3, 1.0 / 5}));
  EXPECT_EQ(j.pairs, q.pairs);
  EXPECT_EQ(run_app(similarity(), g, q, on(2, Similarity::kOverlap)).scores, (std::vector<double>{1.0, 1.0, 0.5}));
  EXPECT_EQ(run_app(similarity(), g, q, on(3, Similarity::kSorensen)).scores, (std::vector<double>{1.0, 0.5, 2.0 / 6}));
}

TEST(Similarity, EveryEdgeAndTopKMatchTheReference) {
  const Graph g = load_graph("kron:9", LoadOptions{});
  for (Similarity m : {Similarity::kJaccard, Similarity::kOverlap, Similarity::kSorensen}) {
    const AppOutput one = run_app(similarity(), g, PairQuery{}, on(1, m));
    ASSERT_EQ(one.pairs.size(), g.num_edges() / 2);
    for (size_t i = 0; i < one.pairs.size(); i += 7)
      ASSERT_EQ(one.scores[i], reference::similarity(g, m, one.pairs[i].first, one.pairs[i].second)) << i;
    const PairQuery top{{}, {0, 5, 77, 300}, 4};
    const AppOutput best = run_app(similarity(), g, top, on(1, m));
    for (vid_t s : top.of) {
      const auto want = reference::most_similar(g, m, s);
      std::vector<std::pair<double, vid_t>> got;
      for (size_t i = 0; i < best.pairs.size(); ++i)
        if (best.pairs[i].first == s) got.emplace_back(best.scores[i], best.pairs[i].second);
      ASSERT_EQ(got.size(), std::min<size_t>(4, want.size())) << s;
      for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << s << " #" << i;
    }
    for (int p : {2, 4}) {
      const AppOutput many = run_app(similarity(), g, PairQuery{}, on(p, m));
      EXPECT_EQ(many.pairs, one.pairs) << p;
      EXPECT_EQ(many.scores, one.scores) << p;
      const AppOutput best_p = run_app(similarity(), g, top, on(p, m));
      EXPECT_EQ(best_p.pairs, best.pairs) << p;
      EXPECT_EQ(best_p.scores, best.scores) << p;
    }
  }
}

// GPU devices' --top_k steps (apps/similarity/top_k.h) run here one item
// after another, with gpu.cu's batch lists and a sort per query vertex:
// the host's slots bit for bit, on kron (hubs, ties) and ego-Facebook,
// K past some vertices' two-hop counts.
TEST(Similarity, GpuTopKStepsGiveTheHostsSlots) {
  for (const char* spec : {"kron:10", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    SCOPED_TRACE(spec);
    const Graph loaded = load_graph(spec, {});
    const Graph g = loaded.directed() ? symmetrized(loaded) : loaded;
    const Csr& c = g.out();
    const uint32_t k = 6;
    std::vector<vid_t> query;
    for (vid_t v = 0; v < g.num_vertices(); v += 13) query.push_back(v);
    for (Similarity m : {Similarity::kJaccard, Similarity::kOverlap}) {
      std::vector<vid_t> via, source;
      std::vector<uint64_t> hop_at, at;
      uint64_t entries = 0;
      for (vid_t s : query) {
        at.push_back(entries);
        for (eid_t e = c.offsets[s]; e < c.offsets[s + 1]; ++e) {
          via.push_back(c.targets[e]), source.push_back(s), hop_at.push_back(entries);
          entries += c.degree(c.targets[e]);
        }
      }
      at.push_back(entries), hop_at.push_back(entries);
      std::vector<vid_t> gathered(entries);
      const similarity::GatherTwoHops gather{c.offsets.data(), c.targets.data(), via.data(),     source.data(),
                                             hop_at.data(),    via.size(),       gathered.data()};
      for (size_t j = 0; j < entries; ++j) gather(j);
      for (size_t i = 0; i < query.size(); ++i)
        std::sort(gathered.begin() + std::ptrdiff_t(at[i]), gathered.begin() + std::ptrdiff_t(at[i + 1]));
      std::vector<double> slots(query.size() * 2 * k, -1.0);
      const similarity::BestK best{c.offsets.data(), query.data(), at.data(), gathered.data(), m, k, slots.data()};
      for (size_t i = 0; i < query.size(); ++i) best(i);
      const PairQuery top{{}, query, k};
      const AppOutput want = run_app(similarity(), g, top, on(1, m));
      size_t at_pair = 0;
      for (size_t i = 0; i < query.size(); ++i)
        for (uint32_t j = 0; j < k; ++j) {
          const double score = slots[(i * k + j) * 2], other = slots[(i * k + j) * 2 + 1];
          if (other == 0) {
            EXPECT_EQ(score, 0) << query[i];
            continue;
          }
          ASSERT_LT(at_pair, want.pairs.size());
          EXPECT_EQ(want.pairs[at_pair], VertexPair(query[i], vid_t(other - 1))) << query[i] << " #" << j;
          EXPECT_EQ(want.scores[at_pair], score) << query[i] << " #" << j;
          ++at_pair;
        }
      EXPECT_EQ(at_pair, want.pairs.size());
    }
  }
}

TEST(Similarity, VerifierCatchesAWrongCoefficientOrPair) {
  const Graph g = load_graph("kron:8", LoadOptions{});
  const EngineOptions o = on(2);
  AppOutput out = run_app(similarity(), g, PairQuery{}, o);
  EXPECT_TRUE(validate_app(out, g, 0, o).ok) << validate_app(out, g, 0, o).message;
  AppOutput bad = out;
  bad.scores[3] = std::nextafter(bad.scores[3], 2.0);
  EXPECT_FALSE(validate_app(bad, g, 0, o).ok);
  bad = out;
  bad.pairs.pop_back(), bad.scores.pop_back();
  EXPECT_FALSE(validate_app(bad, g, 0, o).ok);
  AppOutput top = run_app(similarity(), g, PairQuery{{}, {1, 2}, 3}, o);
  EXPECT_TRUE(validate_app(top, g, 0, o).ok) << validate_app(top, g, 0, o).message;
  std::swap(top.pairs[0], top.pairs[1]), std::swap(top.scores[0], top.scores[1]);
  if (top.scores[0] != top.scores[1]) {
    EXPECT_FALSE(validate_app(top, g, 0, o).ok);
  }
}

TEST(Similarity, RefusesDirectedGraphsAndBadPairs) {
  const Graph d = load_graph(testing::write_file("directed_pairs.el", "0 1\n1 2\n"), LoadOptions{});
  EXPECT_THROW(run_app(similarity(), d, PairQuery{}, on(1)), Error);
  const Graph g = undirected("diamond_bad", kDiamond);
  EXPECT_THROW(run_app(similarity(), g, PairQuery{{{0, 9}}, {}, 0}, on(1)), Error);
  EXPECT_THROW(run_app(parse_app("bfs"), g, PairQuery{}, on(1)), Error);
}

TEST(Ktruss, HandWorkedNumbers) {
  // K4 on 0..3 (every edge in 2 triangles: truss 4), a triangle 3-4-5
  // hanging off it (truss 3) and a pendant edge 5-6 (truss 2).
  const Graph g = undirected("k4_tail", "0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n3 4\n4 5\n3 5\n5 6\n");
  for (int p : {1, 2, 3}) {
    const AppOutput out = run_app(ktruss(), g, PairQuery{}, on(p));
    std::map<VertexPair, uint32_t> got;
    for (size_t i = 0; i < out.pairs.size(); ++i) got[out.pairs[i]] = out.ints[i];
    const std::map<VertexPair, uint32_t> want = {{{0, 1}, 4}, {{0, 2}, 4}, {{0, 3}, 4}, {{1, 2}, 4}, {{1, 3}, 4},
                                                 {{2, 3}, 4}, {{3, 4}, 3}, {{3, 5}, 3}, {{4, 5}, 3}, {{5, 6}, 2}};
    EXPECT_EQ(got, want) << p << " devices";
  }
}

TEST(Ktruss, MatchesTheReferenceAtEveryDeviceCount) {
  for (const char* spec : {"kron:10", "grid:20x20", "urand:10"}) {
    const Graph g = load_graph(spec, LoadOptions{});
    const auto want = reference::truss_numbers(g);
    for (int p : {1, 2, 4}) {
      const AppOutput out = run_app(ktruss(), g, PairQuery{}, on(p));
      ASSERT_EQ(out.pairs.size(), want.size()) << spec;
      for (size_t i = 0; i < out.pairs.size(); ++i)
        ASSERT_EQ(out.ints[i], want.at(out.pairs[i])) << spec << " " << p << " devices, edge " << i;
    }
  }
}

// GPU devices' k-truss steps (apps/ktruss/steps.h) run here one item after
// another, with gpu.cu's loop of levels and rounds written out: the host's
// truss numbers, on kron (hubs) and ego-Facebook (trusses up to 97).
TEST(Ktruss, GpuStepsGiveTheHostsNumbers) {
  for (const char* spec : {"kron:10", CHATTY_TEST_DATA "/facebook_combined.txt"}) {
    SCOPED_TRACE(spec);
    const Graph loaded = load_graph(spec, {});
    const Graph g = loaded.directed() ? symmetrized(loaded) : loaded;
    const Csr& c = g.out();
    const UpperEdges up = upper_edges(c);
    const size_t m = up.count();
    std::vector<uint32_t> number_of(c.num_edges()), support(m), truss(m, 0);
    std::vector<vid_t> lo(m), hi(m), round(m), next(m);
    std::vector<uint8_t> peeled(m, 0), in_round(m, 0);
    uint64_t joined = 0;
    const eid_t* off = c.offsets.data();
    const vid_t* tgt = c.targets.data();
    const ktruss::NumberEntries number{
        off, tgt, up.first.data(), up.above.data(), g.num_vertices(), number_of.data(), lo.data(), hi.data()};
    for (size_t j = 0; j < c.num_edges(); ++j) number(j);
    const ktruss::Support count{off, tgt, lo.data(), hi.data(), support.data()};
    for (size_t k = 0; k < m; ++k) count(k);
    size_t left = m;
    uint32_t level = 0;
    while (left > 0) {
      size_t n = 0;
      const ktruss::AtLevel at{peeled.data(), support.data(), level};
      for (vid_t k = 0; k < m; ++k)
        if (at(k)) round[n++] = k;
      if (n == 0) {
        level = UINT32_MAX;
        for (size_t k = 0; k < m; ++k)
          level = ktruss::Least{}(level, ktruss::LeastLeft{peeled.data(), support.data()}(k));
        continue;
      }
      while (n > 0) {
        for (size_t i = 0; i < n; ++i) ktruss::Mark{round.data(), in_round.data(), 1}(i);
        joined = 0;
        const ktruss::Break brk{off,          tgt,           number_of.data(), lo.data(),      hi.data(),
                                round.data(), peeled.data(), in_round.data(),  support.data(), next.data(),
                                &joined,      level};
        for (size_t i = 0; i < n; ++i) brk(i);
        for (size_t i = 0; i < n; ++i)
          ktruss::Settle{round.data(), peeled.data(), in_round.data(), truss.data(), level}(i);
        std::swap(round, next);
        left -= n;
        n = size_t(joined);
      }
    }
    const AppOutput want = run_app(parse_app("ktruss"), g, 0, EngineOptions{});
    ASSERT_EQ(want.ints.size(), m);
    for (size_t k = 0; k < m; ++k) ASSERT_EQ(truss[k], want.ints[k]) << k;
  }
}

TEST(Ktruss, VerifierCatchesAWrongNumberAndRefusesSelfLoops) {
  const Graph g = load_graph("kron:8", LoadOptions{});
  const EngineOptions o = on(2);
  AppOutput out = run_app(ktruss(), g, PairQuery{}, o);
  EXPECT_TRUE(validate_app(out, g, 0, o).ok) << validate_app(out, g, 0, o).message;
  const auto top = std::max_element(out.ints.begin(), out.ints.end()) - out.ints.begin();
  out.ints[size_t(top)] -= 1;
  EXPECT_FALSE(validate_app(out, g, 0, o).ok);
  LoadOptions keep;
  keep.build.symmetrize = true;
  keep.build.drop_self_loops = false;
  const Graph loops = load_graph(testing::write_file("loops.el", "0 1\n1 1\n1 2\n"), keep);
  EXPECT_THROW(run_app(ktruss(), loops, PairQuery{}, o), Error);
}

}  // namespace
}  // namespace chatty
