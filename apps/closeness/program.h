// Distance measures of every vertex (NetworkX's closeness_centrality,
// harmonic_centrality and eccentricity) as an operator program: a
// breadth-first walk from each vertex, a vertex per thread at a time (the
// host operators' each_item_alone), each thread on arrays of its own.
// Closeness and harmonic centrality read the distances *to* a vertex (in
// a directed graph, the walk follows in-edges), eccentricity those *from*
// it, as NetworkX does. Every rank holds the whole graph and takes every
// ranks-th vertex; the engine sums the values over the ranks.
#pragma once

#include <span>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/engine/work_share.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct ClosenessProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = double;

  DistanceMeasure measure = DistanceMeasure::kCloseness;

  std::vector<double> on_host(const Graph& g, host::HostOperators& h) const;  // apps/closeness/app.cc
  OperatorRun<double> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/closeness/gpu.cu
};

// What one walk gives: the vertices reached (the start included), the sum
// of their distances, of their inverses, and the largest.
struct Walk {
  uint64_t reached = 0, distance_sum = 0;
  double inverse_sum = 0;
  uint32_t farthest = 0;
};

// The CSR the walks follow (closeness and harmonic centrality read the
// distances to a vertex: in a directed graph, the in-edges), and its
// reverse, whose rows a level pulls over (batch.h).
inline const Csr& walk_csr(const Graph& g, DistanceMeasure m) {
  return m == DistanceMeasure::kEccentricity || !g.directed() ? g.out() : g.in();
}
inline const Csr& reverse_csr(const Graph& g, DistanceMeasure m) {
  return m == DistanceMeasure::kEccentricity && g.directed() ? g.in() : g.out();
}

// The vertices this rank walks from: every ranks-th one.
inline std::vector<vid_t> walk_starts(const WorkShare& share, vid_t n) {
  std::vector<vid_t> every(n);
  for (vid_t v = 0; v < n; ++v) every[v] = v;
  return share.rank_items(std::span<const vid_t>(every));
}

// Adds a level's counts (counts[j]: the vertices walk j reached at
// `depth`) to the walks' sums.
void add_level(std::span<Walk> walks, const uint64_t* counts, uint32_t depth);  // apps/closeness/app.cc

// The measure of a vertex of a graph of n vertices from its walk
// (eccentricity: infinity where the walk missed a vertex).
double measure_of(DistanceMeasure m, const Walk& w, vid_t n);

}  // namespace chatty
