// Brandes' betweenness over weighted shortest paths, one source at a time
// on one thread's arrays: Dijkstra from the source counting the shortest
// paths to each vertex (sigma) in the order vertices settle, then, in the
// reverse of that order, each vertex's dependency gathered from its
// successors on shortest paths (dist[v] + w(v, x) == dist[x]). A source
// per thread (the host operators' each_item_alone), as BC runs sources
// whose levels are too small to share: Dijkstra has no levels to share.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::wbc {

class DijkstraBrandes {
 public:
  explicit DijkstraBrandes(vid_t n) : dist_(n), sigma_(n), share_(n), score_(n, 0.0), settled_(n, 0) {
    order_.reserve(n);
  }

  // Adds source s's dependencies to this thread's scores; returns the
  // edges examined.
  uint64_t run(const Csr& c, vid_t s) {
    constexpr uint64_t kFar = ~uint64_t(0);
    const eid_t* off = c.offsets.data();
    const vid_t* tgt = c.targets.data();
    const weight_t* w = c.weights.data();
    std::fill(dist_.begin(), dist_.end(), kFar);
    std::fill(sigma_.begin(), sigma_.end(), 0.0);
    order_.clear();
    uint64_t edges = 0;
    using Entry = std::pair<uint64_t, vid_t>;  // (distance, vertex), nearest first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    dist_[s] = 0, sigma_[s] = 1;
    heap.push({0, s});
    while (!heap.empty()) {
      const auto [d, u] = heap.top();
      heap.pop();
      if (d != dist_[u] || settled_[u]) continue;  // a stale entry, or u settled at this distance already
      order_.push_back(u);
      settled_[u] = 1;
      // u's count is final: every vertex nearer than u has settled.
      for (eid_t e = off[u]; e < off[u + 1]; ++e) {
        const vid_t x = tgt[e];
        const uint64_t nd = d + w[e];
        if (nd < dist_[x]) {
          dist_[x] = nd, sigma_[x] = sigma_[u];
          heap.push({nd, x});
        } else if (nd == dist_[x] && !settled_[x]) {
          sigma_[x] += sigma_[u];
        }
      }
      edges += off[u + 1] - off[u];
    }
    for (size_t i = order_.size(); i-- > 0;) {
      const vid_t v = order_[i];
      double shares = 0;  // the sum of (1 + dependency) / paths over v's successors
      for (eid_t e = off[v]; e < off[v + 1]; ++e)
        if (dist_[v] + w[e] == dist_[tgt[e]]) shares += share_[tgt[e]];
      const double dependency = sigma_[v] * shares;
      share_[v] = (1 + dependency) / sigma_[v];
      if (v != s) score_[v] += dependency;
      edges += off[v + 1] - off[v];
    }
    for (vid_t v : order_) settled_[v] = 0;  // only what this run set
    return edges;
  }

  const std::vector<double>& score() const { return score_; }

 private:
  std::vector<uint64_t> dist_;
  std::vector<double> sigma_, share_, score_;
  std::vector<vid_t> order_;   // vertices as they settled
  std::vector<char> settled_;  // popped from the heap in this run
};

}  // namespace chatty::wbc
