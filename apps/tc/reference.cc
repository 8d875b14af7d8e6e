#include "apps/tc/reference.h"

#include <algorithm>

namespace chatty::reference {

std::vector<uint64_t> triangles(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<uint64_t> t(n, 0);
  for (vid_t u = 0; u < n; ++u) {
    const vid_t* nu = c.targets.data() + c.offsets[u];
    const vid_t* nu_end = c.targets.data() + c.offsets[u + 1];
    for (const vid_t* pv = nu; pv != nu_end; ++pv) {
      const vid_t v = *pv;
      if (v <= u || (pv != nu && pv[-1] == v)) continue;  // each edge once, u < v
      for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
        const vid_t w = c.targets[e];
        if (w <= v || (e > c.offsets[v] && c.targets[e - 1] == w)) continue;
        if (std::binary_search(nu, nu_end, w)) ++t[u], ++t[v], ++t[w];
      }
    }
  }
  return t;
}

}  // namespace chatty::reference
