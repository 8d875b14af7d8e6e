// The host operators against sequential loops: advance (push, pull and
// the engine's rule) as a BFS, edge marks, filter, gather and reduce over
// values of up to 16 bytes, and list intersection, on 1 to 8 devices.
#include "runtime/host/operators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>

#include "apps/bfs/reference.h"
#include "datasets/load.h"
#include "operator_values.h"
#include "runtime/base/in_sum.h"
#include "runtime/host/marked_list.h"

namespace chatty {
namespace {

using testing::AddTally;
using testing::Tally;
// What no operator may carry: more than 16 bytes, or not copyable as bytes.
static_assert(!ops::Value<std::array<char, 17>>);
static_assert(!ops::Value<std::string>);

// BFS by advance: an unreached v joins at depth next (claimed once by CAS).
struct Reach {
  int32_t* depth;
  int32_t next;
  unsigned operator()(vid_t, vid_t v, eid_t) const {
    if (ops::atomic_load(depth + v) >= 0 || ops::atomic_cas(depth + v, -1, next) >= 0) return ops::kSkip;
    return ops::kJoin | ops::kStop;
  }
  bool wanted(vid_t v) const { return ops::atomic_load(depth + v) < 0; }
};

// Depths by advance from `source`, `direction` throughout; the number of
// pull levels in *pulls.
std::vector<int32_t> bfs_by_advance(const Graph& g, vid_t source, int devices, ops::Direction direction,
                                    int* pulls = nullptr) {
  const Csr& c = g.out();
  std::vector<int32_t> depth(c.num_vertices(), -1);
  depth[source] = 0;
  host::LevelQueue q(c.num_vertices());
  int pulled = 0;
  host::Team(devices).run([&](host::TeamThread& t) {
    for (host::Level l = q.start(t, c, {&source, 1}); !l.empty();) {
      if (t.lead() && direction == ops::Direction::kAuto && l.pull) ++pulled;
      l = host::advance(t, c, q, l, Reach{depth.data(), l.index + 1}, direction, nullptr, &g.in());
    }
  });
  if (pulls) *pulls = pulled;
  return depth;
}

std::vector<int32_t> as_depths(const std::vector<uint32_t>& ref) {
  std::vector<int32_t> d(ref.size());
  for (size_t v = 0; v < ref.size(); ++v) d[v] = ref[v] == kInfinity ? -1 : int32_t(ref[v]);
  return d;
}

TEST(Operators, AdvanceIsABfsEveryWayOnEveryDeviceCount) {
  for (const char* spec : {"kron:12", "grid:30x20", "urand:11:6"}) {
    const Graph g = load_graph(spec, {});
    const std::vector<int32_t> want = as_depths(reference::bfs(g, 1));
    for (int p : {1, 2, 3, 8})
      for (ops::Direction dir : {ops::Direction::kPush, ops::Direction::kPull, ops::Direction::kAuto}) {
        int pulls = 0;
        EXPECT_EQ(bfs_by_advance(g, 1, p, dir, &pulls), want) << spec << " on " << p << " devices, way " << int(dir);
        // The engine's rule goes pull on a skewed graph's wide levels.
        if (dir == ops::Direction::kAuto && std::string(spec) == "kron:12") {
          EXPECT_GT(pulls, 0) << p;
        }
      }
  }
}

TEST(Operators, LevelQueueHoldsEachReachedVertexOnceByLevel) {
  const Graph g = load_graph("kron:11", {});
  const std::vector<int32_t> want = as_depths(reference::bfs(g, 0));
  const Csr& c = g.out();
  std::vector<int32_t> depth(c.num_vertices(), -1);
  depth[0] = 0;
  host::LevelQueue q(c.num_vertices());
  const vid_t source = 0;
  const host::RowRun run = host::Team(4).run([&](host::TeamThread& t) {
    for (host::Level l = q.start(t, c, {&source, 1}); !l.empty();)
      l = host::advance(t, c, q, l, Reach{depth.data(), l.index + 1});
  });
  // A push reads every reached vertex's list once: the work reported.
  uint64_t lists = 0;
  for (vid_t v = 0; v < c.num_vertices(); ++v) lists += want[v] >= 0 ? c.degree(v) : 0;
  EXPECT_EQ(run.work, lists);
  EXPECT_EQ(run.device_seconds.size(), 4u);
  size_t reached = 0;
  for (int l = 0; l < q.levels(); ++l)
    for (vid_t v : q.level(l)) {
      EXPECT_EQ(want[v], l) << v;
      ++reached;
    }
  EXPECT_EQ(reached, size_t(std::count_if(want.begin(), want.end(), [](int32_t d) { return d >= 0; })));
}

// Marks the edges into the next level, as Brandes' forward sweep does.
struct MarkTree {
  int32_t* depth;
  int32_t next;
  unsigned operator()(vid_t, vid_t v, eid_t) const {
    int32_t seen = ops::atomic_load(depth + v);
    unsigned visit = ops::kSkip;
    if (seen < 0 && (seen = ops::atomic_cas(depth + v, -1, next)) < 0) seen = next, visit = ops::kJoin;
    return seen == next ? visit | ops::kMark : visit;
  }
};

TEST(Operators, MarksAreTheEdgesIntoTheNextLevelAndGatherReadsOnlyThem) {
  const Graph g = load_graph("kron:11", {});
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  const std::vector<int32_t> want = as_depths(reference::bfs(g, 0));
  for (int p : {1, 3}) {
    std::vector<int32_t> depth(n, -1);
    depth[0] = 0;
    host::LevelQueue q(n);
    host::EdgeMarks marks(c.num_edges());
    std::vector<uint64_t> down(n, 0);  // per vertex: its marked edges, by gather
    const vid_t source = 0;
    host::Team(p).run([&](host::TeamThread& t) {
      marks.clear(t);
      for (host::Level l = q.start(t, c, {&source, 1}); !l.empty();)
        l = host::advance(t, c, q, l, MarkTree{depth.data(), l.index + 1}, ops::Direction::kPush, &marks);
      host::gather<uint64_t>(
          t, c, q.order(), 0, q.size(), [](vid_t, vid_t, eid_t) { return uint64_t(1); }, std::plus<>(),
          [&](vid_t v, uint64_t k) { down[v] = k; }, &marks);
    });
    for (vid_t u = 0; u < n; ++u) {
      uint64_t k = 0;
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
        const bool tree = want[u] >= 0 && want[c.targets[e]] == want[u] + 1;
        EXPECT_EQ(marks.test(e), tree) << u << " -> " << c.targets[e];
        k += tree;
      }
      EXPECT_EQ(down[u], k) << u;
    }
  }
}

TEST(Operators, FilterGatherAndReduceOfSixteenByteValues) {
  const Graph g = load_graph("urand:12:8", {});
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  // Sequentially: every vertex's tally of its neighbours' ids, the
  // vertices of degree above 8, and the tally of all degrees.
  std::vector<Tally> want_row(n);
  std::vector<vid_t> want_kept;
  Tally want_all{0, 0, 0};
  for (vid_t v = 0; v < n; ++v) {
    Tally r{0, 0, 0};
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) r = AddTally{}(r, {double(c.targets[e]), c.targets[e], 1});
    want_row[v] = r;
    if (c.degree(v) > 8) want_kept.push_back(v);
    want_all = AddTally{}(want_all, {double(c.degree(v)), uint32_t(c.degree(v)), 1});
  }
  std::vector<vid_t> ids(n);
  for (vid_t v = 0; v < n; ++v) ids[v] = v;
  for (int p : {1, 2, 5, 8}) {
    std::vector<Tally> row(n, {-1, 0, 0});
    std::vector<vid_t> kept(n);
    size_t kept_count = 0;
    std::vector<Tally> all(static_cast<size_t>(omp_get_max_threads()));
    host::Team(p).run([&](host::TeamThread& t) {
      host::gather<Tally>(
          t, c, ids.data(), 0, n,
          [](vid_t, vid_t w, eid_t) {
            return Tally{double(w), w, 1};
          },
          AddTally{}, [&](vid_t v, Tally s) { row[v] = s; });
      const size_t k = host::filter(
          t, n, [](size_t i) { return vid_t(i); }, [&](vid_t v) { return c.degree(v) > 8; }, kept.data());
      all[size_t(t.thread())] = host::reduce(
          t, 0, n, Tally{0, 0, 0},
          [&](size_t v) {
            return Tally{double(c.degree(vid_t(v))), uint32_t(c.degree(vid_t(v))), 1};
          },
          AddTally{});
      if (t.lead()) kept_count = k;
    });
    for (vid_t v = 0; v < n; ++v) {
      EXPECT_EQ(row[v].sum, want_row[v].sum) << v;
      EXPECT_EQ(row[v].most, want_row[v].most) << v;
      EXPECT_EQ(row[v].count, want_row[v].count) << v;
    }
    kept.resize(kept_count);
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(kept, want_kept) << p;
    for (const Tally& a : all) {  // every thread has the whole reduction
      EXPECT_EQ(a.sum, want_all.sum) << p;
      EXPECT_EQ(a.most, want_all.most) << p;
      EXPECT_EQ(a.count, want_all.count) << p;
    }
  }
}

TEST(Operators, IntersectionOfSortedListsBelowABound) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<vid_t> a, b;
    for (vid_t x = 0; x < 300; ++x) {
      if (rng() % 3 == 0) a.push_back(x);
      if (rng() % 4 == 0) b.push_back(x);
    }
    const vid_t bound = round % 2 ? kInfinity : vid_t(rng() % 300);
    std::vector<vid_t> want, got;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want));
    want.erase(std::remove_if(want.begin(), want.end(), [&](vid_t x) { return x >= bound; }), want.end());
    ops::intersect_sorted(
        a.data(), a.size(), b.data(), b.size(),
        [&](size_t i, size_t j) {
          EXPECT_EQ(a[i], b[j]);
          got.push_back(a[i]);
        },
        bound);
    EXPECT_EQ(got, want) << round;
  }
}

// A marked list's probe (the vector path where the CPU gathers, the loop
// for the rest) reports exactly the marked entries of a probed list, in
// order, on lists of every length up to a few blocks of 16, with marks on
// ids at both ends of the 32-bit words and past the first 2^16.
TEST(MarkedList, ProbeReportsTheMarkedEntriesInOrder) {
  std::mt19937 rng(11);
  const vid_t n = 70000;
  host::MarkedList marked;
  for (int round = 0; round < 300; ++round) {
    std::vector<vid_t> list;
    for (vid_t x = 0; x < n; ++x)
      if (rng() % 500 == 0 || (round % 3 == 0 && (x % 32 == 0 || x % 32 == 31) && rng() % 40 == 0)) list.push_back(x);
    marked.mark(list.data(), list.size(), n);
    std::vector<vid_t> probed(size_t(round % 70));
    for (vid_t& x : probed) x = rng() % 2 && !list.empty() ? list[rng() % list.size()] : vid_t(rng() % n);
    std::vector<vid_t> want, got;
    for (vid_t x : probed)
      if (std::binary_search(list.begin(), list.end(), x)) want.push_back(x);
    marked.probe(probed.data(), probed.size(), [&](vid_t x) { got.push_back(x); });
    EXPECT_EQ(got, want) << round;
    marked.clear();
  }
}

// Published floats in [0, 1e-3) and rows of random in-neighbours into
// them: what a gather's sum (in_sum.h) reads.
struct RandomRows {
  RandomRows(unsigned seed, size_t n) : rng(seed), published(n) {
    std::uniform_real_distribution<float> value(0.0f, 1e-3f);
    for (float& x : published) x = value(rng);
  }
  std::vector<vid_t> row(eid_t k) {
    std::uniform_int_distribution<vid_t> any(0, vid_t(published.size() - 1));
    std::vector<vid_t> sources(k);
    for (vid_t& s : sources) s = any(rng);
    return sources;
  }
  std::mt19937 rng;
  std::vector<float> published;
};

// A gather's sum of published floats (in_sum.h): the host's vector path
// where it has one and the portable loop alike within the bound the
// header states (a unit in the last place of a float per 8 terms), on rows
// of every length up to a few blocks and one of a hub.
TEST(InSum, BothLoopsWithinTheBoundOfEveryRowLength) {
  RandomRows rows(17, 5000);
  const std::vector<float>& published = rows.published;
  for (eid_t k : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 33u, 100u, 4999u}) {
    const std::vector<vid_t> sources = rows.row(k);
    const InValues<float> in{published.data(), sources.data(), k};
    double exact = 0;
    for (vid_t s : sources) exact += double(published[s]);
    const double bound = (double(k) / kFloatRow + 1) * kFloatRow * 6e-8 * std::max(exact, 1e-30);
    EXPECT_NEAR(sum_in(in), exact, bound) << k << " terms";
    EXPECT_NEAR(sum_in<InValues<float>>(in), exact, bound) << k << " terms, the portable loop";
  }
}

// Rows of varying short lengths (InValuesOfVaryingRows): the branch-free
// sum equals the loop's bit for bit at every length, and reads no source
// past a row's end (each row fills its own array: ASan sees an over-read).
TEST(InSum, VaryingRowsSumAsTheLoopBitForBit) {
  RandomRows rows(5, 1000);
  const std::vector<float>& published = rows.published;
  for (int trial = 0; trial < 50; ++trial)
    for (eid_t k = 0; k <= 9; ++k) {
      const std::vector<vid_t> sources = rows.row(k);
      const InValues<float> in{published.data(), sources.data(), k};
      const InValuesOfVaryingRows<float> varying{in};
      float loop = 0;
      for (vid_t s : sources) loop += published[s];
      if (k <= kFloatRow) {
        EXPECT_EQ(sum_in(varying), double(loop)) << k << " terms";
      }
      EXPECT_EQ(sum_in(varying), sum_in(in)) << k << " terms";
    }
}

}  // namespace
}  // namespace chatty
