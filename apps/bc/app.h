// The betweenness app's entries: the GPU run (apps/bc/gpu.cu), and how
// either backend hands its summed scores to the output.
#pragma once

#include <span>
#include <vector>

#include "apps/registry.h"

namespace chatty {

void run_bc_gpu(const AppRun& r, AppOutput& out);

// The run's sources: its list, or its one source.
std::span<const vid_t> bc_sources(const AppRun& r);

// Stores the run's summed scores in out.ranks, in --bc_scale's convention;
// throws chatty::Error if a path count overflowed (a score that is not
// finite).
void take_bc_scores(std::vector<double> score, const AppRun& r, AppOutput& out);

// score in `scale`'s convention (apps/bc/scale.h) for a run from `sources`.
std::vector<double> scaled_bc(std::vector<double> score, const Graph& g, std::span<const vid_t> sources, BcScale scale);

}  // namespace chatty
