// A breadth-first walk from one vertex on one thread's arrays, summing
// what the distance measures need (program.h's Walk).
#pragma once

#include <vector>

#include "apps/closeness/program.h"

namespace chatty::closeness {

class Walker {
 public:
  explicit Walker(vid_t n) : depth_(n, kInfinity) { queue_.reserve(n); }

  // The walk from s over c's rows; returns it and adds the edges examined.
  Walk run(const Csr& c, vid_t s, uint64_t& edges) {
    Walk w;
    queue_.clear();
    queue_.push_back(s);
    depth_[s] = 0;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const vid_t u = queue_[head];
      const uint32_t d = depth_[u];
      ++w.reached, w.distance_sum += d, w.farthest = d;
      if (d > 0) w.inverse_sum += 1.0 / d;
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (depth_[c.targets[e]] == kInfinity) depth_[c.targets[e]] = d + 1, queue_.push_back(c.targets[e]);
      edges += c.offsets[u + 1] - c.offsets[u];
    }
    for (vid_t v : queue_) depth_[v] = kInfinity;  // only what this walk set
    return w;
  }

 private:
  std::vector<uint32_t> depth_;
  std::vector<vid_t> queue_;  // the walk's vertices, nearest first
};

}  // namespace chatty::closeness
