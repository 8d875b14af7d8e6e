#include "kernels/cuda/gather_plan.h"

namespace chatty {

using std::size_t;

namespace {
int bin_of(eid_t degree) {
  int b = 0;
  while (b < kLaneBins - 1 && eid_t(lanes_of_bin(b)) < degree) ++b;
  return b;
}
}  // namespace

GatherBins plan_gather_bins(const eid_t* offsets, vid_t count) {
  GatherBins bins;
  std::array<uint64_t, kLaneBins> size{};
  for (vid_t i = 0; i < count; ++i) {
    const eid_t d = offsets[i + 1] - offsets[i];
    if (d >= kHubDegree)
      bins.hubs.push_back(i);
    else
      ++size[size_t(bin_of(d))];
  }
  for (int b = 0; b < kLaneBins; ++b) bins.start[size_t(b) + 1] = bins.start[size_t(b)] + size[size_t(b)];
  bins.list.resize(bins.start[kLaneBins]);
  std::array<uint64_t, kLaneBins> fill{};
  for (int b = 0; b < kLaneBins; ++b) fill[size_t(b)] = bins.start[size_t(b)];
  for (vid_t i = 0; i < count; ++i) {
    const eid_t d = offsets[i + 1] - offsets[i];
    if (d < kHubDegree) bins.list[fill[size_t(bin_of(d))]++] = i;
  }
  const eid_t base = offsets[0];
  for (size_t h = 0; h < bins.hubs.size(); ++h) {
    const vid_t i = bins.hubs[h];
    for (eid_t e = offsets[i]; e < offsets[i + 1]; e += kPieceEdges) {
      const eid_t last = e + kPieceEdges < offsets[i + 1] ? e + kPieceEdges : offsets[i + 1];
      bins.pieces.push_back({uint32_t(h), 0, e - base, last - base});
    }
  }
  return bins;
}

GatherTiles plan_gather_tiles(const eid_t* offsets, vid_t count, uint64_t items) {
  const eid_t base = offsets[0], edges = offsets[count] - base;
  const uint64_t total = uint64_t(count) + edges, tiles = (total + items - 1) / items;
  GatherTiles plan;
  plan.tiles.reserve(tiles + 1);
  for (uint64_t t = 0; t <= tiles; ++t) {
    const uint64_t diag = t * items < total ? t * items : total;
    // Row r's end is merge item (r's end offset) + r; the rows before the
    // diagonal are those whose end item lies before it (increasing in r).
    vid_t lo = 0, hi = count;
    while (lo < hi) {
      const vid_t mid = lo + (hi - lo) / 2;
      if (offsets[mid + 1] - base + mid < diag)
        lo = mid + 1;
      else
        hi = mid;
    }
    const eid_t edge = diag - lo;
    uint32_t lead = kNoSlot;
    if (lo < count && offsets[lo] - base < edge) {  // row lo began in an earlier tile
      if (plan.split.empty() || plan.split.back() != lo) plan.split.push_back(lo);
      lead = uint32_t(plan.split.size() - 1);
    }
    plan.tiles.push_back({edge, lo, lead});
  }
  return plan;
}

}  // namespace chatty
