// Eigenvector centrality's sequential reference: NetworkX's power iteration
// on A^T + I in double, normalising each step, by push over out-edges, with
// the engine's stopping rule, sharing no code with it.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> eigenvector(const Graph& g, double tolerance, int max_iters);

}  // namespace chatty::reference
