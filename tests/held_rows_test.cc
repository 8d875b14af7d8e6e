// A rank's rows: generated rows equal the whole graph's, a graph of held
// rows keeps every degree, and boundary and reader marks made from each
// rank's rows and OR-ed equal the marks made from every row.
#include "runtime/graph/held_rows.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "datasets/generators.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/partition.h"
#include "runtime/graph/reorder.h"

namespace chatty {
namespace {

Buffer<eid_t> offsets_of(const Graph& g) {
  Buffer<eid_t> off(g.out().offsets.size());
  std::copy(g.out().offsets.begin(), g.out().offsets.end(), off.mutable_data());
  return off;
}

TEST(HeldRows, GeneratedRowsAreTheWholeGraphsRows) {
  for (const char* spec : {"kron:10", "urand:10", "grid:17x9", "road:23x19"}) {
    const GraphSpec gs = parse_graph_spec(spec);
    const Graph whole = generate_graph(gs, 7);
    const vid_t n = whole.num_vertices(), lo = n / 3, hi = n / 3 * 2;
    const Graph rows = generate_graph(gs, 7, lo, hi);
    const std::vector<eid_t> raw = generated_degree_offsets(gs, 7);
    ASSERT_EQ(rows.num_vertices(), n) << spec;
    for (vid_t v = 0; v < n; ++v) {
      // Generated degrees count duplicates, so they bound the final ones.
      EXPECT_GE(raw[v + 1] - raw[v], whole.out_degree(v)) << spec << " " << v;
      if (v < lo || v >= hi) {
        EXPECT_EQ(rows.out_degree(v), 0u) << spec << " " << v;
        continue;
      }
      ASSERT_EQ(rows.out_degree(v), whole.out_degree(v)) << spec << " " << v;
      EXPECT_TRUE(std::equal(whole.out().targets.begin() + whole.out().offsets[v],
                             whole.out().targets.begin() + whole.out().offsets[v + 1],
                             rows.out().targets.begin() + rows.out().offsets[v]))
          << spec << " " << v;
      ASSERT_EQ(rows.weighted(), whole.weighted()) << spec;
      if (whole.weighted()) {
        EXPECT_TRUE(std::equal(whole.out().weights.begin() + whole.out().offsets[v],
                               whole.out().weights.begin() + whole.out().offsets[v + 1],
                               rows.out().weights.begin() + rows.out().offsets[v]))
            << spec << " " << v;
      }
    }
  }
}

TEST(HeldRows, AGraphOfRowsKeepsEveryDegreeAndItsRows) {
  Graph whole = generate_graph(parse_graph_spec("kron:11"), 3);
  whole.set_weights(default_weights(whole.out(), 9));
  const vid_t n = whole.num_vertices(), lo = 100, hi = 1500;
  const Graph g = graph_of_rows(offsets_of(whole), whole.out(), lo, hi, false);
  EXPECT_FALSE(g.holds_all_rows());
  EXPECT_EQ(g.rows_lo(), lo);
  EXPECT_EQ(g.rows_hi(), hi);
  EXPECT_EQ(g.num_edges(), whole.num_edges());
  for (vid_t v = 0; v < n; ++v) ASSERT_EQ(g.out_degree(v), whole.out_degree(v));
  for (eid_t e = whole.out().offsets[lo]; e < whole.out().offsets[hi]; ++e) {
    ASSERT_EQ(g.out().targets[e], whole.out().targets[e]);
    ASSERT_EQ(g.out().weights[e], whole.out().weights[e]);
  }
  // Default weights of the held rows equal the whole graph's.
  const Buffer<weight_t> w = default_weights(g.out(), 9, lo, hi);
  for (eid_t e = whole.out().offsets[lo]; e < whole.out().offsets[hi]; ++e) ASSERT_EQ(w[e], whole.out().weights[e]);
  // A row's degree that disagrees with the offsets is refused.
  Buffer<eid_t> off = offsets_of(whole);
  off[lo + 1] += 1;
  EXPECT_THROW(graph_of_rows(std::move(off), whole.out(), lo, hi, false), Error);
  // A directed graph's in-edges need every row.
  Graph directed = graph_of_rows(offsets_of(whole), whole.out(), lo, hi, true);
  EXPECT_THROW((void)directed.in(), Error);
}

// Relabelling a rank's rows within chunks gives the rows the whole graph's
// relabelling gives, for out- and in-edges and weights.
TEST(HeldRows, RelabelledRowsAreTheWholeGraphsRelabelledRows) {
  Graph whole = generate_graph(parse_graph_spec("urand:10"), 4);
  whole.set_weights(default_weights(whole.out(), 2));
  const Partition part = partition_graph(whole, 4);
  const Reordered all = reorder_by_degree(whole, part.bounds);
  const vid_t lo = part.begin(1), hi = part.end(2);
  for (bool directed : {false, true}) {
    Graph rows = graph_of_rows(offsets_of(whole), whole.out(), lo, hi, directed);
    if (directed) rows.set_in(csr_of_rows(offsets_of(whole), whole.out(), lo, hi));
    const Reordered mine = reorder_by_degree(rows, part.bounds);
    EXPECT_EQ(mine.old_of_new, all.old_of_new);
    ASSERT_FALSE(mine.graph.holds_all_rows());
    const Csr &a = all.graph.out(), &b = mine.graph.out();
    for (vid_t v = 0; v < whole.num_vertices(); ++v) ASSERT_EQ(a.degree(v), b.degree(v));
    for (eid_t e = a.offsets[lo]; e < a.offsets[hi]; ++e) {
      ASSERT_EQ(a.targets[e], b.targets[e]);
      ASSERT_EQ(a.weights[e], b.weights[e]);
    }
    if (!directed) continue;
    for (eid_t e = a.offsets[lo]; e < a.offsets[hi]; ++e)  // the same edges both ways: in-edges are out-edges
      ASSERT_EQ(mine.graph.in().targets[e], a.targets[e]);
  }
}

TEST(HeldRows, MarksFromEachRanksRowsOrToTheWholeGraphsMarks) {
  for (const char* spec : {"kron:10", "grid:20x30"}) {
    const Graph g = generate_graph(parse_graph_spec(spec), 5);
    const Partition whole = partition_graph(g, 6);
    const std::vector<uint64_t> readers = reader_masks(g, whole), out_readers = reader_masks(g, whole, true);
    // Three ranks of two devices each.
    std::vector<uint8_t> boundary(g.num_vertices(), 0);
    std::vector<uint64_t> r(g.num_vertices(), 0), ro(g.num_vertices(), 0);
    for (int rank = 0; rank < 3; ++rank) {
      const vid_t lo = whole.begin(2 * rank), hi = whole.end(2 * rank + 1);
      const Graph rows = graph_of_rows(offsets_of(g), g.out(), lo, hi, false);
      const Partition mine = partition_at(rows, whole.bounds, lo, hi);
      const std::vector<uint64_t> a = reader_masks(rows, mine, false, lo, hi),
                                  b = reader_masks(rows, mine, true, lo, hi);
      for (vid_t v = 0; v < g.num_vertices(); ++v) boundary[v] |= mine.boundary[v], r[v] |= a[v], ro[v] |= b[v];
    }
    EXPECT_EQ(boundary, whole.boundary) << spec;
    EXPECT_EQ(r, readers) << spec;
    EXPECT_EQ(ro, out_readers) << spec;
  }
}

}  // namespace
}  // namespace chatty
