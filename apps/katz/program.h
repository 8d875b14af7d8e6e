// Katz centrality by Jacobi iteration, as NetworkX iterates it: from
// x = 0, x(v) = alpha * (sum over in-neighbours u of x(u)) + beta, until
// the L1 change is below the tolerance. It converges where alpha is below
// 1 / the largest eigenvalue of the adjacency matrix, to (I - alpha A^T)^-1
// beta; elsewhere the values grow and the run stops at max_iters.
#pragma once

#include "runtime/base/in_sum.h"
#include "runtime/base/program.h"

namespace chatty {

struct KatzProgram {
  using Value = float;
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kMonotone = false;
  static constexpr bool kSums = true;

  vid_t num_vertices;
  double alpha = 0.1, beta = 1.0;
  double tolerance = 1e-6;
  int max_iters = 100;

  CHATTY_HD Value init(vid_t) const { return 0; }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value publish(Value x, eid_t) const { return x; }
  CHATTY_HD double sink(Value, eid_t) const { return 0; }  // no global sum
  CHATTY_HD Value apply(double sum, double) const { return Value(alpha * sum + beta); }
  template <typename In>
  CHATTY_HD Value gather(Value, const In& in, double) const {
    return apply(sum_in(in), 0);
  }
  CHATTY_HD bool converged(double l1, double) const { return l1 < tolerance; }
};

}  // namespace chatty
