// Leiden's levels on the host operators (program.h): level 0 moves the
// input's vertices from singletons, each later level the refined
// communities of the one before, contracted, from the communities that
// level moved to.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "apps/leiden/program.h"
#include "apps/leiden/refine.h"
#include "apps/louvain/contract.h"
#include "apps/louvain/level.h"
#include "kernels/cpu/union_find.h"
#include "runtime/base/parallel.h"
#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"

namespace chatty::leiden {

using louvain::Contracted;
using louvain::Grouping;

// Each vertex's community of `part`, split into the connected parts of
// the input's edges inside it, named by the part's least vertex id.
inline void connected_parts(host::TeamThread& t, const Rows<weight_t>& input, const std::vector<vid_t>& part,
                            std::vector<vid_t>& label) {
  host::compute(t, 0, input.n, [&](size_t v) { label[v] = vid_t(v); });
  host::compute(t, 0, input.n, [&](int, size_t i) -> uint64_t {
    const vid_t v = vid_t(i);
    for (eid_t e = input.off[v]; e < input.off[v + 1]; ++e)
      if (const vid_t u = input.tgt[e]; u < v && part[u] == part[v]) cpu::uf_union(u, v, label.data());
    return 1 + input.off[v + 1] - input.off[v];
  });
  host::compute(t, 0, input.n, [&](size_t v) { cpu::uf_flatten(vid_t(v), label.data()); });
}

// The modularity of the input's partition `label` (a vertex id per
// vertex), from integer sums.
inline double modularity_of(host::TeamThread& t, const Rows<weight_t>& input, const Masses& mass,
                            const std::vector<vid_t>& label, std::vector<int64_t>& stot, const LevelScale& sc) {
  const vid_t n = input.n;
  t.single([&] { stot.assign(n, 0); });
  const uint64_t twice_inside = host::reduce<uint64_t>(
      t, 0, n, 0,
      [&](size_t i) {
        const vid_t v = vid_t(i);
        std::atomic_ref<int64_t>(stot[label[v]]).fetch_add(mass.k[v], std::memory_order_relaxed);
        uint64_t w = 2 * mass.self[v];
        for (eid_t e = input.off[v]; e < input.off[v + 1]; ++e)
          if (const vid_t u = input.tgt[e]; u != v && label[u] == label[v]) w += input.weight(e);
        return w;
      },
      [](uint64_t a, uint64_t b) { return a + b; });
  const louvain::Squares squares = host::reduce<louvain::Squares>(
      t, 0, n, 0, [&](size_t c) { return louvain::Squares(stot[c]) * louvain::Squares(stot[c]); },
      [](louvain::Squares a, louvain::Squares b) { return a + b; });
  return louvain::modularity(twice_inside / 2, squares, sc.m, sc.resolution);
}

// Each vertex's community, named by its least vertex id; `outcome` gets
// the modularity and the levels.
inline std::vector<uint32_t> communities(host::HostOperators& h, const Graph& g, const LeidenProgram& p,
                                         louvain::Outcome& outcome) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  const Rows<weight_t> input{n, c.offsets.data(), c.targets.data(), g.weighted() ? c.weights.data() : nullptr};
  Masses mass{std::vector<int64_t>(n), std::vector<uint64_t>(n)};
  std::vector<vid_t> of(n), part(n), label(n), start, first;  // `of`: each input vertex's vertex of the level
  std::vector<int64_t> stot;
  Moving s;
  Refining f;
  Grouping gr;
  Contracted cur, next;
  outcome = {};
  std::vector<vid_t> best;  // the best pass's communities
  h.team([&](host::TeamThread& t) {
    const uint64_t m_total = louvain::input_masses(t, input, mass);
    // What a run cut after this level by max_level gives: this pass's
    // communities in connected parts, unless an earlier pass's are better
    // by more than the threshold (as the passes' loop below decides).
    const auto keep_cut = [&] {
      connected_parts(t, input, part, label);
      const double q = modularity_of(t, input, mass, label, stot, LevelScale{m_total, p.resolution, 0, 0});
      t.single([&] {
        const bool earlier = !best.empty() && q - outcome.modularity <= p.threshold;
        const std::vector<vid_t>& cut = earlier ? best : label;
        p.levels->emplace_back(cut.begin(), cut.end());
      });
    };
    LevelScale scale{m_total, p.resolution, 0, louvain::kFirstTolerance, kLeidenRounds};
    uint32_t levels = 0, total = 0;  // this pass's levels, every pass's
    bool started = false;            // the pass starts from the best pass's communities
    double before = 0;
    const auto run_level = [&](const auto& rows, const Masses& m) -> bool {
      const louvain::LevelResult lr = move_level(t, rows, m, s, scale, started ? start.data() : nullptr);
      if (levels > 0 && !lr.improved()) return false;
      if (levels == 0) before = lr.start;
      host::compute(t, 0, n, [&](size_t v) { part[v] = s.comm[of[v]]; });
      // A later pass's first level refines what the last pass found, even
      // where no vertex moves: the next levels move its refined parts.
      const bool again = started && levels == 0;
      ++levels, ++total, started = true;
      if (p.levels) keep_cut();
      if ((p.max_level && total >= p.max_level) || (!again && lr.modularity - before <= p.threshold)) return false;
      before = lr.modularity;
      refine(t, rows, m, s, scale, f);
      const vid_t count = group(t, f.ref, gr);
      if (count == rows.n) return false;  // nothing merged: the next level would be this one
      host::compute(t, 0, n, [&](size_t v) { of[v] = gr.next_of[of[v]]; });
      // The next level starts from this level's communities, each numbered
      // by its first refined community.
      t.single([&] { first.assign(rows.n, kInfinity), start.resize(count); });
      host::compute(t, 0, rows.n, [&](size_t v) { atomic_min(&first[s.comm[v]], gr.next_of[v]); });
      host::compute(t, 0, count, [&](size_t x) { start[x] = first[s.comm[gr.members[gr.start[x]]]]; });
      scale.tolerance /= 10, ++scale.level;
      contract(t, rows, m, gr, next);
      t.single([&] { std::swap(cur, next); });
      return true;
    };
    // Passes as igraph's n_iterations=-1 runs them: each from the best
    // one's communities, in an order of its own, until QuietPasses ends
    // them; a pass that raises modularity by no more than the threshold is
    // not kept (the best stays the answer). max_level counts the levels of
    // every pass, so that a run cut at level l is the first l levels of the
    // whole run (NetworkX's leiden_partitions against max_level).
    QuietPasses quiet;
    for (int pass = 0;; ++pass) {
      host::compute(t, 0, n, [&](size_t v) { of[v] = vid_t(v), part[v] = pass ? best[v] : vid_t(v); });
      if (pass) t.single([&] { start.assign(best.begin(), best.end()); });
      levels = 0, started = pass > 0;
      scale.tolerance = louvain::kFirstTolerance, scale.level = salt_of(uint32_t(pass), 0);
      if (scale.m == 0) {
        levels = total = 1;  // no edge: every vertex alone, NetworkX's one partition
      } else if (run_level(input, mass)) {
        while (!t.interrupted() && run_level(cur.rows(), cur.mass)) {
        }
      }
      connected_parts(t, input, part, label);
      const double q = modularity_of(t, input, mass, label, stot, scale);
      const double gain = q - outcome.modularity;
      const bool stop = pass > 0 && quiet.end_after(gain);
      if (pass == 0 || gain > p.threshold) {
        t.barrier();  // every thread has read the best modularity before the lead writes it
        if (t.lead()) outcome = {q, total, true, uint32_t(pass) + 1};
        t.single([&] { best = label; });
      }
      if (stop || scale.m == 0 || t.interrupted() || (p.max_level && total >= p.max_level) ||
          (p.passes && uint32_t(pass) + 1 >= p.passes))
        break;
    }
  });
  label = best;
  // The levels after the best pass's cut give its communities: not kept.
  if (p.levels)
    p.levels->resize(std::max<uint32_t>(outcome.levels, 1) - 1), p.levels->emplace_back(best.begin(), best.end());
  return std::vector<uint32_t>(label.begin(), label.end());
}

}  // namespace chatty::leiden
