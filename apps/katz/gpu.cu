#include "apps/gpu_run.cuh"
#include "apps/katz/app.h"

namespace chatty {

void run_katz_gpu(const AppRun& r, AppOutput& out) {
  out.ranks = run_on_gpus(r, katz_program(r), out);
  normalize_katz(r.opt, out.ranks);
}

}  // namespace chatty
