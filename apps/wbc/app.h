// The weighted betweenness app's entries (apps/wbc/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"
#include "apps/wbc/program.h"

namespace chatty {

void run_wbc_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
