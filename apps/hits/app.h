// The HITS app's entries (apps/hits/app.cc, gpu.cu): both backends run
// HitsProgram and hand its values to take_hits.
#pragma once

#include <vector>

#include "apps/hits/program.h"
#include "apps/registry.h"

namespace chatty {

void run_hits_gpu(const AppRun& r, AppOutput& out);

// The hubs into out.ranks and the authorities into out.second, and how
// the iteration ended where this process computed it.
void take_hits(const std::vector<double>& both, const hits::Outcome& found, size_t n, AppOutput& out);

}  // namespace chatty
