// Louvain's sequential reference: the same synchronous sweeps and levels
// as the run (one vertex after another, each level's graph a map per
// vertex), sharing only the score and modularity formulas of program.h and
// the sweep limits of level.h; and modularity recomputed from a partition
// alone, as NetworkX's modularity computes it.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/louvain/program.h"
#include "runtime/graph/graph.h"

namespace chatty::reference {

struct LouvainResult {
  std::vector<uint32_t> labels;  // each community's least vertex id
  double modularity = 0;
  uint32_t levels = 0;
};

LouvainResult louvain(const Graph& g, double resolution, double threshold, uint32_t max_level);

// Modularity of the partition `labels` of an undirected graph (weights
// read where it has them, a self-loop once in the weight inside and twice
// in the degree), in floating point: no integer sums shared with the run.
double modularity(const Graph& g, const std::vector<uint32_t>& labels, double resolution);

}  // namespace chatty::reference
