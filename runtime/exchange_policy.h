// Which way a run's records travel between host devices (policy, apart
// from the compaction and transports that carry it out).
#pragma once

#include "runtime/engine_options.h"

namespace chatty {

// Whether the devices address each record to its readers (per peer)
// instead of broadcasting it. Union-find connectivity always broadcasts:
// its protocol relies on every device seeing every root that was sent.
inline bool exchange_per_peer(Exchange e, bool union_find_connectivity, int devices) {
  if (devices < 2 || devices > 64 || union_find_connectivity) return false;
  return e == Exchange::kPeer;
}

}  // namespace chatty
