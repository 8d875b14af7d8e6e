// Leiden's refinement (Traag, Waltman and van Eck, 2019) of the partition
// P a level's moving left in s.comm, on the host operators: every vertex
// starts alone; in one sweep of rounds, a vertex still alone and well
// connected to its community C of P joins the refined community inside C,
// well connected to C too, that gains the most modularity (no loss; near
// ties drawn, program.h's TieDraw). A refined community grows by edges only, so each is
// connected; the next level contracts them and starts from P.
// "Well connected" is the paper's for modularity: a set S of C with
// E(S, C - S) >= resolution * K_S (K_C - K_S) / 2m. A round's vertices
// decide against what the rounds before left and join no community whose
// vertex may move in the same round, so the result is the same at every
// device count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "apps/leiden/program.h"
#include "apps/louvain/level.h"
#include "runtime/host/operators.h"

namespace chatty::leiden {

using louvain::LevelScale;
using louvain::Masses;
using louvain::Moving;
using louvain::Rows;
using louvain::Tally;

// The refined partition: a community per vertex (numbered by the vertex it
// started from), and per community its degree and its weight to the rest
// of its community of P.
struct Refining {
  std::vector<vid_t> ref, next;
  std::vector<int64_t> rstot, rext;
  std::vector<int64_t> vext;    // per vertex: its weight to the rest of its community of P
  std::vector<int64_t> joined;  // per mover: its weight to the community it joins
  std::vector<uint8_t> alone, round;
  louvain::RoundLists lists;
};

template <typename W>
void refine(host::TeamThread& t, const Rows<W>& r, const Masses& mass, const Moving& s, const LevelScale& sc,
            Refining& f) {
  const size_t n = r.n;
  const double two_m = 2.0 * double(sc.m);
  t.single([&] {
    f.ref.resize(n), f.next.resize(n), f.rstot.resize(n), f.rext.resize(n), f.vext.resize(n), f.joined.resize(n);
    f.alone.resize(n), f.round.resize(n);
  });
  host::compute(t, 0, n, [&](int, size_t i) -> uint64_t {
    const vid_t v = vid_t(i);
    int64_t ext = 0;
    for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
      if (const vid_t u = r.tgt[e]; u != v && s.comm[u] == s.comm[v]) ext += int64_t(r.weight(e));
    f.ref[v] = f.next[v] = v, f.rstot[v] = mass.k[v], f.rext[v] = f.vext[v] = ext, f.alone[v] = 1;
    f.round[v] = louvain::round_of(sc.level, kRefineSweep, v, sc.rounds);
    return 1 + r.off[v + 1] - r.off[v];
  });
  f.lists.build(t, f.round, sc.rounds);
  for (uint8_t j = 0; j < sc.rounds; ++j) {
    const size_t lo = f.lists.first[j], hi = f.lists.first[j + 1];
    host::compute(t, lo, hi, [&](int, size_t i) -> uint64_t {
      const vid_t v = f.lists.order[i];
      if (!f.alone[v]) return 0;
      const vid_t own = s.comm[v];
      const int64_t k = mass.k[v], kc = s.stot[own];
      if (k == 0 || !well_connected(f.vext[v], k, kc, sc.resolution, two_m)) return 0;
      thread_local Tally tally;
      tally.size_for(r.n);
      for (eid_t e = r.off[v]; e < r.off[v + 1]; ++e)
        if (const vid_t u = r.tgt[e]; u != v && s.comm[u] == own) tally.add(f.ref[u], r.weight(e));
      const louvain::Score score(k, sc.resolution, two_m);
      const auto candidate = [&](vid_t c) {
        return !(f.alone[c] && f.round[c] == j) && well_connected(f.rext[c], f.rstot[c], kc, sc.resolution, two_m);
      };
      double best_gain = 0;
      for (const vid_t c : tally.touched)
        if (candidate(c)) best_gain = std::max(best_gain, score(tally.to[c], f.rstot[c]));
      TieDraw draw(sc.level, v, best_gain);
      for (const vid_t c : tally.touched)
        if (candidate(c)) draw.offer(c, score(tally.to[c], f.rstot[c]));
      f.next[v] = draw.pick(), f.joined[v] = tally.at(draw.pick());
      tally.clear();
      return 1 + r.off[v + 1] - r.off[v];
    });
    // The joins: the movers' degrees and outside weights go to the
    // communities they join (integers, any order), which are alone no more.
    host::compute(t, lo, hi, [&](size_t i) {
      const vid_t v = f.lists.order[i], c = f.next[v];
      if (c == v) return;
      std::atomic_ref<int64_t>(f.rstot[c]).fetch_add(mass.k[v], std::memory_order_relaxed);
      std::atomic_ref<int64_t>(f.rext[c]).fetch_add(f.vext[v] - 2 * f.joined[v], std::memory_order_relaxed);
      std::atomic_ref<uint8_t>(f.alone[c]).store(0, std::memory_order_relaxed);
      f.alone[v] = 0, f.rstot[v] = 0, f.rext[v] = 0;
    });
    host::compute(t, lo, hi, [&](size_t i) {
      const vid_t v = f.lists.order[i];
      f.ref[v] = f.next[v];
    });
  }
}

}  // namespace chatty::leiden
