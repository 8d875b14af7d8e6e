// A summing gather (PageRank, Katz) over edges laid out in tiles, on one
// CPU device that holds the whole graph. A pull over rows reads one
// published value per in-edge from anywhere in an array of |V| values: on
// urand:20 that array is 4 MB, past a core's L2, and each read waits on
// the L3 (or on memory, when neighbours on the machine fill the L3). Here
// targets are cut into strips of 2^dst_shift ids and sources into strips
// of 2^src_shift; the edges from source strip S to target strip D form
// tile (D, S), stored by source (four rows' edges in turn), each edge as
// two 16-bit offsets into its strips. A thread owns a target strip at a
// time: its sums (two doubles for each of 8K targets) and one source
// strip's published values (16K floats), both in its L2, take every random
// access, and the edges stream by once, 4 bytes each, as the rows' targets
// did. By source, not by target: a tile's edges to
// one target in a row make each add wait on the last (urand:20 1.7x
// slower). The sums are added up in double, at least the rows' precision
// (runtime/base/in_sum.h). The tiles are a second copy of the edges:
// building them costs about 2.5 supersteps over rows; the engine's rule
// (runtime/host/sum_layout.h) lays them out when the run repays that.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "kernels/cpu/gather_pull.h"
#include "runtime/base/csr_view.h"
#include "runtime/base/huge_pages.h"
#include "runtime/base/status.h"

#if defined(__AVX__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

namespace chatty::cpu {

struct TileShape {
  unsigned dst_shift = 0, src_shift = 0;  // 0: tiles cannot number the graph
  vid_t dst_strips = 0, src_strips = 0;
  size_t tiles() const { return size_t(dst_strips) * src_strips; }
};

// The shape of the given shifts for n vertices.
inline TileShape tile_shape(vid_t n, unsigned dst_shift, unsigned src_shift) {
  auto strips = [n](unsigned shift) { return vid_t((uint64_t(n) + (uint64_t(1) << shift) - 1) >> shift); };
  return {dst_shift, src_shift, strips(dst_shift), strips(src_shift)};
}

// Strips of 8K targets and 16K sources at least, widened (sources first,
// to 16 bits each) until the tile table has at most 4M entries; no shape
// past 2^27 vertices. Measured supersteps on 2 cores: 4K-target strips
// took kron:20 1.6x as long as 8K ones, 16K-target strips urand:20 1.3x.
inline TileShape sum_tile_shape(vid_t n) {
  constexpr unsigned kMinDst = 13, kMinSrc = 14, kMax = 16;
  constexpr uint64_t kMaxTiles = uint64_t(1) << 22;
  for (unsigned d = kMinDst; d <= kMax; ++d)
    for (unsigned s = kMinSrc; s <= kMax; ++s)
      if (const TileShape shape = tile_shape(n, d, s); shape.tiles() <= kMaxTiles) return shape;
  return {};
}

struct FreeArray {
  void operator()(void* p) const { std::free(p); }
};

struct SumTiles {
  TileShape shape;
  vid_t n = 0;
  // Tile (D, S) is edges [start[D * src_strips + S], start[... + S + 1]).
  std::vector<eid_t> start;
  // (source - S's first id) << 16 | (target - D's first id), a tile's
  // edges by source (four rows, one from each quarter of the strip, in turn),
  // each row's in its order; 64-byte aligned.
  std::unique_ptr<uint32_t[], FreeArray> edges;
  eid_t num_edges() const { return start.empty() ? 0 : start.back(); }
};

// The tiles of the out-edges `out` of all n vertices, in `shape` (by
// default sum_tile_shape(n); tests pass wider ones), on the calling
// thread's team: a count per (source strip, target strip), then each
// source strip's edges scattered to their tiles, four rows in turn. Throws
// chatty::Error where out does not hold all n rows or the shape cannot
// number them, std::bad_alloc where the memory is not there (before the
// team starts: its threads' buffers are allocated first).
inline SumTiles build_sum_tiles(const CsrChunk& out, vid_t n, TileShape shape = {}) {
  if (shape.dst_shift == 0) shape = sum_tile_shape(n);
  CHATTY_CHECK(out.lo == 0 && out.hi == n, "tiles need every row");
  CHATTY_CHECK(shape.dst_shift >= 1 && shape.dst_shift <= 16 && shape.src_shift >= 1 && shape.src_shift <= 16 &&
                   (uint64_t(shape.dst_strips) << shape.dst_shift) >= n &&
                   (uint64_t(shape.src_strips) << shape.src_shift) >= n,
               "a tile shape that numbers every vertex in 16 bits");
  SumTiles t;
  t.n = n;
  t.shape = shape;
  const unsigned ds = shape.dst_shift, ss = shape.src_shift;
  const vid_t nd = shape.dst_strips, ns = shape.src_strips;
  std::vector<eid_t> count(shape.tiles(), 0);  // [S * nd + D]: edges from strip S to strip D
  const vid_t* const targets = out.targets;
  const eid_t* const offsets = out.offsets;
  auto sources = [&](vid_t s) {
    const vid_t lo = s << ss;
    return std::pair<vid_t, vid_t>{lo, std::min<vid_t>(n, lo + (vid_t(1) << ss))};
  };
  // Four counts per target strip, taking every fourth edge: a row's
  // sorted targets often fall in one strip one after another, and with one
  // count each increment waited on the last one's store (the pass 0.5 of
  // the time with four on kron:20 and urand:20).
  const size_t team = size_t(omp_get_max_threads());
  std::vector<eid_t> fours(team * 4 * nd);
#pragma omp parallel
  {
    eid_t* const c0 = fours.data() + size_t(omp_get_thread_num()) * 4 * nd;
    eid_t *const c1 = c0 + nd, *const c2 = c1 + nd, *const c3 = c2 + nd;
#pragma omp for schedule(dynamic, 1)
    for (vid_t s = 0; s < ns; ++s) {
      std::fill(c0, c0 + 4 * size_t(nd), eid_t(0));
      const auto [lo, hi] = sources(s);
      const eid_t first = offsets[lo], last = offsets[hi];  // locals: the counts' stores may alias the offsets
      eid_t e = first;
      for (; e + 4 <= last; e += 4) {
        ++c0[targets[e] >> ds];
        ++c1[targets[e + 1] >> ds];
        ++c2[targets[e + 2] >> ds];
        ++c3[targets[e + 3] >> ds];
      }
      for (; e < last; ++e) ++c0[targets[e] >> ds];
      eid_t* const c = count.data() + size_t(s) * nd;
      for (vid_t d = 0; d < nd; ++d) c[d] = c0[d] + c1[d] + c2[d] + c3[d];
    }
  }
  t.start.resize(shape.tiles() + 1);
  eid_t at = 0;
  for (vid_t d = 0; d < nd; ++d)
    for (vid_t s = 0; s < ns; ++s) {
      t.start[size_t(d) * ns + s] = at;
      at += count[size_t(s) * nd + d];
    }
  t.start[shape.tiles()] = at;
  // 64-byte lines (a target strip's next 16 edges) filled in a buffer of
  // the thread's (8 KB for urand:20's 128 strips) and written whole,
  // bypassing the cache: a plain store to each of the strips' scattered
  // tails read its line from memory first and left the scatter at memory
  // latency. A line a tile shares with its neighbours (its first and last)
  // gets only the tile's own entries, by an ordinary copy.
  const size_t bytes = (size_t(at) * sizeof(uint32_t) + 63) / 64 * 64;
  t.edges.reset(static_cast<uint32_t*>(std::aligned_alloc(64, std::max<size_t>(bytes, 64))));
  if (!t.edges) throw std::bad_alloc();
  advise_huge_pages(t.edges.get(), bytes);
  uint32_t* const edges = t.edges.get();
  const vid_t mask = (vid_t(1) << ds) - 1;
  struct alignas(64) Line {
    uint32_t x[16];
  };
  std::vector<Line> lines(team * nd);
  std::vector<eid_t> bases(team * nd);                       // where strip d's line starts in `edges`
  std::vector<uint32_t> fills(team * nd), slots(team * nd);  // its entries so far; the first that is this tile's
#pragma omp parallel
  {
    const size_t me = size_t(omp_get_thread_num()) * nd;
    Line* const line = lines.data() + me;
    eid_t* const base = bases.data() + me;
    uint32_t* const fill = fills.data() + me;
    uint32_t* const from_slot = slots.data() + me;
    auto write = [&](vid_t d, uint32_t lo, uint32_t hi) {
      uint32_t* const to = edges + base[d];
#if defined(__AVX__) && !defined(__CUDACC__)
      if (lo == 0 && hi == 16) {
        const __m256i* const x = reinterpret_cast<const __m256i*>(line[d].x);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(to), _mm256_load_si256(x));
        _mm256_stream_si256(reinterpret_cast<__m256i*>(to) + 1, _mm256_load_si256(x + 1));
        return;
      }
#endif
      std::memcpy(to + lo, line[d].x + lo, (hi - lo) * sizeof(uint32_t));
    };
#pragma omp for schedule(dynamic, 1)
    for (vid_t s = 0; s < ns; ++s) {
      for (vid_t d = 0; d < nd; ++d) {
        const eid_t c = t.start[size_t(d) * ns + s];
        base[d] = c & ~eid_t(15);
        fill[d] = from_slot[d] = uint32_t(c & 15);
      }
      auto put = [&](uint32_t from, vid_t v) {
        const vid_t d = v >> ds;
        uint32_t k = fill[d];
        line[d].x[k] = from | (v & mask);
        if (++k == 16) {
          write(d, from_slot[d], 16);
          base[d] += 16, from_slot[d] = 0, k = 0;
        }
        fill[d] = k;
      };
      // Four rows at a time, one from each quarter of the strip, their
      // edges in turn: neighbouring edges in a tile come from four sources.
      // Supersteps over tiles 0.89 of the time of one row at a time on
      // kron:20, 0.96 on urand:20 (two rows: 0.95 and 0.98; eight no better
      // than four); the layout itself no quicker.
      constexpr unsigned kRows = 4;
      const auto [lo, hi] = sources(s);
      const vid_t q = (hi - lo + kRows - 1) / kRows;
      for (vid_t u = lo; u < lo + q; ++u) {
        uint32_t from[kRows];
        eid_t first[kRows], len[kRows], all = ~eid_t(0);
        for (unsigned j = 0; j < kRows; ++j) {
          const vid_t r = u + vid_t(j) * q;  // past hi where the strip's rows do not divide: an empty row
          from[j] = uint32_t(r - lo) << 16;
          first[j] = r < hi ? offsets[r] : 0;
          len[j] = r < hi ? offsets[r + 1] - first[j] : 0;
          all = std::min(all, len[j]);
        }
        for (eid_t i = 0; i < all; ++i)
          for (unsigned j = 0; j < kRows; ++j) put(from[j], targets[first[j] + i]);
        for (unsigned j = 0; j < kRows; ++j)
          for (eid_t i = all; i < len[j]; ++i) put(from[j], targets[first[j] + i]);
      }
      for (vid_t d = 0; d < nd; ++d)
        if (fill[d] > from_slot[d]) write(d, from_slot[d], fill[d]);
    }
#if defined(__AVX__) && !defined(__CUDACC__)
    _mm_sfence();  // the streamed lines before the tiles are read
#endif
  }
  return t;
}

// One superstep of a summing program P (P::kSums: gather is apply(sum of
// in-values, sink)) over all t.n vertices: writes task.val and task.next
// for each, as gather_range does over rows, and adds to `sums`; on the
// calling thread's team.
template <typename P>
void gather_tiles(const P& prog, const SumTiles& t, const GatherTask<typename P::Value>& task, GatherSums& sums) {
  static_assert(P::kSums && !P::kMonotone, "tiles sum published values of the last superstep");
  using V = typename P::Value;
  const TileShape shape = t.shape;
  const vid_t nd = shape.dst_strips, ns = shape.src_strips, n = t.n, width = vid_t(1) << shape.dst_shift;
  const V* const contrib = task.contrib;
  const uint32_t* const edges = t.edges.get();
  const eid_t* const start = t.start.data();
  const eid_t* const deg = task.degree.offsets;
  const double dangling_in = task.dangling_in;
  double l1 = 0, dangling = 0;
  // Two sums per target and thread, taking alternate edges: a hub's
  // edges come one or two apart in a tile (one from most sources of the
  // strip), and with one sum each add waited on the last one's store
  // (kron:20: a superstep 0.93 of the time with two; four no better).
  std::vector<double> sums_of_team(size_t(omp_get_max_threads()) * width * 2);
#pragma omp parallel reduction(+ : l1, dangling)
  {
    double* const sum = sums_of_team.data() + size_t(omp_get_thread_num()) * width * 2;
    double* const odd = sum + width;
#pragma omp for schedule(dynamic, 1)
    for (vid_t d = 0; d < nd; ++d) {
      std::fill(sum, sum + 2 * width, 0.0);
      const eid_t* const row = start + size_t(d) * ns;
      for (vid_t s = 0; s < ns; ++s) {
        const V* const from = contrib + (size_t(s) << shape.src_shift);
        eid_t e = row[s];
        const eid_t end = row[s + 1];
        for (; e + 2 <= end; e += 2) {
          const uint32_t x = edges[e], y = edges[e + 1];
          sum[x & 0xffff] += double(from[x >> 16]);
          odd[y & 0xffff] += double(from[y >> 16]);
        }
        if (e < end) sum[edges[e] & 0xffff] += double(from[edges[e] >> 16]);
      }
      const vid_t lo = d << shape.dst_shift, hi = std::min(n, lo + width);
      for (vid_t v = lo; v < hi; ++v) {
        const V value = prog.apply(sum[v - lo] + odd[v - lo], dangling_in);
        l1 += std::fabs(double(value) - double(task.val[v]));
        task.val[v] = value;
        const eid_t out_degree = deg[v + 1] - deg[v];
        dangling += prog.sink(value, out_degree);
        task.next[v] = prog.publish(value, out_degree);
      }
    }
  }
  sums.l1 += l1;
  sums.dangling += dangling;
  sums.edges += t.num_edges();
}

}  // namespace chatty::cpu
