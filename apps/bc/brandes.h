// Betweenness centrality by Brandes' algorithm on the host operators, as
// GAP's `bc` runs it: per source, a forward advance level by level
// counting shortest paths (sigma) and marking the edges on them, then a
// backward sweep over the levels in reverse, each vertex gathering its
// dependency over its marked edges (its successors: no atomics on the way
// back). One team runs the sources level by level; the steps (steps.h)
// are the GPU driver's too. Where a source's levels are too small for
// the team to share, the sources run one per thread instead (by_source.h).
#pragma once

#include <omp.h>

#include <algorithm>
#include <span>
#include <vector>

#include "apps/bc/by_source.h"
#include "apps/bc/steps.h"
#include "runtime/base/memory.h"
#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::bc {

struct Scores {
  std::vector<double> score;  // the sum of every source's dependencies
  bool by_source = false;
};

// Adds the sources' dependencies to score[], one source at a time, each
// level shared by the team.
inline void brandes_by_levels(host::HostOperators& h, const Csr& c, std::span<const vid_t> sources, double* score) {
  const vid_t n = c.num_vertices();
  std::vector<int32_t> depth(n);
  std::vector<double> sigma(n), share(n);  // share: (1 + dependency) / paths, once settled
  host::EdgeMarks on_path(c.num_edges());
  host::LevelQueue queue(n);
  h.team([&](host::TeamThread& t) {
    for (const vid_t s : sources) {
      if (t.interrupted()) break;  // the team's run throws at its end
      host::compute(t, 0, n, Reset{depth.data(), sigma.data()});
      on_path.clear(t);
      if (t.lead()) Seed{depth.data(), sigma.data()}(s);  // seen by all after start's barrier
      for (host::Level l = queue.start(t, c, {&s, 1}); !l.empty();)
        l = host::advance(t, c, queue, l, CountPaths{depth.data(), sigma.data(), l.index + 1}, ops::Direction::kPush,
                          &on_path);
      // Deepest first; the deepest level has no successors (its
      // dependencies are zero) but its shares are still set.
      for (int d = queue.levels() - 1; d >= 0; --d) {
        const std::span<const vid_t> level = queue.level(d);
        host::gather<double>(t, c, level.data(), 0, level.size(), SuccessorShare{share.data()}, Plus{},
                             Settle{sigma.data(), share.data(), score, s}, &on_path);
      }
    }
  });
}

// How a run's sources are shared out: kAuto by source where more than one
// thread would run them, their arrays fit in half of the free memory, and
// a probe from the first sources found the levels small (probe_levels);
// the others force a way (tests).
enum class Split { kAuto, kLevels, kSources };

// On h's devices; h records their time and the edges examined.
inline Scores brandes(host::HostOperators& h, const Graph& g, std::span<const vid_t> sources,
                      Split how = Split::kAuto) {
  const Csr& c = g.out();
  Scores out;
  out.score.assign(c.num_vertices(), 0.0);
  const int threads = omp_get_max_threads();
  const uint64_t fit = available_memory() / 2 / std::max<uint64_t>(1, bytes_by_source_thread(c));
  const int by_source = int(std::min<uint64_t>({uint64_t(threads), sources.size(), fit}));
  Levels seen = Levels::kUnsure;
  // Up to four probes: sources in small components say little.
  for (size_t i = 0;
       how == Split::kAuto && by_source > 1 && seen == Levels::kUnsure && i < std::min<size_t>(4, sources.size()); ++i)
    seen = probe_levels(c, sources[i], threads);
  if (by_source > 0 && (how == Split::kSources || seen == Levels::kSmall)) {
    h.team([&](host::TeamThread& t) { brandes_by_source(t, c, sources, by_source, out.score.data()); });
    h.note("the sources one a thread (their levels too small to share)");
    out.by_source = true;
    return out;
  }
  brandes_by_levels(h, c, sources, out.score.data());
  return out;
}

}  // namespace chatty::bc
