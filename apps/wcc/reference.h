// WCC's sequential reference: union-find over the edge list, sharing no
// code with the engine. Labels are the least vertex id of each component.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> wcc(const Graph& g);

}  // namespace chatty::reference
