#include "apps/gpu_run.cuh"
#include "apps/pagerank/app.h"

namespace chatty {

void run_pagerank_gpu(const AppRun& r, AppOutput& out) { out.ranks = run_on_gpus(r, pagerank_program(r), out); }

}  // namespace chatty
