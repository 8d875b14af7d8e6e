// The Katz app's entries (apps/katz/app.cc, gpu.cu).
#pragma once

#include "apps/katz/program.h"
#include "apps/registry.h"

namespace chatty {

void run_katz_gpu(const AppRun& r, AppOutput& out);

// The attenuation: --katz_alpha, or where it is 0, 0.9 / the largest
// in-degree (at least the largest eigenvalue of A, so the iteration
// contracts by 0.9 a step at worst). `max_in_degree` is the whole graph's.
inline double katz_alpha(const EngineOptions& opt, eid_t max_in_degree) {
  return opt.katz_alpha > 0 ? opt.katz_alpha : 0.9 / double(max_in_degree > 0 ? max_in_degree : 1);
}
// The largest in-degree of the rows this process holds.
eid_t max_in_degree(const Graph& g);

inline KatzProgram katz_program(const AppRun& r) {
  const eid_t most = eid_t(r.ranks.max(double(max_in_degree(r.g))));  // every rank's rows
  return KatzProgram{r.g.num_vertices(), katz_alpha(r.opt, most), r.opt.katz_beta, r.opt.tolerance, r.opt.max_iters};
}

// The values scaled to unit L2 norm where the options ask (NetworkX's
// normalized=True); a zero vector stays as it is.
void normalize_katz(const EngineOptions& opt, std::vector<float>& x);

}  // namespace chatty
