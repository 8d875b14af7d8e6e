// Louvain's levels (levels.h) on a device that runs steps a thread an item:
// the same levels, sweeps, rounds, tolerances and last moves, each step one
// of device_steps.h's functors, written once against a backend B that
// supplies the mechanisms (GPU devices: apps/louvain/gpu.cu; a host test
// runs the same driver on plain loops):
//   B::Array<T>                       allocate(n), get()
//   compute(lo, hi, f)                f(i) for every i of [lo, hi)
//   scan(in, out, n)                  exclusive sums of n uint64s; returns the total
//   sort_runs(key, key_out, val, val_out, items, segments, at)
//                                     each segment [at[i], at[i + 1]) by its uint32 keys, values along
//   sort_keys(key, key_out, val, val_out, items)   all items by their uint64 keys, values along
//   reduce_by_key(key, val, items, key_out, sum_out) runs of equal keys summed; returns the runs
//   get(host, device, n), put(device, host, n), zero(device, n)
#pragma once

#include <utility>
#include <vector>

#include "apps/louvain/device_steps.h"
#include "apps/louvain/program.h"
#include "runtime/base/interrupt.h"
#include "runtime/graph/graph.h"

namespace chatty::louvain::dev {

template <typename B>
class Levels {
  template <typename T>
  using Array = typename B::template Array<T>;

  // A level's graph on the device.
  struct Level {
    Array<eid_t> off;
    Array<vid_t> tgt;
    Array<uint64_t> w;
    Array<int64_t> k;
    Array<uint64_t> self;
    vid_t n = 0;
    eid_t m = 0;
    void allocate(vid_t vertices, eid_t edges) {
      off.allocate(size_t(vertices) + 1), tgt.allocate(edges + 1), w.allocate(edges + 1);
      k.allocate(vertices + 1), self.allocate(vertices + 1);
    }
    LevelRows rows() const { return {n, off.get(), tgt.get(), w.get(), k.get(), self.get()}; }
  };

 public:
  // Uploads the input's rows (weights: the graph's, or null for ones).
  Levels(B& b, const Csr& c, const weight_t* weights, double resolution) : b_(b), resolution_(resolution) {
    n0_ = c.num_vertices();
    const eid_t m0 = c.num_edges();
    input_.allocate(n0_, m0), cur_.allocate(n0_, m0), next_.allocate(n0_, m0);
    input_.n = n0_, input_.m = m0;
    b_.put(input_.off.get(), c.offsets.data(), size_t(n0_) + 1);
    b_.put(input_.tgt.get(), c.targets.data(), m0);
    Array<weight_t> w;
    if (weights) {
      w.allocate(m0 + 1);
      b_.put(w.get(), weights, m0);
    }
    b_.compute(0, n0_,
               InputMasses{input_.off.get(), input_.tgt.get(), weights ? w.get() : nullptr, input_.w.get(),
                           input_.k.get(), input_.self.get()});
    std::vector<int64_t> k(n0_);
    b_.get(k.data(), input_.k.get(), n0_);
    int64_t degrees = 0;
    for (int64_t x : k) degrees += x;
    m_ = uint64_t(degrees / 2);
    const size_t n = size_t(n0_) + 1;
    comm_.allocate(n), next_comm_.allocate(n), best_comm_.allocate(n), stot_.allocate(n), best_stot_.allocate(n);
    active_.allocate(n), round_.allocate(n), flag_.allocate(n), place_.allocate(n), len_.allocate(n);
    at_.allocate(n), list_.allocate(n), sums_.allocate(3), used_.allocate(n), id_.allocate(n);
    next_of_.allocate(n), of_.allocate(n), least_.allocate(n), label_.allocate(n), inside2_.allocate(n);
    count_.allocate(n);
    key_.allocate(m0 + 1), key_out_.allocate(m0 + 1), weight_.allocate(m0 + 1), weight_out_.allocate(m0 + 1);
    ekey_.allocate(m0 + 1), ekey_out_.allocate(m0 + 1), eval_out_.allocate(m0 + 1);
    stot_host_.resize(n0_);
  }

  // Each input vertex's community, named by its least vertex id;
  // `outcome` gets the modularity and the levels.
  std::vector<uint32_t> louvain(const LouvainProgram& p, Outcome& outcome) {
    b_.compute(0, n0_, Identity{of_.get()});
    LevelScale scale{m_, resolution_, 0, kLouvainFirstTolerance};
    uint32_t levels = 0;
    double modularity = 0, before = 0;
    const auto run_level = [&](const Level& l) -> bool {
      const LevelResult lr = move_level(l, scale, nullptr);
      if (levels > 0 && !lr.improved()) return false;
      if (levels == 0) before = lr.start;
      group(comm_.get(), l.n);
      b_.compute(0, n0_, Follow{of_.get(), next_of_.get()});
      modularity = lr.modularity, ++levels;
      if ((p.max_level && levels >= p.max_level) || modularity - before <= p.threshold) return false;
      if (p.levels) {  // what a run cut here gives
        if (levels > 1) last_moves(levels);
        p.levels->push_back(least_labels(levels > 1 ? comm_.get() : of_.get()));
      }
      before = modularity;
      scale.tolerance /= 10, ++scale.level;
      contract(l, count_of_);
      return true;
    };
    if (m_ == 0) {
      levels = 1;  // no edge: every vertex alone, NetworkX's one partition
    } else if (run_level(input_)) {
      while (!interrupt_requested() && run_level(cur_)) {
      }
    }
    if (levels > 1 && !interrupt_requested()) {
      modularity = last_moves(levels);
      b_.compute(0, n0_, CopyTo{of_.get(), comm_.get()});
    }
    std::vector<uint32_t> label = least_labels(of_.get());
    outcome = {modularity, levels, true};
    if (p.levels) p.levels->resize(levels - 1), p.levels->push_back(label);
    return label;
  }

  // Row entries the sweeps gathered and the contractions read.
  uint64_t examined() const { return examined_; }

  // The building blocks the drivers compose (this one and Leiden's,
  // apps/leiden/device_levels.h).
  B& mechanisms() { return b_; }
  uint64_t m() const { return m_; }
  vid_t vertices() const { return n0_; }
  const Level& input() const { return input_; }
  const Level& current() const { return cur_; }  // the last contraction
  vid_t* of() { return of_.get(); }              // each input vertex's vertex of the level
  MovingState moving() { return state(); }
  // Arrays free between the blocks: a round's list and its sorted rows.
  struct Scratch {
    uint64_t *flag, *place, *len, *at;
    vid_t *list, *key, *key_out;
    uint64_t *weight, *weight_out, *sums;
  };
  Scratch scratch() {
    return {flag_.get(), place_.get(),   len_.get(),    at_.get(),         list_.get(),
            key_.get(),  key_out_.get(), weight_.get(), weight_out_.get(), sums_.get()};
  }
  // Σ stot² of the first n communities of `stot` (a device array), and the modularity with `inside`.
  double modularity_of(const int64_t* stot, vid_t n, uint64_t inside) {
    b_.get(stot_host_.data(), stot, n);
    Squares squares = 0;
    for (vid_t c = 0; c < n; ++c) squares += Squares(stot_host_[c]) * Squares(stot_host_[c]);
    return modularity(inside, squares, m_, resolution_);
  }
  const vid_t* next_of() const { return next_of_.get(); }
  MovingState state() {
    return {comm_.get(),      next_comm_.get(), best_comm_.get(), stot_.get(),
            best_stot_.get(), active_.get(),    round_.get()};
  }

  double modularity_now(vid_t n, uint64_t inside) { return modularity_of(stot_.get(), n, inside); }

  // level.h's move_level: sweeps of rounds from singletons or `start`,
  // leaving the best partition a sweep reached in comm_.
  LevelResult move_level(const Level& l, const LevelScale& sc, const vid_t* start) {
    const LevelRows r = l.rows();
    const vid_t n = l.n;
    const MovingState s = state();
    b_.compute(0, n, Start{r, s, start});
    b_.zero(sums_.get(), 3);
    b_.compute(0, n, StartSums{r, s, sums_.get(), start != nullptr});
    uint64_t sums[3];
    b_.get(sums, sums_.get(), 3);
    uint64_t inside = sums[2] / 2;
    b_.compute(0, n, CopyBest{s, true});
    LevelResult out;
    out.start = out.modularity = modularity_now(n, inside);
    bool current_is_best = true;
    const double two_m = 2.0 * double(sc.m);
    for (uint32_t sweep = 0; sweep < kMaxSweeps && !interrupt_requested(); ++sweep) {
      b_.compute(0, n, Rounds{s, sc.level, sweep, sc.rounds});
      b_.zero(sums_.get(), 3);
      for (uint8_t j = 0; j < sc.rounds; ++j) {
        b_.compute(0, n, Pick{s, j, flag_.get()});
        const uint64_t count = b_.scan(flag_.get(), place_.get(), n);
        if (count == 0) continue;
        b_.compute(0, n, List{r, flag_.get(), place_.get(), list_.get(), len_.get()});
        const uint64_t entries = b_.scan(len_.get(), at_.get(), count);
        examined_ += entries;
        b_.put(at_.get() + count, &entries, 1);
        if (entries > 0) {
          b_.compute(0, entries, GatherRows{r, s.comm, list_.get(), at_.get(), count, key_.get(), weight_.get()});
          b_.sort_runs(key_.get(), key_out_.get(), weight_.get(), weight_out_.get(), entries, count, at_.get());
        }
        b_.compute(0, count,
                   Decide{r, s, list_.get(), at_.get(), key_out_.get(), weight_out_.get(), sc.resolution, two_m});
        b_.compute(0, count, Apply{r, s, list_.get(), sums_.get()});
        b_.compute(0, count, Commit{s, list_.get()});
      }
      b_.get(sums, sums_.get(), 2);
      inside = uint64_t(int64_t(inside) + int64_t(sums[1]));
      if (sums[0] == 0) break;
      const double before = out.modularity, q = modularity_now(n, inside);
      current_is_best = q > out.modularity;
      if (current_is_best) {
        out.modularity = q;
        b_.compute(0, n, CopyBest{s, true});
      }
      if (out.modularity - before <= sc.tolerance) break;
    }
    if (!current_is_best) b_.compute(0, n, CopyBest{s, false});
    return out;
  }

  // The input's vertices move once more from the communities in of_.
  double last_moves(uint32_t levels) {
    const LevelScale last{m_, resolution_, levels, kRefineTolerance};
    return move_level(input_, last, of_.get()).modularity;
  }

  // contract.h's group: the communities of `by` with members numbered in
  // order (next_of() each vertex's); returns how many.
  vid_t group(const vid_t* by, vid_t n) {
    b_.zero(used_.get(), size_t(n) + 1);
    b_.compute(0, n, MarkUsed{by, used_.get()});
    count_of_ = vid_t(b_.scan(used_.get(), id_.get(), n));
    b_.compute(0, n, NextOf{by, id_.get(), next_of_.get()});
    return count_of_;
  }

  // contract.h's contract: the next level's graph into next_.
  void contract(const Level& l, vid_t count) {
    const LevelRows r = l.rows();
    Level& x = next_;
    examined_ += l.m;
    b_.zero(inside2_.get(), count);
    b_.compute(0, l.n, EdgeKeys{r, next_of_.get(), ekey_.get(), weight_.get(), inside2_.get()});
    b_.sort_keys(ekey_.get(), ekey_out_.get(), weight_.get(), weight_out_.get(), l.m);
    uint64_t runs = l.m ? b_.reduce_by_key(ekey_out_.get(), weight_out_.get(), l.m, ekey_.get(), eval_out_.get()) : 0;
    if (runs > 0) {
      uint64_t last = 0;
      b_.get(&last, ekey_.get() + runs - 1, 1);
      if (last == ~uint64_t(0)) --runs;  // the edges not kept
    }
    b_.zero(x.k.get(), count), b_.zero(x.self.get(), count);
    b_.compute(0, l.n, NextMasses{r, next_of_.get(), x.k.get(), x.self.get()});
    b_.compute(0, count, AddInside{inside2_.get(), x.self.get()});
    b_.zero(count_.get(), size_t(count) + 1);
    b_.compute(0, runs, RowsOfRuns{ekey_.get(), eval_out_.get(), x.tgt.get(), x.w.get(), count_.get()});
    Array<uint64_t>& offsets = place_;  // free between rounds: the row starts, as eid_t below
    const uint64_t total = b_.scan(count_.get(), offsets.get(), count);
    b_.compute(0, count, Widen{offsets.get(), x.off.get()});
    const eid_t end = eid_t(total);
    b_.put(x.off.get() + count, &end, 1);
    x.n = count, x.m = eid_t(runs);
    std::swap(cur_, next_);
  }

  // Each input vertex labelled by the least vertex of its community in `comm`.
  std::vector<uint32_t> least_labels(const vid_t* comm) {
    b_.compute(0, n0_, Fill<uint32_t>{least_.get(), kInfinity});
    b_.compute(0, n0_, LeastOf{comm, least_.get()});
    b_.compute(0, n0_, LabelOf{comm, least_.get(), label_.get()});
    std::vector<uint32_t> label(n0_);
    b_.get(label.data(), label_.get(), n0_);
    return label;
  }

 private:
  B& b_;
  double resolution_;
  vid_t n0_ = 0, count_of_ = 0;
  uint64_t m_ = 0, examined_ = 0;
  Level input_, cur_, next_;
  Array<vid_t> comm_, next_comm_, best_comm_, list_, next_of_, of_, key_, key_out_;
  Array<int64_t> stot_, best_stot_;
  Array<uint8_t> active_, round_;
  Array<uint64_t> flag_, place_, len_, at_, sums_, used_, id_, inside2_, count_;
  Array<uint64_t> weight_, weight_out_, ekey_, ekey_out_, eval_out_;
  Array<uint32_t> least_, label_;
  std::vector<int64_t> stot_host_;
};

}  // namespace chatty::louvain::dev
