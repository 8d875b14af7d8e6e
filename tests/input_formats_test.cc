// The inputs people download: content that names its own format whatever
// the extension, the headers that say a graph is undirected, METIS files,
// and weights that are kept exactly or refused. Their byte streams
// (compression, pipes) are input_streams_test.cc's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/formats.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;
using testing::neighbours;
using testing::temp_path;
using testing::write_file;

std::vector<weight_t> weights(const Graph& g) {
  return std::vector<weight_t>(g.out().weights.begin(), g.out().weights.end());
}

LoadOptions ignoring_weights() {
  LoadOptions o;
  o.weights = WeightUse::kIgnored;
  return o;
}

TEST(RealWeights, FractionalWeightsAreRefusedNotRounded) {
  const std::string p =
      write_file("real.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.3\n2 3 1\n");
  EXPECT_THAT(error_of([&] { load_graph(p, {}); }),
              AllOf(HasSubstr("real.mtx:3: weight 0.3 is not an integer"), HasSubstr("never rounds")));
}

TEST(RealWeights, AppsThatIgnoreWeightsLoadAnyNumber) {
  LoadInfo info;
  Graph g = load_graph(
      write_file("neg.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 -0.3\n2 3 2.5e-3\n3 1 7\n"),
      ignoring_weights(), &info);
  EXPECT_FALSE(g.weighted());
  EXPECT_TRUE(info.weights_dropped);
  EXPECT_EQ(neighbours(g), (std::vector<std::vector<vid_t>>{{1}, {2}, {0}}));
  Graph e = load_graph(write_file("neg.wel", "0 1 -1.5\n1 2 0.25\n"), ignoring_weights());
  EXPECT_EQ(e.num_edges(), 2u);
  Graph d = load_graph(write_file("neg.gr", "p sp 2 1\na 1 2 -4\n"), ignoring_weights());
  EXPECT_FALSE(d.weighted());
}

TEST(Sniffing, MatrixMarketContentInATxtFileIsReadAsMatrixMarket) {
  LoadInfo info;
  Graph g = load_graph(write_file("mm.txt", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n"), {},
                       &info);
  EXPECT_EQ(info.format, "Matrix Market");
  EXPECT_EQ(g.num_vertices(), 3u);  // not 4: the size line is no edge and ids become 0-based
  EXPECT_EQ(neighbours(g), (std::vector<std::vector<vid_t>>{{1}, {}, {0}}));
}

TEST(Sniffing, DimacsContentInAnElFileIsReadAsDimacs) {
  Graph g = load_graph(write_file("road.el", "c a road\np sp 3 2\na 1 2 4\na 2 3 6\n"), {});
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(weights(g), (std::vector<weight_t>{4, 6}));
}

TEST(Sniffing, AFormatTheContentContradictsIsRefused) {
  LoadOptions o;
  o.format = find_format_named("el");
  const std::string p = write_file("mm2.el", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  EXPECT_THAT(error_of([&] { load_graph(p, o); }),
              HasSubstr("the content is a Matrix Market file but --format names an edge list"));
}

TEST(Sniffing, UnsupportedMatrixMarketKindsAreRefused) {
  for (const char* kind : {"array real general", "coordinate real skew-symmetric", "coordinate complex hermitian"}) {
    const std::string p = write_file("kind.mtx", std::string("%%MatrixMarket matrix ") + kind + "\n2 2 1\n1 2 1\n");
    EXPECT_THAT(error_of([&] { load_graph(p, {}); }), HasSubstr("kind.mtx:1:")) << kind;
  }
}

TEST(Direction, SnapUndirectedHeaderSymmetrizes) {
  LoadInfo info;
  Graph g = load_graph(write_file("ca.txt",
                                  "# Undirected graph (each unordered pair of nodes is saved once): ca.txt\n"
                                  "# Nodes: 4 Edges: 2\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n"),
                       {}, &info);
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_vertices(), 3u);  // the ids that occur, as NetworkX reads it
  EXPECT_EQ(neighbours(g), (std::vector<std::vector<vid_t>>{{1}, {0, 2}, {1}}));
  EXPECT_THAT(info.direction_reason, HasSubstr("# Undirected graph"));
  LoadOptions positions;  // as positions, "# Nodes: 4" keeps the isolated vertex 3
  positions.ids = IdChoice::kPositions;
  EXPECT_EQ(load_graph(testing::temp_path("ca.txt"), positions).num_vertices(), 4u);
}

TEST(Direction, SnapDirectedHeaderAndNoHeaderStayDirected) {
  LoadInfo info;
  Graph g = load_graph(write_file("cit.txt", "# Directed graph (each unordered pair of nodes is saved once)\n0 1\n"),
                       {}, &info);
  EXPECT_TRUE(g.directed());
  EXPECT_THAT(info.direction_reason, HasSubstr("# Directed graph"));
  load_graph(write_file("plain.txt", "0 1\n"), {}, &info);
  EXPECT_THAT(info.direction_reason, HasSubstr("--undirected"));
}

TEST(Direction, KonectHeadersAreOneBasedAndSaySymmetric) {
  Graph g = load_graph(write_file("out.konect", "% sym unweighted\n% 2 3 3\n1 2\n2 3\n"), {});
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(neighbours(g), (std::vector<std::vector<vid_t>>{{1}, {0, 2}, {1}}));
  Graph w = load_graph(write_file("out.konect_w", "% asym positive\n1 2 5 1234567\n2 1 3 1234568\n"), {});
  EXPECT_TRUE(w.directed());
  EXPECT_EQ(weights(w), (std::vector<weight_t>{5, 3}));
  EXPECT_THAT(error_of([] { load_graph(write_file("out.bip", "% bip unweighted\n1 1\n"), {}); }),
              HasSubstr("bipartite"));
}

// GAP's test graphs (gapbs test/graphs: 4.el, 4.graph, 4w.graph), as data:
// the METIS files must load to the graph of the edge list.
constexpr const char* kGap4El =
    "0 13\n"
    "0 13\n"
    "0 9\n"
    "0 0\n"
    "0 8\n"
    "0 0\n"
    "0 12\n"
    "9 9\n"
    "2 1\n"
    "0 3\n"
    "0 0\n"
    "0 8\n"
    "0 7\n"
    "13 9\n"
    "0 8\n"
    "7 12\n"
    "9 4\n"
    "0 0\n"
    "7 3\n"
    "0 2\n"
    "0 13\n"
    "8 4\n"
    "8 7\n"
    "0 10\n"
    "8 7\n"
    "0 13\n"
    "13 9\n"
    "7 12\n"
    "13 11\n"
    "8 13\n"
    "2 4\n"
    "0 9\n"
    "0 4\n"
    "0 12\n"
    "13 13\n"
    "0 13\n"
    "0 8\n"
    "3 9\n"
    "0 12\n"
    "7 4\n"
    "9 11\n"
    "0 8\n"
    "7 13\n"
    "0 9\n"
    "0 0\n"
    "0 2\n"
    "7 1\n"
    "0 7\n"
    "2 9\n"
    "10 1\n"
    "0 0\n"
    "0 1\n"
    "8 7\n"
    "0 7\n"
    "7 2\n"
    "0 0\n"
    "0 1\n"
    "0 11\n"
    "8 9\n"
    "8 12\n"
    "7 9\n"
    "0 7\n"
    "0 3\n"
    "7 13\n"
    "8 7\n"
    "7 1\n"
    "0 0\n"
    "0 0\n"
    "0 4\n"
    "0 8\n"
    "7 1\n"
    "0 0\n"
    "8 7\n"
    "7 4\n"
    "0 4\n"
    "9 4\n"
    "0 11\n"
    "0 9\n"
    "7 1\n"
    "8 9\n"
    "0 4\n"
    "0 4\n"
    "3 13\n"
    "0 9\n"
    "0 3\n"
    "0 0\n"
    "0 8\n"
    "8 13\n"
    "0 0\n"
    "0 3\n"
    "0 9\n"
    "0 11\n"
    "0 0\n"
    "7 2\n"
    "0 7\n"
    "0 4\n"
    "0 7\n"
    "0 8\n"
    "13 13\n"
    "0 13\n"
    "0 0\n"
    "0 10\n"
    "8 7\n"
    "13 9\n"
    "0 13\n"
    "0 12\n"
    "0 1\n"
    "0 10\n"
    "3 13\n"
    "0 7\n"
    "8 8\n"
    "8 3\n"
    "0 8\n"
    "0 7\n"
    "7 9\n"
    "0 8\n"
    "2 1\n"
    "0 0\n"
    "9 10\n"
    "0 12\n"
    "0 13\n"
    "0 7\n"
    "8 2\n"
    "13 13\n"
    "0 9\n"
    "8 7\n"
    "0 6\n"
    "0 8\n"
    "0 4\n"
    "7 7\n"
    "0 4\n"
    "8 7\n"
    "0 2\n"
    "7 10\n"
    "0 13\n"
    "0 13\n"
    "0 2\n"
    "8 11\n"
    "0 12\n"
    "0 4\n"
    "8 8\n"
    "0 8\n"
    "0 7\n"
    "0 0\n"
    "0 7\n"
    "9 6\n"
    "3 13\n"
    "0 7\n"
    "0 13\n"
    "0 0\n"
    "8 1\n"
    "0 12\n"
    "3 2\n"
    "4 6\n"
    "0 0\n"
    "12 1\n"
    "0 13\n"
    "13 13\n"
    "0 0\n"
    "13 9\n"
    "8 9\n"
    "8 13\n"
    "8 13\n"
    "0 0\n"
    "8 7\n"
    "7 13\n"
    "0 0\n"
    "8 7\n"
    "8 13\n"
    "0 0\n"
    "13 9\n"
    "0 3\n"
    "0 11\n"
    "0 7\n"
    "8 13\n"
    "0 8\n"
    "0 9\n"
    "3 9\n"
    "0 9\n"
    "0 0\n"
    "13 4\n"
    "0 7\n"
    "0 8\n"
    "0 8\n"
    "8 12\n"
    "13 4\n"
    "0 8\n"
    "3 4\n"
    "8 3\n"
    "0 0\n"
    "13 4\n"
    "0 13\n"
    "0 13\n"
    "0 7\n"
    "0 13\n"
    "9 10\n"
    "2 6\n"
    "0 2\n"
    "0 7\n"
    "0 2\n"
    "7 11\n"
    "0 3\n"
    "0 9\n"
    "8 13\n"
    "0 8\n"
    "13 2\n"
    "3 12\n"
    "8 3\n"
    "0 13\n"
    "0 7\n"
    "0 7\n"
    "0 4\n"
    "8 13\n"
    "8 9\n"
    "0 13\n"
    "0 7\n"
    "7 9\n"
    "0 13\n"
    "0 2\n"
    "8 13\n"
    "0 4\n"
    "13 9\n"
    "0 7\n"
    "0 9\n"
    "0 8\n"
    "2 10\n"
    "0 12\n"
    "0 2\n"
    "13 4\n"
    "0 8\n"
    "0 13\n"
    "0 0\n"
    "9 9\n"
    "0 4\n"
    "0 13\n"
    "7 11\n"
    "9 1\n"
    "0 7\n"
    "0 1\n"
    "0 6\n"
    "0 8\n"
    "0 9\n"
    "7 13\n"
    "7 13\n"
    "8 2\n"
    "0 0\n"
    "0 8\n"
    "8 7\n"
    "8 9\n"
    "0 3\n"
    "0 9\n"
    "13 10\n"
    "0 10\n"
    "0 0\n"
    "0 3\n"
    "0 9\n";
constexpr const char* kGap4Graph =
    "14 53 100\n"
    "2 3 4 5 7 8 9 10 11 12 13 14 \n"
    "\n"
    "2 5 7 10 11 \n"
    "3 5 10 13 14 \n"
    "7 \n"
    "\n"
    "\n"
    "2 3 4 5 10 11 12 13 14 \n"
    "2 3 4 5 8 10 12 13 14 \n"
    "2 5 7 11 12 \n"
    "2 \n"
    "\n"
    "2 \n"
    "3 5 10 11 12 \n";
constexpr const char* kGap4wGraph =
    "14 53 1\n"
    "2 19 3 5 4 1 5 8 7 67 8 18 9 11 10 3 11 93 12 2 13 38 14 6 \n"
    "\n"
    "2 40 5 167 7 199 10 22 11 47 \n"
    "3 250 5 183 10 204 13 130 14 121 \n"
    "7 176 \n"
    "\n"
    "\n"
    "2 39 3 13 4 251 5 155 10 101 11 58 12 72 13 15 14 75 \n"
    "2 45 3 29 4 23 5 245 8 25 10 112 12 205 13 26 14 23 \n"
    "2 115 5 19 7 53 11 141 12 139 \n"
    "2 181 \n"
    "\n"
    "2 213 \n"
    "3 243 5 29 10 59 11 212 12 200 \n";

TEST(Metis, GapTestGraphsLoadToTheEdgeListsGraph) {
  Graph el = load_graph(write_file("4.el", kGap4El), {});
  LoadInfo info;
  Graph g = load_graph(write_file("4.graph", kGap4Graph), {}, &info);
  Graph w = load_graph(write_file("4w.graph", kGap4wGraph), {});
  EXPECT_EQ(info.format, "METIS");
  EXPECT_EQ(el.num_vertices(), 14u);
  EXPECT_EQ(el.num_edges(), 53u);
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(neighbours(g), neighbours(el));
  EXPECT_EQ(neighbours(w), neighbours(el));
  EXPECT_TRUE(w.weighted());
  EXPECT_EQ(w.out().weights[0], 19u);  // vertex 1's first neighbour, 2, weight 19
  EXPECT_EQ(g.num_edges(), 53u);
  EXPECT_EQ(w.num_edges(), 53u);
}

TEST(Metis, EdgesListedTwiceAreUndirectedWithWeightsAndComments) {
  // The triangle 1-2-3 plus 3-4, each edge in both lines; vertex weights (fmt 11, ncon 2) skipped.
  Graph g = load_graph(write_file("tri.graph",
                                  "% a comment\n4 4 11 2\n7 7 2 5 3 6\n7 7 1 5 3 1\n7 7 1 6 2 1 4 9\n"
                                  "7 7 3 9\n"),
                       {});
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(neighbours(g), (std::vector<std::vector<vid_t>>{{1, 2}, {0, 2}, {0, 1, 3}, {2}}));
  EXPECT_EQ(weights(g), (std::vector<weight_t>{5, 6, 5, 1, 6, 1, 9, 9}));
}

TEST(Metis, BadFilesAreOneClearError) {
  EXPECT_THAT(error_of([] { load_graph(write_file("b1.graph", "3 2\n2\n1 3\n\n"), {}); }),
              HasSubstr("header says 2 edges but the lines list 3"));
  EXPECT_THAT(error_of([] { load_graph(write_file("b2.graph", "2 1\n2\n3\n"), {}); }),
              HasSubstr("b2.graph:3: neighbour id 3 out of range 1..2"));
  EXPECT_THAT(error_of([] { load_graph(write_file("b3.graph", "3 1\n2\n"), {}); }),
              HasSubstr("the header says 3 vertices but the file has 1 vertex lines"));
  EXPECT_THAT(error_of([] { load_graph(write_file("b4.graph", "2 1 101\n2\n1\n"), {}); }), HasSubstr("not supported"));
  EXPECT_THAT(error_of([] { load_graph(write_file("b5.graph", "2 1 1\n2\n1 4\n"), {}); }),
              HasSubstr("b5.graph:2: missing edge weight"));
}

// The format table is the one place a format is known: every row reads,
// its names and extensions find it and no other row, and each text
// format has its independent second reading.
TEST(FormatTable, EveryRowIsFoundByItsNamesAndExtensions) {
  std::set<std::string> names, extensions;
  for (Format f : formats()) {
    EXPECT_NE(f->read, nullptr) << f->name;
    EXPECT_EQ(find_format_named(f->name), f);
    EXPECT_TRUE(names.insert(f->name).second) << f->name;
    std::istringstream aliases(f->aliases), exts(f->extensions);
    for (std::string a; aliases >> a;) {
      EXPECT_EQ(find_format_named(a), f) << a;
      EXPECT_TRUE(names.insert(a).second) << a;
    }
    for (std::string e; exts >> e;) {
      EXPECT_EQ(find_format_of_extension(e), f) << e;
      EXPECT_TRUE(extensions.insert(e).second) << e;
    }
    EXPECT_EQ(f->read_again != nullptr, f->magic == nullptr) << f->name << ": text formats are read twice";
    EXPECT_NE(format_names().find(f->name), std::string::npos);
  }
  EXPECT_EQ(find_format_named("auto"), nullptr);
  EXPECT_EQ(find_format_of_extension("png"), nullptr);
  EXPECT_EQ(parse_format("auto"), nullptr);
}

}  // namespace
}  // namespace chatty
