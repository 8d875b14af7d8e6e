// The K most similar vertices (--top_k) in steps a GPU device runs a
// thread an item (gpu.cu), written for both sides so that a host test runs
// them too: a batch of query vertices' two-hop lists gathered into one
// array, sorted per query vertex (a segmented sort), then each query
// vertex's runs of equal vertices are its common-neighbour counts, scored
// by similarity::score and kept best first, ties to the lower id: the
// host's order (score.h's score_top_k), so the same slots bit for bit.
#pragma once

#include <cstdint>

#include "apps/similarity/program.h"
#include "runtime/base/operators.h"
#include "runtime/base/types.h"

namespace chatty::similarity {

// A two-hop entry that is the query vertex itself: sorts last, never scored.
inline constexpr vid_t kSelf = ~vid_t(0);

// A batch's hops: hop p goes from query vertex source[p] through via[p];
// its entries (via[p]'s row) are [hop_at[p], hop_at[p + 1]) of the batch.
struct GatherTwoHops {
  const eid_t* offsets;
  const vid_t* targets;
  const vid_t* via;
  const vid_t* source;
  const uint64_t* hop_at;  // hops + 1
  uint64_t hops;
  vid_t* out;
  CHATTY_HD void operator()(size_t j) const {
    const uint64_t lo = ops::segment_of(hop_at, hops, j);
    const vid_t w = targets[offsets[via[lo]] + (j - hop_at[lo])];
    out[j] = w == source[lo] ? kSelf : w;
  }
};

// Query vertex i of the batch: its sorted entries [at[i], at[i + 1]) into
// its 2K slots (score, other vertex + 1), best first, (0, 0) past the last.
struct BestK {
  const eid_t* offsets;
  const vid_t* query;
  const uint64_t* at;
  const vid_t* sorted;
  Similarity measure;
  uint32_t k;
  double* slots;  // the batch's: query vertex i's at slots + 2 K i
  CHATTY_HD void operator()(size_t i) const {
    double* slot = slots + 2 * uint64_t(k) * i;
    const vid_t s = query[i];
    const uint64_t ds = offsets[s + 1] - offsets[s];
    uint32_t kept = 0;
    for (uint64_t a = at[i], end = at[i + 1]; a < end;) {
      const vid_t w = sorted[a];
      if (w == kSelf) break;
      uint64_t b = a + 1;
      while (b < end && sorted[b] == w) ++b;
      const double x = similarity::score(measure, b - a, ds, offsets[w + 1] - offsets[w]);
      a = b;
      // Ascending ids: a tie with a kept one goes after it.
      uint32_t j = kept;
      while (j > 0 && x > slot[2 * (j - 1)]) --j;
      if (j >= k) continue;
      for (uint32_t q = (kept < k ? kept : k - 1); q > j; --q)
        slot[2 * q] = slot[2 * (q - 1)], slot[2 * q + 1] = slot[2 * (q - 1) + 1];
      slot[2 * j] = x, slot[2 * j + 1] = double(w) + 1;
      if (kept < k) ++kept;
    }
    for (uint32_t j = kept; j < k; ++j) slot[2 * j] = 0, slot[2 * j + 1] = 0;
  }
};

}  // namespace chatty::similarity
