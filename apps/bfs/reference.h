// BFS's sequential reference: a queue, sharing no code with the engine.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> bfs(const Graph& g, vid_t source);

}  // namespace chatty::reference
