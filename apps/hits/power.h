// HITS's power iteration (program.h) on the host operators: an iteration
// is three steps of the team, each a sum over the vertices: the
// authorities' row sums over the in-edges, the hubs' over the out-edges
// (scaled by the first sum as they go), then the scaling of both and
// their change (steps.h).
#pragma once

#include <vector>

#include "apps/hits/program.h"
#include "apps/hits/steps.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::hits {

// Sum over v's edges of their WeightedTerm.
inline double row_sum(const Csr& c, vid_t v, const double* x) {
  const WeightedTerm term{x, c.weights.empty() ? nullptr : c.weights.data()};
  double s = 0;
  for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) s += term(v, c.targets[e], e);
  return s;
}

// The hubs, then the authorities, each summing to 1 (all zero on a graph
// without edges).
inline std::vector<double> scores(host::HostOperators& h, const Graph& g, const HitsProgram& p, Outcome& o) {
  const Csr& out = g.out();
  const Csr& in = g.in();
  const vid_t n = g.num_vertices();
  std::vector<double> both(2 * size_t(n), n ? 1.0 / double(n) : 0.0);
  double* hub = both.data();
  double* auth = both.data() + n;
  std::vector<double> raw_auth(n), raw_hub(n);
  const Plus plus;
  o = Outcome{};
  h.team([&](host::TeamThread& t) {
    int it = 0;
    double change = 0;
    while (it < p.max_iters && !t.interrupted()) {
      const double a_scale = scale_of(host::reduce<double>(
          t, 0, n, 0.0, [&](size_t v) { return raw_auth[v] = row_sum(in, vid_t(v), hub); }, plus));
      const double h_scale = scale_of(host::reduce<double>(
          t, 0, n, 0.0, [&](size_t u) { return raw_hub[u] = row_sum(out, vid_t(u), raw_auth.data()) * a_scale; },
          plus));
      change = host::reduce<double>(t, 0, n, 0.0, Settle{raw_hub.data(), raw_auth.data(), hub, auth, h_scale, a_scale},
                                    plus);
      ++it;
      if (change < p.tolerance) break;
    }
    if (t.lead()) o = Outcome{it, change < p.tolerance, change, true};
  });
  return both;
}

}  // namespace chatty::hits
