#include "apps/pagerank/reference.h"

#include <algorithm>
#include <cmath>

namespace chatty::reference {

std::vector<double> pagerank(const Graph& g, double damping, double tolerance, int max_iters) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> rank(n, 1.0 / n), next(n);
  for (int it = 0; it < max_iters; ++it) {
    double dangling = 0;
    std::fill(next.begin(), next.end(), 0.0);
    for (vid_t u = 0; u < n; ++u) {
      const eid_t d = c.degree(u);
      if (d == 0) {
        dangling += rank[u];
        continue;
      }
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) next[c.targets[e]] += rank[u] / double(d);
    }
    double l1 = 0;
    for (vid_t v = 0; v < n; ++v) {
      double r = (1 - damping) / n + damping * (next[v] + dangling / n);
      l1 += std::fabs(r - rank[v]);
      rank[v] = r;
    }
    if (l1 < tolerance) break;
  }
  return rank;
}

}  // namespace chatty::reference
