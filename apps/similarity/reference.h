// The similarity app's sequential reference: neighbourhoods intersected
// and united by the standard library, sharing no code with the app's.
#pragma once

#include <utility>
#include <vector>

#include "apps/registry.h"
#include "runtime/base/engine_options.h"
#include "runtime/graph/graph.h"

namespace chatty::reference {

// The coefficient of the pair (u, v).
double similarity(const Graph& g, Similarity m, vid_t u, vid_t v);

// Every vertex w != s sharing a neighbour with s, with its coefficient,
// best first, ties to the lower id.
std::vector<std::pair<double, vid_t>> most_similar(const Graph& g, Similarity m, vid_t s);

}  // namespace chatty::reference
