#include "apps/ppr/reference.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace chatty::reference {

std::vector<double> personalized_pagerank(const Graph& g, const std::vector<vid_t>& seeds, double damping,
                                          double tolerance, int max_iters) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  const std::set<vid_t> distinct(seeds.begin(), seeds.end());
  std::vector<double> p(n, 0.0);
  for (vid_t s : distinct) p[s] = 1.0 / double(distinct.size());
  std::vector<double> rank(n, 1.0 / n), next(n);
  for (int it = 0; it < max_iters; ++it) {
    double dangling = 0;
    std::fill(next.begin(), next.end(), 0.0);
    for (vid_t u = 0; u < n; ++u) {
      const eid_t d = c.degree(u);
      if (d == 0) dangling += rank[u];
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) next[c.targets[e]] += rank[u] / double(d);
    }
    double l1 = 0;
    for (vid_t v = 0; v < n; ++v) {
      const double r = damping * (next[v] + dangling * p[v]) + (1 - damping) * p[v];
      l1 += std::fabs(r - rank[v]);
      rank[v] = r;
    }
    if (l1 < tolerance) break;
  }
  return rank;
}

}  // namespace chatty::reference
