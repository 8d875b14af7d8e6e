// Betweenness centrality by Brandes' algorithm from the host row
// operators, as GAP's `bc` runs it: per source, a forward BFS level by
// level counting shortest paths (sigma), then a backward sweep over the
// levels in reverse, each vertex pulling its dependency from its
// successors (no atomics on the way back). Each level's vertices are
// split over the devices.
#pragma once

#include <atomic>
#include <vector>

#include "runtime/graph.h"
#include "runtime/host/row_operators.h"

namespace chatty::bc {

struct Scores {
  std::vector<double> score;  // the sum of every source's dependencies
  std::vector<double> device_seconds;
  uint64_t edges = 0;  // edges examined, both sweeps
  uint64_t levels = 0;
};

inline Scores brandes(const Graph& g, const std::vector<vid_t>& sources, int devices) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Scores out;
  out.score.assign(n, 0.0);
  out.device_seconds.assign(size_t(devices), 0.0);
  std::vector<int32_t> depth(n);
  std::vector<double> sigma(n), delta(n);
  std::vector<vid_t> order(n);               // the vertices by level, as discovered
  std::vector<size_t> level_begin;           // level d is order[level_begin[d], level_begin[d + 1])
  auto slices = [&](size_t lo, size_t hi) {  // a level split over the devices
    host::DeviceRanges r;
    for (int d = 0; d <= devices; ++d) r.push_back(vid_t(lo + (hi - lo) * size_t(d) / size_t(devices)));
    return r;
  };
  auto add_seconds = [&](const host::RowRun& run) {
    for (size_t d = 0; d < run.device_seconds.size(); ++d) out.device_seconds[d] += run.device_seconds[d];
    out.edges += run.work;
  };
  for (vid_t s : sources) {
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n; ++v) depth[v] = -1, sigma[v] = 0, delta[v] = 0;
    depth[s] = 0, sigma[s] = 1, order[0] = s;
    level_begin.assign({0, 1});
    std::atomic<size_t> tail{1};
    for (int32_t d = 0; level_begin[size_t(d) + 1] > level_begin[size_t(d)]; ++d) {
      add_seconds(host::for_each_row(slices(level_begin[size_t(d)], level_begin[size_t(d) + 1]), [&](int, vid_t i) {
        const vid_t u = order[i];
        for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
          const vid_t v = c.targets[e];
          std::atomic_ref<int32_t> dv(depth[v]);
          int32_t seen = dv.load(std::memory_order_relaxed);
          if (seen < 0 && dv.compare_exchange_strong(seen, d + 1, std::memory_order_relaxed)) {
            order[tail.fetch_add(1, std::memory_order_relaxed)] = v;
            seen = d + 1;
          }
          if (seen == d + 1) std::atomic_ref<double>(sigma[v]).fetch_add(sigma[u], std::memory_order_relaxed);
        }
        return uint64_t(c.degree(u));
      }));
      level_begin.push_back(tail.load());
    }
    out.levels += level_begin.size() - 2;
    for (size_t d = level_begin.size() - 2; d-- > 0;) {  // the last level has no successors
      add_seconds(host::for_each_row(slices(level_begin[d], level_begin[d + 1]), [&](int, vid_t i) {
        const vid_t w = order[i];
        double sum = 0;
        for (eid_t e = c.offsets[w]; e < c.offsets[w + 1]; ++e) {
          const vid_t x = c.targets[e];
          if (depth[x] == depth[w] + 1) sum += (1 + delta[x]) / sigma[x];
        }
        delta[w] = sigma[w] * sum;
        if (w != s) out.score[w] += delta[w];
        return uint64_t(c.degree(w));
      }));
    }
  }
  return out;
}

}  // namespace chatty::bc
