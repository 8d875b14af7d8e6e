#include "apps/gpu_run.cuh"
#include "apps/sssp/app.h"
#include "apps/sssp/program.h"

namespace chatty {

void run_sssp_gpu(const AppRun& r, AppOutput& out) {
  out.ints = run_on_gpus(r, SsspProgram{r.source}, out);
  check_sssp_overflow(out);
}

}  // namespace chatty
