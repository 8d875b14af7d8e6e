// Decisions every device takes alike from the superstep's global status
// data (so all devices agree without another exchange), shared by the host
// and GPU runtimes: global sums, the push/pull switch of direction-optimizing
// BFS, and WCC's giant-component vote.
#pragma once

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/base/status_data.h"

namespace chatty {

// WCC's vote for the giant component: the label a device saw most often
// among its samples, and how often (read device by device).
inline constexpr StatusSlot<uint64_t> kGiantLabelSlot{0, Fold::kEach};
inline constexpr StatusSlot<uint64_t> kGiantVotesSlot{1, Fold::kEach};

// Beamer et al.'s switch on global counts: go pull when the frontier's
// out-edges exceed the unexplored edges / alpha; back to push when the
// frontier stops growing and is below |V| / beta.
class DirectionSwitch {
 public:
  DirectionSwitch(uint64_t edges, uint64_t start_scout, vid_t n, double alpha, double beta)
      : edges_to_check_(edges), scout_(start_scout), n_(n), alpha_(alpha), beta_(beta) {}
  // The direction of the next superstep, after one in direction `pull` woke
  // `awake` vertices whose out-degrees sum to `next_scout`.
  bool next(bool pull, uint64_t awake, uint64_t next_scout) {
    if (!pull) {
      edges_to_check_ -= std::min(edges_to_check_, scout_);
      scout_ = next_scout;
      if (double(scout_) > double(edges_to_check_) / alpha_) pull = true, prev_awake_ = awake;
    } else {
      if (!(awake >= prev_awake_ || double(awake) > double(n_) / beta_)) pull = false;
      prev_awake_ = awake;
      scout_ = 1;
    }
    return pull;
  }
  // The out-degree sum past which a frontier after the current push one
  // would turn to pull: where a run of push levels without the switch
  // (a wave) must end.
  uint64_t pull_above() const { return uint64_t(double(edges_to_check_ - std::min(edges_to_check_, scout_)) / alpha_); }

 private:
  uint64_t edges_to_check_, scout_, prev_awake_ = 0;
  vid_t n_;
  double alpha_, beta_;
};

// One level of an operator's level queue (runtime/host/operators.h,
// runtime/cuda/operators.cuh): order[lo, hi), its index, and the push/pull
// rule as it stands after the level was found. Every thread (host) or the
// driving thread (GPU) holds its own copy and steps it alike.
template <typename Index>
struct FrontierLevel {
  Index lo = 0, hi = 0;
  int index = 0;
  bool pull = false;  // the rule's choice for expanding this level
  DirectionSwitch rule{0, 0, 0, kDefaultAlpha, kDefaultBeta};
  bool empty() const { return lo >= hi; }
  // The first level, from `count` vertices with `edges` out-edges, in a
  // graph of n vertices and m edges.
  static FrontierLevel first(Index count, uint64_t edges, uint64_t m, vid_t n, double alpha, double beta) {
    return {0, count, 0, false, DirectionSwitch(m, edges, n, alpha, beta)};
  }
  // The level found by expanding this one (in direction `pulled`): it ends
  // at `end` and its vertices have `edges` out-edges.
  FrontierLevel after(Index end, bool pulled, uint64_t edges) const {
    FrontierLevel next{hi, end, index + 1, false, rule};
    next.pull = next.rule.next(pulled, uint64_t(end - hi), edges);
    return next;
  }
};

// The value seen most often among `values` and how often (ties to the
// smaller); {none, 0} when there are none.
inline std::pair<vid_t, uint64_t> most_frequent(const std::vector<vid_t>& values, vid_t none) {
  std::unordered_map<vid_t, uint64_t> freq;
  for (vid_t x : values) ++freq[x];
  std::pair<vid_t, uint64_t> best{none, 0};
  for (auto [x, f] : freq)
    if (f > best.second || (f == best.second && x < best.first)) best = {x, f};
  return best;
}

// WCC: a device's vote is the root seen most often among its sampled
// vertices (ties to the smaller; a later sample replaces it only with more
// sightings); the giant component is the label with the most votes over all
// devices, `none` without votes.
inline void vote_for_giant(const std::vector<vid_t>& roots, DeviceStatus& mine) {
  const auto [root, count] = most_frequent(roots, 0);
  uint64_t &label = mine.at(kGiantLabelSlot), &votes = mine.at(kGiantVotesSlot);
  if (count > 0 && (count > votes || (count == votes && root < label))) label = root, votes = count;
}

inline vid_t elect_giant(const std::vector<DeviceStatus>& all, vid_t none) {
  uint64_t best = 0;
  vid_t giant = none;
  for (auto& s : all)
    if (s.at(kGiantVotesSlot) > best) best = s.at(kGiantVotesSlot), giant = vid_t(s.at(kGiantLabelSlot));
  return giant;
}

}  // namespace chatty
