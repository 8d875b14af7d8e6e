// Leiden's levels and passes (levels.h) on a device that runs steps a
// thread an item: Louvain's blocks (apps/louvain/device_levels.h: moving,
// grouping, contraction) with the refinement, the connected parts and the
// passes of device_steps.h, on the same backend's mechanisms; the same
// communities as the host's.
#pragma once

#include <vector>

#include "apps/leiden/device_steps.h"
#include "apps/leiden/program.h"
#include "apps/louvain/device_levels.h"

namespace chatty::leiden::dev {

template <typename B>
class Passes {
  template <typename T>
  using Array = typename B::template Array<T>;
  using Levels = louvain::dev::Levels<B>;

 public:
  explicit Passes(Levels& levels) : l_(levels), b_(levels.mechanisms()) {
    const size_t n = size_t(l_.vertices()) + 1;
    part_.allocate(n), label_.allocate(n), best_.allocate(n), start_.allocate(n), first_.allocate(n);
    ref_.allocate(n), next_.allocate(n), rstot_.allocate(n), rext_.allocate(n), vext_.allocate(n);
    joined_.allocate(n), alone_.allocate(n), round_.allocate(n), stot_.allocate(n);
  }

  // Each input vertex's community, named by its least vertex id;
  // `outcome` gets the modularity, the levels and the passes.
  std::vector<uint32_t> run(const LeidenProgram& p, louvain::Outcome& outcome) {
    const vid_t n0 = l_.vertices();
    const uint64_t m = l_.m();
    outcome = {};
    bool have_best = false;
    double best_q = 0;
    uint32_t levels = 0, total = 0;
    bool started = false;
    double before = 0;
    louvain::LevelScale scale{m, p.resolution, 0, louvain::kFirstTolerance, kLeidenRounds};
    // What a run cut after this level by max_level gives.
    const auto keep_cut = [&] {
      const double q = connected_modularity();
      const bool earlier = have_best && q - outcome.modularity <= p.threshold;
      p.levels->push_back(labels(earlier ? best_.get() : label_.get()));
    };
    const auto run_level = [&](const auto& level) -> bool {
      const louvain::LevelResult lr = l_.move_level(level, scale, started ? start_.get() : nullptr);
      if (levels > 0 && !lr.improved()) return false;
      if (levels == 0) before = lr.start;
      const louvain::dev::MovingState s = l_.moving();
      b_.compute(0, n0, PartOf{s.comm, l_.of(), part_.get()});
      const bool again = started && levels == 0;
      ++levels, ++total, started = true;
      if (p.levels) keep_cut();
      if ((p.max_level && total >= p.max_level) || (!again && lr.modularity - before <= p.threshold)) return false;
      before = lr.modularity;
      refine(level, scale);
      const vid_t count = l_.group(ref_.get(), level.n);
      if (count == level.n) return false;  // nothing merged: the next level would be this one
      b_.compute(0, n0, louvain::dev::Follow{l_.of(), l_.next_of()});
      b_.compute(0, level.n, louvain::dev::Fill<uint32_t>{first_.get(), kInfinity});
      b_.compute(0, level.n, FirstOf{s.comm, l_.next_of(), first_.get()});
      b_.compute(0, level.n, StartOf{s.comm, l_.next_of(), first_.get(), start_.get()});
      scale.tolerance /= 10, ++scale.level;
      l_.contract(level, count);
      return true;
    };
    QuietPasses quiet;
    for (uint32_t pass = 0;; ++pass) {
      b_.compute(0, n0, louvain::dev::Identity{l_.of()});
      if (pass) {
        b_.compute(0, n0, louvain::dev::CopyTo{part_.get(), best_.get()});
        b_.compute(0, n0, louvain::dev::CopyTo{start_.get(), best_.get()});
      } else {
        b_.compute(0, n0, louvain::dev::Identity{part_.get()});
      }
      levels = 0, started = pass > 0;
      scale.tolerance = louvain::kFirstTolerance, scale.level = salt_of(pass, 0);
      if (m == 0) {
        levels = total = 1;  // no edge: every vertex alone, NetworkX's one partition
      } else if (run_level(l_.input())) {
        while (!interrupt_requested() && run_level(l_.current())) {
        }
      }
      const double q = connected_modularity();
      const bool stop = pass > 0 && quiet.end_after(q - best_q);
      if (pass == 0 || q - best_q > p.threshold) {
        outcome = {q, total, true, pass + 1};
        best_q = q, have_best = true;
        b_.compute(0, n0, louvain::dev::CopyTo{best_.get(), label_.get()});
      }
      if (stop || m == 0 || interrupt_requested() || (p.max_level && total >= p.max_level) ||
          (p.passes && pass + 1 >= p.passes))
        break;
    }
    std::vector<uint32_t> label = labels(best_.get());
    if (p.levels) p.levels->resize(std::max<uint32_t>(outcome.levels, 1) - 1), p.levels->push_back(label);
    return label;
  }

 private:
  RefineState state() {
    return {ref_.get(), next_.get(), rstot_.get(), rext_.get(), vext_.get(), joined_.get(), alone_.get(), round_.get()};
  }

  // refine.h's refine of the partition the level's moving left.
  template <typename Level>
  void refine(const Level& level, const louvain::LevelScale& sc) {
    const LevelRows r = level.rows();
    const vid_t n = level.n;
    const double two_m = 2.0 * double(sc.m);
    const louvain::dev::MovingState s = l_.moving();
    const RefineState f = state();
    const typename Levels::Scratch x = l_.scratch();
    b_.compute(0, n, RefineStart{r, s.comm, f, sc.level, sc.rounds});
    for (uint8_t j = 0; j < sc.rounds; ++j) {
      b_.compute(0, n, RefinePick{r, s.comm, s.stot, f, j, sc.resolution, two_m, x.flag});
      const uint64_t count = b_.scan(x.flag, x.place, n);
      if (count == 0) continue;
      b_.compute(0, n, louvain::dev::List{r, x.flag, x.place, x.list, x.len});
      const uint64_t entries = b_.scan(x.len, x.at, count);
      b_.put(x.at + count, &entries, 1);
      if (entries > 0) {
        b_.compute(0, entries, RefineGather{r, s.comm, f.ref, x.list, x.at, count, x.key, x.weight});
        b_.sort_runs(x.key, x.key_out, x.weight, x.weight_out, entries, count, x.at);
      }
      b_.compute(
          0, count,
          RefineDecide{r, s.comm, s.stot, f, x.list, x.at, x.key_out, x.weight_out, j, sc.resolution, two_m, sc.level});
      b_.compute(0, count, RefineJoin{r, f, x.list});
      b_.compute(0, count, RefineCommit{f, x.list});
    }
  }

  // The parts of part_ connected by the input's edges into label_ (each
  // named by its least vertex); returns their modularity.
  double connected_modularity() {
    const vid_t n0 = l_.vertices();
    const LevelRows in = l_.input().rows();
    b_.compute(0, n0, louvain::dev::Identity{label_.get()});
    b_.compute(0, n0, LinkParts{in, part_.get(), label_.get()});
    b_.compute(0, n0, Flatten{label_.get()});
    const typename Levels::Scratch x = l_.scratch();
    b_.zero(stot_.get(), n0), b_.zero(x.sums, 3);
    b_.compute(0, n0, PartitionSums{in, label_.get(), stot_.get(), x.sums});
    uint64_t sums[3];
    b_.get(sums, x.sums, 3);
    return l_.modularity_of(stot_.get(), n0, sums[2] / 2);
  }

  std::vector<uint32_t> labels(const vid_t* of) {
    std::vector<uint32_t> out(l_.vertices());
    b_.get(out.data(), of, out.size());
    return out;
  }

  Levels& l_;
  B& b_;
  Array<vid_t> part_, label_, best_, start_, ref_, next_;
  Array<uint32_t> first_;
  Array<int64_t> rstot_, rext_, vext_, joined_, stot_;
  Array<uint8_t> alone_, round_;
};

}  // namespace chatty::leiden::dev
