// Label propagation communities, semi-synchronous (Cordasco and Gargano),
// as NetworkX's label_propagation_communities runs it: vertices coloured
// greedily (largest degree first), then colour class after colour class,
// every vertex of a class takes the label most frequent among its
// neighbours (ties: it keeps its own if that is one of them, else the
// largest), until every vertex holds one of its neighbours' most frequent
// labels. A vertex starts with its own id as label; the result names each
// community by the id whose label won. An operator program: the classes
// are independent sets, so a class is one compute step of the team; under
// ranks, rank 0 computes and the others add zeros.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct LpaProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // the community's label: a vertex id

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/lpa/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/lpa/gpu.cu
};

}  // namespace chatty
