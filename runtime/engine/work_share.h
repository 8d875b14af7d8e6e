// For a program whose ranks split the work, not the graph (an operator
// program: every rank holds the whole graph): which of the run's devices
// are this process's, and which rows or items are theirs. One process is
// one share.
#pragma once

#include <span>
#include <vector>

#include "runtime/base/types.h"
#include "runtime/engine/ranks.h"

namespace chatty {

struct WorkShare {
  int rank = 0, ranks = 1;
  int first = 0;    // this process's first device among the run's
  int local = 1;    // its devices
  int devices = 1;  // the run's devices, every rank's

  // Item i's share: the run's device i % devices; this process's device
  // (0..local-1), or -1 where another rank's device has it.
  int device_of_item(size_t i) const {
    const int at = int(i % size_t(devices)) - first;
    return at >= 0 && at < local ? at : -1;
  }
  // The items each of this process's devices runs, by device_of_item;
  // devices past the last one with an item are left out (nothing to make).
  template <typename T>
  std::vector<std::vector<T>> device_items(std::span<const T> items) const {
    std::vector<std::vector<T>> of_device;
    for (size_t i = 0; i < items.size(); ++i) {
      const int at = device_of_item(i);
      if (at < 0) continue;
      if (size_t(at) >= of_device.size()) of_device.resize(size_t(at) + 1);
      of_device[size_t(at)].push_back(items[i]);
    }
    return of_device;
  }
  // The items this rank runs: every ranks-th, from its own.
  template <typename T>
  std::vector<T> rank_items(std::span<const T> items) const {
    std::vector<T> mine;
    for (size_t i = size_t(rank); i < items.size(); i += size_t(ranks)) mine.push_back(items[i]);
    return mine;
  }
};

// This process's share of a run of `devices` devices a process. Under
// ranks, says so to the watch (the phase it names if this rank stops).
inline WorkShare work_share(Ranks& ranks, int devices) {
  const ClusterPlace c = ranks.place(devices);
  if (ranks.is_cluster() && c.ranks > 1) {
    ranks.note_share();
    return {c.rank, c.ranks, c.first(), c.local, c.devices()};
  }
  return {0, 1, 0, devices, devices};
}

}  // namespace chatty
