// Betweenness centrality (GAP's `bc`, Brandes) as an operator program:
// each vertex's dependencies summed over the sources. Every device (and
// every rank) holds the whole graph; the sources are the items shared out
// (host devices: every ranks-th source on this rank, run by brandes.h on
// the engine's team; GPU devices: source i on the run's device i % P).
// The engine sums the scores over the ranks.
#pragma once

#include <span>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct BcProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = double;  // a vertex's dependencies, summed over the sources

  std::span<const vid_t> sources;

  std::vector<double> on_host(const Graph& g, host::HostOperators& h) const;  // apps/bc/app.cc
  OperatorRun<double> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/bc/gpu.cu
};

}  // namespace chatty
