// The triangle-counting app's GPU entry (apps/tc/gpu.cu).
#pragma once

#include "apps/registry.h"

namespace chatty {

void run_tc_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
