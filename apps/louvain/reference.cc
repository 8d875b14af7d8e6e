#include "apps/louvain/reference.h"

#include <map>

#include "apps/louvain/reference_levels.h"

namespace chatty::reference {

using levels::contract;
using levels::input_level;
using levels::Level;
using levels::move;
using levels::Moved;
using levels::renumber;

LouvainResult louvain(const Graph& g, double resolution, double threshold, uint32_t max_level) {
  Level l = input_level(g);
  const size_t n = l.k.size();
  int64_t degrees = 0;
  for (int64_t k : l.k) degrees += k;
  const uint64_t m = uint64_t(degrees / 2);
  std::vector<uint32_t> of(n);
  for (size_t v = 0; v < n; ++v) of[v] = uint32_t(v);
  LouvainResult out;
  out.levels = 1;
  double before = 0, tolerance = louvain::kLouvainFirstTolerance;
  const Level input = l;
  for (uint32_t level = 0; m > 0; ++level, tolerance /= 10) {
    const Moved moved = move(l, m, resolution, level, tolerance);
    if (level > 0 && !(moved.modularity > moved.start)) break;
    if (level == 0) before = moved.start;
    uint32_t count = 0;
    const std::vector<uint32_t> id = renumber(moved.comm, count);
    for (uint32_t& x : of) x = id[x];
    out.modularity = moved.modularity, out.levels = level + 1;
    if ((max_level && out.levels >= max_level) || out.modularity - before <= threshold) break;
    before = out.modularity;
    l = contract(l, id, count);
  }
  if (out.levels > 1) {
    const Moved last = move(input, m, resolution, out.levels, louvain::kRefineTolerance, &of);
    of = last.comm, out.modularity = last.modularity;
  }
  std::map<uint32_t, uint32_t> least;
  for (size_t v = 0; v < n; ++v) least.emplace(of[v], uint32_t(v));  // the first is the least
  out.labels.resize(n);
  for (size_t v = 0; v < n; ++v) out.labels[v] = least[of[v]];
  return out;
}

double modularity(const Graph& g, const std::vector<uint32_t>& labels, double resolution) {
  const Csr& c = g.out();
  std::map<uint32_t, double> inside, degree;
  double total = 0;  // the degrees' sum: twice the edge weight
  for (uint32_t v = 0; v < c.num_vertices(); ++v)
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
      const double w = g.weighted() ? double(c.weights[e]) : 1.0;
      const uint32_t u = c.targets[e];
      const double ends = u == v ? 2.0 : 1.0;  // a self-loop's row entry is both of its ends
      degree[labels[v]] += ends * w, total += ends * w;
      if (labels[u] == labels[v]) inside[labels[v]] += w / (u == v ? 1.0 : 2.0);
    }
  if (total == 0) return 0;
  const double m = total / 2;
  double q = 0;
  for (const auto& [label, d] : degree) q += inside[label] / m - resolution * (d / (2 * m)) * (d / (2 * m));
  return q;
}

}  // namespace chatty::reference
