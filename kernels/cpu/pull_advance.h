// Pull (bottom-up) step on the CPU for first-visit programs (BFS): every
// unvisited vertex scans its in-edges for a frontier member and stops at the
// first one. Each vertex is written only by the thread that owns it, so no
// atomics are needed on values (Ligra's update vs updateAtomic).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "kernels/cpu/push_advance.h"
#include "runtime/base/parallel.h"

#if defined(__AVX512F__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

namespace chatty::cpu {

// The vertices a device's later pull steps still try: those with in-edges
// that its last pull step left unvisited, per block of kPullBlock in the
// block's own part of one array, so that whichever thread computes a block
// lists it again with no shared cursor. Push steps in between visit some
// of them; a pull step drops those as it meets them. A late step of a
// graph with many unreachable or isolated vertices (kron) then reads its
// few candidates instead of every vertex's value and row.
struct PullPending {
  vid_t* ids = nullptr;       // from pull_blocks_begin(lo): [block * kPullBlock + i]
  uint32_t* count = nullptr;  // per block
  bool listed = false;        // ids and count hold the last pull step's survivors; else every vertex is tried
};

// Where one pull step reads and writes: a device's values and frontier
// bitmaps (a peer computing migrated blocks gets the owner's).
template <typename V>
struct PullTask {
  V* val = nullptr;
  const Bitmap* front = nullptr;
  Bitmap* next = nullptr;        // cleared before the step; gets the vertices that joined
  V level{};                     // what every frontier vertex holds (P::kUniformFrontier)
  vid_t lo = 0;                  // the first vertex of the range; blocks may start below it
  const CsrChunk* in = nullptr;  // the owner's in-edges
  PullPending pending{};         // without ids, every step tries every vertex
};

struct PullSums {
  uint64_t awake = 0, edges = 0, migrated = 0;
  PullSums& operator+=(const PullSums& o) {
    awake += o.awake, edges += o.edges, migrated += o.migrated;
    return *this;
  }
};

// Blocks of a pull step start at multiples of 64 (from pull_blocks_begin),
// so each writes whole words of `next` and the non-atomic bit sets of two
// threads never meet in one word.
inline constexpr vid_t kPullBlock = vid_t(kDenseGrain);
static_assert(kPullBlock % 64 == 0, "pull blocks must cover whole bitmap words");
inline vid_t pull_blocks_begin(vid_t lo) { return lo & ~vid_t(63); }

#if defined(__AVX512F__) && !defined(__CUDACC__)
// For the 16 rows from row[0] (row[0..16] their offsets into tgt), of
// those whose bit is set in `lanes`: bit k set where row k is not empty
// (`rows`) and where its first entry is in `front` (the result); every id
// of tgt below 2^31 (the gather's signed offsets). The zero-masked forms: g++ 12's plain ones read an undefined
// register (a -Wmaybe-uninitialized error).
inline unsigned first_in_front16(const eid_t* row, const vid_t* tgt, const uint64_t* front, unsigned lanes,
                                 unsigned& rows) {
  const int* const t = reinterpret_cast<const int*>(tgt);
  const int* const words = reinterpret_cast<const int*>(front);
  unsigned found = 0;
  rows = 0;
  for (unsigned half = 0; half < 2; ++half) {  // 8 rows each: their offsets fill a register
    const __m512i start = _mm512_loadu_si512(row + 8 * half);
    const __mmask8 full =
        _mm512_mask_cmpneq_epu64_mask(__mmask8(lanes >> (8 * half)), start, _mm512_loadu_si512(row + 8 * half + 1));
    const __m256i u = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), full, start, t, 4);
    const __m256i word = _mm256_mmask_i32gather_epi32(_mm256_setzero_si256(), full, _mm256_srli_epi32(u, 5), words, 4);
    const __m256i bit = _mm256_srlv_epi32(word, _mm256_and_si256(u, _mm256_set1_epi32(31)));
    found |= unsigned(_mm256_mask_test_epi32_mask(full, bit, _mm256_set1_epi32(1))) << (8 * half);
    rows |= unsigned(full) << (8 * half);
  }
  return found;
}
#endif

// Visits the vertices of [max(lo, t.lo), hi), which t.in holds; with
// t.pending, those of its blocks still listed, and lists them again.
// [lo, hi) is whole blocks from pull_blocks_begin(t.lo).
template <typename P>
void pull_range(const P& prog, const PullTask<typename P::Value>& t, vid_t lo, vid_t hi, PullSums& sums) {
  using V = typename P::Value;
  constexpr vid_t kAhead = 16;  // measured on kron:20: 0.87-0.95x the time of 8 ahead, 32 no better than 16
  // The chunk's fields in locals: a store to val (vid_t-sized values) may
  // alias the chunk's bounds, and would make every vertex reload them.
  const vid_t base = t.in->lo, n = t.in->hi;
  const eid_t* off = t.in->offsets;
  const vid_t* tgt = t.in->targets;
  const weight_t* wgt = t.in->weights;
  V* val = t.val;
  const V level = t.level;
  const Bitmap& front = *t.front;
  Bitmap& next = *t.next;
  uint64_t awake = 0, edges = 0;
  // v joins through its in-edge e (from a frontier vertex), the in-edges
  // from its first up to e read.
  auto join = [&](vid_t v, eid_t e, eid_t first) __attribute__((always_inline)) {
    const vid_t u = tgt[e];
    const V from = P::kUniformFrontier ? level : val[u];
    val[v] = P::reduce(val[v], prog.scatter(from, u, v, wgt ? wgt[e] : 1));
    next.set(v);
    ++awake;
    edges += e - first + 1;
  };
  // Whether v found a parent in the frontier (its in-edges up to it read),
  // its first `skip` in-edges known not to be in it.
  auto joins = [&](vid_t v, eid_t skip = 0) __attribute__((always_inline)) {
    const eid_t first = off[v - base], last = off[v - base + 1];
    for (eid_t e = first + skip; e < last; ++e)
      if (front.get(tgt[e])) {
        join(v, e, first);
        return true;
      }
    edges += last - first;
    return false;
  };
  // A pull step reads one or two in-edges of each vertex, a scattered walk
  // over the edge array that the hardware prefetcher cannot follow.
  auto prefetch_row = [&](vid_t v) { __builtin_prefetch(&tgt[off[v - base]], 0, 0); };
  if (!t.pending.ids) {
    for (vid_t v = std::max(lo, t.lo); v < hi; ++v) {
      if (v + kAhead < n) prefetch_row(v + kAhead);
      if (P::unvisited(val[v])) joins(v);
    }
  } else {
    const vid_t first_block = pull_blocks_begin(t.lo);
    for (vid_t b0 = lo; b0 < hi; b0 += kPullBlock) {
      const vid_t b1 = std::min<vid_t>(hi, b0 + kPullBlock);
      vid_t* list = t.pending.ids + (b0 - first_block);
      uint32_t& count = t.pending.count[(b0 - first_block) / kPullBlock];
      uint32_t kept = 0;  // written behind the reading, in place
      if (!t.pending.listed) {
        vid_t v = std::max(b0, t.lo);
#if defined(__AVX512F__) && !defined(__CUDACC__)
        // Thirty-two vertices' first in-edges tested at once (two gathers'
        // worth in flight together), in a block whose first 64 vertices are
        // mostly unvisited: there a branch per vertex on its first in-edge
        // mispredicted (kron:20's widest step 0.64 of the time this way;
        // sixteen at once 0.87, sixty-four no better than thirty-two).
        // Where most are visited (urand:20's), the loop below skips them
        // faster. The vertices that joined at their first in-edge, then the
        // rest, each in order.
        unsigned sample = 0;
        if (front.size() <= (size_t(1) << 31) && v + 64 <= b1)
          for (vid_t k = 0; k < 64; ++k) sample += unsigned(P::unvisited(val[v + k]));
        if (sample >= 48)
          for (; v + 32 <= b1 && v + 32 <= n; v += 32) {
            for (vid_t k = 0; k < 32 && v + 32 + k < n; ++k) prefetch_row(v + 32 + k);
            uint64_t open = 0;
            for (unsigned k = 0; k < 32; ++k) open |= uint64_t(P::unvisited(val[v + k])) << k;
            unsigned rows_lo, rows_hi;
            const uint64_t first =
                first_in_front16(off + (v - base), tgt, front.words(), unsigned(open & 0xffff), rows_lo) |
                uint64_t(first_in_front16(off + (v + 16 - base), tgt, front.words(), unsigned(open >> 16), rows_hi))
                    << 16;
            const uint64_t rows = rows_lo | uint64_t(rows_hi) << 16;
            for (uint64_t m = first; m; m &= m - 1) {
              const vid_t w = v + vid_t(__builtin_ctzll(m));
              join(w, off[w - base], off[w - base]);
            }
            for (uint64_t m = rows & ~first; m; m &= m - 1) {
              const vid_t w = v + vid_t(__builtin_ctzll(m));
              if (!joins(w, 1)) list[kept++] = w;
            }
          }
#endif
        for (; v < b1; ++v) {
          if (v + kAhead < n) prefetch_row(v + kAhead);
          if (P::unvisited(val[v]) && off[v - base] != off[v - base + 1] && !joins(v)) list[kept++] = v;
        }
      } else {
        for (uint32_t i = 0; i < count; ++i) {
          if (i + kAhead < count) prefetch_row(list[i + kAhead]);
          const vid_t v = list[i];
          if (P::unvisited(val[v]) && !joins(v)) list[kept++] = v;
        }
      }
      count = kept;
    }
  }
  sums.awake += awake;
  sums.edges += edges;
}

// Returns the number of vertices that joined `next` (cleared on entry).
// `level` is the value every frontier vertex holds when the program is level
// synchronous (P::kUniformFrontier, BFS); it saves a random read of the
// parent's value per visited vertex, and on return holds the new level.
// Visits the vertices of in_edges' chunk (`next` bits outside stay 0).
template <typename P>
uint64_t pull_step(const CsrChunk& in_edges, const P& prog, typename P::Value* val, const Bitmap& front, Bitmap& next,
                   typename P::Value& level, SuperstepStats& st) {
  const vid_t lo = in_edges.lo, n = in_edges.hi;
  const PullTask<typename P::Value> t{val, &front, &next, level, lo, &in_edges};
  next.clear();
  const PullSums sums =
      sum_over_blocks<PullSums>(pull_blocks_begin(lo), n, kPullBlock,
                                [&](vid_t first, vid_t last, PullSums& s) { pull_range(prog, t, first, last, s); });
  if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
  st.active = n - lo;
  st.updated = sums.awake;
  st.edges = sums.edges;
  st.pull = true;
  return sums.awake;
}

}  // namespace chatty::cpu
