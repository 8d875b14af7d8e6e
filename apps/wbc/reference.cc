#include "apps/wbc/reference.h"

#include <map>
#include <set>
#include <utility>

#include "runtime/base/interrupt.h"

namespace chatty::reference {

std::vector<double> weighted_betweenness(const Graph& g, const std::vector<vid_t>& sources) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> bc(n, 0.0);
  for (vid_t s : sources) {
    throw_if_interrupted();
    std::vector<double> sigma(n, 0.0), delta(n, 0.0);
    std::vector<std::vector<vid_t>> pred(n);
    std::map<vid_t, uint64_t> done;  // settled vertices and their distances
    std::map<vid_t, uint64_t> seen;
    std::vector<vid_t> order;
    std::set<std::pair<uint64_t, vid_t>> queue{{0, s}};
    seen[s] = 0, sigma[s] = 1;
    while (!queue.empty()) {
      const auto [d, v] = *queue.begin();
      queue.erase(queue.begin());
      done[v] = d;
      order.push_back(v);
      for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
        const vid_t w = c.targets[e];
        const uint64_t vw = d + c.weights[e];
        if (done.count(w)) continue;
        const auto it = seen.find(w);
        if (it == seen.end() || vw < it->second) {
          if (it != seen.end()) queue.erase({it->second, w});
          seen[w] = vw, sigma[w] = sigma[v], pred[w] = {v};
          queue.insert({vw, w});
        } else if (vw == it->second) {
          sigma[w] += sigma[v], pred[w].push_back(v);
        }
      }
    }
    for (size_t i = order.size(); i-- > 0;) {
      const vid_t w = order[i];
      for (vid_t v : pred[w]) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (w != s) bc[w] += delta[w];
    }
  }
  return bc;
}

}  // namespace chatty::reference
