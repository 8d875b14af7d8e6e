// SSSP's sequential reference: Dijkstra with a binary heap in 64-bit
// distances (saturated at 2^32-2 like the engine's), sharing no code with
// the engine.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> sssp(const Graph& g, vid_t source);

}  // namespace chatty::reference
