// The buffers the exchange moves data between, for P devices (seed 001
// section 4.1): per device one send buffer, and two receive buffers - used
// by iteration parity - each with one slot per peer. Items are fixed-size
// records (vertex id + value) kept as bytes, so transports do not depend on
// an app's value type. Host devices keep them in host memory; a GPU device
// keeps them in device memory and a transport may map them (UVA).
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

namespace chatty {

struct Slot {
  std::vector<std::byte> data;  // capacity grows, never shrinks
  size_t count = 0;             // items
  void assign(const std::byte* src, size_t items, size_t item_bytes) {
    if (data.size() < items * item_bytes) data.resize(items * item_bytes);
    if (items) std::memcpy(data.data(), src, items * item_bytes);
    count = items;
  }
};

class Mailboxes {
 public:
  Mailboxes(int devices, size_t item_bytes)
      : devices_(devices), item_bytes_(item_bytes), send_(size_t(devices)), recv_(size_t(2 * devices * devices)) {}
  int devices() const { return devices_; }
  size_t item_bytes() const { return item_bytes_; }
  Slot& send(int d) { return send_[size_t(d)]; }
  // What `peer` sent, as received by `device`, for iteration parity `parity`.
  Slot& recv(int parity, int device, int peer) { return recv_[size_t((parity * devices_ + device) * devices_ + peer)]; }

 private:
  int devices_;
  size_t item_bytes_;
  std::vector<Slot> send_;
  std::vector<Slot> recv_;
};

}  // namespace chatty
