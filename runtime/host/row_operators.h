// Operators over rows for host devices: steps an app's driver composes
// (a per-vertex compute over each device's rows, a sorted-list
// intersection) with the devices running side by side, each with its share
// of the threads. Host devices of one process read their peers' rows in
// place (the memory they share is the exposed-memory seam's local case).
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <vector>

#include "runtime/graph.h"
#include "runtime/multi_stats.h"

namespace chatty::host {

// Half-open ranges of vertex ids, one per device.
using DeviceRanges = std::vector<vid_t>;  // devices + 1 bounds

// Calls f(d, v) for every vertex v of device d's range, every device at
// once, each over its own range with dynamic scheduling (rows differ in
// work by orders of magnitude). Returns each device's seconds.
template <typename F>
std::vector<double> for_each_row(const DeviceRanges& ranges, F&& f) {
  const int devices = int(ranges.size()) - 1;
  std::vector<double> seconds(size_t(devices), 0.0);
  const int per_device = std::max(1, omp_get_max_threads() / devices);
  const int saved_levels = omp_get_max_active_levels();
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(devices) if (devices > 1)
  {
    const int d = devices > 1 ? omp_get_thread_num() : 0;
    const double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic, 64) num_threads(devices > 1 ? per_device : omp_get_max_threads())
    for (vid_t v = ranges[size_t(d)]; v < ranges[size_t(d) + 1]; ++v) f(d, v);
    seconds[size_t(d)] = omp_get_wtime() - t0;
  }
  omp_set_max_active_levels(saved_levels);
  return seconds;
}

// Devices' ranges over [0, n) with about equal sums of weight(v) (edges,
// or the work a row costs).
template <typename W>
DeviceRanges balanced_ranges(vid_t n, int devices, W&& weight) {
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

// For each w in both ascending lists a and b with w < bound: found(w).
// Returns how many there were.
template <typename F>
uint64_t intersect_below(const vid_t* a, const vid_t* a_end, const vid_t* b, const vid_t* b_end, vid_t bound,
                         F&& found) {
  uint64_t k = 0;
  while (a != a_end && b != b_end && *a < bound && *b < bound) {
    if (*a < *b) {
      ++a;
    } else if (*b < *a) {
      ++b;
    } else {
      found(*a);
      ++k, ++a, ++b;
    }
  }
  return k;
}

// One superstep's record of an operator run that exchanged nothing:
// edges examined and each device's compute time.
inline void record_compute(MultiStats& ms, const std::vector<double>& device_seconds, uint64_t edges) {
  ms.devices = int(device_seconds.size());
  MultiStep step;
  step.edges = edges;
  double mean = 0;
  ms.device_seconds.assign(device_seconds.size(), {0, 0, 0, 0, 0});
  for (size_t d = 0; d < device_seconds.size(); ++d) {
    ms.device_seconds[d][kCompute] = device_seconds[d];
    mean += device_seconds[d];
  }
  step.seconds[kCompute] = mean / double(device_seconds.size());
  ms.steps.push_back(step);
}

}  // namespace chatty::host
