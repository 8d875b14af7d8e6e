// What a run returns, and the choices taken from the graph before it.
#pragma once

#include <algorithm>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/graph/graph.h"

namespace chatty {

template <typename V>
struct EngineResult {
  std::vector<V> values;  // one per vertex, in id order
};

namespace detail {

// The default SSSP bucket width, one rule for both backends: the mean edge
// weight times the share of it a bucket spans. Dense graphs (kron: degree
// ~30) settle most vertices through a cheap edge, so narrow buckets waste
// little work; sparse road-like graphs (degree ~4) need wide buckets to keep
// enough parallel work per step, and a GPU needs far more work per step than
// a CPU's threads. The CPU spans 8 / degree^2 of the mean (1 on kron:20, 64
// on grids: the best measured widths within 10 %), the GPU the whole mean
// (the CPU's widths ran 4.45x slower on an H200 on kron:22 and 1.41x on
// grid:2000x2000; docs/gpu.md). A graph holding some rows samples those;
// ranks then take the widest (Ranks::max).
inline uint64_t auto_delta(const Graph& g, Backend backend) {
  const Csr& c = g.out();
  if (c.weights.empty()) return 1;
  const double mean_w = sampled_mean_weight(c, c.offsets[g.rows_lo()], c.offsets[g.rows_hi()]);
  const double mean_deg = double(c.num_edges()) / double(std::max<vid_t>(1, c.num_vertices()));
  const double share = backend == Backend::kCuda ? 1.0 : 8.0 / std::max(1.0, mean_deg * mean_deg);
  return std::max<uint64_t>(1, uint64_t(mean_w * share));
}

}  // namespace detail

}  // namespace chatty
