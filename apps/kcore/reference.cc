#include "apps/kcore/reference.h"

#include <algorithm>

namespace chatty::reference {

std::vector<uint32_t> kcore(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<uint32_t> deg(n);
  uint32_t max_deg = 0;
  for (vid_t v = 0; v < n; ++v) max_deg = std::max(max_deg, deg[v] = uint32_t(c.degree(v)));
  // Vertices sorted by degree; start[d]: where degree d begins.
  std::vector<vid_t> start(size_t(max_deg) + 2, 0), order(n), at(n);
  for (vid_t v = 0; v < n; ++v) ++start[deg[v] + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  std::vector<vid_t> fill(start.begin(), start.end() - 1);
  for (vid_t v = 0; v < n; ++v) order[at[v] = fill[deg[v]]++] = v;
  // Peel in order; a neighbour with a higher degree moves down one bucket
  // by swapping with the first vertex of its bucket.
  for (vid_t i = 0; i < n; ++i) {
    const vid_t v = order[i];
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
      const vid_t u = c.targets[e];
      if (deg[u] <= deg[v]) continue;
      const vid_t first = start[deg[u]], w = order[first];
      std::swap(order[at[u]], order[first]);
      std::swap(at[u], at[w]);
      ++start[deg[u]];
      --deg[u];
    }
  }
  return deg;
}

}  // namespace chatty::reference
