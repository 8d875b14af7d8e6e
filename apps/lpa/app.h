// The LPA app's entries (apps/lpa/app.cc, gpu.cu).
#pragma once

#include "apps/lpa/program.h"
#include "apps/registry.h"

namespace chatty {

void run_lpa_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
