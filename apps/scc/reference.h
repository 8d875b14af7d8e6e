// Strong components' sequential reference: Tarjan's algorithm with an
// explicit stack, sharing no code with the run; labels are each
// component's least vertex id.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> scc(const Graph& g);

}  // namespace chatty::reference
