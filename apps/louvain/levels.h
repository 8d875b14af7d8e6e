// Louvain's levels on the host operators: level 0 moves the input's
// vertices, each later level the communities of the one before,
// contracted (contract.h), until a level gains no more than the threshold,
// finds no move, or is the max_level-th; as NetworkX's louvain_partitions
// counts its levels. After two levels or more, the input's vertices move
// once more from the communities found (kRefineTolerance).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "apps/louvain/contract.h"
#include "apps/louvain/level.h"
#include "apps/louvain/program.h"
#include "runtime/base/parallel.h"
#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"

namespace chatty::louvain {

// Each vertex's community, named by its least vertex id; `outcome` gets
// the modularity and the levels.
inline std::vector<uint32_t> communities(host::HostOperators& h, const Graph& g, const LouvainProgram& p,
                                         Outcome& outcome) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  const Rows<weight_t> input{n, c.offsets.data(), c.targets.data(), g.weighted() ? c.weights.data() : nullptr};
  Masses mass{std::vector<int64_t>(n), std::vector<uint64_t>(n)};
  std::vector<vid_t> of(n);  // each input vertex's vertex of the current level
  std::vector<uint32_t> least(n), label(n);
  Moving s;
  Grouping gr;
  Contracted cur, next;
  outcome = {};
  h.team([&](host::TeamThread& t) {
    host::compute(t, 0, n, [&](size_t v) { of[v] = vid_t(v); });
    // Each vertex labelled by the least vertex of its community in `comm`.
    const auto label_by_least = [&](const std::vector<vid_t>& comm, std::vector<uint32_t>& out) {
      t.single([&] { out.resize(n); });
      host::compute(t, 0, n, [&](size_t v) { least[v] = kInfinity; });
      host::compute(t, 0, n, [&](size_t v) { atomic_min(&least[comm[v]], uint32_t(v)); });
      host::compute(t, 0, n, [&](size_t v) { out[v] = least[comm[v]]; });
    };
    // The input's vertices move once more from the communities found
    // (after two levels or more); the sweeps' rounds hashed as a level of
    // their own. Leaves them in s.comm.
    const auto last_moves = [&](const LevelScale& scale, uint32_t levels) {
      const LevelScale last{scale.m, p.resolution, levels, kRefineTolerance};
      return move_level(t, input, mass, s, last, of.data()).modularity;
    };
    LevelScale scale{input_masses(t, input, mass), p.resolution, 0, kLouvainFirstTolerance};
    uint32_t levels = 0;
    double modularity = 0, before = 0;
    // Every level runs the same steps on its own rows: the input's, then a
    // contraction's.
    const auto run_level = [&](const auto& rows, const Masses& m) -> bool {
      const LevelResult lr = move_level(t, rows, m, s, scale);
      if (levels > 0 && !lr.improved()) return false;
      if (levels == 0) before = lr.start;
      group(t, s.comm, gr);
      host::compute(t, 0, n, [&](size_t v) { of[v] = gr.next_of[of[v]]; });
      modularity = lr.modularity, ++levels;
      if ((p.max_level && levels >= p.max_level) || modularity - before <= p.threshold) return false;
      if (p.levels) {  // what a run cut here gives
        t.single([&] { p.levels->emplace_back(); });
        if (levels > 1) last_moves(scale, levels);
        label_by_least(levels > 1 ? s.comm : of, p.levels->back());
      }
      before = modularity;
      scale.tolerance /= 10, ++scale.level;
      contract(t, rows, m, gr, next);
      t.single([&] { std::swap(cur, next); });
      return true;
    };
    if (scale.m == 0) {
      levels = 1;  // no edge: every vertex alone, NetworkX's one partition
    } else if (run_level(input, mass)) {
      while (!t.interrupted() && run_level(cur.rows(), cur.mass)) {
      }
    }
    if (levels > 1 && !t.interrupted()) {
      modularity = last_moves(scale, levels);
      host::compute(t, 0, n, [&](size_t v) { of[v] = s.comm[v]; });
    }
    label_by_least(of, label);
    if (t.lead()) {
      outcome = {modularity, levels, true};
      // The level the run ended after was kept already where the next
      // one gained nothing: the same communities.
      if (p.levels) p.levels->resize(levels - 1), p.levels->push_back(label);
    }
  });
  return label;
}

}  // namespace chatty::louvain
