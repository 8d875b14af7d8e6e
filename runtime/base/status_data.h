// The records and status data of a superstep, shared by every backend
// (plain structs: the CUDA backend writes them from kernels into mapped
// pinned host memory).
#pragma once

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty {

template <typename V>
struct Update {
  vid_t v;
  V value;
};

// How the devices' values of a status slot combine into what every device
// agrees on: a sum, a minimum, or read device by device (a vote).
enum class Fold { kSum, kMin, kEach };

// A status slot an algorithm family declares (the scout count of the
// direction switch, SSSP's lowest bucket, PageRank's L1 change, ...):
// which word or real of the status it occupies, and how it folds.
template <typename T>
struct StatusSlot {
  int index;
  Fold fold;
};

inline constexpr int kStatusWords = 2, kStatusReals = 2;

// Status data each device publishes per superstep (the ChattyGraph paper: counts and
// flags go to host-visible memory; on a GPU, UVA mapped memory). The
// protocol's own fields, then the slots of the running family.
struct DeviceStatus {
  uint64_t sent = 0;             // records in the send buffers
  uint64_t delivered = 0;        // records delivered to peers (a broadcast record once per peer)
  uint64_t offers = 0;           // of those, push offers for peers' vertices (host devices)
  uint64_t active = 0;           // owned vertices active next superstep
  uint64_t updated = 0;          // owned vertices changed this superstep
  uint64_t edges = 0;            // edges examined this superstep
  uint64_t migrated = 0;         // peers' vertices this device computed (work migration)
  uint64_t migrated_blocks = 0;  // of those, blocks claimed from devices of other ranks
  uint64_t failed = 0;           // the device hit an error: every device stops at this sync
  uint64_t supersteps = 1;       // supersteps this status covers (a lone GPU device may run several per sync)
  uint64_t word[kStatusWords] = {0, 0};
  double real[kStatusReals] = {0, 0};

  CHATTY_HD uint64_t& at(StatusSlot<uint64_t> s) { return word[s.index]; }
  CHATTY_HD double& at(StatusSlot<double> s) { return real[s.index]; }
  CHATTY_HD uint64_t at(StatusSlot<uint64_t> s) const { return word[s.index]; }
  CHATTY_HD double at(StatusSlot<double> s) const { return real[s.index]; }
};

}  // namespace chatty
