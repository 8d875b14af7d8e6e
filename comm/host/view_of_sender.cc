// host_view: zero copy. Any pair of host devices connects.
#include <memory>

#include "comm/host_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

// Zero copy: each receiver's slot is re-pointed at the sender's buffer and
// its merge reads the records in place, as UVA does on GPUs. The sender
// writes that buffer again only two supersteps later (the send side is
// double-buffered by parity), after every receiver has merged it.
class HostViewOfSender : public Transport {
 public:
  const char* name() const override { return comm_name(Comm::kHostView); }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    for (int peer = 0; peer < mb.devices(); ++peer)
      if (peer != d) {
        const Slot& s = mb.outgoing(peer, parity, d);
        Slot& r = mb.recv(parity, d, peer);
        r.data = s.data;
        r.count = s.count;
      }
  }
};

}  // namespace

std::unique_ptr<Transport> make_host_view_transport() { return std::make_unique<HostViewOfSender>(); }

}  // namespace chatty
