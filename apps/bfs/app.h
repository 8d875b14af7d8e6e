// The BFS app's entries (apps/bfs/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"

namespace chatty {

void run_bfs_gpu(const AppRun& r, AppOutput& out);

}  // namespace chatty
