// Eigenvector centrality by power iteration on A^T + I, as NetworkX
// iterates it (the identity keeps a bipartite graph from oscillating).
// The value kept is y_k = (A^T + I) x_{k-1}, where x_{k-1} is y_{k-1} at
// unit L2 norm: the norm is the sink (every value squared, summed over
// the devices at the end of a superstep), so a gather divides by it
// instead of a second pass normalising. x = y / |y| when the run ends.
#pragma once

#include <math.h>

#include "runtime/base/in_sum.h"
#include "runtime/base/program.h"

namespace chatty {

struct EigenvectorProgram {
  using Value = float;
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kMonotone = false;
  static constexpr bool kSums = false;  // the vertex's own value joins the sum

  vid_t num_vertices;
  double tolerance = 1e-6;
  int max_iters = 100;

  // NetworkX starts from all ones scaled to sum 1.
  CHATTY_HD Value init(vid_t) const { return Value(1.0 / double(num_vertices)); }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value publish(Value y, eid_t) const { return y; }
  CHATTY_HD double sink(Value y, eid_t) const { return double(y) * double(y); }
  CHATTY_HD static double norm(double squares) { return squares > 0 ? sqrt(squares) : 1.0; }
  template <typename In>
  CHATTY_HD Value gather(Value own, const In& in, double squares) const {
    return Value((double(own) + sum_in(in)) / norm(squares));
  }
  // NetworkX's rule is on the unit vectors: their L1 change is this
  // superstep's over the norm of its values.
  CHATTY_HD bool converged(double l1, double squares) const { return l1 < tolerance * norm(squares); }
};

}  // namespace chatty
