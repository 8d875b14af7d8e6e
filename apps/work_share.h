// For an app whose ranks split the work, not the graph (AppSpec::
// whole_graph): which of the run's devices are this process's, and the
// per-vertex results summed over the ranks. One process is one share.
#pragma once

#include <vector>

#include "apps/registry.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/ranks.h"

namespace chatty {

struct WorkShare {
  Ranks* all = nullptr;
  int rank = 0, ranks = 1;
  int first = 0;    // this process's first device among the run's
  int local = 1;    // its devices
  int devices = 1;  // the run's devices, every rank's
};

// Called as the app's share begins: under ranks, the phase the watchdog
// names if this rank stops answering.
inline WorkShare work_share(const AppRun& r) {
  if (const ClusterPlace c = r.ranks.place(r.part.devices()); r.ranks.is_cluster() && c.ranks > 1) {
    r.ranks.note_share();
    return {&r.ranks, c.rank, c.ranks, c.first(), c.local, c.devices()};
  }
  return {&r.ranks, 0, 1, 0, r.part.devices(), r.part.devices()};
}

// Every rank ends with the sum of every rank's `v`.
template <typename T>
void sum_over_ranks(std::vector<T>& v, const WorkShare& w) {
  if (w.ranks > 1) w.all->sum(v.data(), v.size());
}

// Says in the run's statistics how the ranks combined their shares.
inline void note_share(MultiStats& ms, const WorkShare& w) {
  if (w.ranks > 1) ms.transport += "; every rank holds the whole graph, the results summed over the ranks";
}

}  // namespace chatty
