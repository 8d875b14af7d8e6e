// HITS's sequential reference: the same iteration (a = A^T h, h = A a,
// each scaled to sum 1, to the same stopping rule) as scatters over the
// out-edges alone, in one thread.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::reference {

struct HitsScores {
  std::vector<double> hubs, authorities;
  int iterations = 0;
};

HitsScores hits(const Graph& g, double tolerance, int max_iters);

}  // namespace chatty::reference
