// The closeness app's entries (apps/closeness/app.cc, gpu.cu).
#pragma once

#include "apps/closeness/program.h"
#include "apps/registry.h"

namespace chatty {

void run_closeness_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
