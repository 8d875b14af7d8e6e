#include "apps/bfs/reference.h"

#include <queue>

namespace chatty::reference {

std::vector<uint32_t> bfs(const Graph& g, vid_t source) {
  const Csr& c = g.out();
  std::vector<uint32_t> depth(c.num_vertices(), kInfinity);
  std::queue<vid_t> q;
  depth[source] = 0;
  q.push(source);
  while (!q.empty()) {
    vid_t u = q.front();
    q.pop();
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      vid_t v = c.targets[e];
      if (depth[v] == kInfinity) {
        depth[v] = depth[u] + 1;
        q.push(v);
      }
    }
  }
  return depth;
}

}  // namespace chatty::reference
