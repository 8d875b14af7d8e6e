// Compressed sparse graph: CSR of out-edges, and for pull apps the CSC of
// in-edges. Shape: offsets[|V|+1] (uint64), targets[|E|] (uint32), optional
// weights[|E|] (uint32). Neighbour lists are sorted. An undirected graph is
// stored with both directions of every edge, and its CSC is its CSR.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/base/buffer.h"
#include "runtime/base/types.h"

namespace chatty {

struct Csr {
  Buffer<eid_t> offsets;     // |V|+1 entries
  Buffer<vid_t> targets;     // |E| entries, sorted per vertex
  Buffer<weight_t> weights;  // |E| entries or empty

  vid_t num_vertices() const { return offsets.empty() ? 0 : vid_t(offsets.size() - 1); }
  eid_t num_edges() const { return offsets.empty() ? 0 : offsets[offsets.size() - 1]; }
  eid_t degree(vid_t v) const { return offsets[v + 1] - offsets[v]; }
};

class Graph {
 public:
  Graph() = default;
  Graph(Csr out, bool directed) : out_(std::make_shared<Csr>(std::move(out))), directed_(directed) {}

  vid_t num_vertices() const { return out_ ? out_->num_vertices() : 0; }
  // Stored (directed) edges: an undirected edge counts twice.
  eid_t num_edges() const { return out_ ? out_->num_edges() : 0; }
  bool directed() const { return directed_; }
  bool weighted() const { return out_ && !out_->weights.empty(); }
  // Whether every edge has a weight: a weighted graph, or one without
  // edges (SSSP's answer there needs none).
  bool every_edge_weighted() const { return weighted() || num_edges() == 0; }

  const Csr& out() const { return *out_; }
  // In-edges. Undirected graphs share the CSR; directed graphs build the
  // transpose on first use (pull apps only), from every row: throws
  // chatty::Error when this process holds only some.
  const Csr& in() const;
  bool has_in() const { return !directed_ || in_ != nullptr; }

  eid_t out_degree(vid_t v) const { return out_->degree(v); }
  // Gives a directed graph its in-edges (a rank's held rows of them).
  void set_in(Csr in) { in_ = std::make_shared<Csr>(std::move(in)); }

  // The rows whose edges this process holds: all of them, or a rank's
  // [rows_lo, rows_hi) (runtime/graph/held_rows.h). Degrees are every vertex's
  // either way; reading another row's edges faults.
  vid_t rows_lo() const { return rows_held_ ? rows_lo_ : 0; }
  vid_t rows_hi() const { return rows_held_ ? rows_hi_ : num_vertices(); }
  bool holds_all_rows() const { return !rows_held_; }
  void hold_rows(vid_t lo, vid_t hi) { rows_held_ = true, rows_lo_ = lo, rows_hi_ = hi; }

  // Replaces the weights (e.g. deterministic defaults for SSSP). Copies of
  // this graph share its edges and keep their own weights. Drops a cached
  // transpose, which is rebuilt with matching weights on demand.
  void set_weights(Buffer<weight_t> w);
  void drop_weights();

  // The out-edges' weights a byte each, indexed as weights, where every
  // weight of the held rows fits in one (GAP's and our default weights
  // 1..255 do); else null. A quarter of the bytes an SSSP relaxation reads
  // per edge beside the target. Built on first call (prepare_graph makes
  // that call outside any timing), kept until the weights change.
  const uint8_t* narrow_weights() const;

 private:
  std::shared_ptr<Csr> out_;
  mutable std::shared_ptr<Csr> in_;
  mutable std::shared_ptr<const Buffer<uint8_t>> narrow_;  // empty: some weight needs more than a byte
  bool directed_ = true;
  bool rows_held_ = false;
  vid_t rows_lo_ = 0, rows_hi_ = 0;
};

// Mean edge weight from an even sample of up to ~4096 edges (1 when unweighted):
// what the SSSP bucket widths are derived from.
// Samples the edges [first, last) (default all): a rank samples its rows'.
inline double sampled_mean_weight(const Csr& c, eid_t first = 0, eid_t last = ~eid_t(0)) {
  last = last < c.num_edges() ? last : c.num_edges();
  if (c.weights.empty() || last <= first) return 1.0;
  const eid_t m = last - first;
  const eid_t step = m / 4096 > 0 ? m / 4096 : 1;
  double sum = 0;
  eid_t k = 0;
  for (eid_t e = first; e < last; e += step, ++k) sum += c.weights[e];
  return sum / double(k);
}

// Transpose a CSR in parallel (in-edges of a directed graph), keeping weights.
Csr transpose(const Csr& csr);

// The out-edges of the vertices whose values[v] is not `unset` (a
// traversal's edges, for GTEPS).
uint64_t out_edges_of_set(const Graph& g, const std::vector<uint32_t>& values, uint32_t unset);

}  // namespace chatty
