// Which transport moves a data class of a given size between the devices
// of a run, decided from the topology's measured (or specified) costs, not
// from fixed size thresholds (the ChattyGraph paper's tables 1-2 and figure 4; the RDMA thesis's
// measured switch point). Every decision says why in one line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "comm/transport.h"
#include "comm/transport_table.h"
#include "topology/model.h"

namespace chatty::topo {

// What the policy ranks are the GPU world's entries of the transport table
// (comm/transport_table.h).
struct Decision {
  Comm choice = Comm::kHost;
  double micros = 0;   // modelled time for the whole exchange
  std::string reason;  // one line
};

// `devices` maps each runtime device to a GPU index; a GPU may appear more
// than once (virtual devices), in which case their copies are local and
// NCCL is unavailable. Application data: every device broadcasts `bytes` to
// all others. Status data: every device publishes `bytes` and reads all.
// Structure data: each device loads a chunk of `bytes` once.
// Throws chatty::Error if the topology has no GPUs or a device index is bad.
Decision decide(const Topology& t, DataClass cls, uint64_t bytes, const std::vector<int>& devices);

// The transport for one ordered pair (never P2P where the pair has no peer access).
Decision decide_pair(const Topology& t, uint64_t bytes, int from, int to);

// All GPUs of t, once each.
std::vector<int> all_gpus(const Topology& t);

}  // namespace chatty::topo
