// The similarity app's entries (apps/similarity/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"
#include "apps/similarity/program.h"

namespace chatty {

void run_similarity_gpu(const AppRun& r, AppOutput& out);

// The pairs a run scores, and its output from the program's values
// (either backend's).
void take_similarity(const AppRun& r, const PairQuery& q, std::vector<double> v, AppOutput& out);

}  // namespace chatty
