// Betweenness centrality by Brandes' algorithm on the host operators, as
// GAP's `bc` runs it: per source, a forward advance level by level
// counting shortest paths (sigma) and marking the edges on them, then a
// backward sweep over the levels in reverse, each vertex gathering its
// dependency over its marked edges (its successors: no atomics on the way
// back). One team runs the sources level by level; the steps (steps.h)
// are the GPU driver's too. Where the first source's levels were too
// small for the team to share, the other sources run one per thread
// (by_source.h).
#pragma once

#include <omp.h>

#include <algorithm>
#include <span>
#include <vector>

#include "apps/bc/by_source.h"
#include "apps/bc/steps.h"
#include "runtime/base/memory.h"
#include "runtime/graph/graph.h"
#include "runtime/host/operators.h"

namespace chatty::bc {

struct Scores {
  std::vector<double> score;  // the sum of every source's dependencies
  std::vector<double> device_seconds;
  uint64_t edges = 0;  // edges examined, both sweeps
  bool by_source = false;
};

// The team's arrays, kept from one call of run() to the next.
class LevelRun {
 public:
  explicit LevelRun(const Csr& c)
      : c_(c),
        depth_(c.num_vertices()),
        sigma_(c.num_vertices()),
        share_(c.num_vertices()),
        on_path_(c.num_edges()),
        queue_(c.num_vertices()) {}

  // Adds the sources' dependencies to score[].
  host::RowRun run(std::span<const vid_t> sources, int devices, double* score) {
    const vid_t n = c_.num_vertices();
    return host::Team(devices).run([&](host::TeamThread& t) {
      for (const vid_t s : sources) {
        host::compute(t, 0, n, Reset{depth_.data(), sigma_.data()});
        on_path_.clear(t);
        if (t.lead()) Seed{depth_.data(), sigma_.data()}(s);  // seen by all after start's barrier
        for (host::Level l = queue_.start(t, c_, {&s, 1}); !l.empty();)
          l = host::advance(t, c_, queue_, l, CountPaths{depth_.data(), sigma_.data(), l.index + 1},
                            ops::Direction::kPush, &on_path_);
        // Deepest first; the deepest level has no successors (its
        // dependencies are zero) but its shares are still set.
        for (int d = queue_.levels() - 1; d >= 0; --d) {
          const std::span<const vid_t> level = queue_.level(d);
          host::gather<double>(t, c_, level.data(), 0, level.size(), SuccessorShare{share_.data()}, Plus{},
                               Settle{sigma_.data(), share_.data(), score, s}, &on_path_);
        }
      }
    });
  }

  // The vertices the last source reached.
  size_t reached() const { return queue_.size(); }
  // The edges a level of the last source held, on average.
  double edges_per_level() const {
    const vid_t n = c_.num_vertices();
    return queue_.levels() && n ? double(queue_.size()) / queue_.levels() * double(c_.num_edges()) / n : 0;
  }

 private:
  const Csr& c_;
  std::vector<int32_t> depth_;
  std::vector<double> sigma_, share_;  // share: (1 + dependency) / paths, once settled
  host::EdgeMarks on_path_;
  host::LevelQueue queue_;
};

// A level of fewer edges a thread than this costs the team more in
// barriers than it saves (2 threads: grid:500x500's 500 a thread run 2.7x
// faster by source; ego-Facebook's 11,000 1.3x slower).
constexpr double kSharedLevelEdges = 4096;

// How a run's sources are shared out: kAuto runs the first by levels and
// the rest by source where its levels were small (and the threads' arrays
// fit in half of the free memory); the others force a way (tests).
enum class Split { kAuto, kLevels, kSources };

inline Scores brandes(const Graph& g, const std::vector<vid_t>& sources, int devices, Split how = Split::kAuto) {
  const Csr& c = g.out();
  Scores out;
  out.score.assign(c.num_vertices(), 0.0);
  LevelRun levels(c);
  // Sources run by levels until one reaches an eighth of the graph: the
  // rule would read little into the levels of a source in a small
  // component (an isolated vertex's one level of a vertex).
  host::RowRun run;
  run.device_seconds.assign(size_t(std::max(1, devices)), 0.0);
  const auto add = [&run](const host::RowRun& more) {
    for (size_t d = 0; d < run.device_seconds.size(); ++d) run.device_seconds[d] += more.device_seconds[d];
    run.work += more.work;
  };
  const std::span<const vid_t> all(sources);
  size_t first = 0;
  while (first < all.size()) {
    add(levels.run(all.subspan(first++, 1), devices, out.score.data()));
    if (how != Split::kAuto || levels.reached() * 8 >= c.num_vertices()) break;
  }
  const std::span<const vid_t> rest = all.subspan(first);
  const int threads = omp_get_max_threads();
  const uint64_t fit = available_memory() / 2 / std::max<uint64_t>(1, bytes_by_source_thread(c));
  const int by_source = int(std::min<uint64_t>({uint64_t(threads), rest.size(), fit}));
  const bool small = levels.edges_per_level() < kSharedLevelEdges * threads;
  if (by_source > 0 && (how == Split::kSources || (how == Split::kAuto && by_source > 1 && small))) {
    const BySource b = brandes_by_source(c, rest, by_source, out.score.data());
    for (double& s : run.device_seconds) s += b.seconds;
    run.work += b.edges;
    out.by_source = true;
  } else if (!rest.empty()) {
    add(levels.run(rest, devices, out.score.data()));
  }
  out.device_seconds = run.device_seconds;
  out.edges = run.work;
  return out;
}

}  // namespace chatty::bc
