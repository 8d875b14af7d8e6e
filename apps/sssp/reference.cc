#include "apps/sssp/reference.h"

#include <functional>
#include <queue>

namespace chatty::reference {

std::vector<uint32_t> sssp(const Graph& g, vid_t source) {
  const Csr& c = g.out();
  std::vector<uint64_t> dist(c.num_vertices(), UINT64_MAX);
  using Item = std::pair<uint64_t, vid_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      vid_t v = c.targets[e];
      uint64_t nd = d + c.weights[e];
      if (nd < dist[v]) {
        dist[v] = nd;
        heap.push({nd, v});
      }
    }
  }
  std::vector<uint32_t> out(dist.size());
  for (size_t i = 0; i < dist.size(); ++i)
    out[i] = dist[i] == UINT64_MAX ? kInfinity : dist[i] >= kInfinity - 1 ? kInfinity - 1 : uint32_t(dist[i]);
  return out;
}

}  // namespace chatty::reference
