// The operator set on host devices, as Ligra's edgeMap/vertexMap and
// Gunrock's advance/filter/compute: collective steps of a Team
// (runtime/host/team.h) that an app's driver composes. Each splits its
// items over the devices and their threads, balances them in chunks, and
// ends with a barrier. Host devices of one process read each other's rows
// in place, so no step exchanges anything. The same steps exist for GPU
// devices in runtime/cuda/operators.cuh.
//
//   compute   f(device, i) over items or each device's range
//   advance   the next level of a LevelQueue over out-edges (push) or
//             in-edges (pull), by the traversal family's push/pull rule
//   filter    the items a predicate keeps, compacted into an array
//   gather    per vertex, a reduction over its (marked) edges
//   reduce    a value of up to 16 bytes folded over items
//   intersect ops::intersect_sorted, or a MarkedList probed by other lists
#pragma once

#include <algorithm>
#include <atomic>
#include <span>
#include <vector>

#include "runtime/base/csr_view.h"
#include "runtime/base/operators.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/superstep_decisions.h"
#include "runtime/graph/graph.h"
#include "runtime/host/marked_list.h"
#include "runtime/host/team.h"

namespace chatty::host {

using ops::Direction;
using ops::kJoin;
using ops::kMark;
using ops::kStop;

namespace detail {

// What a thread found in a step, appended to the queue in one move: a
// shared tail per vertex would bounce between cores.
struct Found {
  std::vector<vid_t> list;
  uint64_t edges = 0;
  void flush(TeamThread& t, vid_t* order, size_t base) {
    if (list.empty()) return;
    const size_t at = base + t.word(0).fetch_add(list.size(), std::memory_order_relaxed);
    t.word(1).fetch_add(edges, std::memory_order_relaxed);
    std::copy(list.begin(), list.end(), order + at);
    list.clear();
    edges = 0;
  }
};

// f(device, i) returning the work done, or f(i) (a functor shared with the
// GPU's compute) counting none. Items of the second kind are taken in
// larger chunks: they are uniform and cheap (resets, copies).
template <typename F>
constexpr size_t grain_of() {
  return std::is_invocable_v<F&, int, size_t> ? 64 : 2048;
}
template <typename F>
auto with_work(F& f) {
  return [&f](int d, size_t i) -> uint64_t {
    if constexpr (std::is_invocable_v<F&, int, size_t>) {
      return f(d, i);
    } else {
      f(i);
      return 0;
    }
  };
}
}  // namespace detail

// f(device, i) (or f(i)) for every i of [lo, hi), or of each device's
// range, `grain` items a grab (0: by the kind of f).
template <typename F>
void compute(TeamThread& t, size_t lo, size_t hi, F&& f, size_t grain = 0) {
  t.begin_step();
  t.share(lo, hi, detail::with_work(f), grain ? grain : detail::grain_of<F>());
  t.barrier();
}
template <typename F>
void compute(TeamThread& t, const DeviceRanges& ranges, F&& f, size_t grain = 0) {
  t.begin_step();
  t.share(ranges, detail::with_work(f), grain ? grain : detail::grain_of<F>());
  t.barrier();
}

// One bit per edge of a CSR: the edges an advance marked (kMark), read
// back row by row (Brandes' successor edges, a BFS tree's edges).
class EdgeMarks {
 public:
  explicit EdgeMarks(eid_t edges) : bits_((size_t(edges) + 63) / 64) {}
  // Every mark off (collective).
  void clear(TeamThread& t) {
    compute(t, 0, bits_.size(), [this](size_t i) { bits_[i] = 0; });
  }
  bool test(eid_t e) const { return (bits_[size_t(e >> 6)] >> (e & 63)) & 1; }
  // f(e) for every marked edge of [lo, hi), in order.
  template <typename F>
  void for_each(eid_t lo, eid_t hi, F&& f) const {
    for (eid_t word = lo >> 6; lo < hi && word <= (hi - 1) >> 6; ++word) {
      uint64_t bits = bits_[size_t(word)];
      if (word == lo >> 6) bits &= ~uint64_t(0) << (lo & 63);
      if (word == (hi - 1) >> 6) bits &= (uint64_t(2) << ((hi - 1) & 63)) - 1;
      for (; bits; bits &= bits - 1) f((word << 6) + eid_t(__builtin_ctzll(bits)));
    }
  }
  // Sets the bits of one row's edges [lo, hi), gathered a word at a time:
  // a plain store where the word is the row's alone, else an atomic OR
  // (the neighbouring rows may be another thread's).
  class RowWriter {
   public:
    RowWriter(EdgeMarks* m, eid_t lo, eid_t hi) : m_(m), lo_(lo), hi_(hi) {}
    void mark(eid_t e) {
      if (!m_) return;
      if ((e >> 6) != word_) flush(), word_ = e >> 6;
      bits_ |= uint64_t(1) << (e & 63);
    }
    ~RowWriter() { flush(); }

   private:
    void flush() {
      if (!bits_) return;
      uint64_t& w = m_->bits_[size_t(word_)];
      if ((word_ << 6) >= lo_ && (word_ << 6) + 64 <= hi_)
        w = bits_;
      else
        std::atomic_ref<uint64_t>(w).fetch_or(bits_, std::memory_order_relaxed);
      bits_ = 0;
    }
    EdgeMarks* m_;  // marks nothing when null
    eid_t lo_, hi_, word_ = 0;
    uint64_t bits_ = 0;
  };

 private:
  std::vector<uint64_t> bits_;
};

using Level = FrontierLevel<size_t>;  // as every thread holds it

// Frontiers level after level in one array (GAP's sliding queue): level l
// is order()[bound(l), bound(l + 1)), each appended after the last by an
// advance. Holds each vertex once when the advance's functor claims each
// vertex once.
class LevelQueue {
 public:
  explicit LevelQueue(vid_t n) : order_(n) {}
  // Starts from `first` (collective); returns level 0. alpha and beta are
  // the push/pull rule's (EngineOptions' defaults).
  Level start(TeamThread& t, const Csr& c, std::span<const vid_t> first, double alpha = kDefaultAlpha,
              double beta = kDefaultBeta) {
    t.single([&] {
      std::copy(first.begin(), first.end(), order_.begin());
      bounds_.assign(1, 0);
    });
    uint64_t edges = 0;
    for (vid_t v : first) edges += c.degree(v);
    return Level::first(first.size(), edges, c.num_edges(), c.num_vertices(), alpha, beta);
  }
  const vid_t* order() const { return order_.data(); }
  vid_t* order() { return order_.data(); }
  // After the last advance: the levels found, and each level's vertices.
  int levels() const { return int(bounds_.size()) - 1; }
  size_t size() const { return bounds_.back(); }  // the vertices of every level
  std::span<const vid_t> level(int l) const {
    return {order_.data() + bounds_[size_t(l)], bounds_[size_t(l) + 1] - bounds_[size_t(l)]};
  }

  // For the advance: the lead records where each level ends as it is
  // expanded; a pull's bitmap of the level.
  void note_level_end(const TeamThread& t, size_t hi) {
    if (t.lead()) bounds_.push_back(hi);
  }
  std::vector<uint64_t>& level_bitmap() { return in_level_; }

 private:
  std::vector<vid_t> order_;
  std::vector<size_t> bounds_;      // written by the lead during the advances
  std::vector<uint64_t> in_level_;  // a pull's bitmap of the level
};

// How many edges ahead a push advance asks a FetchesAhead functor to fetch.
inline constexpr eid_t kFetchAhead = 12;

// The level after `cur`: f(u, v, e) is called for the edges between the
// level's vertices and the rest, and answers ops::Visit bits (kJoin: v
// joins the next level, claimed by f once; kMark: e is marked in `marks`;
// kStop: v is done, pull only). Push walks each level vertex u's
// out-edges (c), e numbering c's edges. Pull walks every wanted v's
// in-edges (`in`, the reverse CSR) from level vertices, e numbering in's
// edges; it needs f.wanted(v) (v may still join) and `in`, and is taken
// when asked or, with kAuto, when the engine's rule says so. Returns the
// next level on every thread.
template <typename C, typename F>
Level advance(TeamThread& t, const C& c, LevelQueue& q, const Level& cur, F&& f, Direction dir = Direction::kPush,
              EdgeMarks* marks = nullptr, const Csr* in = nullptr);

// Whether advance(..., cur, f, dir, marks, in) with a functor of type F
// expands cur by pull: a caller whose marks differ by direction (in-edges
// or out-edges) asks this first.
template <typename F>
bool advance_pulls(const Level& cur, Direction dir, const Csr* in) {
  return ops::Pullable<std::decay_t<F>> && in && (dir == Direction::kPull || (dir == Direction::kAuto && cur.pull));
}

template <typename C, typename F>
Level advance(TeamThread& t, const C& c, LevelQueue& q, const Level& cur, F&& f, Direction dir, EdgeMarks* marks,
              const Csr* in) {
  thread_local detail::Found found;
  constexpr bool pullable = ops::Pullable<std::decay_t<F>>;
  const bool pull = advance_pulls<F>(cur, dir, in);
  // The joined vertices' out-edges feed the rule only: a load per vertex
  // that a fixed direction does not pay.
  const bool scout = dir == Direction::kAuto;
  vid_t* order = q.order();
  if constexpr (pullable) {
    if (pull) {
      std::vector<uint64_t>& level = q.level_bitmap();
      t.single([&] { level.assign(size_t(c.num_vertices()) / 64 + 1, 0); });
      compute(t, cur.lo, cur.hi, [&](int, size_t i) {
        std::atomic_ref<uint64_t>(level[order[i] >> 6]).fetch_or(uint64_t(1) << (order[i] & 63));
        return uint64_t(0);
      });
    }
  }
  t.begin_step();
  q.note_level_end(t, cur.hi);
  if constexpr (pullable) {
    if (pull) {
      // Copied in, as push's below: through references they are reloaded
      // after every store the functor makes.
      const uint64_t* level = q.level_bitmap().data();
      const eid_t* offsets = in->offsets.data();
      const vid_t* sources = in->targets.data();
      const std::decay_t<F> fn = f;
      t.share(0, c.num_vertices(), [&, level, offsets, sources, fn](int, size_t i) {
        const vid_t v = vid_t(i);
        if (!fn.wanted(v)) return uint64_t(0);
        uint64_t read = 0;  // in-edges looked at, the one that stopped the scan included
        const eid_t lo = offsets[v], hi = offsets[v + 1];
        EdgeMarks::RowWriter marked(marks, lo, hi);
        for (eid_t e = lo; e < hi; ++e) {
          const vid_t u = sources[e];
          ++read;
          if (!((level[u >> 6] >> (u & 63)) & 1)) continue;
          unsigned visit;
          if constexpr (ops::PullsAlone<std::decay_t<F>>)
            visit = fn.pulled(u, v, e);
          else
            visit = fn(u, v, e);
          if (visit & kJoin) found.list.push_back(v);
          if (visit & kMark) marked.mark(e);
          if (visit & kStop) break;
        }
        return read;
      });
    }
  }
  if (!pull) {
    // The lists' pointers and the functor are copied in, so that they stay
    // in registers: the functor's atomics would otherwise make the compiler
    // reload them at every edge.
    const eid_t* offsets = c.offsets.data();
    const vid_t* targets = c.targets.data();
    const std::decay_t<F> fn = f;
    t.share(cur.lo, cur.hi, [&, offsets, targets, fn](int, size_t i) {
      const vid_t u = order[i];
      const eid_t lo = offsets[u], hi = offsets[u + 1];
      EdgeMarks::RowWriter marked(marks, lo, hi);
      for (eid_t e = lo; e < hi; ++e) {
        if constexpr (ops::FetchesAhead<std::decay_t<F>>)
          if (e + kFetchAhead < hi) fn.fetch_ahead(targets[e + kFetchAhead]);
        const vid_t v = targets[e];
        const unsigned visit = fn(u, v, e);
        if (visit & kJoin) found.list.push_back(v);
        if (visit & kMark) marked.mark(e);
      }
      return uint64_t(hi - lo);
    });
  }
  // The rule's scout, summed over the joined vertices after the step, not
  // as each joins (Degrees::sum).
  if (scout) found.edges += Degrees{c.offsets.data()}.sum(found.list.data(), found.list.size());
  found.flush(t, order, cur.hi);
  t.barrier();
  return cur.after(cur.hi + t.word(0).load(), pull, t.word(1).load());
}

// The items i of [0, count) whose at(i) keep() accepts, written as at(i)
// to out[0, kept) in no particular order; returns kept on every thread.
template <typename At, typename Keep>
size_t filter(TeamThread& t, size_t count, At&& at, Keep&& keep, vid_t* out) {
  thread_local detail::Found kept;
  t.begin_step();
  t.share(0, count, [&](int, size_t i) {
    const vid_t v = at(i);
    if (keep(v)) kept.list.push_back(v);
    return uint64_t(0);
  });
  kept.flush(t, out, 0);
  t.barrier();
  return size_t(t.word(0).load());
}

// For each vertex order[i] of [lo, hi): apply(v, sum) with sum the fold by
// op of map(v, w, e) over v's edges e (only those marked, with `marks`),
// starting from T{}. A pull over rows: no atomics.
template <typename T, typename Map, typename Op, typename Apply>
requires ops::Value<T>
void gather(TeamThread& t, const Csr& c, const vid_t* order, size_t lo, size_t hi, Map&& map, Op&& op, Apply&& apply,
            const EdgeMarks* marks = nullptr) {
  const eid_t* offsets = c.offsets.data();
  const vid_t* targets = c.targets.data();
  compute(t, lo, hi, [&, offsets, targets](int, size_t i) {
    const vid_t v = order[i];
    T sum{};
    const eid_t elo = offsets[v], ehi = offsets[v + 1];
    if (marks)
      marks->for_each(elo, ehi, [&](eid_t e) { sum = op(sum, map(v, targets[e], e)); });
    else
      for (eid_t e = elo; e < ehi; ++e) sum = op(sum, map(v, targets[e], e));
    apply(v, sum);
    return uint64_t(ehi - elo);
  });
}

// The fold by op of map(i) over [lo, hi), from `init`, the same on every
// thread. op must be associative and commutative (the chunks' order
// varies from run to run).
template <typename T, typename Map, typename Op>
requires ops::Value<T> T reduce(TeamThread& t, size_t lo, size_t hi, T init, Map&& map, Op&& op) {
  T mine = init;
  t.begin_step();
  t.share(lo, hi, [&](int, size_t i) {
    mine = op(mine, map(i));
    return uint64_t(0);
  });
  t.put_partial(mine);
  t.barrier();
  T all = init;
  for (int k = 0; k < t.threads(); ++k) all = op(all, t.partial_of<T>(k));
  return all;
}

// Each of `count` items alone on one thread, with state of that thread's
// own: the first `threads` threads of the team each make a state (make()),
// take items one at a time from a shared cursor, f(state, i) returning the
// work done, then fold their state into the caller's result with
// done(state), one thread at a time. For items too small for a team to
// share their steps (a grid's sources in Brandes: a level costs no
// barrier and no atomic this way). A collective step.
template <typename Make, typename F, typename Done>
void each_item_alone(TeamThread& t, size_t count, int threads, Make&& make, F&& f, Done&& done) {
  t.begin_step();
  std::atomic<uint64_t>& next = t.word(0);
  if (t.thread() < threads) {
    const double t0 = omp_get_wtime();
    auto state = make();
    uint64_t work = 0;
    for (size_t i = next.fetch_add(1, std::memory_order_relaxed); i < count && !interrupt_requested();
         i = next.fetch_add(1, std::memory_order_relaxed))
      work += f(state, i);
#pragma omp critical(chatty_each_item_alone)
    done(state);
    t.account(omp_get_wtime() - t0, work);
  }
  t.barrier();
}

}  // namespace chatty::host
