// The byte streams under every text format: compressed files (found by
// their magic, not their name) through the real tools, truncated and
// corrupt streams, gzip's concatenated members and padding, a byte-order
// mark, FIFOs, and line numbers across the reader's blocks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "datasets/load.h"
#include "datasets/text_source.h"
#include "test_util.h"

namespace chatty {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;
using testing::neighbours;
using testing::temp_path;
using testing::write_file;

void run(const std::string& cmd) { ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd; }

class Compressed : public ::testing::TestWithParam<std::string> {};

// A graph big enough to span many blocks, compressed with the real tools.
TEST_P(Compressed, LoadsLikeThePlainFileByMagicWhateverTheName) {
  const std::string tool = GetParam();
  std::string text = "# Undirected graph\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string((i * 7919) % 20011) + "\n";
  const std::string plain = write_file("big_" + tool + ".txt", text);
  run(tool + " -c " + plain + " > " + plain + ".z");
  run("cp " + plain + ".z " + temp_path("renamed_" + tool + ".txt"));  // compressed, named .txt
  set_stream_block_bytes(4096);                                        // many block seams
  Graph a = load_graph(plain, {});
  LoadInfo info;
  Graph b = load_graph(temp_path("renamed_" + tool + ".txt"), {}, &info);
  set_stream_block_bytes(size_t(32) << 20);
  EXPECT_EQ(info.compression, tool == "gzip" ? "gzip" : tool == "zstd" ? "zstd" : "bzip2");
  EXPECT_FALSE(b.directed());
  EXPECT_EQ(neighbours(a), neighbours(b));
}

TEST_P(Compressed, TruncatedAndCorruptDataAreErrors) {
  const std::string tool = GetParam();
  std::string text;
  for (int i = 0; i < 5000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  const std::string plain = write_file("t_" + tool + ".el", text);
  run(tool + " -c " + plain + " > " + plain + ".z");
  run("head -c 3000 " + plain + ".z > " + temp_path("cut_" + tool + ".el"));
  EXPECT_THAT(error_of([&] { load_graph(temp_path("cut_" + tool + ".el"), {}); }), HasSubstr("truncated"));
  // Damage the middle of the stream.
  run("(head -c 1500 " + plain + ".z; printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'; tail -c +1533 " + plain + ".z) > " +
      temp_path("bad_" + tool + ".el"));
  EXPECT_THAT(error_of([&] { load_graph(temp_path("bad_" + tool + ".el"), {}); }),
              AllOf(HasSubstr("bad_" + tool + ".el"), ::testing::AnyOf(HasSubstr("corrupt"), HasSubstr("truncated"),
                                                                       HasSubstr("not a"), HasSubstr("line"))));
}

INSTANTIATE_TEST_SUITE_P(Tools, Compressed, ::testing::Values("gzip", "zstd", "bzip2"));

TEST(Streams, ConcatenatedGzipMembersAreOneStream) {
  const std::string a = write_file("m1.el", "0 1\n"), b = write_file("m2.el", "1 2\n");
  run("(gzip -c " + a + "; gzip -c " + b + ") > " + temp_path("members.el.gz"));
  Graph g = load_graph(temp_path("members.el.gz"), {});
  EXPECT_EQ(g.num_edges(), 2u);
}

TEST(Streams, GzipTrailingPaddingIsIgnoredAsGzipDoes) {
  const std::string a = write_file("pad.el", "0 1\n1 2\n");
  run("(gzip -c " + a + "; head -c 512 /dev/zero) > " + temp_path("pad.el.gz"));
  EXPECT_EQ(load_graph(temp_path("pad.el.gz"), {}).num_edges(), 2u);
}

TEST(Streams, AByteOrderMarkIsSkipped) {
  EXPECT_EQ(load_graph(write_file("bom.el",
                                  "\xEF\xBB\xBF"
                                  "0 1\n1 2\n"),
                       {})
                .num_edges(),
            2u);
  const std::string mm =
      write_file("bom.txt", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  run("gzip -c " + mm + " > " + mm + ".gz");
  EXPECT_EQ(load_graph(mm + ".gz", {}).num_vertices(), 2u);
}

TEST(Streams, AFifoStreamsWithLinesAndEndMarkerAcrossBlocks) {
  const std::string fifo = temp_path("pipe.el");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string text;
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  text += "-1\n";
  std::thread writer([&] { std::ofstream(fifo) << text; });
  set_stream_block_bytes(1000);
  Graph g;
  const std::string err = error_of([&] { g = load_graph(fifo, {}); });
  set_stream_block_bytes(size_t(32) << 20);
  writer.join();
  EXPECT_EQ(err, "(no error)");
  EXPECT_EQ(g.num_edges(), 3000u);
  EXPECT_EQ(g.num_vertices(), 3001u);
}

TEST(Streams, ErrorsNameTheRightLineAcrossBlocks) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  text += "7 x\n";
  const std::string p = write_file("late.el", text);
  run("gzip -c " + p + " > " + p + ".gz");
  set_stream_block_bytes(1000);
  const std::string err = error_of([&] { load_graph(p + ".gz", {}); });
  set_stream_block_bytes(size_t(32) << 20);
  EXPECT_THAT(err, HasSubstr("late.el.gz:3001: target id"));
}

TEST(Streams, CgrMustBeARegularUncompressedFile) {
  Graph g = load_graph("grid:4x4", {});
  save_graph(g, temp_path("z.cgr"));
  run("gzip -c " + temp_path("z.cgr") + " > " + temp_path("z.cgr.gz"));
  EXPECT_THAT(error_of([] { load_graph(temp_path("z.cgr.gz"), {}); }), HasSubstr("decompress it first"));
}

}  // namespace
}  // namespace chatty
