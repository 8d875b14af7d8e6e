#include "apps/bfs/app.h"
#include "apps/bfs/program.h"
#include "apps/gpu_run.cuh"

namespace chatty {

void run_bfs_gpu(const AppRun& r, AppOutput& out) { out.ints = run_on_gpus(r, BfsProgram{r.source}, out); }

}  // namespace chatty
