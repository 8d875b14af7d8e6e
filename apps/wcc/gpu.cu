#include "apps/gpu_run.cuh"
#include "apps/wcc/app.h"
#include "apps/wcc/program.h"

namespace chatty {

void run_wcc_gpu(const AppRun& r, AppOutput& out) { out.ints = run_on_gpus(r, WccProgram{}, out); }

}  // namespace chatty
