// Leiden's sequential reference: the same levels, refinement and final
// split as the run, one vertex after another over maps (Louvain's
// reference levels, apps/louvain/reference_levels.h), sharing only the
// formulas of apps/louvain/program.h and refine.h.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/louvain/reference.h"
#include "runtime/graph/graph.h"

namespace chatty::reference {

// `passes`: at most this many (0: until kQuietPasses in a row gain no more than kPassGain).
LouvainResult leiden(const Graph& g, double resolution, double threshold, uint32_t max_level, uint32_t passes = 0);

// Whether every community of `labels` is connected by the graph's edges
// inside it; `where` gets a vertex of one that is not.
bool communities_connected(const Graph& g, const std::vector<uint32_t>& labels, uint32_t& where);

}  // namespace chatty::reference
