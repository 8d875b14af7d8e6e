#include "apps/ktruss/reference.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace chatty::reference {

std::map<std::pair<vid_t, vid_t>, uint32_t> truss_numbers(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<std::set<vid_t>> adj(n);
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) adj[u].insert(c.targets[e]);
  auto common = [&](vid_t u, vid_t v) {
    std::vector<vid_t> w;
    std::set_intersection(adj[u].begin(), adj[u].end(), adj[v].begin(), adj[v].end(), std::back_inserter(w));
    return w;
  };
  using Edge = std::pair<vid_t, vid_t>;
  std::map<Edge, size_t> support;
  std::set<std::pair<size_t, Edge>> by_support;
  for (vid_t u = 0; u < n; ++u)
    for (vid_t v : adj[u])
      if (u < v) {
        support[{u, v}] = common(u, v).size();
        by_support.insert({support[{u, v}], {u, v}});
      }
  std::map<Edge, uint32_t> truss;
  size_t k = 0;
  while (!by_support.empty()) {
    const auto [s, e] = *by_support.begin();
    by_support.erase(by_support.begin());
    k = std::max(k, s);
    truss[e] = uint32_t(k + 2);
    const auto [u, v] = e;
    for (vid_t w : common(u, v))
      for (Edge x : {Edge{std::min(u, w), std::max(u, w)}, Edge{std::min(v, w), std::max(v, w)}}) {
        by_support.erase({support[x], x});
        by_support.insert({--support[x], x});
      }
    adj[u].erase(v), adj[v].erase(u);
  }
  return truss;
}

}  // namespace chatty::reference
