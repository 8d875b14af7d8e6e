// The distance measures' sequential reference: NetworkX's formulas over
// all-pairs distances by a plain breadth-first search per vertex, sharing
// no code with the run.
#pragma once

#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/graph/graph.h"

namespace chatty::reference {

std::vector<double> distance_measure(const Graph& g, DistanceMeasure m);

}  // namespace chatty::reference
