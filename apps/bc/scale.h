// How betweenness scores are reported. Brandes' sums count every ordered
// pair (s, t) of a source s and a target t, so an undirected graph's pair
// counts twice (GAP's and Brandes' convention: --bc_scale=ordered).
// NetworkX counts an undirected pair once (normalized=False: pairs) or
// divides by the pairs there are (normalized=True), and a run from k of
// the n vertices estimates the whole from the sample, the sources
// themselves scaled apart (they are never their own targets). These are
// its factors, endpoints excluded.
#pragma once

#include <cstddef>

#include "runtime/base/engine_options.h"
#include "runtime/base/types.h"

namespace chatty::bc {

struct Factors {
  double source = 1;  // a vertex that is one of the run's sources
  double other = 1;   // any other vertex
};

// `k` sources (counted with repeats) on a graph of n vertices. Where
// NetworkX's factor is undefined (a sampled source's, k = 1: 0/0, NaN
// there), the source's score is 0, what its own run added to it.
inline Factors factors(BcScale scale, vid_t n, bool directed, size_t k) {
  const double N = double(n) - 1;  // targets a pair through v may have: v is never one
  if (scale == BcScale::kOrdered || N < 2 || k == 0) return {};
  const double K = double(k);
  if (scale == BcScale::kNormalized) return {k > 1 ? 1 / ((K - 1) * (N - 1)) : 0.0, 1 / (K * (N - 1))};
  const double pair = directed ? 1 : 2;
  return {k > 1 ? N / ((K - 1) * pair) : 0.0, N / (K * pair)};
}

}  // namespace chatty::bc
