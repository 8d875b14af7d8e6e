// Pull-gather superstep on the CPU (PageRank): each vertex sums the
// contributions of its in-neighbours and applies the program; contributions
// are computed once per step in a vertex pass so the edge loop reads one
// float per edge. No atomics: every vertex is written by one thread.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

// One superstep. Returns the L1 change of the values.
template <typename P>
double gather_step(const Csr& out_edges, const Csr& in_edges, const P& prog, typename P::Value* val,
                   std::vector<float>& contrib, SuperstepStats& st) {
  const vid_t n = in_edges.num_vertices();
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = out_edges.offsets[v + 1] - out_edges.offsets[v];
    if (d == 0) {
      dangling += double(val[v]);
      contrib[v] = 0.0f;
    } else {
      contrib[v] = float(prog.contribution(val[v], d));
    }
  }
  double l1 = 0;
#pragma omp parallel for schedule(dynamic, kGrain) reduction(+ : l1)
  for (vid_t v = 0; v < n; ++v) {
    float sum = 0;
    for (eid_t e = in_edges.offsets[v]; e < in_edges.offsets[v + 1]; ++e) sum += contrib[in_edges.targets[e]];
    const auto next = prog.apply(double(sum), dangling);
    l1 += std::fabs(double(next) - double(val[v]));
    val[v] = next;
  }
  st.active = n;
  st.updated = n;
  st.edges = in_edges.num_edges();
  st.pull = true;
  return l1;
}

}  // namespace chatty::cpu
