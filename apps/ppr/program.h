// Personalised PageRank (NetworkX's pagerank with a personalization): the
// teleport and the dangling mass go to the seed vertices, in equal shares,
// not to every vertex: rank(v) = d * (sum of in-neighbours' rank/outdeg +
// sink mass * p(v)) + (1 - d) * p(v), p = 1/k on each of the k seeds.
// A gather sees its vertex's value but not its id, and every backend's
// value arrays hold 32 bits: a seed's rank is kept negated, its sign the
// mark of a seed (ranks are never negative otherwise). The seeds sit in
// the program (up to kMaxSeeds), read once, by init.
#pragma once

#include <math.h>

#include "runtime/base/program.h"

namespace chatty {

struct PprProgram {
  using Value = float;  // the rank; negated on a seed
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kMonotone = false;
  static constexpr bool kSums = false;  // the vertex's own share joins the sum
  static constexpr int kMaxSeeds = 64;

  vid_t num_vertices;
  double damping = 0.85;
  double tolerance = 1e-6;
  int max_iters = 100;
  int seeds = 0;
  vid_t seed[kMaxSeeds] = {};  // distinct, in the run's numbering

  CHATTY_HD static bool is_seed(Value x) { return signbit(x); }
  CHATTY_HD static double rank(Value x) { return fabs(double(x)); }

  // NetworkX starts from the uniform vector.
  CHATTY_HD Value init(vid_t v) const {
    bool mine = false;
    for (int i = 0; i < seeds; ++i) mine |= seed[i] == v;
    const float r = float(1.0 / double(num_vertices));
    return mine ? -r : r;
  }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value publish(Value x, eid_t out_degree) const {
    return out_degree ? float(rank(x) / double(out_degree)) : 0.0f;
  }
  CHATTY_HD double sink(Value x, eid_t out_degree) const { return out_degree ? 0.0 : rank(x); }
  template <typename In>
  CHATTY_HD Value gather(Value own, const In& in, double sink_mass) const {
    double sum = 0;
    for (eid_t i = 0; i < in.size(); ++i) sum += double(in[i]);
    const double p = is_seed(own) ? 1.0 / double(seeds) : 0.0;
    const float r = float(damping * (sum + sink_mass * p) + (1 - damping) * p);
    return is_seed(own) ? -r : r;
  }
  CHATTY_HD bool converged(double l1, double) const { return l1 < tolerance; }
};

}  // namespace chatty
