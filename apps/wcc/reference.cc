#include "apps/wcc/reference.h"

#include <algorithm>

namespace chatty::reference {

std::vector<uint32_t> wcc(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<vid_t> parent(n);
  for (vid_t v = 0; v < n; ++v) parent[v] = v;
  auto find = [&](vid_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      vid_t a = find(u), b = find(c.targets[e]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<uint32_t> label(n);
  for (vid_t v = 0; v < n; ++v) label[v] = find(v);
  return label;
}

}  // namespace chatty::reference
