// Strongly connected components of a directed graph, labelled as WCC's
// are: each vertex by the least vertex id of its component. An operator
// program (coloring.h): every device holds the whole graph and the run's
// team shares each step; on GPU devices one device runs the same rounds
// (gpu.cu). Under ranks, rank 0 computes the labels and the others add
// zeros (the components are not split by rows).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct SccProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // the component's least vertex id

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/scc/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/scc/gpu.cu
};

}  // namespace chatty
