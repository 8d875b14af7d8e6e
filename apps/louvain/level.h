// One level of Louvain: the graph a level runs on, and its local moving
// phase on the host operators. A level's graph is the input (level 0,
// self-loops among its rows) or a contraction (contract.h), whose rows
// leave out the weight inside a vertex and hold it in `self`.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "apps/louvain/program.h"
#include "runtime/graph/graph.h"
#include "runtime/host/operators.h"

namespace chatty::louvain {

// A level's rows: W is the input's weight_t or a contraction's uint64_t;
// `w` null reads every weight as 1.
template <typename W>
struct Rows {
  vid_t n = 0;
  const eid_t* off = nullptr;
  const vid_t* tgt = nullptr;
  const W* w = nullptr;
  uint64_t weight(eid_t e) const { return w ? uint64_t(w[e]) : 1; }
};

// What every vertex of a level brings: its weighted degree (a self-loop
// twice, as NetworkX's degree) and the weight inside it (a self-loop once).
struct Masses {
  std::vector<int64_t> k;
  std::vector<uint64_t> self;
};

// The input's masses (a self-loop twice in the degree, once inside),
// collective; returns the total edge weight m.
inline uint64_t input_masses(host::TeamThread& t, const Rows<weight_t>& input, Masses& mass) {
  host::compute(t, 0, input.n, [&](int, size_t i) -> uint64_t {
    const vid_t v = vid_t(i);
    int64_t k = 0;
    uint64_t self = 0;
    for (eid_t e = input.off[v]; e < input.off[v + 1]; ++e) {
      k += int64_t(input.weight(e));
      if (input.tgt[e] == v) k += int64_t(input.weight(e)), self += input.weight(e);
    }
    mass.k[v] = k, mass.self[v] = self;
    return 1 + input.off[v + 1] - input.off[v];
  });
  const int64_t degrees = host::reduce<int64_t>(
      t, 0, input.n, 0, [&](size_t v) { return mass.k[v]; }, [](int64_t a, int64_t b) { return a + b; });
  return uint64_t(degrees / 2);
}

// A thread's tally of weights by community: `to[c]` is kUnset until a
// vertex's edge reaches c, and unset again after the vertex. C holds any
// vertex's degree: int32_t where the total weight allows, so that the
// array, read at random, is half as large.
template <typename C>
struct BasicTally {
  static constexpr C kUnset = std::numeric_limits<C>::min();
  std::vector<C> to;
  std::vector<vid_t> touched;

  void size_for(vid_t n) {
    if (to.size() != n) to.assign(n, kUnset);
  }
  void add(vid_t c, uint64_t w) {
    if (to[c] == kUnset) to[c] = 0, touched.push_back(c);
    to[c] += C(w);
  }
  int64_t at(vid_t c) const { return to[c] == kUnset ? 0 : to[c]; }
  template <typename F>
  void each(F&& f) const {
    for (const vid_t c : touched) f(c, int64_t(to[c]));
  }
  void clear() {
    for (vid_t c : touched) to[c] = kUnset;
    touched.clear();
  }
};
using Tally = BasicTally<int64_t>;
using NarrowTally = BasicTally<int32_t>;

// Whether every vertex's tally fits a NarrowTally: no weight of edges
// reaches more than twice the total.
inline bool narrow_tallies(uint64_t m) { return m < (uint64_t(1) << 30); }

// The same tally for a row of at most kCap edges, in a list on the stack:
// most rows of a power-law graph are short, and a search of a few slots
// costs less than a miss in the per-community array.
struct ShortTally {
  static constexpr eid_t kCap = 16;
  vid_t comm[kCap];
  int64_t to[kCap];
  uint32_t size = 0;

  void add(vid_t c, uint64_t w) {
    uint32_t i = 0;
    while (i < size && comm[i] != c) ++i;
    if (i == size) comm[size] = c, to[size++] = 0;
    to[i] += int64_t(w);
  }
  int64_t at(vid_t c) const {
    for (uint32_t i = 0; i < size; ++i)
      if (comm[i] == c) return to[i];
    return 0;
  }
  template <typename F>
  void each(F&& f) const {
    for (uint32_t i = 0; i < size; ++i) f(comm[i], to[i]);
  }
};

// Adds v's edges to the tally by the community at their other end (a
// self-loop left out). Long rows fetch the communities ahead of use: the
// loop is two dependent misses an edge otherwise.
template <typename W, typename T>
void tally_row(const Rows<W>& r, vid_t v, const vid_t* comm, T& tally) {
  const eid_t lo = r.off[v], hi = r.off[v + 1];
  for (eid_t e = lo; e < hi; ++e) {
    if constexpr (!std::is_same_v<T, ShortTally>) {
      if (e + 16 < hi) __builtin_prefetch(&comm[r.tgt[e + 16]]);
      if (e + 8 < hi) __builtin_prefetch(&tally.to[comm[r.tgt[e + 8]]]);
    }
    if (const vid_t u = r.tgt[e]; u != v) tally.add(comm[u], r.weight(e));
  }
}

// A sweep's vertices listed by round: round j's are order[first[j],
// first[j + 1]), so that a round's steps visit its own vertices and a
// sweep of many rounds costs one pass over every vertex, not one a round.
struct RoundLists {
  std::vector<vid_t> order;
  size_t first[kMaxRounds + 1] = {};

  // Lists the vertices of `round`, each below `rounds` (collective; on one
  // thread: a pass of counting and one of placing).
  void build(host::TeamThread& t, const std::vector<uint8_t>& round, uint8_t rounds) {
    t.single([&] {
      size_t count[kMaxRounds] = {};
      for (const uint8_t j : round) ++count[j];
      first[0] = 0;
      for (int j = 0; j < rounds; ++j) first[j + 1] = first[j] + count[j];
      order.resize(round.size());
      size_t at[kMaxRounds];
      std::copy(first, first + rounds, at);
      for (size_t v = 0; v < round.size(); ++v) order[at[round[v]]++] = vid_t(v);
    });
  }
};

// The state of a level's moving: a community per vertex (a vertex of the
// level), each community's weighted degree, and the weight inside
// communities. `next` equals `comm` between the steps of a round.
struct Moving {
  std::vector<vid_t> comm, next, best_comm;
  std::vector<int64_t> stot, best_stot;
  std::vector<uint8_t> active, round;
  RoundLists lists;
  uint64_t inside = 0;
};

inline double current_modularity(host::TeamThread& t, const Moving& s, const LevelScale& sc) {
  const Squares squares = host::reduce<Squares>(
      t, 0, s.stot.size(), 0, [&](size_t c) { return Squares(s.stot[c]) * Squares(s.stot[c]); },
      [](Squares a, Squares b) { return a + b; });
  return modularity(s.inside, squares, sc.m, sc.resolution);
}

// The round's decisions into s.next: each active vertex of round j takes
// its best community by score(), its own unless another gains more (ties:
// the lowest number, whatever the tally's order), and is inactive until a
// neighbour moves. Reads s.comm and s.stot only, so the order of vertices
// is free.
template <typename W>
void decide(host::TeamThread& t, const Rows<W>& r, const Masses& mass, Moving& s, const LevelScale& sc, uint8_t j) {
  const double two_m = 2.0 * double(sc.m);
  host::compute(t, s.lists.first[j], s.lists.first[j + 1], [&](int, size_t i) -> uint64_t {
    const vid_t v = s.lists.order[i];
    if (!s.active[v]) return 0;
    s.active[v] = 0;
    const vid_t own = s.comm[v];
    const int64_t k = mass.k[v];
    const eid_t lo = r.off[v], hi = r.off[v + 1];
    const Score score(k, sc.resolution, two_m);
    const auto best_of = [&](const auto& tally) {
      // The communities' sums are read at random: fetched together first.
      tally.each([&](vid_t c, int64_t) { __builtin_prefetch(&s.stot[c]); });
      vid_t best = own;
      double best_score = score(tally.at(own), s.stot[own] - k);
      const auto consider = [&](vid_t c, int64_t to) {
        if (c == own) return;
        const double x = score(to, s.stot[c]);
        if (x > best_score || (x == best_score && best != own && c < best)) best = c, best_score = x;
      };
      tally.each(consider);
      if (s.stot[v] == 0) consider(v, 0);
      return best;
    };
    if (hi - lo <= ShortTally::kCap) {
      ShortTally tally;
      tally_row(r, v, s.comm.data(), tally);
      s.next[v] = best_of(tally);
    } else {
      const auto long_row = [&](auto& tally) {
        tally.size_for(r.n);
        tally_row(r, v, s.comm.data(), tally);
        s.next[v] = best_of(tally);
        tally.clear();
      };
      thread_local NarrowTally narrow;
      thread_local Tally wide;
      if (narrow_tallies(sc.m))
        long_row(narrow);
      else
        long_row(wide);
    }
    return 1 + hi - lo;
  });
}

// What a round's moves did: the vertices moved, and the change in the
// weight inside communities.
struct RoundMoves {
  uint64_t moved = 0;
  int64_t inside = 0;
};

// The round's moves, read off s.comm (before) and s.next (after): the
// movers' degrees leave and join the communities' sums (integers: the same
// sums in any order), their neighbours become active, and the weight
// inside communities changes by their edges' (an edge between two movers
// counted from its lower end). commit() then makes s.comm the after.
template <typename W>
RoundMoves apply(host::TeamThread& t, const Rows<W>& r, const Masses& mass, Moving& s, uint8_t j) {
  return host::reduce<RoundMoves>(
      t, s.lists.first[j], s.lists.first[j + 1], RoundMoves{},
      [&](size_t i) -> RoundMoves {
        const vid_t v = s.lists.order[i];
        const vid_t from = s.comm[v], to = s.next[v];
        if (from == to) return {};
        std::atomic_ref<int64_t>(s.stot[from]).fetch_sub(mass.k[v], std::memory_order_relaxed);
        std::atomic_ref<int64_t>(s.stot[to]).fetch_add(mass.k[v], std::memory_order_relaxed);
        int64_t d = 0;
        for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e) {
          const vid_t u = r.tgt[e];
          if (u == v) continue;
          std::atomic_ref<uint8_t>(s.active[u]).store(1, std::memory_order_relaxed);
          const vid_t was = s.comm[u], is = s.next[u];
          if (u < v && was != is) continue;
          d += int64_t(r.weight(e)) * (int64_t(to == is) - int64_t(from == was));
        }
        return {1, d};
      },
      [](RoundMoves a, RoundMoves b) {
        return RoundMoves{a.moved + b.moved, a.inside + b.inside};
      });
}

inline void commit(host::TeamThread& t, Moving& s, uint8_t j) {
  host::compute(t, s.lists.first[j], s.lists.first[j + 1], [&](size_t i) {
    const vid_t v = s.lists.order[i];
    s.comm[v] = s.next[v];
  });
}

// The level's moving phase (collective) from singletons, or from the
// partition `start` (a community number below r.n per vertex: Leiden's
// levels start from the partition the level before moved to): sweeps of
// sc.rounds rounds until a sweep gains no more than sc.tolerance (or moves
// nothing), leaving in s.comm the best partition a sweep reached.
template <typename W>
LevelResult move_level(host::TeamThread& t, const Rows<W>& r, const Masses& mass, Moving& s, const LevelScale& sc,
                       const vid_t* start = nullptr) {
  const size_t n = r.n;
  t.single([&] {
    s.comm.resize(n), s.next.resize(n), s.best_comm.resize(n), s.stot.resize(n), s.best_stot.resize(n);
    s.active.resize(n), s.round.resize(n);
  });
  host::compute(t, 0, n, [&](size_t v) {
    s.comm[v] = s.next[v] = s.best_comm[v] = start ? start[v] : vid_t(v);
    s.stot[v] = start ? 0 : mass.k[v];
    s.active[v] = mass.k[v] > 0;
  });
  if (start)
    host::compute(t, 0, n, [&](size_t v) {
      std::atomic_ref<int64_t>(s.stot[s.comm[v]]).fetch_add(mass.k[v], std::memory_order_relaxed);
    });
  host::compute(t, 0, n, [&](size_t c) { s.best_stot[c] = s.stot[c]; });
  // The weight inside: every vertex's own, and each edge between two
  // members of a community (both its rows: halved once summed).
  const uint64_t self = host::reduce<uint64_t>(
      t, 0, n, 0, [&](size_t v) { return mass.self[v]; }, [](uint64_t a, uint64_t b) { return a + b; });
  uint64_t twice_between = 0;
  if (start)
    twice_between = host::reduce<uint64_t>(
        t, 0, n, 0,
        [&](size_t v) {
          uint64_t w = 0;
          for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
            if (const vid_t u = r.tgt[e]; u != v && s.comm[u] == s.comm[v]) w += r.weight(e);
          return w;
        },
        [](uint64_t a, uint64_t b) { return a + b; });
  t.single([&] { s.inside = self + twice_between / 2; });
  LevelResult out;
  out.start = out.modularity = current_modularity(t, s, sc);
  bool current_is_best = true;
  for (uint32_t sweep = 0; sweep < kMaxSweeps && !t.interrupted(); ++sweep) {
    host::compute(t, 0, n, [&](size_t v) { s.round[v] = round_of(sc.level, sweep, vid_t(v), sc.rounds); });
    s.lists.build(t, s.round, sc.rounds);
    // Each thread sums the rounds' moves (the reduction gives every thread
    // the same): the weight inside is read only by the modularity after
    // them, so one step writes it, not one a round (under passive waiting
    // a barrier is a sleep and a wake-up per thread).
    RoundMoves sweep_moves;
    for (uint8_t j = 0; j < sc.rounds; ++j) {
      decide(t, r, mass, s, sc, j);
      const RoundMoves round = apply(t, r, mass, s, j);
      commit(t, s, j);
      sweep_moves.moved += round.moved;
      sweep_moves.inside += round.inside;
    }
    t.single([&] { s.inside = uint64_t(int64_t(s.inside) + sweep_moves.inside); });
    if (sweep_moves.moved == 0) break;
    const double before = out.modularity, q = current_modularity(t, s, sc);
    current_is_best = q > out.modularity;
    if (current_is_best) {
      out.modularity = q;
      host::compute(t, 0, n, [&](size_t v) { s.best_comm[v] = s.comm[v], s.best_stot[v] = s.stot[v]; });
    }
    if (out.modularity - before <= sc.tolerance) break;
  }
  if (!current_is_best)
    host::compute(t, 0, n, [&](size_t v) { s.comm[v] = s.best_comm[v], s.stot[v] = s.best_stot[v]; });
  return out;
}

}  // namespace chatty::louvain
