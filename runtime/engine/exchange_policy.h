// Which way a run's records travel between host devices (policy, apart
// from the compaction and transports that carry it out).
#pragma once

#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"

namespace chatty {

// Whether the devices address each record to its readers (per peer)
// instead of broadcasting it. Inside one process broadcast is as fast
// (bytes are copies through shared memory: docs/measurements.md), so auto
// addresses only across ranks, where bytes cross a network, and only
// where a device has more than one peer: with one, both send it the same
// records, and addressing each costs a lookup (2 ranks x 1 device on
// kron:20, broadcast / peer: SSSP 0.87, PageRank 0.93). Union-find
// connectivity always broadcasts: its protocol relies on every device
// seeing every root that was sent.
inline bool exchange_per_peer(Exchange e, bool union_find_connectivity, int devices, bool across_ranks = false) {
  if (devices < 2 || devices > 64 || union_find_connectivity) return false;
  return e == Exchange::kPeer || (e == Exchange::kAuto && across_ranks && devices > 2);
}

// Whether P's gather is a plain sum of what its in-neighbours publish,
// computed Jacobi-style, so that peers may send it partial sums.
template <typename P>
constexpr bool sums_in_values() {
  if constexpr (P::kKind == ProgramKind::kGather)
    return P::kSums && !P::kMonotone;
  else
    return false;
}

// What an app's records carry, from its program's traits: whether peers
// read a vertex through its out-edges only (a gather reads in-neighbours'
// published values; traversal pushes read targets too), and whether its
// messages may be summed per edge.
struct MessageShape {
  bool out_readers_only = false;
  bool sums = false;
};
template <typename P>
constexpr MessageShape message_shape() {
  return {P::kKind == ProgramKind::kGather, sums_in_values<P>()};
}

// Whether a gather program's records go one per out-edge that crosses
// devices, to the target's owner, instead of once per reading device
// (SendAll). Only a program whose gather is a plain sum
// (`sums`, not updated in place) can take partial sums from its peers.
inline bool messages_per_edge(Messages m, bool sums, int devices) {
  return devices > 1 && devices <= 64 && sums && m == Messages::kPerEdge;
}

}  // namespace chatty
