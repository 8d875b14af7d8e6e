#include "apps/gpu_run.cuh"
#include "apps/kcore/app.h"
#include "apps/kcore/program.h"

namespace chatty {

void run_kcore_gpu(const AppRun& r, AppOutput& out) { out.ints = run_on_gpus(r, KcoreProgram{}, out); }

}  // namespace chatty
