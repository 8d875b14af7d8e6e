#include "apps/eigenvector/reference.h"

#include <cmath>

namespace chatty::reference {

std::vector<double> eigenvector(const Graph& g, double tolerance, int max_iters) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> x(n, 1.0 / double(n)), next(n);
  for (int it = 0; it < max_iters; ++it) {
    next = x;
    for (vid_t u = 0; u < n; ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) next[c.targets[e]] += x[u];
    double squares = 0;
    for (double y : next) squares += y * y;
    const double norm = squares > 0 ? std::sqrt(squares) : 1;
    double l1 = 0;
    for (vid_t v = 0; v < n; ++v) {
      next[v] /= norm;
      l1 += std::fabs(next[v] - x[v]);
    }
    x.swap(next);
    if (l1 < tolerance) break;
  }
  return x;
}

}  // namespace chatty::reference
