// HITS's steps as functors both backends run (power.h on host devices,
// gpu.cu on GPU devices): an edge's term of a product with A or A^T, and
// the scaling of both raw vectors with their change.
#pragma once

#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::hits {

// Edge e's term of a row sum: weight * x[target] (weight 1 without weights).
struct WeightedTerm {
  const double* x;
  const weight_t* w;  // null: every weight 1
  CHATTY_HD double operator()(vid_t, vid_t target, eid_t e) const { return w ? double(w[e]) * x[target] : x[target]; }
};

// Vertex v's new hub and authority: the raw sums scaled to sum 1; returns
// their L1 change.
struct Settle {
  const double *raw_hub, *raw_auth;
  double *hub, *auth;
  double h_scale, a_scale;
  CHATTY_HD double operator()(size_t v) const {
    const double a = raw_auth[v] * a_scale, h = raw_hub[v] * h_scale;
    const double d = (a > auth[v] ? a - auth[v] : auth[v] - a) + (h > hub[v] ? h - hub[v] : hub[v] - h);
    auth[v] = a, hub[v] = h;
    return d;
  }
};

using ops::Plus;

// 1 / sum, or 0 where every value is 0 (a graph without edges).
CHATTY_HD inline double scale_of(double sum) { return sum > 0 ? 1 / sum : 0.0; }

}  // namespace chatty::hits
