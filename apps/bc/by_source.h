// Brandes with a source per thread: each thread takes the run's sources
// one at a time and runs each alone, on arrays of its own, adding to
// scores of its own (the host operators' each_item_alone, on the engine's
// team); the threads' scores are summed at the end. Nothing
// is shared while a source runs, so a level costs no barrier and no
// atomic: for a graph of many small levels (a grid's 1000 levels of 250
// vertices) a level is too little work for a team to share, and its
// barriers cost more than the level. The steps are the team's (steps.h);
// brandes.h decides which way a run goes.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "apps/bc/steps.h"
#include "runtime/graph/graph.h"
#include "runtime/host/operators.h"

namespace chatty::bc {

namespace detail {

// One thread's arrays, reused source after source.
class SourceRun {
 public:
  SourceRun(vid_t n, eid_t m)
      : depth_(n), sigma_(n), share_(n), score_(n, 0.0), marks_((size_t(m) + 63) / 64), order_(n) {}

  // Adds source s's dependencies to this thread's scores.
  void run(const Csr& c, vid_t s) {
    const vid_t n = c.num_vertices();
    const eid_t* offsets = c.offsets.data();
    const vid_t* targets = c.targets.data();
    for (vid_t v = 0; v < n; ++v) Reset{depth_.data(), sigma_.data()}(v);
    std::fill(marks_.begin(), marks_.end(), 0);
    Seed{depth_.data(), sigma_.data()}(s);
    order_[0] = s;
    bounds_.assign({0, 1});
    for (int32_t d = 0; bounds_[size_t(d)] < bounds_[size_t(d) + 1]; ++d) {
      const CountPathsOn<false> count{depth_.data(), sigma_.data(), d + 1};
      size_t tail = bounds_[size_t(d) + 1];
      for (size_t i = bounds_[size_t(d)]; i < bounds_[size_t(d) + 1]; ++i) {
        const vid_t u = order_[i];
        for (eid_t e = offsets[u]; e < offsets[u + 1]; ++e) {
          const unsigned visit = count(u, targets[e], e);
          if (visit & ops::kJoin) order_[tail++] = targets[e];
          if (visit & ops::kMark) marks_[size_t(e >> 6)] |= uint64_t(1) << (e & 63);
        }
        edges_ += offsets[u + 1] - offsets[u];
      }
      bounds_.push_back(tail);
    }
    const SuccessorShare successor{share_.data()};
    const Settle settle{sigma_.data(), share_.data(), score_.data(), s};
    for (size_t l = bounds_.size() - 1; l-- > 0;)
      for (size_t i = bounds_[l]; i < bounds_[l + 1]; ++i) {
        const vid_t v = order_[i];
        double shares = 0;
        for (eid_t e = offsets[v]; e < offsets[v + 1]; ++e)
          if ((marks_[size_t(e >> 6)] >> (e & 63)) & 1) shares += successor(v, targets[e], e);
        settle(v, shares);
        edges_ += offsets[v + 1] - offsets[v];
      }
  }

  const std::vector<double>& score() const { return score_; }
  uint64_t edges() const { return edges_; }

 private:
  std::vector<int32_t> depth_;
  std::vector<double> sigma_, share_, score_;
  std::vector<uint64_t> marks_;  // the edges on shortest paths from the source
  std::vector<vid_t> order_;     // the levels, one after another
  std::vector<size_t> bounds_;   // where each level starts in order_
  uint64_t edges_ = 0;
};

}  // namespace detail

// Adds every source's dependencies to score[], on `threads` threads of a
// team at a time.
inline void brandes_by_source(host::TeamThread& t, const Csr& c, std::span<const vid_t> sources, int threads,
                              double* score) {
  host::each_item_alone(
      t, sources.size(), threads, [&] { return detail::SourceRun(c.num_vertices(), c.num_edges()); },
      [&](detail::SourceRun& mine, size_t i) {
        const uint64_t before = mine.edges();
        mine.run(c, sources[i]);
        return mine.edges() - before;
      },
      [&](detail::SourceRun& mine) {
        for (size_t v = 0; v < mine.score().size(); ++v) score[v] += mine.score()[v];
      });
}

// A level of fewer edges a thread than this costs the team more in
// barriers than it saves (2 threads: grid:500x500's 500 a thread ran 2.7x
// faster by source; ego-Facebook's 11,000 1.3x slower).
constexpr uint64_t kSharedLevelEdges = 4096;

// What a breadth-first walk from a source says of the graph's levels.
enum class Levels { kLarge, kSmall, kUnsure };

// A plain breadth-first walk from s on this thread (a bitmap of what it
// reached, no path counts): kLarge at the first level whose edges a team
// of `threads` shares at a gain (kron: within a few levels), else kSmall
// once the walk is over, when it reached an eighth of the vertices (a grid:
// about a fifth of one source's Brandes on one thread); a source in a
// small component says little (kUnsure).
inline Levels probe_levels(const Csr& c, vid_t s, int threads) {
  const vid_t n = c.num_vertices();
  std::vector<uint64_t> seen(size_t(n) / 64 + 1);
  std::vector<vid_t> level{s}, next;
  seen[s >> 6] |= uint64_t(1) << (s & 63);
  size_t reached = 1;
  while (!level.empty()) {
    uint64_t edges = 0;
    for (const vid_t u : level) edges += c.degree(u);
    if (edges >= kSharedLevelEdges * uint64_t(threads)) return Levels::kLarge;
    next.clear();
    for (const vid_t u : level)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
        const vid_t v = c.targets[e];
        uint64_t& word = seen[v >> 6];
        const uint64_t bit = uint64_t(1) << (v & 63);
        if (!(word & bit)) word |= bit, next.push_back(v);
      }
    reached += next.size();
    level.swap(next);
  }
  return reached * 8 >= n ? Levels::kSmall : Levels::kUnsure;
}

// A thread's arrays for a run by source.
inline uint64_t bytes_by_source_thread(const Csr& c) {
  return uint64_t(c.num_vertices()) * (sizeof(int32_t) + 3 * sizeof(double) + sizeof(vid_t)) + c.num_edges() / 8;
}

}  // namespace chatty::bc
