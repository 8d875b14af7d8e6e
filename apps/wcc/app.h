// The WCC app's entries (apps/wcc/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"

namespace chatty {

void run_wcc_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
