// HITS's power iteration (program.h) on the host operators: an iteration
// is three steps of the team, each a sum over the vertices: the
// authorities' row sums over the in-edges, the hubs' over the out-edges
// (scaled by the first sum as they go), then the scaling of both and
// their change.
#pragma once

#include <cmath>
#include <vector>

#include "apps/hits/program.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::hits {

// Sum over v's edges of weight * x[target] (weight 1 where the graph has none).
inline double row_sum(const Csr& c, vid_t v, const double* x) {
  double s = 0;
  const eid_t lo = c.offsets[v], hi = c.offsets[v + 1];
  if (c.weights.empty())
    for (eid_t e = lo; e < hi; ++e) s += x[c.targets[e]];
  else
    for (eid_t e = lo; e < hi; ++e) s += double(c.weights[e]) * x[c.targets[e]];
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
  const auto plus = [](double x, double y) { return x + y; };
  const auto scale_of = [](double sum) { return sum > 0 ? 1 / sum : 0.0; };
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
      change = host::reduce<double>(
          t, 0, n, 0.0,
          [&](size_t v) {
            const double a = raw_auth[v] * a_scale, hv = raw_hub[v] * h_scale;
            const double d = std::fabs(a - auth[v]) + std::fabs(hv - hub[v]);
            auth[v] = a, hub[v] = hv;
            return d;
          },
          plus);
      ++it;
      if (change < p.tolerance) break;
    }
    if (t.lead()) o = Outcome{it, change < p.tolerance, change, true};
  });
  return both;
}

}  // namespace chatty::hits
