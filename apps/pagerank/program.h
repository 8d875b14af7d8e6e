// PageRank by pull (Jacobi) iteration: rank(v) = (1-d)/|V| + d * (sum over
// in-neighbours u of rank(u)/outdeg(u) + dangling mass/|V|). Mass of
// vertices without out-edges is spread uniformly, so ranks sum to 1.
#pragma once

#include "runtime/base/program.h"

namespace chatty {

struct PageRankProgram {
  using Value = float;
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kMonotone = false;
  static constexpr bool kSums = true;

  vid_t num_vertices;
  double damping = 0.85;
  double tolerance = 1e-6;  // stop when the L1 change is below it
  int max_iters = 100;

  CHATTY_HD Value init(vid_t) const { return Value(1.0 / double(num_vertices)); }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  // A vertex without out-edges publishes nothing: its rank is sink mass.
  CHATTY_HD Value publish(Value rank, eid_t out_degree) const {
    return out_degree ? Value(double(rank) / double(out_degree)) : Value(0);
  }
  CHATTY_HD Value apply(double sum, double dangling_mass) const {
    const double inv_n = 1.0 / double(num_vertices);
    return Value((1.0 - damping) * inv_n + damping * (sum + dangling_mass * inv_n));
  }
  // A float sum of k terms may be off by k units in its last place, and
  // alike terms (a hub's in-neighbours) push it one way: summed in float,
  // the centre of a 20000-leaf star is 6.6e-4 low. Rows longer than kFloatRow
  // sum in double; shorter ones (a grid's or a road network's) keep the
  // float loop, whose error stays within kFloatRow units of the sum.
  static constexpr eid_t kFloatRow = 8;
  template <typename In>
  CHATTY_HD Value gather(Value, const In& in, double dangling_mass) const {
    const eid_t k = in.size();
    if (k <= kFloatRow) {
      float sum = 0;
      for (eid_t i = 0; i < k; ++i) sum += in[i];
      return apply(double(sum), dangling_mass);
    }
    // Longer rows: blocks of kFloatRow summed in float, block sums in
    // double. The same error bound as a short row's, per block, and a
    // float add per edge instead of a conversion and a double add.
    double sum = 0;
    eid_t i = 0;
    for (; i + kFloatRow <= k; i += kFloatRow) {
      float even = 0, odd = 0;  // two chains of adds: one would wait on each add's latency
      for (eid_t j = 0; j < kFloatRow; j += 2) even += in[i + j], odd += in[i + j + 1];
      sum += double(even) + double(odd);
    }
    float rest = 0;
    for (; i < k; ++i) rest += in[i];
    return apply(sum + double(rest), dangling_mass);
  }
  CHATTY_HD bool converged(double l1) const { return l1 < tolerance; }
};

}  // namespace chatty
