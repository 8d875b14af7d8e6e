// k-core's sequential reference: Batagelj and Zaversnik's O(m) peeling
// with degree buckets, sharing no code with the engine.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<uint32_t> kcore(const Graph& g);  // g undirected

}  // namespace chatty::reference
