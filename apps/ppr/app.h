// The personalised PageRank app's entries (apps/ppr/app.cc, gpu.cu).
#pragma once

#include <vector>

#include "apps/ppr/program.h"
#include "apps/registry.h"

namespace chatty {

void run_ppr_gpu(const AppRun& r, AppOutput& out);

// The program for the run's sources as seeds (distinct; throws
// chatty::Error for more than kMaxSeeds).
PprProgram ppr_program(const AppRun& r);

// The ranks of a run's values (the seeds' unmarked).
std::vector<float> ppr_ranks(std::vector<float> values);

}  // namespace chatty
