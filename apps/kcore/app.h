// The k-core app's entries (apps/kcore/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"

namespace chatty {

void run_kcore_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
