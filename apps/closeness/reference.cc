#include "apps/closeness/reference.h"

#include <deque>
#include <limits>

#include "runtime/base/interrupt.h"

namespace chatty::reference {

std::vector<double> distance_measure(const Graph& g, DistanceMeasure m) {
  // Closeness and harmonic centrality: distances to v (in-edges); eccentricity: from v.
  const Csr& c = (m == DistanceMeasure::kEccentricity || !g.directed()) ? g.out() : g.in();
  const vid_t n = c.num_vertices();
  std::vector<double> out(n, 0.0);
  std::vector<int64_t> dist(n);
  for (vid_t v = 0; v < n; ++v) {
    if (v % 1024 == 0) throw_if_interrupted();
    std::fill(dist.begin(), dist.end(), -1);
    std::deque<vid_t> q{v};
    dist[v] = 0;
    while (!q.empty()) {
      const vid_t u = q.front();
      q.pop_front();
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (dist[c.targets[e]] < 0) dist[c.targets[e]] = dist[u] + 1, q.push_back(c.targets[e]);
    }
    double total = 0, harmonic = 0, reached = 0, far = 0;
    for (vid_t u = 0; u < n; ++u)
      if (dist[u] >= 0) {
        reached += 1, total += double(dist[u]), far = std::max(far, double(dist[u]));
        if (dist[u] > 0) harmonic += 1.0 / double(dist[u]);
      }
    switch (m) {
      case DistanceMeasure::kCloseness:
        out[v] = total > 0 && n > 1 ? (reached - 1) / total * ((reached - 1) / double(n - 1)) : 0.0;
        break;
      case DistanceMeasure::kHarmonic: out[v] = harmonic; break;
      case DistanceMeasure::kEccentricity:
        out[v] = reached < double(n) ? std::numeric_limits<double>::infinity() : far;
        break;
    }
  }
  return out;
}

}  // namespace chatty::reference
