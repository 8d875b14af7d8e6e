// Weighted betweenness's sequential reference: Brandes over Dijkstra with
// predecessor lists, as NetworkX writes it, sharing no code with the run.
// Unscaled sums over `sources` (ordered pairs).
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> weighted_betweenness(const Graph& g, const std::vector<vid_t>& sources);

}  // namespace chatty::reference
