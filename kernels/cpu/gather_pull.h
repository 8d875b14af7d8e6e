// Pull-gather superstep on the CPU (PageRank): each vertex sums the
// contributions of its in-neighbours and applies the program. The loop also
// writes the vertex's contribution for the next step into a second buffer
// (and sums dangling mass), so a superstep is a single pass over the graph.
// No atomics: every vertex is written by one thread.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "kernels/cpu/push_advance.h"

namespace chatty::cpu {

// Contributions of the current values, double-buffered across supersteps.
struct GatherState {
  std::vector<float> contrib, next_contrib;
  double dangling = 0;  // mass of vertices without out-edges
};

template <typename P>
GatherState gather_init(const Csr& out_edges, const P& prog, const typename P::Value* val) {
  const vid_t n = out_edges.num_vertices();
  GatherState s;
  s.contrib.resize(n);
  s.next_contrib.resize(n);
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = out_edges.offsets[v + 1] - out_edges.offsets[v];
    if (d == 0) dangling += double(val[v]);
    s.contrib[v] = d ? float(prog.contribution(val[v], d)) : 0.0f;
  }
  s.dangling = dangling;
  // Both buffers start equal: a multi-device run refreshes remote entries
  // only when their value changes, so neither buffer may hold stale zeros.
  s.next_contrib = s.contrib;
  return s;
}

// One superstep over vertices [lo, hi). Returns the L1 change of their
// values; state.dangling becomes their dangling mass.
template <typename P>
double gather_step(const Csr& out_edges, const Csr& in_edges, const P& prog, typename P::Value* val, GatherState& state,
                   SuperstepStats& st, vid_t lo = 0, vid_t hi = ~vid_t(0)) {
  const vid_t n = std::min(hi, in_edges.num_vertices());
  const float* contrib = state.contrib.data();
  float* next = state.next_contrib.data();
  const vid_t* tgt = in_edges.targets.data();
  const double dangling_in = state.dangling;
  double l1 = 0, dangling = 0;
#pragma omp parallel for schedule(dynamic, kDenseGrain) reduction(+ : l1, dangling)
  for (vid_t v = lo; v < n; ++v) {
    float sum = 0;
    const eid_t last = in_edges.offsets[v + 1];
    for (eid_t e = in_edges.offsets[v]; e < last; ++e) sum += contrib[tgt[e]];
    const auto value = prog.apply(double(sum), dangling_in);
    l1 += std::fabs(double(value) - double(val[v]));
    val[v] = value;
    const eid_t d = out_edges.offsets[v + 1] - out_edges.offsets[v];
    if (d == 0) dangling += double(value);
    next[v] = d ? float(prog.contribution(value, d)) : 0.0f;
  }
  state.contrib.swap(state.next_contrib);
  state.dangling = dangling;
  st.active = n - lo;
  st.updated = n - lo;
  st.edges = in_edges.offsets[n] - in_edges.offsets[lo];
  st.pull = true;
  return l1;
}

}  // namespace chatty::cpu
