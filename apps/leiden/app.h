// The Leiden app's entries (apps/leiden/app.cc, gpu.cu).
#pragma once

#include "apps/leiden/program.h"
#include "apps/registry.h"

namespace chatty {

void run_leiden_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
