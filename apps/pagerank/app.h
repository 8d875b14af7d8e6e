// The PageRank app's entries (apps/pagerank/app.cc, gpu.cu).
#pragma once

#include "apps/pagerank/program.h"
#include "apps/registry.h"

namespace chatty {

void run_pagerank_gpu(const AppRun& r, AppOutput& out);

inline PageRankProgram pagerank_program(const AppRun& r) {
  return PageRankProgram{r.g.num_vertices(), r.opt.damping, r.opt.tolerance, r.opt.max_iters};
}

}  // namespace chatty
