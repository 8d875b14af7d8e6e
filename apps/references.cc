#include "apps/references.h"

#include <cmath>
#include <functional>
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

std::vector<double> pagerank(const Graph& g, double damping, double tolerance, int max_iters) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<double> rank(n, 1.0 / n), next(n);
  for (int it = 0; it < max_iters; ++it) {
    double dangling = 0;
    std::fill(next.begin(), next.end(), 0.0);
    for (vid_t u = 0; u < n; ++u) {
      const eid_t d = c.degree(u);
      if (d == 0) {
        dangling += rank[u];
        continue;
      }
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) next[c.targets[e]] += rank[u] / double(d);
    }
    double l1 = 0;
    for (vid_t v = 0; v < n; ++v) {
      double r = (1 - damping) / n + damping * (next[v] + dangling / n);
      l1 += std::fabs(r - rank[v]);
      rank[v] = r;
    }
    if (l1 < tolerance) break;
  }
  return rank;
}

}  // namespace chatty::reference
