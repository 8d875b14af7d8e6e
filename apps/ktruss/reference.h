// Truss numbers' sequential reference: edges peeled one at a time by least
// support from an ordered set (Wang and Cheng's algorithm), over sets of
// neighbours; sharing no code with the app's.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

// {(u, v) with u < v: its truss number} for every edge of g (undirected,
// without self-loops).
std::map<std::pair<vid_t, vid_t>, uint32_t> truss_numbers(const Graph& g);

}  // namespace chatty::reference
