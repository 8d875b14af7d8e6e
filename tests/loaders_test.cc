// Loaders: known contents parse to the right CSR, and every format round
// trips a graph unchanged (directed, undirected, weighted).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "datasets/cgr_format.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

using testing::temp_path;
using testing::write_file;

std::vector<std::vector<std::pair<vid_t, weight_t>>> adjacency(const Graph& g) {
  std::vector<std::vector<std::pair<vid_t, weight_t>>> a(g.num_vertices());
  const Csr& c = g.out();
  for (vid_t u = 0; u < g.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      a[u].push_back({c.targets[e], g.weighted() ? c.weights[e] : 0});
  return a;
}

std::vector<std::vector<std::pair<vid_t, weight_t>>> unweighted(
    std::vector<std::vector<std::pair<vid_t, weight_t>>> a) {
  for (auto& row : a)
    for (auto& e : row) e.second = 0;
  return a;
}

void expect_same(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.num_vertices(), b.num_vertices());
  EXPECT_EQ(a.num_edges(), b.num_edges());
  EXPECT_EQ(a.weighted(), b.weighted());
  EXPECT_EQ(adjacency(a), adjacency(b));
}

TEST(EdgeList, ParsesCommentsWeightsAndKeepsIds) {
  std::string p = write_file("a.wel", "# comment\n% other comment\n0 5 7\n5 2 3\r\n\n2 0 1\n");
  Graph g = load_graph(p, {});
  EXPECT_EQ(g.num_vertices(), 6u);  // |V| = max id + 1
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_TRUE(g.directed());
  EXPECT_TRUE(g.weighted());
  auto a = adjacency(g);
  EXPECT_EQ(a[0], (std::vector<std::pair<vid_t, weight_t>>{{5, 7}}));
  EXPECT_EQ(a[5], (std::vector<std::pair<vid_t, weight_t>>{{2, 3}}));
}

TEST(EdgeList, SymmetrizeDedupeSelfLoops) {
  std::string p = write_file("b.el", "0 1\n1 0\n0 1\n2 2\n1 2\n");
  LoadOptions o;
  Graph g = load_graph(p, o);
  EXPECT_EQ(g.num_edges(), 3u);  // duplicate (0,1) and self loop dropped
  o.build.symmetrize = true;
  Graph s = load_graph(p, o);
  EXPECT_FALSE(s.directed());
  EXPECT_EQ(s.num_edges(), 4u);  // {0,1} and {1,2}, both directions
  o.build.drop_self_loops = false;
  o.build.dedupe = false;
  Graph raw = load_graph(p, o);
  EXPECT_EQ(raw.num_edges(), 9u);  // 4 non-loop edges twice + one loop
}

TEST(EdgeList, DuplicateEdgesKeepTheLightestWeight) {
  Graph g = load_graph(write_file("c.wel", "0 1 9\n0 1 4\n0 1 6\n"), {});
  ASSERT_EQ(g.num_edges(), 1u);
  EXPECT_EQ(g.out().weights[0], 4u);
}

TEST(EdgeList, VertexCountHeaderAndEndMarker) {
  Graph g = load_graph(write_file("d.txt", "10\r\n1 0 1\r\n0 1 1\r\n-1"), {});
  EXPECT_EQ(g.num_vertices(), 10u);  // the header, not max id + 1
  EXPECT_EQ(g.num_edges(), 2u);
}

TEST(Dimacs, OneBasedToZeroBased) {
  Graph g = load_graph(write_file("e.gr", "c road\np sp 4 3\na 1 2 10\nc mid\na 2 3 20\na 4 1 5\n"), {});
  EXPECT_EQ(g.num_vertices(), 4u);
  auto a = adjacency(g);
  EXPECT_EQ(a[0], (std::vector<std::pair<vid_t, weight_t>>{{1, 10}}));
  EXPECT_EQ(a[3], (std::vector<std::pair<vid_t, weight_t>>{{0, 5}}));
}

TEST(MatrixMarket, SymmetricPatternAndIntegralRealValues) {
  Graph s =
      load_graph(write_file("f.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n3 3 2\n2 1\n3 2\n"), {});
  EXPECT_FALSE(s.directed());
  EXPECT_EQ(s.num_edges(), 4u);
  EXPECT_FALSE(s.weighted());
  Graph r =
      load_graph(write_file("g.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 3.0\n2 1 1e1\n"), {});
  EXPECT_EQ(r.num_vertices(), 3u);
  auto a = adjacency(r);
  EXPECT_EQ(a[0], (std::vector<std::pair<vid_t, weight_t>>{{2, 3}}));  // exact, nothing rounded
  EXPECT_EQ(a[1], (std::vector<std::pair<vid_t, weight_t>>{{0, 10}}));
}

// Every format writes a graph that reads back the same, directedness and
// weights included: .el keeps no weights (two columns, as GAP reads it) and
// .wel needs them; .el, .wel and .csv have no header, so an undirected
// graph's note says to read it back with --undirected. A compression suffix
// compresses (the loader takes it by its magic).
class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, EveryFormatPreservesTheGraph) {
  const std::string ext = GetParam();
  const std::string plain = ext.substr(0, ext.find('.'));  // "el.gz": a .el
  const bool headerless = plain == "el" || plain == "wel" || plain == "csv";
  LoadOptions gen;
  gen.seed = 7;
  Graph undirected = load_graph("kron:9", gen);
  Graph undirected_weighted = load_graph("kron:9", gen);  // its own CSR: weights are set in place
  undirected_weighted.set_weights(default_weights(undirected.out(), 3));
  Graph directed = load_graph(write_file("dir.wel", "0 3 5\n3 1 2\n1 0 9\n2 3 1\n4 2 8\n"), {});
  Graph directed_plain = load_graph(write_file("dirp.el", "0 3\n3 1\n1 0\n2 3\n4 2\n"), {});
  int k = 0;
  for (Graph* g : {&undirected, &undirected_weighted, &directed, &directed_plain}) {
    const std::string p = temp_path("rt" + std::to_string(k++) + "." + ext);
    if (plain == "wel" && !g->weighted()) {
      EXPECT_THAT(testing::error_of([&] { save_graph(*g, p); }), ::testing::HasSubstr("has no weights"));
      continue;
    }
    const std::string note = save_graph(*g, p);
    auto says = [&](const char* what) { return note.find(what) != std::string::npos; };
    if (plain == "txt" || plain == "csv") {  // an edge list of ids cannot name isolated vertices, and says so
      std::vector<char> touched(g->num_vertices(), 0);
      const auto adj = adjacency(*g);
      for (vid_t u = 0; u < g->num_vertices(); ++u)
        for (auto [v, w] : adj[u]) touched[u] = touched[v] = 1;
      const bool isolated = std::count(touched.begin(), touched.end(), 0) > 0;
      EXPECT_EQ(says("isolated vertices are not in the file"), isolated) << note;
    }
    EXPECT_EQ(says("read it back with --undirected"), headerless && !g->directed()) << ext << ": " << note;
    EXPECT_EQ(says("weights not written"), plain == "el" && g->weighted()) << ext << ": " << note;
    if (!headerless && plain != "txt") {
      EXPECT_EQ(note, "") << ext;
    }
    if (ext != plain) {
      std::ifstream f(p, std::ios::binary);
      unsigned char magic[2] = {0, 0};
      f.read(reinterpret_cast<char*>(magic), 2);
      EXPECT_NE(magic[0], '0') << ext << ": compressed";
    }
    LoadOptions back;  // the graphs number vertices by position, isolated ones too
    back.ids = IdChoice::kPositions;
    back.build.symmetrize = headerless && !g->directed();
    Graph h = load_graph(p, back);
    EXPECT_EQ(h.directed(), g->directed()) << ext;
    if (plain == "el") {
      EXPECT_FALSE(h.weighted());
      EXPECT_EQ(unweighted(adjacency(*g)), adjacency(h));
    } else {
      expect_same(*g, h);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, RoundTrip,
                         ::testing::Values("el", "wel", "txt", "csv", "gr", "mtx", "cgr", "el.gz", "txt.zst",
                                           "mtx.bz2"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           std::replace(n.begin(), n.end(), '.', '_');
                           return n;
                         });

TEST(Writers, CompressedCgrIsRefused) {
  Graph g = load_graph("kron:6", {});
  EXPECT_THAT(testing::error_of([&] { save_graph(g, temp_path("g.cgr.gz")); }),
              ::testing::HasSubstr("cannot be compressed"));
}

TEST(Writers, CsvIsCommaSeparatedInTheInputsIds) {
  LoadInfo info;
  Graph d = load_graph(write_file("ids.txt", "10 20 5\n20 30 7\n"), {}, &info);
  save_graph(d, temp_path("ids_out.csv"), Format(nullptr), info.ids);
  std::ifstream f(temp_path("ids_out.csv"));
  std::string a((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(a, "10,20,5\n20,30,7\n");
}

// GAP's reader stops at a '#' line: no header, undirected graphs included.
TEST(Writers, GapEdgeListsHaveTwoOrThreeColumnsAndNoHeader) {
  for (bool undirected : {false, true}) {
    LoadOptions o;
    o.build.symmetrize = undirected;
    Graph d = load_graph(write_file("gap.wel", "0 1 5\n1 2 7\n"), o);
    save_graph(d, temp_path("gap_out.el"));
    save_graph(d, temp_path("gap_out.wel"));
    std::ifstream el(temp_path("gap_out.el")), wel(temp_path("gap_out.wel"));
    std::string a((std::istreambuf_iterator<char>(el)), {}), b((std::istreambuf_iterator<char>(wel)), {});
    EXPECT_EQ(a, "0 1\n1 2\n") << undirected;
    EXPECT_EQ(b, "0 1 5\n1 2 7\n") << undirected;
  }
}

TEST(Cgr, IsUsedInPlaceAndKeepsFlags) {
  Graph g = load_graph("grid:7x5", {});
  g.set_weights(default_weights(g.out(), 3));
  const std::string p = temp_path("w.cgr");
  write_cgr(g, p);
  Graph h = read_cgr(p);
  EXPECT_FALSE(h.out().offsets.owned());  // mmap'd view, not a copy
  EXPECT_FALSE(h.directed());
  expect_same(g, h);
}

// A .cgr's pages can be let go after a pass (triangle counting's
// orientation does) and read back from the file; a view of memory that is
// not a file map (a Python array used in place) is never dropped, which
// would zero it.
TEST(Cgr, ReleasedPagesReadBackAndOtherViewsAreLeftAlone) {
  const Graph g = load_graph("kron:12", {});
  const std::string p = temp_path("r.cgr");
  write_cgr(g, p);
  const Graph h = read_cgr(p);
  const Buffer<vid_t>& t = h.out().targets;
  ASSERT_TRUE(t.file_mapped());
  const std::vector<vid_t> before(t.begin(), t.end());
  t.release_resident(0, t.size());
  EXPECT_TRUE(std::equal(before.begin(), before.end(), t.begin()));
  EXPECT_FALSE(g.out().targets.file_mapped());

  std::vector<vid_t> mine(1 << 16, 7);
  const Buffer<vid_t> view(mine.data(), mine.size(), nullptr);
  EXPECT_FALSE(view.file_mapped());
  view.release_resident(0, view.size());
  EXPECT_EQ(std::count(mine.begin(), mine.end(), 7u), long(mine.size()));
}

TEST(Cgr, SymmetrizeOnLoadOfDirectedFile) {
  Graph d = load_graph(write_file("s.el", "0 1\n1 2\n"), {});
  const std::string p = temp_path("s.cgr");
  write_cgr(d, p);
  LoadOptions o;
  o.build.symmetrize = true;
  Graph u = load_graph(p, o);
  EXPECT_FALSE(u.directed());
  EXPECT_EQ(u.num_edges(), 4u);
}

TEST(RealGraph, FacebookLoads) {
  Graph g = load_graph(testing::data_file("facebook_combined.txt"), {});
  EXPECT_EQ(g.num_vertices(), 4039u);
  EXPECT_EQ(g.num_edges(), 176468u);  // 88234 friendships, both directions
}

// The input's ids (--ids): a SNAP/plain edge list's vertices are the ids
// that occur (gaps, an offset and 64-bit ids included), numbered in
// ascending order; GAP's .el keeps positions; DIMACS is 1-based; a .cgr
// keeps the ids it was written with.
TEST(InputIds, OccurringPositionsOneBasedAndCgr) {
  LoadInfo info;
  Graph g = load_graph(write_file("ids.txt", "1 2\n2 3\n3 1\n3 4\n"), {}, &info);
  EXPECT_EQ(g.num_vertices(), 4u);  // no vertex 0: ids 1..4 are 4 vertices
  EXPECT_EQ(info.ids.scheme, IdScheme::kOccurring);
  EXPECT_EQ(info.ids.of(0), 1u);
  EXPECT_EQ(info.ids.find(4, 4), std::optional<vid_t>(3));
  EXPECT_EQ(info.ids.find(0, 4), std::nullopt);

  Graph wide =
      load_graph(write_file("wide.txt", "5000000000 7\n7 99999999999\n# c\n5000000000 99999999999\n"), {}, &info);
  EXPECT_EQ(wide.num_vertices(), 3u);
  EXPECT_EQ(info.ids.original, (std::vector<uint64_t>{7, 5000000000ull, 99999999999ull}));
  EXPECT_EQ(adjacency(wide)[1], (std::vector<std::pair<vid_t, weight_t>>{{0, 0}, {2, 0}}));  // 5e9 -> 7, 99999999999

  Graph top = load_graph(write_file("top.txt", "18446744073709551615 3\n3 0\n"), {}, &info);  // the largest id
  EXPECT_EQ(info.ids.original, (std::vector<uint64_t>{0, 3, UINT64_MAX}));
  EXPECT_EQ(adjacency(top)[2], (std::vector<std::pair<vid_t, weight_t>>{{1, 0}}));

  Graph el = load_graph(write_file("pos.el", "1 2\n2 3\n"), {}, &info);
  EXPECT_EQ(el.num_vertices(), 4u);  // GAP: positions 0..3
  EXPECT_EQ(info.ids.scheme, IdScheme::kPositions);
  LoadOptions occurring;
  occurring.ids = IdChoice::kOccurring;
  EXPECT_EQ(load_graph(write_file("pos2.el", "1 2\n2 3\n"), occurring).num_vertices(), 3u);

  Graph konect = load_graph(write_file("k.tsv", "% sym unweighted\n2 4\n4 9\n"), {}, &info);
  EXPECT_EQ(konect.num_vertices(), 3u);
  EXPECT_EQ(info.ids.original, (std::vector<uint64_t>{2, 4, 9}));

  Graph gr = load_graph(write_file("ids.gr", "p sp 3 2\na 1 2 5\na 2 3 7\n"), {}, &info);
  EXPECT_EQ(info.ids.scheme, IdScheme::kOneBased);
  EXPECT_EQ(info.ids.find(1, 3), std::optional<vid_t>(0));
  EXPECT_EQ(info.ids.find(0, 3), std::nullopt);
  EXPECT_EQ(info.ids.describe(3), "1..3");

  LoadInfo wrote;
  Graph w = load_graph(temp_path("wide.txt"), {}, &wrote);
  const std::string cgr = temp_path("wide.cgr");
  save_graph(w, cgr, Format(nullptr), wrote.ids);
  LoadInfo back;
  Graph r = load_graph(cgr, {}, &back);
  expect_same(w, r);
  EXPECT_EQ(back.ids.scheme, IdScheme::kOccurring);
  EXPECT_EQ(back.ids.original, wrote.ids.original);
  const std::string txt = temp_path("wide_out.txt");  // text keeps the ids as written
  save_graph(w, txt, Format(nullptr), wrote.ids);
  LoadInfo again;
  expect_same(w, load_graph(txt, {}, &again));
  EXPECT_EQ(again.ids.original, wrote.ids.original);
}

// Many scattered 64-bit ids go the sorted path, few dense ones the bitmap:
// both number the same ids the same way.
TEST(InputIds, SortedAndBitmapCompactionAgree) {
  std::string dense, scattered;
  for (uint64_t i = 0; i < 3000; ++i) {
    const uint64_t u = (i * 7919) % 2000 + 10, v = (i * 104729) % 2000 + 10;
    dense += std::to_string(u) + " " + std::to_string(v) + "\n";
    scattered += std::to_string(u * 1000000007ull) + " " + std::to_string(v * 1000000007ull) + "\n";
  }
  LoadInfo a, b;
  Graph d = load_graph(write_file("dense.txt", dense), {}, &a);
  Graph s = load_graph(write_file("scattered.txt", scattered), {}, &b);
  expect_same(d, s);
  ASSERT_EQ(a.ids.original.size(), b.ids.original.size());
  for (size_t i = 0; i < a.ids.original.size(); ++i) EXPECT_EQ(a.ids.original[i] * 1000000007ull, b.ids.original[i]);
}

}  // namespace
}  // namespace chatty
