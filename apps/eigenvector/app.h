// The eigenvector centrality app's entries (apps/eigenvector/app.cc, gpu.cu).
#pragma once

#include "apps/eigenvector/program.h"
#include "apps/registry.h"
#include "apps/unit_norm.h"

namespace chatty {

void run_eigenvector_gpu(const AppRun& r, AppOutput& out);

inline EigenvectorProgram eigenvector_program(const AppRun& r) {
  return EigenvectorProgram{r.g.num_vertices(), r.opt.tolerance, r.opt.max_iters};
}

}  // namespace chatty
