#include "apps/katz/reference.h"

#include <cmath>

namespace chatty::reference {

std::vector<double> katz(const Graph& g, double alpha, double beta, double tolerance, int max_iters, bool* converged) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> x(n, 0.0), next(n);
  *converged = false;
  for (int it = 0; it < max_iters; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    for (vid_t u = 0; u < n; ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) next[c.targets[e]] += x[u];
    double l1 = 0;
    for (vid_t v = 0; v < n; ++v) {
      const double y = alpha * next[v] + beta;
      l1 += std::fabs(y - x[v]);
      x[v] = y;
    }
    if (l1 < tolerance) {
      *converged = true;
      break;
    }
  }
  return x;
}

}  // namespace chatty::reference
