// What a run returns, and the choices taken from the graph before it.
#pragma once

#include <algorithm>
#include <vector>

#include "runtime/graph.h"
#include "runtime/multi_stats.h"

namespace chatty {

template <typename V>
struct EngineResult {
  std::vector<V> values;  // one per vertex, in id order
};

namespace detail {

// The default bucket width. Dense graphs (kron: degree ~30) settle most
// vertices through a cheap edge, so narrow buckets waste little work; sparse
// road-like graphs (degree ~4) need wide buckets to keep enough parallel
// work per step. mean_w * 8 / degree^2 gives 1 on kron:20 and 64 on grids,
// the best measured widths within 10%. A graph holding some rows samples
// those: ranks then take the widest (cluster_max).
inline uint64_t auto_delta(const Graph& g) {
  const Csr& c = g.out();
  if (c.weights.empty()) return 1;
  const double mean_w = sampled_mean_weight(c, c.offsets[g.rows_lo()], c.offsets[g.rows_hi()]);
  const double mean_deg = double(c.num_edges()) / double(std::max<vid_t>(1, c.num_vertices()));
  return std::max<uint64_t>(1, uint64_t(mean_w * 8.0 / std::max(1.0, mean_deg * mean_deg)));
}

}  // namespace detail

}  // namespace chatty
