// Betweenness centrality's sequential reference: Brandes' algorithm with a
// queue and a stack (his paper's form), sharing no code with the app.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

// The sum over `sources` of each vertex's dependency (unnormalised; an
// undirected graph's pairs count in both directions).
std::vector<double> betweenness(const Graph& g, const std::vector<vid_t>& sources);

}  // namespace chatty::reference
