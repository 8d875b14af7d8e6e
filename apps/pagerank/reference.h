// PageRank's sequential reference: power iteration in double by push over
// out-edges, with the engine's stopping rule, sharing no code with it.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> pagerank(const Graph& g, double damping, double tolerance, int max_iters);

}  // namespace chatty::reference
