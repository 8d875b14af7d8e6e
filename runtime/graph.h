// Compressed sparse graph: CSR of out-edges, and for pull apps the CSC of
// in-edges. Shape: offsets[|V|+1] (uint64), targets[|E|] (uint32), optional
// weights[|E|] (uint32). Neighbour lists are sorted. An undirected graph is
// stored with both directions of every edge, and its CSC is its CSR.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "runtime/buffer.h"
#include "runtime/types.h"

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

  const Csr& out() const { return *out_; }
  // In-edges. Undirected graphs share the CSR; directed graphs build the
  // transpose on first use (pull apps only).
  const Csr& in() const;
  bool has_in() const { return !directed_ || in_ != nullptr; }

  eid_t out_degree(vid_t v) const { return out_->degree(v); }

  // Replaces the weights (e.g. deterministic defaults for SSSP). Drops a
  // cached transpose, which is rebuilt with matching weights on demand.
  void set_weights(Buffer<weight_t> w);
  void drop_weights();

 private:
  std::shared_ptr<Csr> out_;
  mutable std::shared_ptr<Csr> in_;
  bool directed_ = true;
};

// Mean edge weight from an even sample of up to ~4096 edges (1 when unweighted):
// what the SSSP bucket widths are derived from.
inline double sampled_mean_weight(const Csr& c) {
  const eid_t m = c.num_edges();
  if (c.weights.empty() || m == 0) return 1.0;
  const eid_t step = m / 4096 > 0 ? m / 4096 : 1;
  double sum = 0;
  eid_t k = 0;
  for (eid_t e = 0; e < m; e += step, ++k) sum += c.weights[e];
  return sum / double(k);
}

// Transpose a CSR in parallel (in-edges of a directed graph), keeping weights.
Csr transpose(const Csr& csr);

}  // namespace chatty
