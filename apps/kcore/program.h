// k-core decomposition: the coreness of every vertex, the largest k such
// that the vertex lies in a subgraph where every vertex has degree >= k.
// As a gather program it is the h-index iteration (Lü et al., Nature
// Communications 2016): a vertex's estimate becomes the largest k such that
// at least k neighbours' estimates are >= k. Started above every coreness,
// estimates only fall, and the fixed point they reach is the coreness, in
// any order of updates, so devices need no agreement beyond Jacobi steps.
#pragma once

#include <climits>

#include "runtime/program.h"

namespace chatty {

struct KcoreProgram {
  using Value = uint32_t;
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kSums = false;

  int max_iters = INT_MAX;  // converges: some estimate falls every step until none does

  // Infinity: the first gather counts all neighbours, giving the degree.
  CHATTY_HD Value init(vid_t) const { return kInfinity; }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value publish(Value estimate, eid_t) const { return estimate; }

  // The h-index of the neighbours' estimates, capped by the vertex's own:
  // a binary search on k with one counting pass per probe, so the state is
  // a few words on any backend. At the fixed point the first probe holds.
  template <typename In>
  CHATTY_HD Value gather(Value own, const In& in, double) const {
    Value hi = in.size() < eid_t(own) ? Value(in.size()) : own;
    if (at_least(in, hi) >= hi) return hi;
    Value lo = 0;  // at_least(in, 0) >= 0 always holds
    while (hi - lo > 1) {
      const Value mid = lo + (hi - lo) / 2;
      if (at_least(in, mid) >= mid)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
  CHATTY_HD bool converged(double change) const { return change == 0; }

 private:
  template <typename In>
  CHATTY_HD static Value at_least(const In& in, Value k) {
    Value count = 0;
    for (eid_t i = 0; i < in.size(); ++i) count += in[i] >= k ? 1u : 0u;
    return count;
  }
};

}  // namespace chatty
