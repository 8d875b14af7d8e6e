// Label propagation's sequential reference: NetworkX's
// label_propagation_communities step by step (greedy colouring largest
// degree first, the classes in colour order, NetworkX's tie rule, its
// completion test), over maps, sharing no code with the run.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> label_propagation(const Graph& g);

}  // namespace chatty::reference
