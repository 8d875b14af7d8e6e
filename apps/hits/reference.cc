#include "apps/hits/reference.h"

#include <cmath>

namespace chatty::reference {

namespace {

void to_unit_sum(std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  for (double& v : x) v = s > 0 ? v / s : 0;
}

}  // namespace

HitsScores hits(const Graph& g, double tolerance, int max_iters) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  HitsScores r{std::vector<double>(n, n ? 1.0 / n : 0), std::vector<double>(n, n ? 1.0 / n : 0), 0};
  std::vector<double> a(n), h(n);
  const auto weight = [&](eid_t e) { return c.weights.empty() ? 1.0 : double(c.weights[e]); };
  while (r.iterations < max_iters) {
    a.assign(n, 0);
    for (vid_t u = 0; u < n; ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) a[c.targets[e]] += weight(e) * r.hubs[u];
    to_unit_sum(a);
    h.assign(n, 0);
    for (vid_t u = 0; u < n; ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) h[u] += weight(e) * a[c.targets[e]];
    to_unit_sum(h);
    double change = 0;
    for (vid_t v = 0; v < n; ++v) change += std::fabs(a[v] - r.authorities[v]) + std::fabs(h[v] - r.hubs[v]);
    r.authorities.swap(a);
    r.hubs.swap(h);
    ++r.iterations;
    if (change < tolerance) break;
  }
  return r;
}

}  // namespace chatty::reference
