#include "apps/eigenvector/app.h"
#include "apps/gpu_run.cuh"

namespace chatty {

void run_eigenvector_gpu(const AppRun& r, AppOutput& out) {
  out.ranks = run_on_gpus(r, eigenvector_program(r), out);
  to_unit_norm(out.ranks);
}

}  // namespace chatty
