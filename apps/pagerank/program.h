// PageRank by pull (Jacobi) iteration: rank(v) = (1-d)/|V| + d * (sum over
// in-neighbours u of rank(u)/outdeg(u) + dangling mass/|V|). Mass of
// vertices without out-edges is spread uniformly, so ranks sum to 1.
#pragma once

#include "runtime/base/in_sum.h"
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
  CHATTY_HD double sink(Value rank, eid_t out_degree) const { return out_degree ? 0.0 : double(rank); }
  CHATTY_HD Value apply(double sum, double dangling_mass) const {
    const double inv_n = 1.0 / double(num_vertices);
    return Value((1.0 - damping) * inv_n + damping * (sum + dangling_mass * inv_n));
  }
  static constexpr eid_t kFloatRow = chatty::kFloatRow;  // the sum's rounding bound (in_sum.h)
  template <typename In>
  CHATTY_HD Value gather(Value, const In& in, double dangling_mass) const {
    return apply(sum_in(in), dangling_mass);
  }
  CHATTY_HD bool converged(double l1, double) const { return l1 < tolerance; }
};

}  // namespace chatty
