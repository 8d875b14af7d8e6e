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
#include <optional>
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

// The forward advance's functor on the host: CountPaths, which a pull
// advance may also run (from every vertex not yet reached), there with
// plain loads and stores: only the thread scanning v's in-edges writes v.
struct CountPathsBothWays : CountPaths {
  bool wanted(vid_t v) const { return ops::atomic_load(depth + v) < 0; }
  unsigned pulled(vid_t u, vid_t v, eid_t e) const { return CountPathsOn<false>{depth, sigma, next}(u, v, e); }
};

// Adds the sources' dependencies to score[], one source at a time, each
// level shared by the team. With `in` (an undirected graph's CSR, its own
// reverse), a level whose frontier's edges pass the unexplored ones over
// alpha is found by pull, as a BFS's (Beamer's rule): every vertex not yet reached
// sums the paths of its in-neighbours in the frontier, without atomics
// and without reading the frontier's edges into the levels already seen,
// and marks those in-edges in its own row (`preds`). On the way back,
// such a level's vertices pass their shares to their marked predecessors
// (an atomic add each); a level found by push is gathered from its
// predecessors' marked successor edges, as before.
inline void brandes_by_levels(host::HostOperators& h, const Csr& c, std::span<const vid_t> sources, double* score,
                              const Csr* in = nullptr) {
  const vid_t n = c.num_vertices();
  std::vector<int32_t> depth(n);
  std::vector<double> sigma(n), share(n);  // share: (1 + dependency) / paths, once settled
  std::vector<double> passed(in ? n : 0);  // shares passed back by a pulled level, per predecessor
  host::EdgeMarks on_path(c.num_edges());
  std::optional<host::EdgeMarks> preds;
  if (in) preds.emplace(c.num_edges());
  host::LevelQueue queue(n);
  h.team([&](host::TeamThread& t) {
    std::vector<uint8_t> pulled;  // per level: found by pull (every thread steps the same levels)
    bool preds_dirty = false;
    for (const vid_t s : sources) {
      if (t.interrupted()) break;  // the team's run throws at its end
      host::compute(t, 0, n, Reset{depth.data(), sigma.data()});
      on_path.clear(t);
      if (preds_dirty) preds->clear(t), preds_dirty = false;
      if (t.lead()) Seed{depth.data(), sigma.data()}(s);  // seen by all after start's barrier
      pulled.assign(1, 0);
      for (host::Level l = queue.start(t, c, {&s, 1}); !l.empty();) {
        const ops::Direction dir = in ? ops::Direction::kAuto : ops::Direction::kPush;
        const bool pull = host::advance_pulls<CountPathsBothWays>(l, dir, in);
        pulled.push_back(pull);
        preds_dirty |= pull;
        l = host::advance(t, c, queue, l, CountPathsBothWays{{depth.data(), sigma.data(), l.index + 1}}, dir,
                          pull ? &*preds : &on_path, in);
      }
      // Deepest first; the deepest level has no successors (its
      // dependencies are zero) but its shares are still set.
      const Settle settle{sigma.data(), share.data(), score, s};
      for (int d = queue.levels() - 1; d >= 0; --d) {
        const std::span<const vid_t> level = queue.level(d);
        if (d + 1 < queue.levels() && pulled[size_t(d) + 1]) {
          const std::span<const vid_t> after = queue.level(d + 1);
          // A row's predecessors are listed and their sums fetched before
          // the adds: each add is a fence, which would keep the next
          // predecessor's miss from starting until it is done.
          host::compute(t, 0, after.size(), [&](size_t i) {
            const vid_t w = after[i];
            const double mine = share[w];
            constexpr int kBatch = 16;
            vid_t batch[kBatch];
            int k = 0;
            auto add = [&] {
              for (int j = 0; j < k; ++j) ops::atomic_add(&passed[batch[j]], mine);
              k = 0;
            };
            preds->for_each(in->offsets[w], in->offsets[w + 1], [&](eid_t e) {
              const vid_t u = in->targets[e];
              __builtin_prefetch(&passed[u], 1);
              batch[k++] = u;
              if (k == kBatch) add();
            });
            add();
          });
          host::compute(t, 0, level.size(), [&](size_t i) {
            const vid_t v = level[i];
            settle(v, passed[v]);
            passed[v] = 0;
          });
        } else {
          host::gather<double>(t, c, level.data(), 0, level.size(), SuccessorShare{share.data()}, Plus{}, settle,
                               &on_path);
        }
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
  brandes_by_levels(h, c, sources, out.score.data(), g.directed() ? nullptr : &c);
  return out;
}

}  // namespace chatty::bc
