// The superstep engine on one host device. It runs any vertex program
// (runtime/program.h) to its fixed point and owns every loop: frontier
// management, the push/pull switch, priority buckets for ordered programs,
// union-find for connectivity, load balance and statistics.
//
// Per superstep (seed 001, algorithm 1, with one device): compute over the
// active vertices -> compact the changed ones into the next frontier ->
// status (count, active flag). The multi-device runtime adds merge and
// exchange around the same steps.
#pragma once

#include <omp.h>

#include <utility>
#include <vector>

#include "kernels/cpu/delta_stepping.h"
#include "kernels/cpu/gather_pull.h"
#include "kernels/cpu/pull_advance.h"
#include "kernels/cpu/push_advance.h"
#include "kernels/cpu/union_find.h"
#include "runtime/engine_options.h"
#include "runtime/graph.h"
#include "runtime/program.h"
#include "runtime/run_stats.h"
#include "runtime/status.h"

namespace chatty {

template <typename V>
struct EngineResult {
  std::vector<V> values;  // one per vertex, in id order
  RunStats stats;
};

namespace detail {

template <typename P>
std::vector<vid_t> start_set(const P& prog, vid_t n) {
  std::vector<vid_t> s;
  for (vid_t v = 0; v < n; ++v)
    if (prog.active_at_start(v)) s.push_back(v);
  return s;
}

inline void timed(RunStats& stats, double t0) {
  if (!stats.steps.empty()) stats.steps.back().seconds = omp_get_wtime() - t0;
}

// Frontier loop with the direction-optimizing switch (Beamer, Asanovic,
// Patterson, SC 2012) for first-visit programs; plain push otherwise.
template <typename P>
void traverse(const Graph& g, const P& prog, typename P::Value* val, const EngineOptions& opt, RunStats& stats) {
  const Csr& out = g.out();
  const vid_t n = out.num_vertices();
  const bool can_pull = P::kPullable && opt.direction != Direction::kPush;
  Queue q(n), next(n);
  Bitmap claimed(n), front(can_pull ? n : 0), nextb(can_pull ? n : 0);
  const std::vector<vid_t> s = start_set(prog, n);
  std::copy(s.begin(), s.end(), q.ids.mutable_data());
  q.count = s.size();
  uint64_t scout = 0;
  for (vid_t v : s) scout += out.degree(v);
  uint64_t edges_to_check = out.num_edges();
  while (q.count > 0) {
    const bool go_pull =
        can_pull && (opt.direction == Direction::kPull || double(scout) > double(edges_to_check) / opt.alpha);
    if (go_pull) {
      const Csr& in = g.in();
      queue_to_bitmap(q, front);
      typename P::Value level = val[q.ids[0]];
      uint64_t awake = q.count, prev;
      do {
        prev = awake;
        double t0 = omp_get_wtime();
        stats.steps.emplace_back();
        awake = cpu::pull_step(in, prog, val, front, nextb, level, stats.steps.back());
        timed(stats, t0);
        front.swap(nextb);
      } while (awake > 0 &&
               (opt.direction == Direction::kPull || awake >= prev || double(awake) > double(n) / opt.beta));
      bitmap_to_queue(front, q);
      scout = 1;
    } else {
      edges_to_check -= std::min(edges_to_check, scout);
      double t0 = omp_get_wtime();
      stats.steps.emplace_back();
      scout = cpu::push_step(out, prog, val, q, next, claimed, stats.steps.back());
      timed(stats, t0);
      std::swap(q, next);
    }
  }
}

// The default bucket width. Dense graphs (kron: degree ~30) settle most
// vertices through a cheap edge, so narrow buckets waste little work; sparse
// road-like graphs (degree ~4) need wide buckets to keep enough parallel
// work per step. mean_w * 8 / degree^2 gives 1 on kron:20 and 64 on grids,
// the best measured widths within 10%.
inline uint64_t auto_delta(const Graph& g) {
  const Csr& c = g.out();
  if (c.weights.empty()) return 1;
  const double mean_w = sampled_mean_weight(c);
  const double mean_deg = double(c.num_edges()) / double(std::max<vid_t>(1, c.num_vertices()));
  return std::max<uint64_t>(1, uint64_t(mean_w * 8.0 / std::max(1.0, mean_deg * mean_deg)));
}

}  // namespace detail

// Runs `prog` on `g` to its fixed point. Throws chatty::Error if the program
// needs weights the graph lacks.
template <typename P>
EngineResult<typename P::Value> run_program(const Graph& g, const P& prog, const EngineOptions& opt) {
  using V = typename P::Value;
  const vid_t n = g.num_vertices();
  EngineResult<V> r;
  r.values.resize(n);
  V* val = r.values.data();
#pragma omp parallel for schedule(static)
  for (vid_t v = 0; v < n; ++v) val[v] = prog.init(v);

  if constexpr (P::kKind == ProgramKind::kGather) {
    const Csr& in = g.in();
    cpu::GatherState state = cpu::gather_init(g.out(), prog, val);
    for (int it = 0; it < opt.max_iters; ++it) {
      double t0 = omp_get_wtime();
      r.stats.steps.emplace_back();
      double l1 = cpu::gather_step(g.out(), in, prog, val, state, r.stats.steps.back());
      detail::timed(r.stats, t0);
      if (l1 < opt.tolerance) break;
    }
  } else {
    if constexpr (P::kNeedsWeights) CHATTY_CHECK(g.weighted(), "this app needs edge weights");
    if (P::kConnectivity && opt.union_find) {
      double t0 = omp_get_wtime();
      cpu::connected_components(g.out(), !g.directed(), val, r.stats);
      detail::timed(r.stats, t0);
    } else if (P::kOrdered) {
      const uint64_t delta = opt.delta ? opt.delta : detail::auto_delta(g);
      cpu::delta_stepping(g.out(), prog, val, detail::start_set(prog, n), delta, r.stats);
    } else {
      detail::traverse(g, prog, val, opt, r.stats);
    }
  }
  return r;
}

}  // namespace chatty
