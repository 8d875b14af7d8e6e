#include "apps/gpu_run.cuh"
#include "apps/ppr/app.h"

namespace chatty {

void run_ppr_gpu(const AppRun& r, AppOutput& out) { out.ranks = ppr_ranks(run_on_gpus(r, ppr_program(r), out)); }

}  // namespace chatty
