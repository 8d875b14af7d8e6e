// k-core decomposition: the coreness of every vertex, the largest k such
// that the vertex lies in a subgraph where every vertex has degree >= k.
// As a gather program it is the h-index iteration (Lü et al., Nature
// Communications 2016): a vertex's estimate becomes the largest k such that
// at least k neighbours' estimates are >= k. Started above every coreness,
// estimates only fall, and the fixed point they reach is the coreness, in
// any order of updates, so devices need no agreement beyond Jacobi steps.
#pragma once

#include <climits>

#include "runtime/base/program.h"

namespace chatty {

struct KcoreProgram {
  using Value = uint32_t;
  static constexpr ProgramKind kKind = ProgramKind::kGather;
  static constexpr bool kMonotone = true;
  static constexpr bool kSums = false;

  static constexpr int kProbes = 8;  // thresholds counted per pass of a search
  int max_iters = INT_MAX;           // converges: some estimate falls every step until none does

  // Infinity: the first gather counts all neighbours, giving the degree.
  CHATTY_HD Value init(vid_t) const { return kInfinity; }
  CHATTY_HD bool active_at_start(vid_t) const { return true; }
  CHATTY_HD Value publish(Value estimate, eid_t) const { return estimate; }
  CHATTY_HD double sink(Value, eid_t) const { return 0; }  // no global sum

  // The h-index of the neighbours' estimates, capped by the vertex's own.
  // At the fixed point the first probe holds (and stops as soon as it has
  // found enough neighbours). Otherwise a search keeps holds(lo) and not
  // holds(hi); each pass counts kProbes thresholds between them at once,
  // so a hub of degree d takes log_(kProbes+1) d passes, in fixed state.
  template <typename In>
  CHATTY_HD Value gather(Value own, const In& in, double) const {
    Value hi = in.size() < eid_t(own) ? Value(in.size()) : own;
    if (holds(in, hi)) return hi;
    Value lo = 0;  // holds(in, 0) always
    while (hi - lo > 1) {
      const Value step = (hi - lo + kProbes) / (kProbes + 1);  // >= 1; thresholds lo + step .. below hi
      Value count[kProbes] = {};
      for (eid_t i = 0; i < in.size(); ++i) {
        const Value x = in[i];
        for (int j = 0; j < kProbes; ++j) count[j] += x >= lo + Value(j + 1) * step ? 1u : 0u;
      }
      const Value base = lo;
      for (int j = 0; j < kProbes; ++j) {
        const Value t = base + Value(j + 1) * step;
        if (t >= hi) break;
        if (count[j] >= t) {
          lo = t;
        } else {
          hi = t;
          break;
        }
      }
    }
    return lo;
  }
  CHATTY_HD bool converged(double change, double) const { return change == 0; }

 private:
  // At least k of the estimates are >= k.
  template <typename In>
  CHATTY_HD static bool holds(const In& in, Value k) {
    Value count = 0;
    // Checked once per 64 estimates: a test per estimate costs more than it saves.
    for (eid_t i = 0; i < in.size() && count < k;) {
      const eid_t end = in.size() - i > 64 ? i + 64 : in.size();
      for (; i < end; ++i) count += in[i] >= k ? 1u : 0u;
    }
    return count >= k;
  }
};

}  // namespace chatty
