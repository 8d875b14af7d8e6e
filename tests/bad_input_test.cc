// Every kind of bad input gives a chatty::Error whose message names the
// file (and line, for text formats) - never a crash or a wrong graph.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "apps/run_app.h"
#include "datasets/cgr_format.h"
#include "datasets/load.h"
#include "test_util.h"

namespace chatty {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;
using testing::temp_path;
using testing::write_file;

std::string load_error(const std::string& name, const std::string& content, LoadOptions o = {}) {
  const std::string p = write_file(name, content);
  return error_of([&] { load_graph(p, o); });
}

TEST(BadInput, MissingFile) {
  EXPECT_THAT(error_of([] { load_graph("/nonexistent/g.el", {}); }),
              AllOf(HasSubstr("/nonexistent/g.el"), HasSubstr("cannot open")));
}

TEST(BadInput, UnreadableDirectory) {
  LoadOptions o;
  o.format = find_format_named("el");
  EXPECT_THAT(error_of([&] { load_graph(testing::scratch_dir().string() + "/", o); }), HasSubstr("not a regular file"));
}

TEST(BadInput, UnknownFormat) {
  EXPECT_THAT(load_error("g.xyz", "0 1\n"), AllOf(HasSubstr("g.xyz"), HasSubstr("unknown format '.xyz'")));
  EXPECT_THAT(load_error("nameless", "a b\n"), HasSubstr("unknown format '(no extension)'"));
  EXPECT_EQ(load_graph(write_file("nameless2", "# a SNAP file\n0 1\n1 2\n"), {}).num_edges(), 2u);
  EXPECT_THAT(error_of([] { parse_format("png"); }), HasSubstr("unknown format 'png'"));
}

TEST(BadInput, MalformedLines) {
  EXPECT_THAT(load_error("m1.el", "0 1\n1 2 3 4\n"), HasSubstr("m1.el:2: malformed line"));
  EXPECT_THAT(load_error("m2.el", "0 1\n2\n"), HasSubstr("m2.el:2: target id missing"));
  EXPECT_THAT(load_error("m3.wel", "0 1 5\n1 2\n"), HasSubstr("m3.wel:2: missing weight"));
  EXPECT_THAT(load_error("m4.gr", "p sp 3 1\nx 1 2 3\n"), HasSubstr("m4.gr:2: malformed line"));
  EXPECT_THAT(load_error("m5.gr", "a 1 2 3\n"), HasSubstr("m5.gr:1: expected the problem line"));
  EXPECT_THAT(load_error("m6.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2\n"),
              HasSubstr("m6.mtx:2: expected the size line"));
  EXPECT_THAT(load_error("m7.mtx", "%%MatrixMarket matrix array real general\n2 2\n"), HasSubstr("coordinate"));
  EXPECT_THAT(load_error("m8.mtx", "hello\n"), HasSubstr("not a Matrix Market file"));
}

TEST(BadInput, ErrorLineNumbersAreExactInLargeFiles) {
  // Big enough that every thread parses a chunk; the bad line is late.
  std::string s;
  for (int i = 0; i < 200000; ++i) s += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  s += "7 x\n";
  for (int i = 0; i < 1000; ++i) s += "1 2\n";
  EXPECT_THAT(load_error("big.el", s), HasSubstr("big.el:200001: target id not a non-negative integer"));
}

TEST(BadInput, NonNumericAndNegativeIds) {
  EXPECT_THAT(load_error("n1.el", "0 1\na b\n"), HasSubstr("n1.el:2: source id not a non-negative integer"));
  EXPECT_THAT(load_error("n2.el", "0 1\n-3 1\n"), HasSubstr("n2.el:2: source id negative"));
  EXPECT_THAT(load_error("n3.el", "0 1x\n"), HasSubstr("n3.el:1: target id not a non-negative integer"));
  EXPECT_THAT(load_error("n4.el", "0 4294967295\n"), HasSubstr("n4.el:1: target id too large"));
}

TEST(BadInput, BadWeights) {
  EXPECT_THAT(load_error("w1.wel", "0 1 5\n1 2 -4\n"), HasSubstr("w1.wel:2: negative weight -4"));
  EXPECT_THAT(load_error("w2.wel", "0 1 4294967296\n"), HasSubstr("w2.wel:1: weight 4294967296 too large"));
  EXPECT_THAT(load_error("w3.gr", "p sp 2 1\na 1 2 -1\n"), HasSubstr("w3.gr:2: negative weight -1"));
  EXPECT_THAT(load_error("w4.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -0.5\n"),
              HasSubstr("w4.mtx:3: negative weight"));
  EXPECT_THAT(load_error("w5.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e12\n"),
              HasSubstr("w5.mtx:3: weight 1e12 too large"));
  EXPECT_THAT(load_error("w6.wel", "0 1 2.5\n"), HasSubstr("w6.wel:1: weight 2.5 is not an integer"));
  EXPECT_THAT(load_error("w7.wel", "0 1 x\n"), HasSubstr("w7.wel:1: weight 'x' is not a number"));
  EXPECT_THAT(load_error("w8.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -3\n"),
              HasSubstr("w8.mtx:3: negative weight -3"));
  // Ignored weights are still numbers.
  LoadOptions ignore;
  ignore.weights = WeightUse::kIgnored;
  EXPECT_THAT(load_error("w9.wel", "0 1 1\n1 2 abc\n", ignore), HasSubstr("w9.wel:2: weight 'abc' is not a number"));
}

TEST(BadInput, OutOfRangeIdsInOneBasedFormats) {
  EXPECT_THAT(load_error("r1.gr", "p sp 3 1\na 0 2 1\n"), HasSubstr("r1.gr:2: vertex id 0 in a 1-based file"));
  EXPECT_THAT(load_error("r2.gr", "p sp 3 1\na 1 4 1\n"), HasSubstr("r2.gr:2: vertex id 4 out of range 1..3"));
  EXPECT_THAT(load_error("r3.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n4 1\n"),
              HasSubstr("r3.mtx:3: row index 4 out of range 1..3"));
  EXPECT_THAT(load_error("r4.txt", "3\n0 1\n1 5\n"), HasSubstr("vertex id 5 out of range: the header says 3"));
}

TEST(BadInput, HeaderCountsDisagreeWithBody) {
  EXPECT_THAT(load_error("h1.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n"),
              HasSubstr("h1.gr: header says 3 arcs but the file has 2"));
  EXPECT_THAT(load_error("h2.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n"),
              HasSubstr("h2.mtx: size line says 1 entries but the file has 2"));
}

TEST(BadInput, EmptyGraphs) {
  EXPECT_THAT(load_error("e1.el", ""), HasSubstr("e1.el: empty graph"));
  EXPECT_THAT(load_error("e2.el", "# only comments\n\n"), HasSubstr("e2.el: empty graph"));
  EXPECT_THAT(load_error("e3.el", "0 0\n"), HasSubstr("e3.el: empty graph"));  // only a self loop
  EXPECT_THAT(load_error("e4.gr", "p sp 0 0\n"), HasSubstr("empty graph"));
  EXPECT_THAT(error_of([] { load_graph("grid:1x1", {}); }), HasSubstr("empty graph"));
}

TEST(BadInput, GraphsLargerThanMemoryAreRefusedBeforeAllocating) {
  // One edge naming vertex 4e9 in a positions file means 4e9 vertices: it
  // is refused before allocating, with the way to load it compacted.
  EXPECT_THAT(load_error("huge.el", "0 4000000000\n"),
              AllOf(HasSubstr("huge.el"), HasSubstr("far beyond its 1 edges"), HasSubstr("--ids=occurring")));
  // A vertex count line says the vertices are meant: memory is the limit.
  EXPECT_THAT(load_error("huge2.el", "4000000001\n0 4000000000\n"),
              AllOf(HasSubstr("huge2.el"), HasSubstr("GiB of memory")));
  EXPECT_THAT(error_of([] { load_graph("kron:31:1024", {}); }), HasSubstr("GiB of memory"));
}

TEST(BadInput, BadSpecs) {
  EXPECT_THAT(error_of([] { load_graph("kron:0", {}); }), HasSubstr("bad scale in graph spec 'kron:0'"));
  EXPECT_THAT(error_of([] { load_graph("kron:abc", {}); }), HasSubstr("bad scale"));
  EXPECT_THAT(error_of([] { load_graph("urand:40", {}); }), HasSubstr("bad scale"));
  EXPECT_THAT(error_of([] { load_graph("kron:10:0", {}); }), HasSubstr("bad edge factor"));
  EXPECT_THAT(error_of([] { load_graph("grid:10", {}); }), HasSubstr("grid:WxH"));
  EXPECT_THAT(error_of([] { load_graph("grid:0x5", {}); }), HasSubstr("grid:WxH"));
}

class BadCgr : public ::testing::Test {
 protected:
  void SetUp() override {
    Graph g = load_graph("kron:8", {});
    path_ = temp_path("good.cgr");
    write_cgr(g, path_);
    std::ifstream in(path_, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string with(const std::string& name, const std::string& bytes) { return write_file(name, bytes); }
  std::string path_, bytes_;
};

TEST_F(BadCgr, Truncated) {
  for (size_t keep : {size_t(0), size_t(10), size_t(64), bytes_.size() / 2, bytes_.size() - 1}) {
    const std::string p = with("trunc.cgr", bytes_.substr(0, keep));
    EXPECT_THAT(error_of([&] { read_cgr(p); }), AllOf(HasSubstr("trunc.cgr"), HasSubstr("truncated"))) << keep;
  }
}

TEST_F(BadCgr, CorruptedPayloadFailsTheChecksum) {
  std::string b = bytes_;
  b[b.size() / 2] ^= 0x40;
  const std::string p = with("flip.cgr", b);
  EXPECT_THAT(error_of([&] { read_cgr(p); }), AllOf(HasSubstr("flip.cgr"), HasSubstr("checksum")));
}

TEST_F(BadCgr, BadMagicVersionAndTrailingBytes) {
  std::string b = bytes_;
  b[0] = 'X';
  EXPECT_THAT(error_of([&] { read_cgr(with("magic.cgr", b)); }), HasSubstr("bad magic"));
  b = bytes_;
  b[8] = 9;
  EXPECT_THAT(error_of([&] { read_cgr(with("ver.cgr", b)); }), HasSubstr("unsupported .cgr version 9"));
  EXPECT_THAT(error_of([&] { read_cgr(with("tail.cgr", bytes_ + "xx")); }), HasSubstr("trailing bytes"));
}

TEST(BadInput, SourceOutOfRange) {
  Graph g = load_graph("grid:4x4", {});
  EXPECT_THAT(error_of([&] { run_app(parse_app("bfs"), g, 16, {}); }), HasSubstr("source 16 out of range"));
}

TEST(BadInput, SsspWithoutWeights) {
  Graph g = load_graph("grid:4x4", {});
  EXPECT_THAT(error_of([&] { prepare_graph(parse_app("sssp"), g, /*default_weights=*/false, 1); }),
              HasSubstr("sssp needs edge weights"));
  EXPECT_THAT(error_of([&] { run_app(parse_app("sssp"), g, 0, {}); }), HasSubstr("needs edge weights"));
}

TEST(BadInput, SsspDistanceOverflowIsAnError) {
  // A path of two 3e9 edges: the distance does not fit in 32 bits.
  Graph g = load_graph(write_file("ovf.wel", "0 1 3000000000\n1 2 3000000000\n"), {});
  EXPECT_THAT(error_of([&] { run_app(parse_app("sssp"), g, 0, {}); }), HasSubstr("overflow"));
}

}  // namespace
}  // namespace chatty
