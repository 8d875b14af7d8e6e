// The Louvain app's entries (apps/louvain/app.cc, gpu.cu).
#pragma once

#include "apps/louvain/program.h"
#include "apps/registry.h"

namespace chatty {

void run_louvain_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
