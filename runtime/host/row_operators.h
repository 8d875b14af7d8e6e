// Operators over rows for host devices: steps an app's driver composes
// (a per-vertex compute over each device's rows, list intersection by
// marking one list and probing with others) with the devices running side by side, each with its share
// of the threads. Host devices of one process read their peers' rows in
// place (the memory they share is the exposed-memory seam's local case).
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <tuple>
#include <vector>

#include "runtime/engine/multi_stats.h"
#include "runtime/graph/graph.h"

namespace chatty::host {

// Half-open ranges of vertex ids, one per device.
using DeviceRanges = std::vector<vid_t>;  // devices + 1 bounds

// What for_each_row did: each device's seconds, and the sum of what f
// returned (the work it did: list entries read).
struct RowRun {
  std::vector<double> device_seconds;
  uint64_t work = 0;
};

// Calls f(d, v) for every vertex v of device d's range, every device at
// once, each over its own range with dynamic scheduling (rows differ in
// work by orders of magnitude). f returns the work it did (uint64_t).
template <typename F>
RowRun for_each_row(const DeviceRanges& ranges, F&& f) {
  const int devices = int(ranges.size()) - 1;
  RowRun run;
  run.device_seconds.assign(size_t(devices), 0.0);
  std::vector<uint64_t> work(size_t(devices), 0);
  auto device = [&](int d, int threads) {
    const double t0 = omp_get_wtime();
    uint64_t w = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) reduction(+ : w)
    for (vid_t v = ranges[size_t(d)]; v < ranges[size_t(d) + 1]; ++v) w += f(d, v);
    work[size_t(d)] = w;
    run.device_seconds[size_t(d)] = omp_get_wtime() - t0;
  };
  if (devices == 1) {
    device(0, omp_get_max_threads());  // a lone device's team is the first level: pooled, not started anew
  } else {
    const int per_device = std::max(1, omp_get_max_threads() / devices);
    const int saved_levels = omp_get_max_active_levels();
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(devices)
    device(omp_get_thread_num(), per_device);
    omp_set_max_active_levels(saved_levels);
  }
  for (uint64_t w : work) run.work += w;
  return run;
}

// Level-synchronous steps in one parallel region (a BFS's levels: a grid
// has thousands, and a team started per level would cost more than the
// levels' work), with one barrier a level. After it every thread calls
// range(level, hi), `hi` the last level's end (0 before the first), which
// returns the level's rows [lo, hi), the same on every thread (lo == hi
// ends the loop): it reads only what the last level left, never what
// this one writes. One thread then calls begin(level, lo, hi) while the
// others start (it may reset what this level does not touch). The rows
// are split over the devices, the team's threads divided among them, and
// each device's threads take chunks of its slice. f(level, d, row) returns
// its work; each thread calls done(level, lo, hi) when its share of a
// level is over.
template <typename Range, typename Begin, typename F, typename Done>
RowRun for_each_level(int devices, Range&& range, Begin&& begin, F&& f, Done&& done) {
  RowRun run;
  run.device_seconds.assign(size_t(devices), 0.0);
  std::vector<uint64_t> work(size_t(devices), 0);
  // Each device's chunk counter, relative to its slice, twice over: a
  // level uses those of its parity, and zeroes the other parity's for the
  // next level (the last level that used them ended at the barrier).
  std::vector<std::atomic<size_t>> next(2 * size_t(devices));
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int d = devices <= threads ? t % devices : 0;
    const bool idle = devices <= threads ? false : t != 0;  // more devices than threads: thread 0 does all
    uint64_t mine = 0;
    double busy = 0;
    size_t lo = 0, hi = 0;
    for (int level = 0;; ++level) {
      std::tie(lo, hi) = range(level, hi);
      if (lo >= hi) break;
      std::atomic<size_t>* counters = next.data() + size_t(level % 2) * size_t(devices);
      if (t == 0) {
        begin(level, lo, hi);
        std::atomic<size_t>* later = next.data() + size_t((level + 1) % 2) * size_t(devices);
        for (int k = 0; k < devices; ++k) later[k].store(0, std::memory_order_relaxed);
      }
      const double t0 = omp_get_wtime();
      for (int k = 0; k < devices && !idle; ++k) {
        if (devices <= threads && k != d) continue;
        const size_t first = lo + (hi - lo) * size_t(k) / size_t(devices);
        const size_t end = lo + (hi - lo) * size_t(k + 1) / size_t(devices);
        for (size_t i = first + counters[k].fetch_add(64); i < end; i = first + counters[k].fetch_add(64))
          for (size_t j = i; j < std::min(i + 64, end); ++j) mine += f(level, k, vid_t(j));
      }
      done(level, lo, hi);  // this thread's share of the level is done (flush what it buffered)
      busy += omp_get_wtime() - t0;
#pragma omp barrier
    }
#pragma omp critical(chatty_level_stats)
    {
      work[size_t(d)] += mine;
      run.device_seconds[size_t(d)] = std::max(run.device_seconds[size_t(d)], busy);
    }
  }
  for (uint64_t w : work) run.work += w;
  return run;
}

// Devices' ranges over [0, n) with about equal sums of weight(v) (edges,
// or the work a row costs).
template <typename W>
DeviceRanges balanced_ranges(vid_t n, int devices, W&& weight) {
  if (devices <= 1) return {0, n};
  double total = 0;
  for (vid_t v = 0; v < n; ++v) total += double(weight(v));
  DeviceRanges r{0};
  double sum = 0;
  for (vid_t v = 0; v < n && int(r.size()) < devices; ++v) {
    sum += double(weight(v));
    if (sum >= total * double(r.size()) / double(devices)) r.push_back(v + 1);
  }
  while (int(r.size()) <= devices) r.push_back(n);
  r.back() = n;
  return r;
}

// A list marked for membership tests (intersection by probing): one bit
// per vertex of the graph, and each marked vertex's position in the list.
// One per thread, reused row after row: marking and clearing cost the
// list's length, a probe one load. Intersecting u's list with each of its
// neighbours' this way reads the neighbours' lists once and u's not again.
class MarkedList {
 public:
  // Marks list[0..len) (distinct vertices below n).
  void mark(const vid_t* list, size_t len, vid_t n) {
    if (bits_.size() < size_t(n) / 64 + 1) bits_.assign(size_t(n) / 64 + 1, 0);
    direct_ = n <= kDirectVertices;
    if (direct_ && at_.size() < n) at_.resize(n);
    list_ = list, len_ = len;
    if (!direct_) {
      size_t cap = 16;
      while (cap < 2 * len) cap *= 2;
      slot_.assign(cap, kEmpty);
    }
    for (size_t i = 0; i < len; ++i) {
      bits_[list[i] >> 6] |= uint64_t(1) << (list[i] & 63);
      if (direct_) {
        at_[list[i]] = uint32_t(i);
        continue;
      }
      size_t h = hash(list[i]);
      while (slot_[h] != kEmpty) h = (h + 1) & (slot_.size() - 1);
      slot_[h] = uint32_t(i);
    }
  }
  void clear() {
    for (size_t i = 0; i < len_; ++i) bits_[list_[i] >> 6] = 0;
  }
  bool has(vid_t w) const { return (bits_[w >> 6] >> (w & 63)) & 1; }
  // The position of a marked w in the list.
  size_t position(vid_t w) const {
    if (direct_) return at_[w];
    size_t h = hash(w);
    while (list_[slot_[h]] != w) h = (h + 1) & (slot_.size() - 1);
    return slot_[h];
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t(0);
  // Up to this many vertices a thread keeps a position per vertex (64 MB);
  // beyond, a small hash table of the list.
  static constexpr vid_t kDirectVertices = vid_t(1) << 24;
  size_t hash(vid_t w) const { return (uint64_t(w) * 0x9E3779B97F4A7C15ull >> 32) & (slot_.size() - 1); }
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> at_, slot_;
  bool direct_ = true;
  const vid_t* list_ = nullptr;
  size_t len_ = 0;
};

// One superstep's record of an operator run that exchanged nothing.
inline void record_compute(MultiStats& ms, const std::vector<double>& device_seconds, uint64_t edges) {
  record_operator_run(ms, device_seconds, edges, "none (host devices read their peers' rows in place)");
}

}  // namespace chatty::host
