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
  std::vector<uint32_t> least(n, kInfinity), label(n);
  Moving s;
  Grouping gr;
  Contracted cur, next;
  outcome = {};
  h.team([&](host::TeamThread& t) {
    host::compute(t, 0, n, [&](size_t v) { of[v] = vid_t(v); });
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
      // The input's vertices move from the last level's communities; the
      // sweeps' rounds hashed as a level of their own.
      const LevelScale last{scale.m, p.resolution, levels, kRefineTolerance};
      modularity = move_level(t, input, mass, s, last, of.data()).modularity;
      host::compute(t, 0, n, [&](size_t v) { of[v] = s.comm[v]; });
    }
    host::compute(t, 0, n, [&](size_t v) { atomic_min(&least[of[v]], uint32_t(v)); });
    host::compute(t, 0, n, [&](size_t v) { label[v] = least[of[v]]; });
    if (t.lead()) outcome = {modularity, levels, true};
  });
  return label;
}

}  // namespace chatty::louvain
