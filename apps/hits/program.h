// HITS (Kleinberg's hubs and authorities): the principal left and right
// singular vectors of the adjacency matrix A (weighted where the graph
// is), each scaled to sum 1, as NetworkX's hits returns them. Power
// iteration from uniform vectors: a = A^T h, then h = A a, each scaled to
// sum 1, until the L1 change of both together is below the tolerance; h
// converges as the iterates of A A^T do, at (sigma2 / sigma1)^2 an
// iteration. An operator program: on host devices the team shares each
// product as a pull over rows, no atomics (power.h); on GPU devices one
// device runs the same steps as gathers and reduces (gpu.cu). Under ranks,
// rank 0 computes and the others add zeros.
#pragma once

#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

namespace hits {

// How the iteration ended (filled on the rank that computed).
struct Outcome {
  int iterations = 0;
  bool converged = true;
  double last_change = 0;  // the last iteration's L1 change
  bool computed = false;
};

}  // namespace hits

struct HitsProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = double;  // 2|V| values: the hubs, then the authorities

  double tolerance = 1e-8;
  int max_iters = 100;
  hits::Outcome* outcome = nullptr;

  std::vector<double> on_host(const Graph& g, host::HostOperators& h) const;  // apps/hits/app.cc
  OperatorRun<double> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/hits/gpu.cu
};

}  // namespace chatty
