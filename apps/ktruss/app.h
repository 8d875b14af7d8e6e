// The k-truss app's entries (apps/ktruss/app.cc, gpu.cu).
#pragma once

#include "apps/ktruss/program.h"
#include "apps/registry.h"

namespace chatty {

void run_ktruss_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
