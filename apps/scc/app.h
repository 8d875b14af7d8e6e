// The SCC app's entries (apps/scc/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"
#include "apps/scc/program.h"

namespace chatty {

void run_scc_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
