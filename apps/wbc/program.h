// Weighted betweenness centrality as an operator program: each vertex's
// dependencies over shortest weighted paths, summed over the sources.
// Every rank holds the whole graph and runs every ranks-th source; on the
// host a source per thread (dijkstra_brandes.h), on GPU devices a source
// per device at a time (steps.h). The engine sums the scores over the
// devices and ranks.
#pragma once

#include <span>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct WbcProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = double;  // a vertex's dependencies, summed over the sources

  std::span<const vid_t> sources;

  std::vector<double> on_host(const Graph& g, host::HostOperators& h) const;  // apps/wbc/app.cc
  OperatorRun<double> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/wbc/gpu.cu
};

}  // namespace chatty
