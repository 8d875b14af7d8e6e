// The exchange interface: "deliver what every device sends each peer
// (Mailboxes::outgoing: its broadcast buffer, or the buffer it addressed to
// that peer) into the peer's receive slot for this parity". The runtime calls exchange() from
// each device's driving thread between the status barrier and the exchange
// barrier; once all devices have returned, recv(parity, r, s) holds what s
// sent, for every r != s. Transports (host copy here; UVA, P2P and NCCL
// broadcast in the CUDA backend) implement it; a policy picks one per data
// class and message size each superstep.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "comm/mailboxes.h"
#include "runtime/base/engine_options.h"

namespace chatty {

enum class DataClass { kStructure, kApplication, kStatus };

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;
  // Whether this transport can move data from device `from` to `to`.
  virtual bool can_connect(int from, int to) const = 0;
  // Device d's share of delivering everything for `parity`.
  virtual void exchange(Mailboxes& mb, int d, int parity) = 0;
  // True when exchange(mb, d, p) fills only device d's own receive slots,
  // from send buffers that were complete at the status barrier: device d
  // may then go on without waiting for the others' exchanges (the send
  // side is double-buffered by parity, so nothing it reads is rewritten
  // before every device has passed the next status barrier).
  virtual bool receiver_driven() const { return false; }
  // Allocates what exchanging device d's buffers will need (staging, mapped
  // copies), once its mailboxes are wired: no allocation falls in a timed run.
  virtual void prepare(Mailboxes& /*mb*/, int /*d*/) {}
  // How many transfers (batches, messages) `count` records from device
  // `from` to `to` take in one exchange: what --json reports as batches.
  virtual uint64_t batches(int /*from*/, int /*to*/, size_t count) const { return count > 0; }
};

// Chooses the transport for a data class and message size. The topology
// issue supplies a policy from measured links; here it is fixed.
class TransportPolicy {
 public:
  virtual ~TransportPolicy() = default;
  virtual Transport& choose(DataClass cls, size_t bytes) = 0;
  // Prepares device d in every transport the policy may choose.
  virtual void prepare(Mailboxes& mb, int d) = 0;
  virtual std::string describe() const = 0;
};

// The host devices' transport --comm names (comm/transport_table.h; auto
// is the table's default for host devices). Throws chatty::Error for a
// transport host devices cannot use.
std::unique_ptr<Transport> make_host_transport(Comm comm);
std::unique_ptr<TransportPolicy> make_fixed_policy(std::unique_ptr<Transport> t);

}  // namespace chatty
