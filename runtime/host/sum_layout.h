// When a summing gather on a lone CPU device reads tiles instead of rows
// (--cpu_gather; kernels/cpu/sum_tiles.h). Tiles pay where rows miss the
// cache and the run is long: a superstep over tiles took 0.6-0.7 of one
// over rows on urand:20 and kron:20 (2 cores), and laying them out (95-105
// ms) about 2.5 supersteps over rows. A grid's or a road's in-edges come
// from nearby ids; rows hit the cache there, and stay. Rows of varying
// short lengths are summed without branches (rows_vary).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/sum_tiles.h"
#include "runtime/base/csr_view.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/memory.h"

namespace chatty::host {

// Tiles cost about this many supersteps over rows to lay out (2.5
// measured, and a margin) and save about this share of each superstep
// after (0.3-0.4 measured).
inline constexpr double kTilesBuildSupersteps = 3, kTilesSaving = 0.3;
// Under this many vertices the published values fit a core's L2 as they are.
inline constexpr vid_t kTilesMinVertices = vid_t(1) << 18;

// Whether most in-edges of a fixed spread of vertices come from ids within
// a strip's width of their target: rows read nearby values.
inline bool in_edges_local(const CsrChunk& in) {
  const vid_t n = in.hi - in.lo, step = std::max<vid_t>(1, n / 1024);
  constexpr vid_t kNear = vid_t(1) << 14;  // a source strip of the tiles
  uint64_t near = 0, all = 0;
  for (vid_t v = in.lo + step / 2; v < in.hi; v += step)
    for (eid_t e = in.begin(v); e < in.end(v); ++e, ++all) {
      const vid_t u = in.targets[e];
      near += (u > v ? u - v : v - u) < kNear;
    }
  return 2 * near > all;
}

// Whether the rows' short lengths vary from vertex to vertex: in more than
// a quarter of a fixed spread of neighbouring pairs, both rows hold one to
// four edges and not as many (a road network's; not a grid's rows of 4,
// nor a graph of long rows). A gather sums those rows without a branch on
// their length (InValuesOfVaryingRows).
inline bool rows_vary(const CsrChunk& in) {
  if (!in.offsets || in.hi - in.lo < 2) return false;
  const vid_t n = in.hi - in.lo - 1, step = std::max<vid_t>(1, n / 1024);
  auto length = [&](vid_t v) { return in.end(v) - in.begin(v); };
  uint64_t varying = 0, pairs = 0;
  for (vid_t v = in.lo + step / 2; v + 1 < in.hi; v += step, ++pairs) {
    const eid_t a = length(v), b = length(v + 1);
    varying += a != b && a - 1 < 4 && b - 1 < 4;
  }
  return 4 * varying > pairs;
}

// Whether a second copy of the edges, 4 bytes each, fits in half of the
// memory that can be allocated without swapping (MemAvailable, which counts
// the page cache the kernel would drop, as a mapped graph's file fills it;
// free memory alone would refuse the tiles on any box that has read a big
// file): the rule's choice does not push a run into swap or the OOM killer
// (a failed allocation only ends its own try).
inline bool tiles_fit(eid_t edges) { return double(edges) * sizeof(uint32_t) <= 0.5 * double(available_memory()); }

// Whether the run may use tiles at all: a lone device holding every
// vertex's in- and out-edges, a program that sums last superstep's values,
// and a graph tiles can number.
template <typename P>
bool tiles_possible(CpuGather choice, bool solo, const CsrChunk& in, const CsrChunk& out, vid_t n) {
  if constexpr (!P::kSums || P::kMonotone) {
    return false;
  } else {
    return choice != CpuGather::kRows && solo && in.lo == 0 && in.hi == n && out.lo == 0 && out.hi == n &&
           cpu::sum_tile_shape(n).dst_shift != 0;
  }
}

// --cpu_gather=auto, after `done` supersteps whose last two changes were
// `before` and `change` (sink: the last sink mass): whether the supersteps
// left, as the program's own convergence test sees them at the present
// rate, repay laying the tiles out.
template <typename P>
bool tiles_pay(const P& prog, int done, double before, double change, double sink) {
  const int left = prog.max_iters - done;
  const double rate = before > 0 ? change / before : 1;
  const int enough = int(kTilesBuildSupersteps / kTilesSaving) + 1;  // supersteps that repay the build
  if (left < enough) return false;
  if (!(rate < 1)) return true;
  int remaining = 0;
  for (double x = change; remaining < enough && !prog.converged(x, sink); x *= rate) ++remaining;
  return remaining >= enough;
}

}  // namespace chatty::host
