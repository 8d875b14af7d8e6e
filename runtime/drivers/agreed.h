// What every device learns at a superstep's sync: all devices' status for
// that superstep, the same on every device, so that the decisions a driver
// takes from it (stop, direction, bucket, giant) agree without another
// exchange.
#pragma once

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "runtime/base/status_data.h"

namespace chatty {

// It refers to the sync's buffer: a driver uses it before the next sync.
struct Agreed {
  const std::vector<DeviceStatus>& all;

  // Some device hit an error: every device stops at this sync.
  bool failed() const {
    return std::any_of(all.begin(), all.end(), [](const DeviceStatus& s) { return s.failed != 0; });
  }
  uint64_t sum(uint64_t DeviceStatus::*f) const {
    uint64_t s = 0;
    for (auto& x : all) s += x.*f;
    return s;
  }
  // A family's slot, folded over every device as the slot declares.
  template <typename T>
  T fold(StatusSlot<T> s) const {
    T r = s.fold == Fold::kMin ? std::numeric_limits<T>::max() : T(0);
    for (auto& x : all) r = s.fold == Fold::kMin ? std::min(r, x.at(s)) : r + x.at(s);
    return r;
  }
  // No device has work and nothing is in flight.
  bool quiet() const { return sum(&DeviceStatus::active) == 0 && sum(&DeviceStatus::sent) == 0; }
};

}  // namespace chatty
