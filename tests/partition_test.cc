// Partitions: balanced chunks, their boundary vertices, the rows each
// chunk holds, and the cut the paper's example adjusts.
#include "runtime/graph/partition.h"

#include <gtest/gtest.h>

#include "datasets/load.h"
#include "runtime/graph/graph_chunk.h"
#include "test_util.h"

namespace chatty {
namespace {

TEST(Partition, BalancedChunksAndBoundaries) {
  Graph g = load_graph("kron:12", {});
  for (int p : {1, 2, 3, 8}) {
    const Partition part = partition_graph(g, p);
    ASSERT_EQ(part.devices(), p);
    EXPECT_EQ(part.bounds.front(), 0u);
    EXPECT_EQ(part.bounds.back(), g.num_vertices());
    for (int d = 0; d < p; ++d) EXPECT_LT(part.begin(d), part.end(d));
    // Boundary marks are exactly the endpoints of crossing edges.
    std::vector<uint8_t> want(g.num_vertices(), 0);
    const Csr& c = g.out();
    for (vid_t u = 0; u < g.num_vertices(); ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (part.owner(u) != part.owner(c.targets[e])) want[u] = want[c.targets[e]] = 1;
    EXPECT_EQ(part.boundary, want);
    // The adjustment never leaves the balance worse than equal vertex counts.
    double f = 0, naive = 0;
    for (int d = 0; d < p; ++d) {
      f += balance_of(g, p, part.begin(d), part.end(d));
      naive +=
          balance_of(g, p, vid_t(uint64_t(g.num_vertices()) * d / p), vid_t(uint64_t(g.num_vertices()) * (d + 1) / p));
    }
    EXPECT_LE(f, naive + 1e-9) << p;
  }
  EXPECT_THROW(partition_graph(load_graph("grid:2x2", {}), 5), Error);
  const Graph four = load_graph("grid:2x2", {});
  EXPECT_THROW(partition_at(four, {0, 2, 2, 4}), Error);  // an empty chunk
  EXPECT_THROW(partition_at(four, {0, 3}), Error);        // not up to |V|
  EXPECT_EQ(partition_at(four, {0, 1, 4}).boundary_list.size(), 3u);
}

// A device's chunk is the rows of its own vertices, out and in, with
// global targets; copies equal views; an undirected graph's in-edges are
// its out-edges and are counted once.
TEST(Partition, ChunksHoldTheRowsOfTheirVertices) {
  std::string s;
  for (int i = 0; i < 300; ++i) s += std::to_string(i) + " " + std::to_string((i * 53 + 7) % 300) + " 3\n";
  const Graph directed = load_graph(testing::write_file("chunks.wel", s), {});
  const Graph undirected = load_graph("kron:10", {});
  for (const Graph* g : {&directed, &undirected}) {
    const Partition part = partition_graph(*g, 3);
    for (bool copy : {false, true}) {
      const ChunkedGraph chunks(*g, part, true, copy, /*byte_weights=*/true);
      uint64_t out_edges = 0;
      for (int d = 0; d < 3; ++d) {
        const GraphChunk& c = chunks[d];
        EXPECT_EQ(c.out.lo, part.begin(d));
        EXPECT_EQ(c.out.hi, part.end(d));
        EXPECT_EQ(c.out.weighted(), g->weighted());
        for (const auto& [chunk, csr] : {std::pair{&c.out, &g->out()}, std::pair{&c.in, &g->in()}})
          for (vid_t v = c.out.lo; v < c.out.hi; ++v) {
            ASSERT_EQ(chunk->degree(v), csr->degree(v));
            for (eid_t e = 0; e < chunk->degree(v); ++e) {
              ASSERT_EQ(chunk->targets[chunk->begin(v) + e], csr->targets[csr->offsets[v] + e]);
              if (chunk->weights) {
                ASSERT_EQ(chunk->weights[chunk->begin(v) + e], csr->weights[csr->offsets[v] + e]);
              }
              if (chunk->narrow_weights) {
                ASSERT_EQ(chunk->narrow_weights[chunk->begin(v) + e], csr->weights[csr->offsets[v] + e]);
              }
            }
          }
        for (vid_t v = 0; v < g->num_vertices(); ++v) ASSERT_EQ(c.out_degree[v], g->out_degree(v));
        out_edges += c.out.num_edges();
        const uint64_t rows = uint64_t(c.out.hi - c.out.lo + 1) * sizeof(eid_t);
        EXPECT_EQ(c.out.narrow_weights != nullptr, g->weighted());  // weights 1..255
        const uint64_t one =
            rows + c.out.num_edges() * (sizeof(vid_t) + (g->weighted() ? sizeof(weight_t) + sizeof(uint8_t) : 0));
        EXPECT_EQ(chunks.bytes(d),
                  g->directed() ? one + rows + c.in.num_edges() * (sizeof(vid_t) + sizeof(weight_t)) : one);
      }
      EXPECT_EQ(out_edges, g->num_edges());
    }
    // A run that reads no weights neither makes nor holds their bytes.
    EXPECT_EQ(ChunkedGraph(*g, part, true, false)[0].out.narrow_weights, nullptr);
  }
}

TEST(Partition, PaperExampleAdjustsTheCut) {
  // RGraph's figure 2: 8 vertices, Gemini's cut [0,2,4,8] -> [0,2,6,8]
  // once the neighbour pair is rebalanced. Degrees chosen so the first
  // chunk is already balanced and the last holds most edges.
  std::string s = "0 1\n0 2\n1 0\n1 3\n1 4\n4 5\n5 6\n5 7\n6 7\n7 4\n7 6\n6 5\n";
  Graph g = load_graph(testing::write_file("paper.el", s), {});
  const Partition part = partition_graph(g, 3);
  double f = 0;
  for (int d = 0; d < 3; ++d) f += balance_of(g, 3, part.begin(d), part.end(d));
  // No single cut move improves the sum any further.
  for (int i = 1; i < 3; ++i)
    for (vid_t c = part.bounds[size_t(i) - 1] + 1; c < part.bounds[size_t(i) + 1]; ++c) {
      std::vector<vid_t> b = part.bounds;
      b[size_t(i)] = c;
      double f2 = 0;
      for (int d = 0; d < 3; ++d) f2 += balance_of(g, 3, b[size_t(d)], b[size_t(d) + 1]);
      EXPECT_GE(f2, f - 1e-9);
    }
}

}  // namespace
}  // namespace chatty
