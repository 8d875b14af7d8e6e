// Truss decomposition (cuGraph's k_truss, NetworkX's k_truss): every edge's
// truss number, the largest k for which the edge is in the k-truss (the
// largest subgraph whose every edge closes at least k - 2 triangles in it).
// An operator program (peel.h): supports counted by the TC intersection,
// then edges peeled level by level in parallel, as PKT (Kabir and Madduri)
// does. The numbers do not depend on the order edges are peeled in, so
// they are the same at every device count. Under ranks, rank 0 computes
// and the others add zeros.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct KtrussProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // per edge u < v (UpperEdges' numbers): its truss number

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/ktruss/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/ktruss/gpu.cu
};

}  // namespace chatty
