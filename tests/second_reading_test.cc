// --validate's second reading: every format read again gives the loaded
// graph in the input's ids, and a graph that differs from the file (ids
// shifted, an edge lost or added, a weight, the direction) is caught and
// named in the input's ids.
#include "datasets/second_reading.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "test_util.h"

namespace chatty {
namespace {

using ::testing::HasSubstr;
using testing::write_file;

struct Loaded {
  Graph g;
  LoadInfo info;
  SecondReading r;
};

Loaded load_twice(const std::string& path, const LoadOptions& opt = {}) {
  Loaded l;
  l.g = load_graph(path, opt, &l.info);
  l.r = read_again(path, opt);
  return l;
}

// Each format's semantics: (file name, content, vertices, edges as stored).
struct Case {
  const char* name;
  const char* text;
  size_t vertices, edges;
};

TEST(SecondReading, EveryFormatGivesTheLoadedGraph) {
  const Case cases[] = {
      {"gaps.txt", "# Nodes: 4\n1 2\n2 7\n7 1\n1000000000000 2\n", 4, 4},  // SNAP: the ids that occur
      {"und.txt", "# Undirected graph\n3 5\n5 9\n9 9\n3 5\n", 3, 4},       // both ways, no loop, one copy
      {"g.el", "0 1\n1 4\n", 5, 2},                                        // GAP: positions 0..4
      {"g.wel", "0 1 5\n1 4 2\n1 4 1\n", 5, 2},                            // the lightest of parallel edges
      {"count.txt", "6\n0 1\n2 3\n", 6, 2},                                // a vertex count line: positions
      {"k.tsv", "% sym unweighted\n1 2 1 100\n2 3 1 200\n", 3, 4},         // KONECT with timestamps
      {"d.gr", "c x\np sp 4 3\na 1 2 7\na 2 3 1\na 4 1 2\n", 4, 3},        // DIMACS 1..4
      {"s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n% c\n5 5 2\n2 1 3\n5 4 1\n", 5, 4},
      {"p.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 4 2\n1 2\n3 4\n", 4, 2},
      {"m.graph", "% c\n3 2 1\n2 4 3 1\n1 4\n1 1\n", 3, 4},  // METIS, edge weights, each edge twice
      {"gap.graph", "3 2\n2\n3\n\n", 3, 2},                  // GAP's METIS: m out-edges, directed
  };
  for (const Case& c : cases) {
    const Loaded l = load_twice(write_file(c.name, c.text));
    EXPECT_EQ(compare_with_reading(l.g, l.info.ids, l.r), "") << c.name;
    EXPECT_EQ(l.r.ids.size(), c.vertices) << c.name;
    EXPECT_EQ(l.r.edges.size(), c.edges) << c.name;
    EXPECT_EQ(l.g.num_edges(), c.edges) << c.name;
  }
}

TEST(SecondReading, OptionsApplyAsToTheLoader) {
  const std::string p = write_file("opts.txt", "1 2 3\n2 3 4\n3 3 1\n");
  LoadOptions o;
  o.build.symmetrize = true;
  o.weights = WeightUse::kIgnored;
  o.ids = IdChoice::kPositions;
  Loaded l = load_twice(p, o);
  EXPECT_FALSE(l.r.weighted);
  EXPECT_FALSE(l.r.directed);
  EXPECT_EQ(l.r.ids.size(), 4u);  // positions 0..3
  EXPECT_EQ(compare_with_reading(l.g, l.info.ids, l.r), "");
}

TEST(SecondReading, CompressedFilesAreReadByTheirMagic) {
  const std::string p = write_file("z.txt", "10 20\n20 30\n");
  ASSERT_EQ(std::system(("gzip -kf " + p + " && mv " + p + ".gz " + p + ".data").c_str()), 0);
  LoadOptions o;
  o.format = find_format_named("el");
  const Loaded l = load_twice(p + ".data", o);
  EXPECT_EQ(l.r.ids, (std::vector<uint64_t>{10, 20, 30}));
  EXPECT_EQ(compare_with_reading(l.g, l.info.ids, l.r), "");
}

// GAP's .el named positions compressed too: ids 0..6 with 2..4 isolated.
TEST(SecondReading, CompressedGapFilesArePositions) {
  const std::string p = write_file("gap_z.el", "0 1\n5 6\n");
  ASSERT_EQ(std::system(("gzip -kf " + p).c_str()), 0);
  const Loaded l = load_twice(p + ".gz");
  EXPECT_EQ(l.r.ids.size(), 7u);
  EXPECT_EQ(compare_with_reading(l.g, l.info.ids, l.r), "");
}

// The check fails when the graph is not the file's: each of these is what
// a misreading loader would produce.
TEST(SecondReading, AGraphThatIsNotTheFilesIsCaught) {
  const Loaded l = load_twice(write_file("karate_like.txt", "1 2 4\n2 3 5\n3 1 6\n1 4 7\n"));
  ASSERT_EQ(compare_with_reading(l.g, l.info.ids, l.r), "");
  // Ids read as positions: vertex 0 appears, 35 vertices for 34.
  EXPECT_THAT(compare_with_reading(l.g, VertexIds{}, l.r), HasSubstr("vertex 0 is not in the file"));
  // A 1-based file taken 0-based.
  VertexIds one_based;
  one_based.scheme = IdScheme::kOneBased;
  EXPECT_EQ(compare_with_reading(l.g, one_based, l.r), "");  // ids 1..4 happen to be 1-based positions
  SecondReading r = l.r;
  r.edges.pop_back();  // a line the loader invented
  EXPECT_THAT(compare_with_reading(l.g, l.info.ids, r), HasSubstr("is not in the file"));
  r = l.r;
  r.edges.push_back({4, 4, 1});  // a line the loader lost
  EXPECT_THAT(compare_with_reading(l.g, l.info.ids, r), HasSubstr("the file's edge 4 -> 4 is not in the graph"));
  r = l.r;
  r.edges[0].w += 1;
  EXPECT_THAT(compare_with_reading(l.g, l.info.ids, r), HasSubstr("edge 1 -> 2 has weight 4, the file 5"));
  r = l.r;
  r.directed = false;
  EXPECT_THAT(compare_with_reading(l.g, l.info.ids, r), HasSubstr("the graph is directed"));
  r = l.r;
  r.ids.push_back(99);
  EXPECT_THAT(compare_with_reading(l.g, l.info.ids, r), HasSubstr("4 vertices, the file has 5"));
}

TEST(SecondReading, SaysWhatItCannotReadAgain) {
  std::string why;
  EXPECT_FALSE(can_read_again("-", &why));
  EXPECT_THAT(why, HasSubstr("standard input"));
  EXPECT_FALSE(can_read_again("kron:10", &why));
  EXPECT_FALSE(can_read_again(write_file("g.cgr", "x"), &why));
  EXPECT_THAT(why, HasSubstr(".cgr"));
  EXPECT_TRUE(can_read_again(write_file("ok.txt", "0 1\n"), &why));
}

}  // namespace
}  // namespace chatty
