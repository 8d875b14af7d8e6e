// The betweenness app's entries: the GPU run (apps/bc/gpu.cu), and how
// either backend hands its summed scores to the output.
#pragma once

#include <vector>

#include "apps/registry.h"

namespace chatty {

void run_bc_gpu(const AppRun& r, AppOutput& out);

// Stores the scores in out.ranks; throws chatty::Error if a path count
// overflowed (a score that is not finite).
void take_bc_scores(const std::vector<double>& score, AppOutput& out);

}  // namespace chatty
