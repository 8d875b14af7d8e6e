// Betweenness centrality by Brandes' algorithm on the host operators, as
// GAP's `bc` runs it: per source, a forward advance level by level
// counting shortest paths (sigma) and marking the edges on them, then a
// backward sweep over the levels in reverse, each vertex gathering its
// dependency over its marked edges (its successors: no atomics on the way
// back). One team runs every source; the steps (steps.h) are the GPU
// driver's too.
#pragma once

#include <vector>

#include "apps/bc/steps.h"
#include "runtime/graph/graph.h"
#include "runtime/host/operators.h"

namespace chatty::bc {

struct Scores {
  std::vector<double> score;  // the sum of every source's dependencies
  std::vector<double> device_seconds;
  uint64_t edges = 0;  // edges examined, both sweeps
};

inline Scores brandes(const Graph& g, const std::vector<vid_t>& sources, int devices) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Scores out;
  out.score.assign(n, 0.0);
  std::vector<int32_t> depth(n);
  std::vector<double> sigma(n), share(n);  // share: (1 + dependency) / paths, once settled
  host::EdgeMarks on_path(c.num_edges());
  host::LevelQueue queue(n);
  const host::RowRun run = host::Team(devices).run([&](host::TeamThread& t) {
    for (const vid_t s : sources) {
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
                             Settle{sigma.data(), share.data(), out.score.data(), s}, &on_path);
      }
    }
  });
  out.device_seconds = run.device_seconds;
  out.edges = run.work;
  return out;
}

}  // namespace chatty::bc
