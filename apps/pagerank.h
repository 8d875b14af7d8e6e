// PageRank by pull (Jacobi) iteration: rank(v) = (1-d)/|V| + d * (sum over
// in-neighbours u of rank(u)/outdeg(u) + dangling mass/|V|). Mass of
// vertices without out-edges is spread uniformly, so ranks sum to 1.
#pragma once

#include "runtime/program.h"

namespace chatty {

struct PageRankProgram {
  using Value = float;
  static constexpr ProgramKind kKind = ProgramKind::kGather;

  vid_t num_vertices;
  double damping = 0.85;

  CHATTY_HD Value init(vid_t) const { return Value(1.0 / double(num_vertices)); }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD double contribution(Value rank, eid_t out_degree) const { return double(rank) / double(out_degree); }
  CHATTY_HD Value apply(double gathered, double dangling_mass) const {
    const double inv_n = 1.0 / double(num_vertices);
    return Value((1.0 - damping) * inv_n + damping * (gathered + dangling_mass * inv_n));
  }
};

}  // namespace chatty
