// The eigenvector centrality app's entries (apps/eigenvector/app.cc, gpu.cu).
#pragma once

#include "apps/eigenvector/program.h"
#include "apps/registry.h"

namespace chatty {

void run_eigenvector_gpu(const AppRun& r, AppOutput& out);

inline EigenvectorProgram eigenvector_program(const AppRun& r) {
  return EigenvectorProgram{r.g.num_vertices(), r.opt.tolerance, r.opt.max_iters};
}

// y at unit L2 norm, the centrality.
void to_unit_norm(std::vector<float>& y);

}  // namespace chatty
