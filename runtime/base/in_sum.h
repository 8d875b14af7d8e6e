// The sum of a gather's in-values (PageRank, Katz, eigenvector): float adds
// where they are exact enough, double where a long row would drift.
#pragma once

#include "runtime/base/types.h"

namespace chatty {

// A float sum of k terms may be off by k units in its last place, and
// alike terms (a hub's in-neighbours) push it one way: summed in float,
// the centre of a 20000-leaf star's PageRank is 6.6e-4 low. Rows longer
// than kFloatRow sum in double; shorter ones (a grid's or a road network's)
// keep the float loop, whose error stays within kFloatRow units of the sum.
inline constexpr eid_t kFloatRow = 8;

template <typename In>
CHATTY_HD double sum_in(const In& in) {
  const eid_t k = in.size();
  if (k <= kFloatRow) {
    float sum = 0;
    for (eid_t i = 0; i < k; ++i) sum += in[i];
    return double(sum);
  }
  // Longer rows: blocks of kFloatRow summed in float, block sums in
  // double. The same error bound as a short row's, per block, and a float
  // add per edge instead of a conversion and a double add.
  double sum = 0;
  eid_t i = 0;
  for (; i + kFloatRow <= k; i += kFloatRow) {
    float even = 0, odd = 0;  // two chains of adds: one would wait on each add's latency
    for (eid_t j = 0; j < kFloatRow; j += 2) even += in[i + j], odd += in[i + j + 1];
    sum += double(even) + double(odd);
  }
  float rest = 0;
  for (; i < k; ++i) rest += in[i];
  return sum + double(rest);
}

}  // namespace chatty
