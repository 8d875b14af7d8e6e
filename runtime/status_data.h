// The records and status data of a superstep, shared by every backend
// (plain structs: the CUDA backend writes them from kernels into mapped
// pinned host memory).
#pragma once

#include <cstdint>

#include "runtime/types.h"

namespace chatty {

template <typename V>
struct Update {
  vid_t v;
  V value;
};

// Status data each device publishes per superstep (seed 001: counts and
// flags go to host-visible memory; on a GPU, UVA mapped memory).
struct DeviceStatus {
  uint64_t sent = 0;               // records in the send buffer
  uint64_t active = 0;             // owned vertices active next superstep
  uint64_t updated = 0;            // owned vertices changed this superstep
  uint64_t scout = 0;              // out-degree sum of the next frontier (BFS switch)
  uint64_t edges = 0;              // edges examined this superstep
  uint64_t bucket = ~uint64_t(0);  // lowest non-empty priority bucket (SSSP)
  double l1 = 0, dangling = 0;     // PageRank
  uint64_t label = ~uint64_t(0);   // WCC: most frequent label in a sample of owned vertices
  uint64_t label_count = 0;        //      and how often it was seen
  uint64_t migrated = 0;           // peers' vertices this device computed (work migration)
  uint64_t failed = 0;             // the device hit an error: every device stops at this sync
};

}  // namespace chatty
