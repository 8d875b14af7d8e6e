// Ordered push for programs whose offers only grow along paths (SSSP):
// delta-stepping (Meyer & Sanders, 2003). Vertices wait in buckets of width
// delta by priority; the lowest non-empty bucket is relaxed repeatedly until
// it empties, so few vertices are relaxed before their value is final.
// Buckets are per thread (no shared structure on the hot path); a thread
// keeps relaxing its own current bucket while it stays small, which saves
// barriers on high-diameter graphs.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

template <typename P>
void delta_stepping(const Csr& g, const P& prog, typename P::Value* val, const std::vector<vid_t>& sources,
                    uint64_t delta, RunStats& stats) {
  using V = typename P::Value;
  constexpr size_t kNone = ~size_t(0);
  constexpr size_t kLocalFuse = 1000;  // keep going alone below this size
  const bool weighted = !g.weights.empty();
  std::vector<vid_t> frontier(sources);
  size_t frontier_size = sources.size();
  std::atomic<size_t> tail{0};
  size_t shared_bin = 0, next_bin = kNone;
  std::vector<SuperstepStats> steps;
  uint64_t step_edges = 0;

#pragma omp parallel
  {
    std::vector<std::vector<vid_t>> bins;
    size_t bin = 0;
    auto relax = [&](vid_t u, uint64_t& edges) {
      const V vu = std::atomic_ref<V>(val[u]).load(std::memory_order_relaxed);
      if (prog.priority(vu) / delta < bin) return;  // stale: settled in an earlier bucket
      const eid_t lo = g.offsets[u], hi = g.offsets[u + 1];
      edges += hi - lo;
      const vid_t* tgt = g.targets.data();
      const weight_t* wgt = g.weights.data();
      for (eid_t e = lo; e < hi; ++e) {
        const vid_t v = tgt[e];
        // Values are random accesses: start the miss a few edges early.
        if (e + kPrefetch < hi) __builtin_prefetch(&val[tgt[e + kPrefetch]], 1, 3);
        const V offer = prog.scatter(vu, u, v, weighted ? wgt[e] : 1);
        if (atomic_combine(&val[v], offer, [](V a, V b) { return P::reduce(a, b); })) {
          const size_t b = size_t(prog.priority(offer) / delta);
          if (b >= bins.size()) bins.resize(b + 1);
          bins[b].push_back(v);
        }
      }
    };
    while (true) {
      bin = shared_bin;
      uint64_t edges = 0;
#pragma omp for schedule(dynamic, kGrain) nowait
      for (size_t i = 0; i < frontier_size; ++i) relax(frontier[i], edges);
      while (bin < bins.size() && !bins[bin].empty() && bins[bin].size() < kLocalFuse) {
        std::vector<vid_t> mine;
        mine.swap(bins[bin]);
        for (vid_t u : mine) relax(u, edges);
      }
      // Lowest non-empty bucket over all threads.
      size_t my_next = kNone;
      for (size_t b = bin; b < bins.size(); ++b)
        if (!bins[b].empty()) {
          my_next = b;
          break;
        }
#pragma omp atomic
      step_edges += edges;
#pragma omp critical(chatty_min_bin)
      next_bin = std::min(next_bin, my_next);
#pragma omp barrier
#pragma omp single
      {
        SuperstepStats s;
        s.active = frontier_size;
        s.edges = step_edges;
        steps.push_back(s);
        step_edges = 0;
        tail = 0;
      }  // implicit barrier: every thread sees the final next_bin
      const size_t nb = next_bin;
      if (nb == kNone) break;
      std::vector<vid_t>* mine = nb < bins.size() ? &bins[nb] : nullptr;
      const size_t at = tail.fetch_add(mine ? mine->size() : 0);
#pragma omp barrier
#pragma omp single
      {
        frontier_size = tail.load();
        if (frontier_size > frontier.size()) frontier.resize(frontier_size);
        shared_bin = nb;
        next_bin = kNone;
      }
      if (mine) {
        std::copy(mine->begin(), mine->end(), frontier.begin() + long(at));
        mine->clear();
      }
#pragma omp barrier
    }
  }
  for (auto& s : steps) stats.steps.push_back(s);
}

}  // namespace chatty::cpu
