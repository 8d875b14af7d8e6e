// What the transports that write records into their receivers' memory
// share (MPI put: cpu_cluster/mpi/put_transport.cc; RDMA WRITE:
// cpu_cluster/verbs/verbs_net.cc): each rank's region holds, for each
// parity, local receiver and sender, a count word, then a slot of records.
// A sender writes its records into the receiver's slot, then the count
// word, stamped with the pair's exchange number; the receiver waits until
// its count word bears the next number.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cpu_cluster/cluster.h"

namespace chatty {

// With `outboxes` (ranks that map each other's regions: window_ops.h), a
// region also holds, for each parity and local sender, an outbox: a
// sender's broadcast records are written there by its compaction, and its
// receivers read them in place, a count word telling them so; nothing is
// copied. The slots remain for what a sender addresses to each peer.
struct PutSlots {
  PutSlots(const ClusterPlace& place, size_t slot_records, size_t item_bytes, bool outboxes = false)
      : local(place.local),
        devices(place.devices()),
        records(std::max<size_t>(slot_records, 1)),
        bytes(records * item_bytes),
        slots(size_t(2 * place.local * place.devices())),
        outboxes(outboxes ? size_t(2 * place.local) : 0) {}

  // The slot of `sender`'s records for the receiver `receiver_local` of the
  // region's rank, in exchanges of `parity`.
  size_t index(int parity, int receiver_local, int sender) const {
    return (size_t(parity) * size_t(local) + size_t(receiver_local)) * size_t(devices) + size_t(sender);
  }
  size_t count_offset(size_t slot) const { return slot * sizeof(uint64_t); }
  size_t data_offset(size_t slot) const { return slots * sizeof(uint64_t) + slot * bytes; }
  // The outbox of local sender `sender_local` for `parity`.
  size_t outbox_offset(int parity, int sender_local) const {
    return data_offset(slots) + (size_t(parity) * size_t(local) + size_t(sender_local)) * bytes;
  }
  size_t region_bytes() const { return (slots + outboxes) * bytes + slots * sizeof(uint64_t); }

  // Count words: the pair's exchange number above kCountBits, then the
  // in-outbox flag, then the count.
  static constexpr int kCountBits = 40;
  static constexpr uint64_t kInOutbox = uint64_t(1) << (kCountBits - 1);
  // The word after `last` (the pair's word written last) for `count`
  // records, in the sender's outbox or in the receiver's slot.
  static uint64_t next_word(uint64_t last, uint64_t count, bool in_outbox = false) {
    return ((last >> kCountBits) + 1) << kCountBits | (in_outbox ? kInOutbox : 0) | count;
  }
  // Whether `word` is the one after `last` (the pair's word read last).
  static bool follows(uint64_t word, uint64_t last) { return word >> kCountBits == (last >> kCountBits) + 1; }
  static uint64_t count_of(uint64_t word) { return word & (kInOutbox - 1); }
  static bool in_outbox(uint64_t word) { return (word & kInOutbox) != 0; }

  const int local, devices;
  const size_t records, bytes, slots;  // records and bytes a slot holds; slots a region holds
  const size_t outboxes;               // outboxes a region holds (as many bytes as a slot each)
};

}  // namespace chatty
