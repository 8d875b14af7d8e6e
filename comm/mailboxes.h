// The buffers the exchange moves data between, for P devices (the ChattyGraph paper
// section 4.1): per device a send buffer, and two receive buffers - used by
// iteration parity - each with one slot per peer. A device either
// broadcasts (one send buffer, the same records for every peer) or
// addresses its records (one send buffer per peer, each record only for the
// peers that read it); outgoing() is what a peer gets either way. Items are fixed-size
// records (vertex id + value) kept as bytes, so transports do not depend on
// an app's value type.
//
// A slot is a view: `data` points at host memory (host devices), device
// memory (GPUs) or mapped pinned host memory (UVA), and a transport may
// re-point a receive slot at the sender's buffer instead of copying (UVA
// zero-copy), so the send side is double-buffered by parity too: what a
// device sends for parity p stays readable until the peers have merged p.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

namespace chatty {

enum class MemorySpace { kHost, kDevice, kMapped };

struct Slot {
  std::byte* data = nullptr;          // current view
  std::byte* storage = nullptr;       // the slot's own memory (data == storage unless re-pointed)
  size_t capacity = 0;                // bytes of storage
  size_t count = 0;                   // items
  std::unique_ptr<std::byte[]> host;  // owned storage of host slots
  size_t host_capacity = 0;           // bytes of `host`
  // Memory a transport lends a send slot (a part of a window that peers in
  // other processes read in place: cpu_cluster/mpi/put_transport.cc),
  // used whenever what is reserved fits in it.
  std::byte* lent = nullptr;
  size_t lent_capacity = 0;

  // Host slots only: makes the storage at least `bytes` and views it: the
  // lent memory where it fits, else the owned storage.
  // The contents are not kept: every user writes the slot after reserving.
  // Left uninitialised, so a slot's pages are touched once, by its writer.
  // Grows by at least half: a frontier that grows a little every superstep
  // would otherwise cost a fresh allocation (and its page faults) each time.
  void reserve_host(size_t bytes) {
    if (lent && bytes <= lent_capacity) {
      storage = data = lent;
      capacity = lent_capacity;
      return;
    }
    if (!host || host_capacity < bytes) {
      const size_t grown = std::max(bytes, host_capacity + host_capacity / 2);
      // The old storage goes first (less at the peak); should the new not
      // fit, the slot holds nothing rather than a view of freed memory.
      storage = data = nullptr;
      capacity = host_capacity = 0;
      host.reset();
      host.reset(new std::byte[grown]);
      host_capacity = grown;
    }
    storage = data = host.get();
    capacity = host_capacity;
  }
  bool in_lent() const { return lent && data == lent; }
  void assign(const std::byte* src, size_t items, size_t item_bytes) {
    reserve_host(items * item_bytes);
    if (items) std::memcpy(data, src, items * item_bytes);
    count = items;
  }
};

// Where a device's buffers live and what a transport drives them with.
struct Endpoint {
  MemorySpace space = MemorySpace::kHost;
  int gpu = -1;            // CUDA device ordinal (GPU devices)
  void* stream = nullptr;  // cudaStream_t of the device (GPU devices)
};

class Mailboxes {
 public:
  Mailboxes(int devices, size_t item_bytes)
      : devices_(devices),
        item_bytes_(item_bytes),
        send_(size_t(2 * devices)),
        send_to_(size_t(2 * devices * devices)),
        addressed_(size_t(2 * devices), 0),
        recv_(size_t(2 * devices * devices)),
        ends_(size_t(devices)) {}
  int devices() const { return devices_; }
  size_t item_bytes() const { return item_bytes_; }
  // What device d broadcasts to be merged at parity `parity`.
  Slot& send(int d, int parity) { return send_[size_t(parity * devices_ + d)]; }
  // What device d addresses to `peer` for parity `parity`.
  Slot& send_to(int d, int parity, int peer) { return send_to_[size_t((parity * devices_ + d) * devices_ + peer)]; }
  // Whether device d addressed its records for `parity` (set by the sender
  // before the status meeting, read by transports after it).
  bool addressed(int d, int parity) const { return addressed_[size_t(parity * devices_ + d)] != 0; }
  void set_addressed(int d, int parity, bool on) { addressed_[size_t(parity * devices_ + d)] = on; }
  // What device `from` sends to device `to` for `parity`.
  Slot& outgoing(int from, int parity, int to) {
    return addressed(from, parity) ? send_to(from, parity, to) : send(from, parity);
  }
  // What `peer` sent, as received by `device`, for iteration parity `parity`.
  Slot& recv(int parity, int device, int peer) { return recv_[size_t((parity * devices_ + device) * devices_ + peer)]; }
  Endpoint& endpoint(int d) { return ends_[size_t(d)]; }

 private:
  int devices_;
  size_t item_bytes_;
  std::vector<Slot> send_;
  std::vector<Slot> send_to_;
  std::vector<char> addressed_;
  std::vector<Slot> recv_;
  std::vector<Endpoint> ends_;
};

}  // namespace chatty
