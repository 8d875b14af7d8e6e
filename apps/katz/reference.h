// Katz centrality's sequential reference: NetworkX's iteration in double,
// by push over out-edges, with the engine's stopping rule, sharing no code
// with it. Unnormalized; `converged` says whether the tolerance was met.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> katz(const Graph& g, double alpha, double beta, double tolerance, int max_iters, bool* converged);

}  // namespace chatty::reference
