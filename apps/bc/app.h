// The betweenness app's entries: the GPU run (apps/bc/gpu.cu), and how
// either backend hands its summed scores to the output.
#pragma once

#include <span>
#include <vector>

#include "apps/registry.h"

namespace chatty {

void run_bc_gpu(const AppRun& r, AppOutput& out);

// Stores the run's summed scores in out.ranks, in --bc_scale's convention;
// throws chatty::Error if a path count overflowed (a score that is not
// finite).
void take_bc_scores(std::vector<double> score, const AppRun& r, AppOutput& out);

// BC's verifier, given the reference's unscaled sums over `sources`
// (`what` names that reference): every score within 1e-6 of the
// reference's in `scale`'s convention, relative to it or to one path's share.
Validation check_bc_scores(const AppOutput& out, const Graph& g, const std::vector<vid_t>& sources, BcScale scale,
                           std::vector<double> raw, const char* what);

// score in `scale`'s convention (apps/bc/scale.h) for a run from `sources`.
std::vector<double> scaled_bc(std::vector<double> score, const Graph& g, std::span<const vid_t> sources, BcScale scale);

}  // namespace chatty
