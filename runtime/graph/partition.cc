#include "runtime/graph/partition.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "runtime/base/status.h"

namespace chatty {
namespace {

struct Balance {
  double alpha, avg_v, avg_e;
  const eid_t* off;
  double operator()(vid_t lo, vid_t hi) const {
    const double v = double(hi - lo), e = double(off[hi] - off[lo]);
    return alpha * std::fabs(v - avg_v) + std::fabs(e - avg_e);
  }
};

Balance balance_for(const eid_t* offsets, vid_t vertices, int devices) {
  const double n = vertices, m = double(offsets[vertices]);
  return Balance{std::floor(m / std::max(1.0, n)), n / devices, m / devices, offsets};
}
Balance balance_for(const Graph& g, int devices) {
  return balance_for(g.out().offsets.data(), g.num_vertices(), devices);
}

// Moves the cut between chunks i and i+1 to the position in
// (bounds[i], bounds[i+2]) minimising F_i + F_{i+1}. True if it moved.
bool adjust_pair(std::vector<vid_t>& b, size_t i, const Balance& f) {
  const vid_t lo = b[i], hi = b[i + 2];
  if (hi - lo < 2) return false;
  vid_t best = b[i + 1];
  double best_sum = f(lo, best) + f(best, hi);
  // F_i + F_{i+1} is a sum of two piecewise-linear functions of the cut, so
  // every position is cheap to evaluate with the degree prefix sums.
  for (vid_t c = lo + 1; c < hi; ++c) {
    const double s = f(lo, c) + f(c, hi);
    if (s < best_sum - 1e-9) best_sum = s, best = c;
  }
  if (best == b[i + 1]) return false;
  b[i + 1] = best;
  return true;
}

}  // namespace

int Partition::owner(vid_t v) const {
  return int(std::upper_bound(bounds.begin(), bounds.end(), v) - bounds.begin()) - 1;
}

std::pair<const vid_t*, const vid_t*> Partition::boundary_of(int d) const {
  const vid_t* b = boundary_list.data();
  const vid_t* e = b + boundary_list.size();
  return {std::lower_bound(b, e, begin(d)), std::lower_bound(b, e, end(d))};
}

uint64_t Partition::boundary_count(int d) const {
  auto [first, last] = boundary_of(d);
  return uint64_t(last - first);
}

double balance_of(const Graph& g, int devices, vid_t lo, vid_t hi) { return balance_for(g, devices)(lo, hi); }

Partition partition_graph(const Graph& g, int devices) {
  return partition_at(g, partition_bounds(g.out().offsets.data(), g.num_vertices(), devices));
}

std::vector<vid_t> partition_bounds(const eid_t* off, vid_t n, int devices) {
  CHATTY_CHECK(devices >= 1, "--devices must be at least 1");
  CHATTY_CHECK(uint64_t(devices) <= n,
               "--devices=" + std::to_string(devices) + " exceeds the graph's " + std::to_string(n) + " vertices");
  const Balance f = balance_for(off, n, devices);
  Partition p;
  p.bounds.assign(size_t(devices) + 1, 0);
  p.bounds[size_t(devices)] = n;
  // Initial cuts: equal shares of alpha*v + offsets[v] (monotone in v).
  const double total = f.alpha * n + double(off[n]);
  for (int d = 1; d < devices; ++d) {
    const double target = total * d / devices;
    vid_t lo = p.bounds[size_t(d) - 1] + 1, hi = n - vid_t(devices - d);
    while (lo < hi) {
      const vid_t mid = lo + (hi - lo) / 2;
      if (f.alpha * mid + double(off[mid]) < target)
        lo = mid + 1;
      else
        hi = mid;
    }
    p.bounds[size_t(d)] = lo;
  }
  // Neighbour-pair adjustment, largest F first, until no pair improves.
  for (int round = 0; round < 4 * devices && devices > 1; ++round) {
    std::vector<double> fs(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d) fs[size_t(d)] = f(p.begin(d), p.end(d));
    std::vector<int> order(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d) order[size_t(d)] = d;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return fs[size_t(a)] > fs[size_t(b)]; });
    bool moved = false;
    for (int d : order) {
      const int left = d == 0 ? 0 : d == devices - 1 ? d - 1 : (fs[size_t(d) - 1] >= fs[size_t(d) + 1] ? d - 1 : d);
      moved |= adjust_pair(p.bounds, size_t(left), f);
    }
    if (!moved) break;
  }
  return p.bounds;
}

Partition partition_at(const Graph& g, std::vector<vid_t> bounds, vid_t rows_lo, vid_t rows_hi) {
  const vid_t n = g.num_vertices();
  CHATTY_CHECK(bounds.size() >= 2 && bounds.front() == 0 && bounds.back() == n &&
                   std::is_sorted(bounds.begin(), bounds.end()) &&
                   std::adjacent_find(bounds.begin(), bounds.end()) == bounds.end(),
               "chunk bounds must rise strictly from 0 to |V|");
  Partition p;
  p.bounds = std::move(bounds);
  const int devices = p.devices();
  // Boundary marking: both endpoints of every edge that crosses chunks.
  p.boundary.assign(n, 0);
  const Csr& c = g.out();
  for (int d = 0; d < devices && devices > 1; ++d) {  // one chunk: no edge crosses
    const vid_t lo = p.begin(d), hi = p.end(d);
#pragma omp parallel for schedule(dynamic, 1024)
    for (vid_t u = std::max(lo, rows_lo); u < std::min(hi, rows_hi); ++u) {
      bool cross = false;
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
        const vid_t v = c.targets[e];
        if (v < lo || v >= hi) {
          cross = true;
          std::atomic_ref<uint8_t>(p.boundary[v]).store(1, std::memory_order_relaxed);
        }
      }
      if (cross) std::atomic_ref<uint8_t>(p.boundary[u]).store(1, std::memory_order_relaxed);
    }
  }
  if (devices > 1) p.list_boundary();  // one chunk's list is empty: no pass over |V| marks
  return p;
}

void Partition::list_boundary() {
  boundary_list.clear();
  for (vid_t v = 0; v < vid_t(boundary.size()); ++v)
    if (boundary[v]) boundary_list.push_back(v);
}

std::vector<uint64_t> reader_masks(const Graph& g, const Partition& p, bool out_only, vid_t rows_lo, vid_t rows_hi) {
  const int devices = p.devices();
  CHATTY_CHECK(devices <= 64, "per-peer exchange needs at most 64 devices (got " + std::to_string(devices) + ")");
  std::vector<uint64_t> readers(g.num_vertices(), 0);
  if (devices < 2) return readers;  // nobody reads another device's vertices
  const Csr& c = g.out();
  for (int d = 0; d < devices; ++d) {
    const vid_t lo = p.begin(d), hi = p.end(d);
    const uint64_t me = uint64_t(1) << d;
#pragma omp parallel for schedule(dynamic, 1024)
    for (vid_t u = std::max(lo, rows_lo); u < std::min(hi, rows_hi); ++u) {
      uint64_t mine = 0;
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
        const vid_t v = c.targets[e];
        if (v >= lo && v < hi) continue;
        mine |= uint64_t(1) << p.owner(v);
        if (out_only) continue;
        std::atomic_ref<uint64_t> r(readers[v]);
        if (!(r.load(std::memory_order_relaxed) & me)) r.fetch_or(me, std::memory_order_relaxed);
      }
      if (mine) std::atomic_ref<uint64_t>(readers[u]).fetch_or(mine, std::memory_order_relaxed);
    }
  }
  return readers;
}

std::vector<ChunkStats> chunk_stats(const Graph& g, const Partition& p) {
  std::vector<ChunkStats> s(size_t(p.devices()));
  for (int d = 0; d < p.devices(); ++d) {
    ChunkStats& c = s[size_t(d)];
    c.vertices = p.end(d) - p.begin(d);
    c.edges = g.out().offsets[p.end(d)] - g.out().offsets[p.begin(d)];
    c.boundary = p.boundary_count(d);
    c.balance = balance_of(g, p.devices(), p.begin(d), p.end(d));
  }
  return s;
}

}  // namespace chatty
