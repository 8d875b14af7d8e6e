#include "apps/bc/reference.h"

#include <queue>
#include <stack>

#include "runtime/base/interrupt.h"

namespace chatty::reference {

std::vector<double> betweenness(const Graph& g, const std::vector<vid_t>& sources) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> bc(n, 0.0), sigma(n), delta(n);
  std::vector<int64_t> dist(n);
  for (vid_t s : sources) {
    throw_if_interrupted();
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(delta.begin(), delta.end(), 0.0);
    std::fill(dist.begin(), dist.end(), -1);
    std::stack<vid_t> order;
    std::queue<vid_t> q;
    sigma[s] = 1, dist[s] = 0;
    q.push(s);
    while (!q.empty()) {
      const vid_t v = q.front();
      q.pop();
      order.push(v);
      for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
        const vid_t w = c.targets[e];
        if (dist[w] < 0) dist[w] = dist[v] + 1, q.push(w);
        if (dist[w] == dist[v] + 1) sigma[w] += sigma[v];
      }
    }
    while (!order.empty()) {
      const vid_t w = order.top();
      order.pop();
      for (eid_t e = c.offsets[w]; e < c.offsets[w + 1]; ++e) {
        const vid_t x = c.targets[e];
        if (dist[x] == dist[w] + 1) delta[w] += sigma[w] / sigma[x] * (1 + delta[x]);
      }
      if (w != s) bc[w] += delta[w];
    }
  }
  return bc;
}

}  // namespace chatty::reference
