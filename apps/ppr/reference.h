// Personalised PageRank's sequential reference: NetworkX's power iteration
// with a personalization of equal shares on `seeds` (dangling mass to them
// too), in double, by push over out-edges, with the engine's stopping rule.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> personalized_pagerank(const Graph& g, const std::vector<vid_t>& seeds, double damping,
                                          double tolerance, int max_iters);

}  // namespace chatty::reference
