// The frontier driver (BFS, plain push programs such as WCC by label
// propagation): one superstep loop for every backend and device count.
// It holds the policy - the push/pull switch taken on global counts
// (Beamer, Asanovic, Patterson, SC 2012), the level of a uniform frontier
// and the stop rule - and asks the device for the mechanisms. A device's
// traversal ops `Ops` provide:
//   void start(const std::vector<vid_t>& start_set);  // the owned ones become active
//   void merge(int parity);      // fold peers' offers; owned vertices that improve become active
//   void push();                 // relax the active vertices' out-edges, activate what changed
//   void pull(Value level);      // bottom-up over owned unvisited vertices (kPullable only)
//   void compact(int parity);    // changed boundary vertices into the send buffer
//   Agreed sync(int parity, bool pull);  // publish status, meet, exchange
//   void resume_push();          // after pull steps: the owned frontier as the push queue
// and, where a device can run supersteps without a sync (a lone GPU device):
//   bool lone();                 // no peers: nothing to exchange
//   void step_on();              // end the superstep without a sync
// and, where a lone device can run push supersteps as a wave (a GPU's in
// one launch, kernels/wave.h; the host's in one parallel region,
// kernels/cpu/push_wave.h):
//   uint64_t wave_items(const EngineOptions&);  // the widest frontier it runs as one (0: none)
//   void wave(wave::Limits);     // push supersteps while the frontier stays
//                                // within the limits
#pragma once

#include <algorithm>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"
#include "runtime/drivers/agreed.h"
#include "runtime/drivers/wave_rule.h"
#include "runtime/engine/superstep_decisions.h"
#include "runtime/graph/graph.h"

namespace chatty {

// The out-degree sum of the next frontier, for the direction switch.
inline constexpr StatusSlot<uint64_t> kScoutSlot{0, Fold::kSum};

// The start of a frontier run, computed once for all devices.
template <typename V>
struct TraversalStart {
  std::vector<vid_t> vertices;  // active at the start, in id order
  uint64_t scout = 0;           // their out-degree sum
  V level{};                    // a uniform frontier's value
};

template <typename P>
TraversalStart<typename P::Value> traversal_start(const Graph& g, const P& prog) {
  TraversalStart<typename P::Value> s;
  const vid_t n = g.num_vertices();
  // Blocks of tests without a branch first, which vectorise, and the
  // vertices of a block only where one is active (a lone source among a
  // million vertices).
  constexpr vid_t kBlock = 1024;
  for (vid_t lo = 0; lo < n; lo += kBlock) {
    const vid_t hi = std::min<vid_t>(n, lo + kBlock);
    vid_t hits = 0;  // a count, not a flag: GCC vectorises a sum, not an or of bools
    for (vid_t i = 0; i < hi - lo; ++i) hits += prog.active_at_start(lo + i) ? 1 : 0;
    if (!hits) continue;
    for (vid_t v = lo; v < hi; ++v)
      if (prog.active_at_start(v)) s.vertices.push_back(v), s.scout += g.out_degree(v);
  }
  if (!s.vertices.empty()) s.level = prog.init(s.vertices[0]);
  return s;
}

// Whether the next supersteps may run without a sync: a lone device that
// can, asked to (--gpu_steps_per_sync), in push steps whose frontier grows
// slowly (a grid's or a road's wave, not a power-law graph's burst, where
// the direction switch must see every step). The run between syncs doubles
// from 2 up to the limit while the frontier stays thin, so a traversal that
// ends soon queues few empty supersteps.
class ThinRun {
 public:
  explicit ThinRun(int steps_per_sync) : limit_(steps_per_sync) {}
  // After a sync that covered `supersteps` supersteps updating `updated` vertices.
  void saw(uint64_t updated, uint64_t supersteps) {
    const uint64_t per_step = updated / std::max<uint64_t>(1, supersteps);
    const bool thin = limit_ > 1 && per_step * 4 <= last_ * 5;  // grew by a quarter at most (none seen: last_ 0)
    run_ = thin ? std::min(limit_, std::max(2, 2 * run_)) : 1;
    last_ = per_step, since_ = 0;
  }
  // The superstep just computed ends without a sync.
  bool skip_sync(bool pull) { return !pull && ++since_ < run_; }

 private:
  const int limit_;
  int run_ = 1, since_ = 0;
  uint64_t last_ = 0;
};

template <typename P, typename Ops>
void drive_traversal(Ops& dev, const P& prog, const Graph& g, const TraversalStart<typename P::Value>& start,
                     const EngineOptions& opt) {
  const bool can_pull = P::kPullable && opt.direction != Direction::kPush;
  DirectionSwitch direction(g.num_edges(), start.scout, g.num_vertices(), opt.alpha, opt.beta);
  bool pull = can_pull && opt.direction == Direction::kPull;
  typename P::Value level = start.level;
  int batch = 1;
  if constexpr (requires { dev.step_on(); }) batch = dev.lone() ? opt.gpu_steps_per_sync : 1;
  ThinRun thin(batch);
  const WaveRule waves = wave_rule_of(dev, opt);
  bool wave = !pull && waves.fits(start.vertices.size(), start.scout);
  dev.start(start.vertices);
  for (int k = 0;; ++k) {
    const int parity = k & 1;
    dev.merge(parity);
    if (pull) {
      dev.pull(level);
    } else if (wave) {
      if constexpr (requires { dev.wave(wave::Limits{}); }) {
        wave::Limits limits = waves.limits();
        // A wave runs push levels only: it ends where the switch would pull.
        if (can_pull && opt.direction == Direction::kAuto)
          limits.edges = std::min<uint64_t>(limits.edges, direction.pull_above());
        dev.wave(limits);
      }
    } else {
      dev.push();
    }
    if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
    dev.compact(parity);
    if constexpr (requires { dev.step_on(); }) {
      if (!wave && thin.skip_sync(pull)) {
        dev.step_on();
        continue;
      }
    }
    const Agreed a = dev.sync(parity, pull);
    if (a.failed() || a.quiet()) return;
    if (wave && P::kUniformFrontier)  // the levels past the wave's first
      for (uint64_t i = 1; i < a.all[0].supersteps; ++i) level = prog.scatter(level, 0, 0, 1);
    thin.saw(a.sum(&DeviceStatus::updated), a.all[0].supersteps);
    if (can_pull && opt.direction == Direction::kAuto) {
      const bool was_pull = pull;
      pull = direction.next(pull, a.sum(&DeviceStatus::updated), a.fold(kScoutSlot));
      if (was_pull && !pull) dev.resume_push();
    }
    wave = !pull && waves.fits(a.sum(&DeviceStatus::active), a.fold(kScoutSlot));
  }
}

}  // namespace chatty
