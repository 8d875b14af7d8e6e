// Similarity of vertex pairs by their neighbourhoods (cuGraph's jaccard,
// overlap and sorensen; NetworkX's jaccard_coefficient): for given pairs,
// for every edge, or the K most similar vertices two hops from given ones.
// An operator program: the devices share the pairs (or the rows, or the
// given vertices) and each counts common neighbours by merging or
// searching the two sorted lists (ops::count_common). Every rank holds the
// whole graph and scores its share; the engine sums the values.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/registry.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"
#include "runtime/base/types.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

namespace similarity {

// The coefficient of two neighbourhoods of du and dv vertices sharing
// `common`, computed as NetworkX does (the quotient of two whole numbers;
// 0 where the denominator is).
CHATTY_HD inline double score(Similarity m, uint64_t common, uint64_t du, uint64_t dv) {
  switch (m) {
    case Similarity::kOverlap: {
      const uint64_t least = du < dv ? du : dv;
      return least ? double(common) / double(least) : 0.0;
    }
    case Similarity::kSorensen: return du + dv ? 2.0 * double(common) / double(du + dv) : 0.0;
    default: return du + dv - common ? double(common) / double(du + dv - common) : 0.0;
  }
}

}  // namespace similarity

struct SimilarityProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  // One per pair: given pairs, or every edge (u < v, in UpperEdges' order);
  // with top_k, 2 K per vertex asked about: K (score, other vertex + 1)
  // slots, best first, (0, 0) where it has fewer.
  using Value = double;

  Similarity measure = Similarity::kJaccard;
  const PairQuery* query = nullptr;

  std::vector<double> on_host(const Graph& g, host::HostOperators& h) const;  // apps/similarity/app.cc
  OperatorRun<double> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/similarity/gpu.cu
};

}  // namespace chatty
