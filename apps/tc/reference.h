// Triangle counting's sequential reference: for every edge u < v, each
// common neighbour w > v found by binary search in u's list; sharing no
// code with the app's kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

// Triangles through each vertex (NetworkX's `triangles`); g undirected.
std::vector<uint64_t> triangles(const Graph& g);

}  // namespace chatty::reference
