// The sum of a gather's in-values (PageRank, Katz, eigenvector): float adds
// where they are exact enough, double where a long row would drift.
#pragma once

#include "runtime/base/program.h"
#include "runtime/base/types.h"

#if defined(__AVX2__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

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

#if defined(__AVX2__) && !defined(__CUDACC__)
// On a host with AVX2, a published-value row's blocks of 8 are gathered
// by one instruction and summed in double lanes: every term in double,
// within the bound above, at a fraction of the scalar loop's instructions.
inline double sum_in(const InValues<float>& in) {
  const eid_t k = in.count;
  if (k <= kFloatRow) {
    float sum = 0;
    for (eid_t i = 0; i < k; ++i) sum += in[i];
    return double(sum);
  }
  __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd();
  double rest_blocks = 0;
  eid_t i = 0;
  for (; i + 8 <= k; i += 8) {
    const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in.sources + i));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(idx)) != 0) {  // an id past 2^31, which the gather's offsets cannot hold
      float block = 0;
      for (eid_t j = 0; j < 8; ++j) block += in[i + j];
      rest_blocks += double(block);
      continue;
    }
    const __m256 v = _mm256_i32gather_ps(in.published, idx, 4);
    a = _mm256_add_pd(a, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
    b = _mm256_add_pd(b, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
  }
  const __m256d ab = _mm256_add_pd(a, b);
  const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(ab), _mm256_extractf128_pd(ab, 1));
  double sum = _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
  float rest = 0;
  for (; i < k; ++i) rest += in[i];
  return sum + rest_blocks + double(rest);
}

// Rows of one to four terms summed without a branch on their length: four
// values read (the row's last again where it is shorter) and those past its
// end masked to zeros, then added in the loop's order, so the sum is the
// loop's bit for bit. Where lengths vary from vertex to vertex the loop's
// exit mispredicts about once a row: a PageRank superstep over
// road:1000x1000's rows took 0.86 of the loop's time (2 cores), and 1.14x
// over a grid's rows of 4, whose lengths the predictor learns.
inline double sum_in(const InValuesOfVaryingRows<float>& in) {
  const eid_t last = in.count - 1;  // wraps for an empty row: the loop's path
  if (last >= 4) return sum_in(static_cast<const InValues<float>&>(in));
  alignas(16) static constexpr uint32_t kKeep[4][4] = {
      {~0u, 0, 0, 0}, {~0u, ~0u, 0, 0}, {~0u, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, ~0u}};
  const float* p = in.published;
  const vid_t* s = in.sources;
  __m128 v = _mm_setr_ps(p[s[0]], p[s[last < 1 ? last : 1]], p[s[last < 2 ? last : 2]], p[s[last]]);
  v = _mm_and_ps(v, _mm_load_ps(reinterpret_cast<const float*>(kKeep[last])));
  __m128 sum = _mm_add_ss(v, _mm_movehdup_ps(v));  // ((x0 + x1) + x2) + x3
  sum = _mm_add_ss(sum, _mm_movehl_ps(v, v));
  sum = _mm_add_ss(sum, _mm_shuffle_ps(v, v, 3));
  return double(_mm_cvtss_f32(sum));
}
#endif

}  // namespace chatty
